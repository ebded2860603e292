// GET /runs/<id>/download/pass-records: the run's official pass record file (pass_eval_<model>.json) as JSON, for
// any run, sorted by (task, round). 404 for an unknown run.
import { getRunPassRecords } from "@/lib/server/data/official-downloads";
import { readerJsonDownload } from "@/lib/server/json-download";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: RouteContext<"/runs/[runId]/download/pass-records">) {
  const { runId } = await context.params;
  return readerJsonDownload((db, actor) => getRunPassRecords(db, actor, runId));
}
