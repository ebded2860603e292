import "server-only";
// Cancels a running evaluation: its generate job and its runs' judge jobs stop (pending items are cancelled, a call
// in flight may still land), its unfinished runs become "cancelled" and the evaluation "cancelled". Turns already
// stored stay.
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { jobQueue } from "../jobs/instance";
import { UNFINISHED_JOB_STATUSES } from "../jobs/queue";
import type { SessionUser } from "../session";
import { findGenerateJob } from "./jobs-of-evaluation";

export type CancelEvaluationResult = { ok: true } | { ok: false; message: string };

export async function cancelEvaluation(db: Database, actor: SessionUser, evaluationId: string): Promise<CancelEvaluationResult> {
  assertAllowed(actor, "runJobs");
  const evaluation = await db.evaluation.findUnique({ where: { id: evaluationId }, select: { id: true, status: true, runs: { select: { id: true } } } });
  if (!evaluation) return { ok: false, message: "No such evaluation." };
  if (evaluation.status !== "running") return { ok: false, message: `The evaluation has already ${evaluation.status === "cancelled" ? "been cancelled" : "finished"}.` };
  const queue = jobQueue(db);
  const generate = await findGenerateJob(db, evaluationId);
  if (generate) await queue.cancel(generate.id);
  const runIds = evaluation.runs.map((run) => run.id);
  const judgeJobs = await db.job.findMany({ where: { runId: { in: runIds }, status: { in: [...UNFINISHED_JOB_STATUSES] } }, select: { id: true } });
  for (const job of judgeJobs) await queue.cancel(job.id);
  const now = new Date();
  await db.$transaction([
    db.run.updateMany({ where: { id: { in: runIds }, status: "in-progress" }, data: { status: "cancelled" } }),
    db.evaluation.updateMany({ where: { id: evaluationId, status: "running" }, data: { status: "cancelled", finishedAt: now } }),
  ]);
  return { ok: true };
}
