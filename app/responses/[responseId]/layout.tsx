import { responseExists } from "@/lib/server/data/responses";
import { notFoundUnlessReadable } from "@/lib/server/session";

// The existence check runs here, outside the page's loading boundary, so an unknown id is a real 404 rather than a
// "not found" page streamed after a 200.
export default async function ResponseLayout({ children, params }: LayoutProps<"/responses/[responseId]">) {
  const { responseId } = await params;
  await notFoundUnlessReadable(`/responses/${responseId}`, (db, reader) => responseExists(db, reader, responseId));
  return children;
}
