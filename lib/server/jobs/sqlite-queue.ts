import "server-only";
// The job queue on the app's SQLite database through Prisma: leases are conditional updates (one writer at a time),
// completion and its results share one transaction, so a finished item is recorded exactly once.
import type { Database } from "../db";
import { parseJsonText } from "../data/json-columns";
import {
  DEFAULT_RETRY,
  LEASABLE_JOB_STATUSES,
  UNFINISHED_JOB_STATUSES,
  retryDelayMs,
  type ItemFailure,
  type ItemUsage,
  type JobQueue,
  type LeaseCapacity,
  type LeasedItem,
  type NewJob,
  type RetryPolicy,
  type CommitResults,
  type QueueTx,
  type StoredJob,
} from "./queue";
import { COUNTS, countAppendedItems, finishJobIfSettled, itemUsageIncrements, jobUsageIncrements, newJobRow, nextPendingDueAt, pauseJob, resumeJob, STORED_JOB_SELECT } from "./job-rows";

let leaseSequence = 0;

// Several processes may share the database file: wait for the writer lock rather than giving up after Prisma's 2 s.
const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 } as const;


export class SqliteJobQueue implements JobQueue<QueueTx> {
  constructor(
    private readonly db: Database,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {}

  async enqueue(job: NewJob, outer?: QueueTx): Promise<string> {
    const keys = new Set(job.items.map((item) => item.key));
    if (keys.size !== job.items.length) throw new Error("Job items need unique keys.");
    const write = async (tx: QueueTx) => {
      const created = await tx.job.create({
        data: { ...(job.id ? { id: job.id } : {}), ...newJobRow(job) },
        select: { id: true },
      });
      const rows = job.items.map((item) => ({ jobId: created.id, key: item.key, payload: JSON.stringify(item.payload ?? {}) }));
      for (let start = 0; start < rows.length; start += 500) await tx.jobItem.createMany({ data: rows.slice(start, start + 500) });
      return created.id;
    };
    return outer ? write(outer) : this.db.$transaction(write, TX_OPTIONS);
  }

  async appendItems(tx: QueueTx, jobId: string, items: readonly { key: string; payload: unknown }[]): Promise<void> {
    if (items.length === 0) return;
    await tx.jobItem.createMany({ data: items.map((item) => ({ jobId, key: item.key, payload: JSON.stringify(item.payload ?? {}) })) });
    await countAppendedItems(tx, jobId, items.length);
  }

  async lease(jobId: string, workerId: string, limit: number, leaseMs: number, capacity?: LeaseCapacity): Promise<LeasedItem[]> {
    // One machine shares a SQLite file: the count and the conditional update below come close enough together.
    if (capacity) limit = Math.min(limit, capacity.limit - (await this.leasedCount(capacity.filter)));
    if (limit <= 0) return [];
    const now = new Date();
    // Only items of a queued or running job, found with the job's status in one query.
    const candidates = await this.db.jobItem.findMany({
      where: { jobId, status: "pending", nextAttemptAt: { lte: now }, job: { status: { in: [...LEASABLE_JOB_STATUSES] } } },
      orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
      take: limit,
      select: { id: true, job: { select: { status: true } } },
    });
    if (candidates.length === 0) return [];
    leaseSequence += 1;
    const owner = `${workerId}#${leaseSequence}`;
    const leaseExpiresAt = new Date(now.getTime() + leaseMs);
    // Conditional on "pending": when two workers race for the same rows, each row goes to exactly one of them.
    await this.db.jobItem.updateMany({
      where: { id: { in: candidates.map((item) => item.id) }, status: "pending" },
      data: { status: "leased", leaseOwner: owner, leaseExpiresAt, heartbeatAt: now, attempts: { increment: 1 } },
    });
    const leased = await this.db.jobItem.findMany({
      where: { jobId, leaseOwner: owner, status: "leased" },
      select: { id: true, jobId: true, key: true, payload: true, attempts: true },
    });
    if (leased.length > 0 && candidates[0]?.job.status === "queued") {
      await this.db.job.updateMany({ where: { id: jobId, status: "queued" }, data: { status: "running", startedAt: now } });
    }
    return leased.map((item) => ({
      id: item.id,
      jobId: item.jobId,
      key: item.key,
      payload: parseJsonText(item.payload),
      attempt: item.attempts,
      leaseOwner: owner,
      leaseExpiresAt,
    }));
  }

  async heartbeat(leases: readonly Pick<LeasedItem, "id" | "leaseOwner">[], leaseMs: number): Promise<string[]> {
    const now = new Date();
    const lost: string[] = [];
    for (const lease of leases) {
      const extended = await this.db.jobItem.updateMany({
        where: { id: lease.id, leaseOwner: lease.leaseOwner, status: "leased", job: { status: { in: [...UNFINISHED_JOB_STATUSES] } } },
        data: { leaseExpiresAt: new Date(now.getTime() + leaseMs), heartbeatAt: now },
      });
      if (extended.count === 0) lost.push(lease.id);
    }
    return lost;
  }

  async complete(
    lease: Pick<LeasedItem, "id" | "jobId" | "leaseOwner">,
    result: unknown,
    usage: ItemUsage,
    commit?: CommitResults<QueueTx>,
  ): Promise<boolean> {
    const now = new Date();
    return this.db.$transaction(async (tx) => {
      // Held by us even when the job was cancelled meanwhile: the call was made, so its result is kept.
      const marked = await tx.jobItem.updateMany({
        where: { id: lease.id, leaseOwner: lease.leaseOwner, status: "leased" },
        data: {
          status: "done",
          result: JSON.stringify(result ?? null),
          error: null,
          leaseOwner: null,
          leaseExpiresAt: null,
          finishedAt: now,
          ...itemUsageIncrements(usage),
          latencyMs: usage.latencyMs,
        },
      });
      if (marked.count === 0) return false;
      if (commit) await commit(tx);
      const counts = await tx.job.update({ where: { id: lease.jobId }, data: { doneCount: { increment: 1 }, ...jobUsageIncrements(usage) }, select: COUNTS });
      await finishJobIfSettled(tx, lease.jobId, counts, now);
      return true;
    }, TX_OPTIONS);
  }

  async fail(lease: Pick<LeasedItem, "id" | "jobId" | "leaseOwner" | "attempt">, failure: ItemFailure): Promise<"retry" | "failed" | "lost"> {
    const now = new Date();
    const usage = failure.usage;
    const final = !failure.retryable || (!failure.refund && lease.attempt >= this.retry.maxAttempts);
    return this.db.$transaction(async (tx) => {
      const job = await tx.job.findUnique({ where: { id: lease.jobId }, select: { status: true } });
      const stopped = job?.status === "cancelled";
      const status = final ? "failed" : stopped ? "cancelled" : "pending";
      const nextAttemptAt = new Date(now.getTime() + (final ? 0 : retryDelayMs(lease.attempt, this.retry, failure.retryAfterMs)));
      const marked = await tx.jobItem.updateMany({
        where: { id: lease.id, leaseOwner: lease.leaseOwner, status: "leased" },
        data: {
          status,
          error: failure.message.slice(0, 2_000),
          leaseOwner: null,
          leaseExpiresAt: null,
          nextAttemptAt,
          finishedAt: final ? now : null,
          ...(failure.refund && !final ? { attempts: { decrement: 1 } } : {}),
          ...itemUsageIncrements(usage),
        },
      });
      if (marked.count === 0) return "lost";
      const counts = await tx.job.update({
        where: { id: lease.jobId },
        data: { ...(final ? { failedCount: { increment: 1 } } : {}), ...(usage ? jobUsageIncrements(usage) : {}) },
        select: COUNTS,
      });
      await finishJobIfSettled(tx, lease.jobId, counts, now);
      return final ? "failed" : "retry";
    }, TX_OPTIONS);
  }

  async cancel(jobId: string): Promise<boolean> {
    const now = new Date();
    return this.db.$transaction(async (tx) => {
      const stopped = await tx.job.updateMany({
        where: { id: jobId, status: { in: [...UNFINISHED_JOB_STATUSES] } },
        data: { status: "cancelled", finishedAt: now },
      });
      if (stopped.count === 0) return false;
      await tx.jobItem.updateMany({ where: { jobId, status: "pending" }, data: { status: "cancelled", finishedAt: now } });
      return true;
    }, TX_OPTIONS);
  }

  pause(jobId: string): Promise<boolean> {
    return pauseJob(this.db, jobId);
  }

  resume(jobId: string): Promise<boolean> {
    return resumeJob(this.db, jobId);
  }

  async recoverExpiredLeases(now: Date = new Date()): Promise<number> {
    const expired = await this.db.jobItem.findMany({
      where: { status: "leased", leaseExpiresAt: { lt: now } },
      select: { id: true, jobId: true, leaseOwner: true, attempts: true },
    });
    let recovered = 0;
    for (const item of expired) {
      if (!item.leaseOwner) continue;
      const lease = { id: item.id, jobId: item.jobId, leaseOwner: item.leaseOwner, attempt: item.attempts };
      // Retried at once: the worker died, the endpoint did not refuse. A finished call is in the call cache.
      const outcome = await this.failExpired(lease, now);
      if (outcome !== "lost") recovered += 1;
    }
    return recovered;
  }

  private async failExpired(lease: { id: string; jobId: string; leaseOwner: string; attempt: number }, now: Date) {
    const final = lease.attempt >= this.retry.maxAttempts;
    return this.db.$transaction(async (tx) => {
      const job = await tx.job.findUnique({ where: { id: lease.jobId }, select: { status: true } });
      const status = final ? "failed" : job?.status === "cancelled" ? "cancelled" : "pending";
      const marked = await tx.jobItem.updateMany({
        where: { id: lease.id, leaseOwner: lease.leaseOwner, status: "leased", leaseExpiresAt: { lt: now } },
        data: {
          status,
          leaseOwner: null,
          leaseExpiresAt: null,
          nextAttemptAt: now,
          error: final ? `The worker holding this item stopped ${lease.attempt} times; giving up.` : null,
          finishedAt: final || status === "cancelled" ? now : null,
        },
      });
      if (marked.count === 0) return "lost" as const;
      if (final) {
        const counts = await tx.job.update({ where: { id: lease.jobId }, data: { failedCount: { increment: 1 } }, select: COUNTS });
        await finishJobIfSettled(tx, lease.jobId, counts, now);
      }
      return final ? ("failed" as const) : ("retry" as const);
    }, TX_OPTIONS);
  }

  async leasableJobs(): Promise<StoredJob[]> {
    const jobs = await this.db.job.findMany({
      where: { status: { in: [...LEASABLE_JOB_STATUSES] } },
      orderBy: { createdAt: "asc" },
      select: STORED_JOB_SELECT,
    });
    return jobs.map((job) => ({ ...job, params: parseJsonText(job.params) }));
  }

  nextDueAt(kinds: readonly string[]): Promise<Date | null> {
    return nextPendingDueAt(this.db, kinds);
  }

  async leasedCount(filter: { endpointId?: string; kind?: string }): Promise<number> {
    return this.db.jobItem.count({
      where: {
        status: "leased",
        leaseExpiresAt: { gt: new Date() },
        job: { ...(filter.endpointId !== undefined ? { endpointId: filter.endpointId } : {}), ...(filter.kind !== undefined ? { kind: filter.kind } : {}) },
      },
    });
  }
}
