import "server-only";
// The response page's view of one stored response (graph layout, located diagnostics, pretty JSON, YAML), computed
// once per response, run scoring time and scoring-core version and then served from memory: a busy page does not
// re-score or re-lay out per request. The stored row is re-read every time, so authorization and deletion apply at once.
import { buildResponseView, type ResponseView } from "@/lib/viewer/response-view";
import { difyAppName } from "@/lib/workflow/dify-dsl";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import { derivedOnce } from "./derived-cache";
import { getResponseDetail, type ResponseDetail } from "./responses";

/** The stored response and its page view; null when it does not exist. Checks the actor may read. */
export async function loadResponseWithView(db: Database, actor: SessionUser | null, responseId: string): Promise<{ detail: ResponseDetail; view: ResponseView } | null> {
  const detail = await getResponseDetail(db, actor, responseId);
  if (!detail) return null;
  // Re-scoring a run moves its scoredAt: the view is then derived again.
  const view = derivedOnce(`response|${detail.id}|${detail.run.scoredAt.toISOString()}`, () =>
    buildResponseView({
      rawText: detail.rawText,
      nodeSelection: detail.nodeSelection,
      designPrinciple: detail.designPrinciple,
      workflow: detail.workflow,
      turn: { inputVars: detail.turn.inputVars, outputVars: detail.turn.outputVars, keyNodes: detail.turn.keyNodes },
      appName: difyAppName(detail.turn.task.name, detail.turn.round),
    }),
  );
  return { detail, view };
}
