import "server-only";
// What the evaluation pages read beside the evaluation service: the cost so far of each listed evaluation and the
// Dify connections the new-evaluation form offers (ids and labels only, never credentials).
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { EvaluationView } from "../evaluations/get-evaluation";
import { GENERATE_JOB_KIND } from "../evaluations/types";
import type { SessionUser } from "../session";

/** USD spent so far per evaluation (its generate job and its runs' judge jobs), for the evaluations list. */
export async function evaluationCosts(db: Database, actor: SessionUser | null, evaluations: readonly Pick<EvaluationView, "id" | "jobId" | "runs">[]): Promise<Map<string, number>> {
  assertAllowed(actor, "read");
  const owner = new Map<string, string>();
  for (const evaluation of evaluations) {
    if (evaluation.jobId) owner.set(`job:${evaluation.jobId}`, evaluation.id);
    for (const run of evaluation.runs) owner.set(`run:${run.id}`, evaluation.id);
  }
  const jobIds = evaluations.flatMap((evaluation) => (evaluation.jobId ? [evaluation.jobId] : []));
  const runIds = evaluations.flatMap((evaluation) => evaluation.runs.map((run) => run.id));
  const costs = new Map<string, number>(evaluations.map((evaluation) => [evaluation.id, 0]));
  if (jobIds.length === 0 && runIds.length === 0) return costs;
  const jobs = await db.job.findMany({
    where: { OR: [{ id: { in: jobIds } }, { runId: { in: runIds }, kind: { not: GENERATE_JOB_KIND } }] },
    select: { id: true, runId: true, cost: true },
  });
  for (const job of jobs) {
    const evaluationId = owner.get(`job:${job.id}`) ?? (job.runId ? owner.get(`run:${job.runId}`) : undefined);
    if (evaluationId) costs.set(evaluationId, (costs.get(evaluationId) ?? 0) + job.cost);
  }
  return costs;
}

/** The Dify connections an evaluation may execute on: id and label only (never the credentials). */
export async function listDifyConnectionChoices(db: Database, actor: SessionUser | null): Promise<{ id: string; label: string }[]> {
  assertAllowed(actor, "runJobs");
  return db.difyConnection.findMany({ orderBy: { label: "asc" }, select: { id: true, label: true } });
}
