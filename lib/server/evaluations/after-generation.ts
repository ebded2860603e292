import "server-only";
// What follows a generated run's generation, once all its tasks are settled (complete, or failed for good): the
// place where later stages of an evaluation start. With an LLM pass judge, Dify execution waits for the run's
// judging, as the official pipeline runs step 1_5 and the resolve stage only on turns the judge passed; once the
// judging has finished, every turn it answered carries the judge's verdict (applyOwnJudge) before anything reads it.
import type { Database } from "../db";
import { isUnfinished, UNFINISHED_JOB_STATUSES } from "../jobs/queue";
import { enqueueDifyExecution } from "../jobs/resolve-job";
import { applyOwnJudge } from "./pass-stage-verdicts";
import { settleEvaluation } from "./settle-evaluation";

/** Whether a pass judge job the evaluation queued for this run still has work. */
async function passJudgingPending(db: Database, runId: string): Promise<boolean> {
  // "judge" is JUDGE_JOB_KIND, not imported: judge-job imports this module for its settled hook.
  const pending = await db.job.count({ where: { kind: "judge", runId, status: { in: [...UNFINISHED_JOB_STATUSES] }, evaluationId: { not: null } } });
  return pending > 0;
}

/** Called exactly once per run, when its generation settles. */
export async function afterRunGenerated(db: Database, runId: string): Promise<void> {
  if (await passJudgingPending(db, runId)) return;
  await applyOwnJudge(db, runId, { wait: "any-sample" });
  // Dify execution (pass step 1_5 and the resolve stage), when the evaluation names a Dify connection and case files.
  await enqueueDifyExecution(db, runId);
}

/**
 * The `settled` hook of the pass judge jobs an evaluation queues: when the last of a generated run's judging has
 * finished, its Dify execution starts; then the evaluation may close. Other judge jobs belong to no evaluation.
 */
export async function afterEvaluationJudgeJob(db: Database, job: { id: string; evaluationId: string | null }): Promise<void> {
  if (job.evaluationId === null) return;
  const row = await db.job.findUnique({ where: { id: job.id }, select: { status: true, runId: true } });
  if (!row?.runId || isUnfinished(row.status)) return;
  const runId = row.runId;
  const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
  const judgingDone = !(await passJudgingPending(db, runId));
  // With no judging left, the judge's last answers decide their turns, even where a sample failed for good.
  if (judgingDone) await applyOwnJudge(db, runId, { wait: "any-sample" });
  // A run still generating starts its execution from afterRunGenerated; a cancelled one never does.
  if ((run?.status === "complete" || run?.status === "failed") && judgingDone) await enqueueDifyExecution(db, runId);
  await settleEvaluation(db, job.evaluationId);
}
