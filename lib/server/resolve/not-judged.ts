import "server-only";
// How many test cases of each run are not judged (a null verdict: text outputs no LLM judge has answered), for the
// pages that offer to judge them.
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { SessionUser } from "../session";

export async function notJudgedByRun(db: Database, actor: SessionUser | null, runIds: readonly string[]): Promise<Map<string, number>> {
  assertAllowed(actor, "read");
  const counts = new Map<string, number>();
  if (runIds.length === 0) return counts;
  const rows = await db.caseResult.findMany({ where: { verdict: null, response: { runId: { in: [...runIds] } } }, select: { response: { select: { runId: true } } } });
  for (const row of rows) counts.set(row.response.runId, (counts.get(row.response.runId) ?? 0) + 1);
  return counts;
}
