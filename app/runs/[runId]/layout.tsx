import { runExists } from "@/lib/server/data/runs";
import { notFoundUnlessReadable } from "@/lib/server/session";

// As for responses: the existence check sits outside the loading boundary so an unknown run id answers 404.
export default async function RunLayout({ children, params }: LayoutProps<"/runs/[runId]">) {
  const { runId } = await params;
  await notFoundUnlessReadable(`/runs/${runId}`, (db, reader) => runExists(db, reader, runId));
  return children;
}
