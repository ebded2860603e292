import "server-only";
// Closes an evaluation once nothing of it is left to do: every run generated (no run in progress) and no judge or
// Dify-execution job of its runs still queued, running or paused. Its page keeps polling until then.
import type { Database } from "../db";
import { isUnfinished, UNFINISHED_JOB_STATUSES } from "../jobs/queue";

export async function settleEvaluation(db: Database, evaluationId: string): Promise<void> {
  const runs = await db.run.findMany({ where: { evaluationId }, select: { id: true, status: true } });
  if (runs.length === 0 || runs.some((run) => run.status === "in-progress")) return;
  // Only the jobs the evaluation itself queued (they carry its id); a judging someone starts by hand later is not part of it.
  const pending = await db.job.count({ where: { runId: { in: runs.map((run) => run.id) }, status: { in: [...UNFINISHED_JOB_STATUSES] }, evaluationId } });
  if (pending > 0) return;
  const status = runs.every((run) => run.status === "complete") ? "succeeded" : runs.some((run) => run.status === "failed") ? "failed" : "cancelled";
  await db.evaluation.updateMany({ where: { id: evaluationId, status: "running" }, data: { status, finishedAt: new Date() } });
}

/**
 * The `settled` hook of the jobs that follow generation (judging, Dify execution): once the job has finished, its
 * evaluation may be done. Jobs outside an evaluation carry no evaluationId and cost nothing here.
 */
export async function settleEvaluationAfterJob(db: Database, job: { id: string; evaluationId: string | null }): Promise<void> {
  if (job.evaluationId === null) return;
  const row = await db.job.findUnique({ where: { id: job.id }, select: { status: true } });
  if (!row || isUnfinished(row.status)) return;
  await settleEvaluation(db, job.evaluationId);
}
