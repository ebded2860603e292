import "server-only";
// Evaluations, newest first, with their runs, and what each has cost so far: the evaluations list.
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import { EVALUATION_SELECT, evaluationView, type EvaluationView } from "./get-evaluation";
import { findGenerateJob } from "./jobs-of-evaluation";
import { GENERATE_JOB_KIND } from "./types";

export async function listEvaluations(db: Database, actor: SessionUser | null, filter: { benchmarkId?: string; limit?: number } = {}): Promise<EvaluationView[]> {
  assertAllowed(actor, "read");
  const rows = await db.evaluation.findMany({
    where: filter.benchmarkId ? { benchmarkId: filter.benchmarkId } : {},
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(filter.limit ?? 100, 1), 500),
    select: EVALUATION_SELECT,
  });
  if (rows.length === 0) return [];
  const endpointIds = [...new Set(rows.flatMap((row) => (row.endpointId ? [row.endpointId] : [])))];
  const endpoints = new Map(
    (await db.modelEndpoint.findMany({ where: { id: { in: endpointIds } }, select: { id: true, label: true, model: true } })).map((endpoint) => [endpoint.id, endpoint]),
  );
  const jobIds = await Promise.all(rows.map(async (row) => (await findGenerateJob(db, row.id))?.id ?? null));
  return rows.map((row, index) => evaluationView(row, (row.endpointId && endpoints.get(row.endpointId)) || null, jobIds[index] ?? null));
}

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
