import { notFound } from "next/navigation";
import { database } from "@/lib/server/db";
import { runExists } from "@/lib/server/data/runs";
import { checkAccess } from "@/lib/server/session";

// As for responses: the existence check sits outside the loading boundary so an unknown run id answers 404.
export default async function RunLayout({ children, params }: LayoutProps<"/runs/[runId]">) {
  const { runId } = await params;
  const access = await checkAccess("read");
  if (access.allowed && !(await runExists(database(), access.user, runId))) notFound();
  return children;
}
