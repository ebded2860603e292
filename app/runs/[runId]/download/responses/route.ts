// GET /runs/<id>/download/responses: the run's official response file [{id, category, task, answer1..N}] as JSON,
// for any run (generated, imported or recorded). 404 for an unknown run.
import { getRunResponseFile } from "@/lib/server/data/official-downloads";
import { readerJsonDownload } from "@/lib/server/json-download";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: RouteContext<"/runs/[runId]/download/responses">) {
  const { runId } = await context.params;
  return readerJsonDownload((db, actor) => getRunResponseFile(db, actor, runId));
}
