import { notFound } from "next/navigation";
import { database } from "@/lib/server/db";
import { responseExists } from "@/lib/server/data/responses";
import { checkAccess } from "@/lib/server/session";

// The existence check runs here, outside the page's loading boundary, so an unknown id is a real 404 rather than a
// "not found" page streamed after a 200. Access itself is decided by the page (sign-in redirect or 403).
export default async function ResponseLayout({ children, params }: LayoutProps<"/responses/[responseId]">) {
  const { responseId } = await params;
  const access = await checkAccess("read");
  if (access.allowed && !(await responseExists(database(), access.user, responseId))) notFound();
  return children;
}
