import "server-only";
// The response page's view of one stored response (graph layout, located diagnostics, pretty JSON, YAML), computed
// once per response, run scoring time and scoring-core version and then served from memory: a busy page does not
// re-score or re-lay out per request. The stored row is re-read every time, so authorization and deletion apply at once.
import { buildResponseView, type ResponseView } from "@/lib/viewer/response-view";
import { difyAppName } from "@/lib/workflow/dify-dsl";
import { CORE_VERSION } from "@/lib/workflow/version";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import { getResponseDetail, type ResponseDetail } from "./responses";

const MAX_VIEWS = 48;
const shared = globalThis as unknown as { c2wResponseViews?: Map<string, ResponseView> };
const views = (shared.c2wResponseViews ??= new Map());

function cacheKey(detail: ResponseDetail): string {
  return `${detail.id}|${detail.run.scoredAt.toISOString()}|${CORE_VERSION}`;
}

/** The stored response and its page view; null when it does not exist. Checks the actor may read. */
export async function loadResponseWithView(db: Database, actor: SessionUser | null, responseId: string): Promise<{ detail: ResponseDetail; view: ResponseView } | null> {
  const detail = await getResponseDetail(db, actor, responseId);
  if (!detail) return null;
  const key = cacheKey(detail);
  let view = views.get(key);
  if (view) {
    views.delete(key);
  } else {
    view = buildResponseView({
      rawText: detail.rawText,
      nodeSelection: detail.nodeSelection,
      designPrinciple: detail.designPrinciple,
      workflow: detail.workflow,
      turn: { inputVars: detail.turn.inputVars, outputVars: detail.turn.outputVars, keyNodes: detail.turn.keyNodes },
      appName: difyAppName(detail.turn.task.name, detail.turn.round),
    });
  }
  // Most recently used last, so the oldest view is the first to go.
  views.set(key, view);
  while (views.size > MAX_VIEWS) views.delete(views.keys().next().value!);
  return { detail, view };
}

/** Forgets every cached view (tests). */
export function clearResponseViews(): void {
  views.clear();
}
