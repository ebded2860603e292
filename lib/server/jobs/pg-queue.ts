import "server-only";
// The job queue on PostgreSQL: pg-boss holds the leases (one pg-boss queue per job, FOR UPDATE SKIP LOCKED fetches,
// expire_in as the lease timeout, its retry limit and backoff), and the Job/JobItem rows the pages read are written in
// the same transaction as each pg-boss state change, so statuses, counts and usage stay exact across processes.
import { randomUUID } from "node:crypto";
import PgBoss from "pg-boss";
import { postgresConnectionConfig } from "@/lib/database-url";
import type { Database } from "../db";
import { parseJsonText } from "../data/json-columns";
import {
  addUsage,
  DEFAULT_RETRY,
  isLeasable,
  LEASABLE_JOB_STATUSES,
  NO_USAGE,
  UNFINISHED_JOB_STATUSES,
  type CommitResults,
  type ItemFailure,
  type ItemUsage,
  type JobQueue,
  type LeaseCapacity,
  type LeasedItem,
  type NewJob,
  type RetryPolicy,
  type QueueTx,
  type StoredJob,
} from "./queue";
import { COUNTS, countAppendedItems, finishJobIfSettled, itemUsageIncrements, jobUsageIncrements, newJobRow, nextPendingDueAt, pauseJob, resumeJob, STORED_JOB_SELECT } from "./job-rows";

/** pg-boss keeps its tables in this schema, apart from the app's. */
export const PG_BOSS_SCHEMA = "pgboss";
const QUEUE_PREFIX = "c2w-job-";
// Many workers wait on the same rows (job counters): give them time rather than Prisma's 5 s default.
const TX_OPTIONS = { maxWait: 30_000, timeout: 60_000 } as const;
const PRUNE_EVERY_MS = 60_000;
// How long a completion waits for others of its job to share its transaction.
const COMPLETION_BATCH_MS = 15;

export function bossQueueName(jobId: string): string {
  return `${QUEUE_PREFIX}${jobId}`;
}

let leaseSequence = 0;

interface SharedBoss {
  boss: Promise<PgBoss>;
}
const shared = globalThis as unknown as { c2wPgBoss?: Map<string, SharedBoss> };

/**
 * One pg-boss per database and process, started once: it creates or migrates its schema (under its own advisory
 * lock, so several processes may start at once). Its timers are off; workers call `expire` themselves.
 */
export function pgBoss(connectionString: string): Promise<PgBoss> {
  shared.c2wPgBoss ??= new Map();
  const existing = shared.c2wPgBoss.get(connectionString);
  if (existing) return existing.boss;
  const boss = new PgBoss({
    ...postgresConnectionConfig(connectionString),
    schema: PG_BOSS_SCHEMA,
    max: 4,
    supervise: false,
    schedule: false,
    migrate: true,
    application_name: "c2w-queue",
  });
  // pg-boss reports pool errors as events; an unheard "error" event would end the process.
  boss.on("error", (error: Error) => console.warn(`pg-boss: ${error.message}`));
  const started = boss.start().catch((error: unknown) => {
    shared.c2wPgBoss?.delete(connectionString);
    throw error;
  });
  shared.c2wPgBoss.set(connectionString, { boss: started });
  return started;
}

/** Closes this process's pg-boss connections (CLIs and tests before they exit). */
export async function stopPgBoss(): Promise<void> {
  const all = [...(shared.c2wPgBoss?.values() ?? [])];
  shared.c2wPgBoss?.clear();
  await Promise.allSettled(all.map(async (entry) => (await entry.boss).stop({ graceful: false, close: true, wait: true })));
}

/** pg-boss runs its statements through a Prisma transaction, so its state changes commit or roll back with ours. */
/** PostgreSQL's "deadlock detected". */
const DEADLOCK = "40P01";

/**
 * Creates a job's pg-boss queue (nothing when it exists). Two creations at once can deadlock inside pg-boss (each
 * holds a lock on its queue table the other's partition needs); PostgreSQL aborts one, which then finds the queue.
 */
async function createBossQueue(boss: PgBoss, name: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await boss.createQueue(name, { name, policy: "standard" });
      return;
    } catch (error) {
      if (attempt >= 5 || (error as { code?: unknown } | null)?.code !== DEADLOCK) throw error;
    }
  }
}

