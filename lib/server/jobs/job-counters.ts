import "server-only";
// The Job row's counters and final status, updated by every queue implementation inside the transaction that settles
// an item, so the counts the pages show always match the items.
import type { ItemUsage } from "./queue";
import type { QueueTx } from "./sqlite-queue";

export function usageIncrements(usage: ItemUsage) {
  return {
    calls: { increment: usage.calls },
    cachedCalls: { increment: usage.cachedCalls },
    inputTokens: { increment: usage.inputTokens },
    outputTokens: { increment: usage.outputTokens },
    ...(usage.cost !== null ? { cost: { increment: usage.cost } } : {}),
  };
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
  if (job.status !== "running" && job.status !== "queued" && job.status !== "paused") return;
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
