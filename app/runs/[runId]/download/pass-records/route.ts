// GET /runs/<id>/download/pass-records: the run's official pass record file (pass_eval_<model>.json) as JSON, for
// any run, sorted by (task, round). 404 for an unknown run.
import { NextResponse } from "next/server";
import { database } from "@/lib/server/db";
import { getRunPassRecords } from "@/lib/server/data/official-downloads";
import { jsonDownload } from "@/lib/server/json-download";
import { checkAccess } from "@/lib/server/session";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: RouteContext<"/runs/[runId]/download/pass-records">) {
  const decision = await checkAccess("read");
  if (!decision.allowed) return NextResponse.json({ error: "forbidden" }, { status: decision.reason === "unauthenticated" ? 401 : 403 });
  const { runId } = await context.params;
  const file = await getRunPassRecords(database(), decision.user, runId);
  if (!file) return NextResponse.json({ error: "not found" }, { status: 404 });
  return jsonDownload(file.fileName, file.data);
}
