import "server-only";
// The Job and JobItem row operations both queue implementations share: counters and final status, updated inside the
// transaction that settles an item so the counts the pages show always match the items; pause, resume, due times.
import type { Database } from "../db";
import { isUnfinished, LEASABLE_JOB_STATUSES, NO_USAGE, type ItemUsage, type NewJob, type QueueTx } from "./queue";

/** The columns of a Job the queue hands to workers (StoredJob, params still JSON text). */
export const STORED_JOB_SELECT = { id: true, kind: true, endpointId: true, refresh: true, evaluationId: true, params: true } as const;

/** The Job row of a new job; one without items is finished at once. */
export function newJobRow(job: NewJob) {
  return {
    kind: job.kind,
    params: JSON.stringify(job.params ?? {}),
    createdBy: job.createdBy,
    refresh: job.refresh ?? false,
    runId: job.runId ?? null,
    endpointId: job.endpointId ?? null,
    evaluationId: job.evaluationId ?? null,
    itemCount: job.items.length,
    status: job.items.length === 0 ? "succeeded" : "queued",
    finishedAt: job.items.length === 0 ? new Date() : null,
  };
}

/** Counts items appended to a job and reopens it when it had finished (its new items need a worker). */
export async function countAppendedItems(tx: QueueTx, jobId: string, added: number): Promise<void> {
  // One statement, deciding on the row it updates: a job whose last item finishes at the same moment in another
  // transaction is reopened either way, never left "succeeded" with new items no worker would lease.
  await tx.$executeRawUnsafe(
    `UPDATE "Job" SET "itemCount" = "itemCount" + ?,
       "finishedAt" = CASE WHEN "status" IN ('succeeded', 'failed') THEN NULL ELSE "finishedAt" END,
       "status" = CASE WHEN "status" IN ('succeeded', 'failed') THEN 'running' ELSE "status" END,
       "updatedAt" = ?
     WHERE "id" = ?`,
    added,
    new Date(),
    jobId,
  );
}

/** Pausing only stops new leases; items in flight finish. */
export async function pauseJob(db: Database, jobId: string): Promise<boolean> {
  const paused = await db.job.updateMany({ where: { id: jobId, status: { in: [...LEASABLE_JOB_STATUSES] } }, data: { status: "paused" } });
  return paused.count > 0;
}

export async function resumeJob(db: Database, jobId: string): Promise<boolean> {
  const resumed = await db.job.updateMany({ where: { id: jobId, status: "paused" }, data: { status: "running" } });
  return resumed.count > 0;
}

/** When the next pending item of a queued/running job of these kinds becomes due; null when none is pending. */
export async function nextPendingDueAt(db: Database, kinds: readonly string[]): Promise<Date | null> {
  const next = await db.jobItem.findFirst({
    where: { status: "pending", job: { status: { in: [...LEASABLE_JOB_STATUSES] }, kind: { in: [...kinds] } } },
    orderBy: { nextAttemptAt: "asc" },
    select: { nextAttemptAt: true },
  });
  return next?.nextAttemptAt ?? null;
}

/** The increments of a JobItem's usage counters (items keep no cost). */
export function itemUsageIncrements(usage: ItemUsage = NO_USAGE) {
  return {
    calls: { increment: usage.calls },
    cachedCalls: { increment: usage.cachedCalls },
    inputTokens: { increment: usage.inputTokens },
    outputTokens: { increment: usage.outputTokens },
  };
}

/** The increments of a Job's usage counters, cost included when known. */
export function jobUsageIncrements(usage: ItemUsage) {
  return { ...itemUsageIncrements(usage), ...(usage.cost !== null ? { cost: { increment: usage.cost } } : {}) };
}

export const COUNTS = { status: true, itemCount: true, doneCount: true, failedCount: true } as const;

/**
 * A job whose items are all done or failed ends: succeeded unless every item failed. Read from the counters the same
 * transaction just updated, so the check costs no query; cancelled jobs are already final.
 */
export async function finishJobIfSettled(
  tx: QueueTx,
  jobId: string,
  job: { status: string; itemCount: number; doneCount: number; failedCount: number },
  now: Date,
): Promise<void> {
  if (job.doneCount + job.failedCount < job.itemCount) return;
  if (!isUnfinished(job.status)) return;
  const failed = job.doneCount === 0 && job.failedCount > 0;
  await tx.job.update({
    where: { id: jobId },
    data: {
      status: failed ? "failed" : "succeeded",
      finishedAt: now,
      ...(job.failedCount > 0 ? { error: `${job.failedCount} item${job.failedCount === 1 ? "" : "s"} failed; see the item errors.` } : {}),
    },
  });
}