function inTransaction(tx: QueueTx): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      return { rows: await tx.$queryRawUnsafe<Record<string, unknown>[]>(text, ...values) };
    },
  };
}

class LeaseLost extends Error {}

/**
 * pg-boss's complete for several ids inside our transaction. Its runtime signature is (name, ids, data, options); the
 * typings lack the four-argument form for a list of ids, and options passed third would be taken for the data.
 */
function completeInTransaction(boss: PgBoss, name: string, ids: string[], tx: QueueTx): Promise<void> {
  const complete = boss.complete.bind(boss) as unknown as (name: string, ids: string[], data: object, options: PgBoss.ConnectionOptions) => Promise<void>;
  return complete(name, ids, {}, { db: inTransaction(tx) });
}

interface PendingCompletion {
  lease: Pick<LeasedItem, "id" | "jobId" | "leaseOwner">;
  result: unknown;
  usage: ItemUsage;
  commit?: CommitResults<QueueTx>;
  resolve(recorded: boolean): void;
  reject(error: unknown): void;
}

interface LeasedRow {
  id: string;
  key: string;
  payload: string;
  attempts: number;
  leaseExpiresAt: Date;
}

/** pg-boss 10 resolves complete/fail with how many jobs changed, though its typings say void. */
async function affected(command: Promise<void>): Promise<number> {
  const response = (await command) as unknown as { affected?: number } | undefined;
  return response?.affected ?? 0;
}

/** A status list as SQL literals, for the raw statements below. */
const UNFINISHED_SQL = UNFINISHED_JOB_STATUSES.map((status) => `'${status}'`).join(", ");


export class PgJobQueue implements JobQueue<QueueTx> {
  private lastPrune = 0;
  private readonly completions = new Map<string, PendingCompletion[]>();

