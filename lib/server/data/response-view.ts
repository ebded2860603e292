import "server-only";
// The response page's view of one stored response (graph layout, located diagnostics, pretty JSON, YAML), computed
// once per response, run scoring time and scoring-core version (off the request thread, within a time budget) and then
// served from memory: a busy page does not re-score or re-lay out per request. The stored row is re-read every time, so authorization and deletion apply at once.
import { budgetExceededView } from "@/lib/analysis/tasks";
import type { ResponseView } from "@/lib/viewer/response-view";
import { difyAppName } from "@/lib/workflow/dify-dsl";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import { analyse, analysisBudgetMs } from "../analysis/pool";
import { derivedOnceAsync } from "./derived-cache";
import { getResponseDetail, type ResponseDetail } from "./responses";

/** The stored response and its page view; null when it does not exist. Checks the actor may read. */
export async function loadResponseWithView(db: Database, actor: SessionUser | null, responseId: string): Promise<{ detail: ResponseDetail; view: ResponseView } | null> {
  const detail = await getResponseDetail(db, actor, responseId);
  if (!detail) return null;
  const input = {
    rawText: detail.rawText,
    nodeSelection: detail.nodeSelection,
    designPrinciple: detail.designPrinciple,
    workflow: detail.workflow,
    turn: { inputVars: detail.turn.inputVars, outputVars: detail.turn.outputVars, keyNodes: detail.turn.keyNodes },
    appName: difyAppName(detail.turn.task.name, detail.turn.round),
  };
  // Re-scoring a run moves its scoredAt: the view is then derived again. Derived on an analysis worker within its
  // time budget; a response that outlives it is shown with the budget diagnostic (and that is what is kept).
  const view = await derivedOnceAsync(`response|${detail.id}|${detail.run.scoredAt.toISOString()}`, async () => {
    const budgetMs = analysisBudgetMs();
    const outcome = await analyse({ kind: "response-view", input }, budgetMs);
    if (outcome.ok) return outcome.value;
    if (outcome.reason === "budget") return budgetExceededView(input, budgetMs);
    throw new Error(`the response view could not be built: ${outcome.message}`);
  });
  return { detail, view };
}
