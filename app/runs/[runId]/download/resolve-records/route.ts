import { NextResponse } from "next/server";
import { getResolveRecordFile } from "@/lib/server/data/resolve-records";
import { database } from "@/lib/server/db";
import { resolveRecordsFileName, resolveRecordsText } from "@/lib/benchmark/official-files";
import { checkAccess } from "@/lib/server/session";

// The run as the official resolve record file (resolve_eval_<model>.json), readable by the statistics script.
export async function GET(_request: Request, { params }: RouteContext<"/runs/[runId]/download/resolve-records">) {
  const access = await checkAccess("read");
  if (!access.allowed) return NextResponse.json({ error: "forbidden" }, { status: access.reason === "unauthenticated" ? 401 : 403 });
  const { runId } = await params;
  const file = await getResolveRecordFile(database(), access.user, runId);
  if (!file) return NextResponse.json({ error: "not found" }, { status: 404 });
  const name = resolveRecordsFileName(file.modelName);
  return new NextResponse(resolveRecordsText(file.records), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