  constructor(
    private readonly db: Database,
    private readonly connectionString: string,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {}

  private boss(): Promise<PgBoss> {
    return pgBoss(this.connectionString);
  }

  async enqueue(job: NewJob, outer?: QueueTx): Promise<string> {
    const keys = new Set(job.items.map((item) => item.key));
    if (keys.size !== job.items.length) throw new Error("Job items need unique keys.");
    const boss = await this.boss();
    const jobId = job.id ?? randomUUID();
    const name = bossQueueName(jobId);
    // Creating a queue creates a table, outside the transaction; a queue whose job never committed is pruned later.
    if (job.items.length > 0) await createBossQueue(boss, name);
    const write = async (tx: QueueTx) => {
      await tx.job.create({
        data: { id: jobId, ...newJobRow(job) },
      });
      const rows = job.items.map((item) => ({ id: randomUUID(), jobId, key: item.key, payload: JSON.stringify(item.payload ?? {}) }));
      for (let start = 0; start < rows.length; start += 500) {
        const chunk = rows.slice(start, start + 500);
        await tx.jobItem.createMany({ data: chunk });
        // The pg-boss job shares the item's id; its retry limit and backoff are the queue's retry policy.
        await boss.insert(chunk.map((row) => this.bossJob(name, row.id)), { db: inTransaction(tx) });
      }
      return jobId;
    };
    return outer ? write(outer) : this.db.$transaction(write, TX_OPTIONS);
  }

  /** The pg-boss job of an item: it shares the item's id; its retry limit and backoff are the queue's retry policy. */
  private bossJob(name: string, itemId: string) {
    return {
      id: itemId,
      name,
      data: { itemId },
      retryLimit: Math.max(0, this.retry.maxAttempts - 1),
      retryDelay: Math.max(1, Math.round(this.retry.baseDelayMs / 1000)),
      retryBackoff: true,
    };
  }

  async appendItems(tx: QueueTx, jobId: string, items: readonly { key: string; payload: unknown }[]): Promise<void> {
    if (items.length === 0) return;
    const boss = await this.boss();
    const name = bossQueueName(jobId);
    // A job made inside the caller's transaction has no pg-boss queue yet, and a finished one may have lost it to
    // maintenance; creating a queue that exists does nothing.
    await createBossQueue(boss, name);
    const rows = items.map((item) => ({ id: randomUUID(), jobId, key: item.key, payload: JSON.stringify(item.payload ?? {}) }));
    await tx.jobItem.createMany({ data: rows });
    await boss.insert(rows.map((row) => this.bossJob(name, row.id)), { db: inTransaction(tx) });
    await countAppendedItems(tx, jobId, rows.length);
  }

  async lease(jobId: string, workerId: string, limit: number, leaseMs: number, capacity?: LeaseCapacity): Promise<LeasedItem[]> {
    if (limit <= 0) return [];
    const boss = await this.boss();
    leaseSequence += 1;
    const owner = `${workerId}#${leaseSequence}`;
    const leased = await this.db.$transaction(async (tx) => {
      const none = { jobStatus: null as string | null, rows: [] as LeasedRow[] };
      // A pause or cancel waits for this lease to commit, and this lease sees theirs: none leases past a stop. Share
      // locks do not conflict, and nothing holding this lock waits for the one below, so the order cannot deadlock.
      const [job] = await tx.$queryRawUnsafe<{ status: string }[]>(`SELECT status FROM "Job" WHERE id = $1 FOR SHARE`, jobId);
      if (!job || !isLeasable(job.status)) return none;
      if (capacity) {
        // Leases against one limit are taken one at a time across processes, so the live count cannot go stale. Taken
        // as late as possible: every worker's leases against the limit wait for it.
        await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))::text`, `c2w-capacity:${capacity.filter.endpointId ?? ""}:${capacity.filter.kind ?? ""}`);
      }
      const wanted = capacity ? Math.min(limit, capacity.limit - (await this.countLive(tx, capacity.filter))) : limit;
      if (wanted <= 0) return none;
      const fetched = await boss.fetch(bossQueueName(jobId), { batchSize: wanted, db: inTransaction(tx) });
      if (fetched.length === 0) return none;
      const rows = await tx.$queryRawUnsafe<LeasedRow[]>(
        `WITH lease AS (
           UPDATE ${PG_BOSS_SCHEMA}.job SET expire_in = $3 * interval '1 millisecond'
           WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'
           RETURNING id::text AS id, retry_count, started_on + expire_in AS expires
         )
         UPDATE "JobItem" AS item SET status = 'leased', "leaseOwner" = $4, attempts = lease.retry_count + 1,
           "leaseExpiresAt" = lease.expires AT TIME ZONE 'UTC', "heartbeatAt" = now() AT TIME ZONE 'UTC',
           "updatedAt" = now() AT TIME ZONE 'UTC'
         FROM lease WHERE item.id = lease.id
         RETURNING item.id, item.key, item.payload, item.attempts, item."leaseExpiresAt"`,
        bossQueueName(jobId),
        fetched.map((entry) => entry.id),
        leaseMs,
        owner,
      );
      return { jobStatus: job.status, rows };
    }, TX_OPTIONS);
    if (leased.rows.length > 0 && leased.jobStatus === "queued") {
      // After the lease commits: updating the job row inside it would wait on the other leases' share locks.
      await this.db.job.updateMany({ where: { id: jobId, status: "queued" }, data: { status: "running", startedAt: new Date() } });
    }
    return leased.rows.map((row) => ({
      id: row.id,
      jobId,
      key: row.key,
      payload: parseJsonText(row.payload),
      attempt: row.attempts,
      leaseOwner: owner,
      leaseExpiresAt: row.leaseExpiresAt,
    }));
  }

  async heartbeat(leases: readonly Pick<LeasedItem, "id" | "leaseOwner">[], leaseMs: number): Promise<string[]> {
    if (leases.length === 0) return [];
    // Item rows first, then pg-boss's, the order `complete` and `fail` take them in, so the two never deadlock.
    const outcome = await this.db.$transaction(async (tx) => {
      // An item row locked now is being completed or failed by its holder: it is neither extended nor reported lost.
      const free = await tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id FROM "JobItem" WHERE id = ANY($1::text[]) FOR UPDATE SKIP LOCKED`,
        leases.map((lease) => lease.id),
      );
      const examined = free.map((row) => row.id);
      if (examined.length === 0) return { examined, kept: [] };
      const held = await tx.$queryRawUnsafe<{ id: string; jobId: string }[]>(
        `UPDATE "JobItem" AS item SET "leaseExpiresAt" = (now() + $3 * interval '1 millisecond') AT TIME ZONE 'UTC', "heartbeatAt" = now() AT TIME ZONE 'UTC'
         FROM "Job" AS job
         WHERE job.id = item."jobId" AND job.status IN (${UNFINISHED_SQL}) AND item.status = 'leased'
           AND item.id = ANY($1::text[]) AND (item.id || ' ' || item."leaseOwner") = ANY($2::text[])
         RETURNING item.id, item."jobId"`,
        examined,
        leases.map((lease) => `${lease.id} ${lease.leaseOwner}`),
        leaseMs,
      );
      if (held.length === 0) return { examined, kept: [] };
      // pg-boss 10 has no call to extend a lease: its expire_in is moved to the same instant, counted from the start.
      const kept = await tx.$queryRawUnsafe<{ id: string }[]>(
        `UPDATE ${PG_BOSS_SCHEMA}.job AS boss SET expire_in = (now() - boss.started_on) + $3 * interval '1 millisecond'
         FROM unnest($1::text[], $2::uuid[]) AS held(name, id)
         WHERE boss.name = held.name AND boss.id = held.id AND boss.state = 'active'
         RETURNING boss.id::text AS id`,
        held.map((item) => bossQueueName(item.jobId)),
        held.map((item) => item.id),
        leaseMs,
      );
      return { examined, kept: kept.map((row) => row.id) };
    }, TX_OPTIONS);
    const alive = new Set(outcome.kept);
    return outcome.examined.filter((id) => !alive.has(id));
  }

  /**
   * Completions of one job arriving within a few milliseconds share one transaction: the job row's counters are a
   * lock every completion of the job takes, so fewer, larger transactions are what lets several workers scale.
   * Each item still succeeds or is lost on its own; a batch that fails is retried one item at a time.
   */
  complete(lease: Pick<LeasedItem, "id" | "jobId" | "leaseOwner">, result: unknown, usage: ItemUsage, commit?: CommitResults<QueueTx>): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const waiting = this.completions.get(lease.jobId);
      const entry = { lease, result, usage, commit, resolve, reject };
      if (waiting) {
        waiting.push(entry);
        return;
      }
      this.completions.set(lease.jobId, [entry]);
      setTimeout(() => void this.flushCompletions(lease.jobId), COMPLETION_BATCH_MS);
    });
  }

  private async flushCompletions(jobId: string): Promise<void> {
    const batch = this.completions.get(jobId) ?? [];
    this.completions.delete(jobId);
    try {
      const recorded = await this.completeBatch(jobId, batch);
      for (const entry of batch) entry.resolve(recorded.has(entry.lease.id));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // One item's results may be what failed: the others must not share its fate.
      for (const entry of batch) {
        try {
          entry.resolve((await this.completeBatch(jobId, [entry])).has(entry.lease.id));
        } catch (single) {
          entry.reject(single);
        }
      }
    }
  }

  /** Marks the batch's items done (those whose lease still holds) with their results and counters; returns their ids. */
  private async completeBatch(jobId: string, batch: readonly PendingCompletion[]): Promise<Set<string>> {
    const boss = await this.boss();
    const name = bossQueueName(jobId);
    const now = new Date();
    const sorted = [...batch].sort((a, b) => (a.lease.id < b.lease.id ? -1 : a.lease.id > b.lease.id ? 1 : 0));
    return this.db.$transaction(async (tx) => {
      // Held by us even when the job was cancelled meanwhile (the call was made, so its result is kept), and still
      // active in pg-boss, whose row lock keeps its expiry from taking the item while this commits. Item rows first,
      // then pg-boss's, in id order: the order every other statement here locks them in.
      const owned = await tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id FROM "JobItem" WHERE id = ANY($1::text[]) AND status = 'leased' AND (id || ' ' || "leaseOwner") = ANY($2::text[]) ORDER BY id FOR UPDATE`,
        sorted.map((entry) => entry.lease.id),
        sorted.map((entry) => `${entry.lease.id} ${entry.lease.leaseOwner}`),
      );
      if (owned.length === 0) return new Set<string>();
      const live = await tx.$queryRawUnsafe<{ id: string }[]>(
        `SELECT id::text AS id FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active' ORDER BY id FOR UPDATE`,
        name,
        owned.map((row) => row.id),
      );
      const liveIds = new Set(live.map((row) => row.id));
      const kept = sorted.filter((entry) => liveIds.has(entry.lease.id));
      if (kept.length === 0) return liveIds;
      if ((await affected(completeInTransaction(boss, name, kept.map((entry) => entry.lease.id), tx))) !== kept.length) {
        throw new Error("pg-boss did not complete every item whose lease was held.");
      }
      // One statement for the batch's item rows (the job page reads their status, result and usage).
      await tx.$executeRawUnsafe(
        `UPDATE "JobItem" AS item SET status = 'done', result = done.result, error = NULL, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
           "finishedAt" = now() AT TIME ZONE 'UTC', "updatedAt" = now() AT TIME ZONE 'UTC',
           calls = item.calls + done.calls, "cachedCalls" = item."cachedCalls" + done.cached,
           "inputTokens" = item."inputTokens" + done.input, "outputTokens" = item."outputTokens" + done.output, "latencyMs" = done.latency
         FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[]) AS done(id, result, calls, cached, input, output, latency)
         WHERE item.id = done.id`,
        kept.map((entry) => entry.lease.id),
        kept.map((entry) => JSON.stringify(entry.result ?? null)),
        kept.map((entry) => entry.usage.calls),
        kept.map((entry) => entry.usage.cachedCalls),
        kept.map((entry) => entry.usage.inputTokens),
        kept.map((entry) => entry.usage.outputTokens),
        kept.map((entry) => entry.usage.latencyMs),
      );
      let total: ItemUsage = NO_USAGE;
      for (const { usage, commit } of kept) {
        if (commit) await commit(tx);
        total = addUsage(total, usage);
      }
      const counts = await tx.job.update({ where: { id: jobId }, data: { doneCount: { increment: kept.length }, ...jobUsageIncrements(total) }, select: COUNTS });
      await finishJobIfSettled(tx, jobId, counts, now);
      return liveIds;
    }, TX_OPTIONS);
  }

  async fail(lease: Pick<LeasedItem, "id" | "jobId" | "leaseOwner" | "attempt">, failure: ItemFailure): Promise<"retry" | "failed" | "lost"> {
    const boss = await this.boss();
    const name = bossQueueName(lease.jobId);
    const now = new Date();
    const usage = failure.usage;
    const refund = failure.refund === true && failure.retryable;
    try {
      return await this.db.$transaction(async (tx) => {
        const [held] = await tx.$queryRawUnsafe<{ status: string }[]>(
          `SELECT job.status FROM "JobItem" AS item JOIN "Job" AS job ON job.id = item."jobId"
           WHERE item.id = $1 AND item."leaseOwner" = $2 AND item.status = 'leased' FOR UPDATE OF item`,
          lease.id,
          lease.leaseOwner,
        );
        if (!held) return "lost";
        // Before pg-boss decides retry or fail: a refunded attempt is given back, a hopeless one spends the rest.
        const adjusted = await tx.$executeRawUnsafe(
          `UPDATE ${PG_BOSS_SCHEMA}.job SET
             retry_count = retry_count - $3::int,
             retry_limit = CASE WHEN $4::boolean THEN retry_count - $3::int ELSE retry_limit END
           WHERE name = $1 AND id = $2::uuid AND state = 'active'`,
          name,
          lease.id,
          refund ? 1 : 0,
          !failure.retryable,
        );
        if (adjusted !== 1) throw new LeaseLost();
        if ((await affected(boss.fail(name, lease.id, { message: failure.message.slice(0, 2_000) }, { db: inTransaction(tx) }))) !== 1) throw new LeaseLost();
        // pg-boss's exponential backoff with jitter, capped by the policy and never sooner than the server's Retry-After.
        const [after] = await tx.$queryRawUnsafe<{ state: string; nextAttemptAt: Date }[]>(
          `UPDATE ${PG_BOSS_SCHEMA}.job SET start_after = GREATEST(LEAST(start_after, now() + $3 * interval '1 millisecond'), now() + $4 * interval '1 millisecond')
           WHERE name = $1 AND id = $2::uuid
           RETURNING state::text AS state, start_after AT TIME ZONE 'UTC' AS "nextAttemptAt"`,
          name,
          lease.id,
          this.retry.maxDelayMs,
          Math.min(failure.retryAfterMs ?? 0, this.retry.maxDelayMs * 10),
        );
        const final = after?.state === "failed";
        const stopped = held.status === "cancelled";
        if (!final && stopped) await boss.cancel(name, lease.id, { db: inTransaction(tx) });
        await tx.jobItem.update({
          where: { id: lease.id },
          data: {
            status: final ? "failed" : stopped ? "cancelled" : "pending",
            error: failure.message.slice(0, 2_000),
            leaseOwner: null,
            leaseExpiresAt: null,
            nextAttemptAt: after?.nextAttemptAt ?? now,
            finishedAt: final || stopped ? now : null,
            ...(refund ? { attempts: { decrement: 1 } } : {}),
            ...itemUsageIncrements(usage),
          },
        });
        const counts = await tx.job.update({
          where: { id: lease.jobId },
          data: { ...(final ? { failedCount: { increment: 1 } } : {}), ...(usage ? jobUsageIncrements(usage) : {}) },
          select: COUNTS,
        });
        await finishJobIfSettled(tx, lease.jobId, counts, now);
        return final ? "failed" : "retry";
      }, TX_OPTIONS);
    } catch (error) {
      if (error instanceof LeaseLost) return "lost";
      throw error;
    }
  }

  async cancel(jobId: string): Promise<boolean> {
    const boss = await this.boss();
    const now = new Date();
    return this.db.$transaction(async (tx) => {
      const stopped = await tx.job.updateMany({ where: { id: jobId, status: { in: [...UNFINISHED_JOB_STATUSES] } }, data: { status: "cancelled", finishedAt: now } });
      if (stopped.count === 0) return false;
      const pending = await tx.jobItem.findMany({ where: { jobId, status: "pending" }, select: { id: true } });
      for (let start = 0; start < pending.length; start += 1_000) {
        await boss.cancel(bossQueueName(jobId), pending.slice(start, start + 1_000).map((item) => item.id), { db: inTransaction(tx) });
      }
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

  /**
   * Lets pg-boss expire active jobs past their expire_in (its own statement, under its advisory lock), then brings
   * the JobItem rows of those leases in line: pending again (pg-boss retries them after its backoff) or failed.
   * `now` is not used: expiry follows the database clock, which every machine shares.
   */
  async recoverExpiredLeases(): Promise<number> {
    const boss = await this.boss();
    await boss.expire();
    const expired = await this.db.$queryRawUnsafe<{ id: string; jobId: string; leaseOwner: string }[]>(
      `SELECT item.id, item."jobId", item."leaseOwner" FROM "JobItem" AS item
       JOIN ${PG_BOSS_SCHEMA}.job AS boss ON boss.name = '${QUEUE_PREFIX}' || item."jobId" AND boss.id = item.id::uuid
       WHERE item.status = 'leased' AND item."leaseExpiresAt" < now() AT TIME ZONE 'UTC' AND boss.state IN ('retry', 'failed', 'created')`,
    );
    let recovered = 0;
    for (const item of expired) if (await this.settleExpired(item)) recovered += 1;
    if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      // pg-boss's upkeep (archiving finished jobs after its retention), then dropping the queues it emptied.
      await boss.maintain();
      await this.pruneQueues();
    }
    return recovered;
  }

  private async settleExpired(item: { id: string; jobId: string; leaseOwner: string }): Promise<boolean> {
    const boss = await this.boss();
    const now = new Date();
    // Retried at once rather than after pg-boss's backoff: the worker died, the endpoint did not refuse. On its own,
    // before the item row is locked: a lease taking the item meanwhile updates that row itself, and then nothing
    // below matches.
    await this.db.$executeRawUnsafe(`UPDATE ${PG_BOSS_SCHEMA}.job SET start_after = now() WHERE name = $1 AND id = $2::uuid AND state = 'retry'`, bossQueueName(item.jobId), item.id);
    return this.db.$transaction(async (tx) => {
      const [row] = await tx.$queryRawUnsafe<{ state: string; nextAttemptAt: Date; retryCount: number; jobStatus: string }[]>(
        `SELECT boss.state::text AS state, boss.start_after AT TIME ZONE 'UTC' AS "nextAttemptAt", boss.retry_count AS "retryCount", job.status AS "jobStatus"
         FROM "JobItem" AS item JOIN "Job" AS job ON job.id = item."jobId"
         JOIN ${PG_BOSS_SCHEMA}.job AS boss ON boss.name = $3 AND boss.id = item.id::uuid
         WHERE item.id = $1 AND item."leaseOwner" = $2 AND item.status = 'leased' AND boss.state IN ('retry', 'failed', 'created')
         FOR UPDATE OF item`,
        item.id,
        item.leaseOwner,
        bossQueueName(item.jobId),
      );
      if (!row) return false;
      const final = row.state === "failed";
      const stopped = !final && row.jobStatus === "cancelled";
      if (stopped) await boss.cancel(bossQueueName(item.jobId), item.id, { db: inTransaction(tx) });
      await tx.jobItem.update({
        where: { id: item.id },
        data: {
          status: final ? "failed" : stopped ? "cancelled" : "pending",
          leaseOwner: null,
          leaseExpiresAt: null,
          nextAttemptAt: final || stopped ? row.nextAttemptAt : now,
          error: final ? `The worker holding this item stopped ${row.retryCount + 1} times; giving up.` : null,
          finishedAt: final || stopped ? now : null,
        },
      });
      if (final) {
        const counts = await tx.job.update({ where: { id: item.jobId }, data: { failedCount: { increment: 1 } }, select: COUNTS });
        await finishJobIfSettled(tx, item.jobId, counts, now);
      }
      return true;
    }, TX_OPTIONS);
  }

  /** Drops the pg-boss queues (a table each) of finished jobs once pg-boss has archived their rows, and orphaned ones. */
  private async pruneQueues(): Promise<void> {
    const boss = await this.boss();
    const idle = await this.db.$queryRawUnsafe<{ name: string }[]>(
      `SELECT queue.name FROM ${PG_BOSS_SCHEMA}.queue AS queue
       WHERE queue.name LIKE '${QUEUE_PREFIX}%' AND queue.created_on < now() - interval '1 minute'
         AND NOT EXISTS (SELECT 1 FROM "Job" AS job WHERE '${QUEUE_PREFIX}' || job.id = queue.name AND job.status IN (${UNFINISHED_SQL}))
         AND NOT EXISTS (SELECT 1 FROM ${PG_BOSS_SCHEMA}.job AS boss WHERE boss.name = queue.name)`,
    );
    for (const queue of idle) await boss.deleteQueue(queue.name);
  }

  /**
   * Active jobs with an item due now, oldest first. Jobs whose items are all leased or waiting out a backoff are left
   * out: every job looked at costs a lease transaction, and workers look after each completion.
   */
  async leasableJobs(): Promise<StoredJob[]> {
    const now = new Date();
    const jobs = await this.db.job.findMany({
      where: { status: { in: [...LEASABLE_JOB_STATUSES] }, items: { some: { status: "pending", nextAttemptAt: { lte: now } } } },
      orderBy: { createdAt: "asc" },
      select: STORED_JOB_SELECT,
    });
    return jobs.map((job) => ({ ...job, params: parseJsonText(job.params) }));
  }

  nextDueAt(kinds: readonly string[]): Promise<Date | null> {
    return nextPendingDueAt(this.db, kinds);
  }

  async leasedCount(filter: { endpointId?: string; kind?: string }): Promise<number> {
    return this.countLive(this.db, filter);
  }

  /**
   * Live leases, whichever process holds them. Read from the item rows: their expiry is written in the same
   * transactions that set pg-boss's (lease, heartbeat), so it is as exact and needs no join with pg-boss's tables.
   */
  private async countLive(db: QueueTx, filter: { endpointId?: string; kind?: string }): Promise<number> {
    const [row] = await db.$queryRawUnsafe<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM "JobItem" AS item JOIN "Job" AS job ON job.id = item."jobId"
       WHERE item.status = 'leased' AND item."leaseExpiresAt" > now() AT TIME ZONE 'UTC'
         AND ($1::text IS NULL OR job."endpointId" = $1) AND ($2::text IS NULL OR job.kind = $2)`,
      filter.endpointId ?? null,
      filter.kind ?? null,
    );
    return row?.count ?? 0;
  }
}
