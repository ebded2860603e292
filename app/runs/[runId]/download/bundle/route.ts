// GET /runs/<id>/download/bundle: the run bundle for readers of the run page (the API's bundle, with a session).
import { NextResponse } from "next/server";
import { exportRunBundle } from "@/lib/server/bundles/export-bundle";
import { database } from "@/lib/server/db";
import { checkAccess } from "@/lib/server/session";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: RouteContext<"/runs/[runId]/download/bundle">) {
  const access = await checkAccess("read");
  if (!access.allowed) return NextResponse.json({ error: "forbidden" }, { status: access.reason === "unauthenticated" ? 401 : 403 });
  const { runId } = await params;
  const bundle = await exportRunBundle(database(), access.user, runId);
  if (!bundle) return NextResponse.json({ error: "not found" }, { status: 404 });
  return new NextResponse(bundle.bytes as Uint8Array<ArrayBuffer>, {
    headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="${bundle.fileName}"`, "Cache-Control": "private, no-store" },
  });
}
