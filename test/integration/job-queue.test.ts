// The job queue's contract, run against the implementation the test database selects (SQLite: sqlite-queue.ts;
// PostgreSQL: pg-boss in pg-queue.ts): exclusive leases, expiry and take-over, retries with backoff and Retry-After,
// bounded attempts, cancellation, live-lease limits, a result recorded only by the lease holder, and at-most-once
// enqueueing under a fixed id.
import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { isPostgresUrl } from "@/lib/database-url";
import { isUniqueViolation } from "@/lib/server/errors";
import { jobQueue } from "@/lib/server/jobs/instance";
import { PG_BOSS_SCHEMA, stopPgBoss } from "@/lib/server/jobs/pg-queue";
import { NO_USAGE, retryDelayMs } from "@/lib/server/jobs/queue";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";

const items = (count: number) => Array.from({ length: count }, (_, index) => ({ key: `item-${index}`, payload: { index } }));

const databaseUrl = testDatabaseUrl();
const onPostgres = isPostgresUrl(databaseUrl);

describe(`job queue on ${onPostgres ? "PostgreSQL (pg-boss)" : "SQLite"}`, () => {
  const db = testDatabase();
  const queue = jobQueue(db, databaseUrl, { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 8_000 });
  beforeEach(() => emptyDatabase(db));
  afterAll(() => stopPgBoss());

  /** Makes a waiting item due now, as if leased `attempts` times when given (where leases are counted differs). */
  async function dueNow(itemId: string, attempts?: number) {
    if (onPostgres) {
      // pg-boss counts the leases after the first in retry_count.
      await db.$executeRawUnsafe(`UPDATE ${PG_BOSS_SCHEMA}.job SET start_after = now() - interval '1 second' WHERE id = $1::uuid`, itemId);
      if (attempts !== undefined) await db.$executeRawUnsafe(`UPDATE ${PG_BOSS_SCHEMA}.job SET retry_count = $2 WHERE id = $1::uuid`, itemId, attempts - 1);
    } else {
      await db.jobItem.update({ where: { id: itemId }, data: { nextAttemptAt: new Date(0), ...(attempts !== undefined ? { attempts } : {}) } });
    }
  }

  it("gives each item to one worker at a time and records only the lease holder's result", async () => {
    const jobId = await queue.enqueue({ kind: "test", params: {}, createdBy: null, items: items(5) });
    const [a, b] = await Promise.all([queue.lease(jobId, "worker-a", 3, 60_000), queue.lease(jobId, "worker-b", 3, 60_000)]);
    // Racing leases may both pick the same candidates; each row still goes to one of them only.
    const rest = await queue.lease(jobId, "worker-c", 5, 60_000);
    const keys = [...a!, ...b!, ...rest].map((item) => item.key);
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
    expect(await queue.lease(jobId, "worker-d", 5, 60_000)).toEqual([]);
    expect((await db.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("running");

    const first = [...a!, ...b!, ...rest][0]!;
    expect(await queue.complete({ ...first, leaseOwner: "someone-else#1" }, { ok: true }, NO_USAGE)).toBe(false);
    expect(await queue.complete(first, { ok: true }, NO_USAGE)).toBe(true);
    expect(await queue.complete(first, { ok: true }, NO_USAGE)).toBe(false);
    expect((await db.job.findUniqueOrThrow({ where: { id: jobId } })).doneCount).toBe(1);
  });

  it("takes items appended inside a caller's transaction, reopening a job that had finished", async () => {
    const jobId = await queue.enqueue({ kind: "test", params: {}, createdBy: null, items: items(1) });
    const [only] = await queue.lease(jobId, "worker-a", 1, 60_000);
    expect(await queue.complete(only!, {}, NO_USAGE)).toBe(true);
    expect((await db.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("succeeded");

    await db.$transaction((tx) => queue.appendItems(tx, jobId, [{ key: "late-1", payload: { late: 1 } }, { key: "late-2", payload: { late: 2 } }]));
    expect(await db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "running", itemCount: 3, finishedAt: null });
    const late = await queue.lease(jobId, "worker-b", 5, 60_000);
    expect(late.map((item) => item.key).sort()).toEqual(["late-1", "late-2"]);
    expect(late.map((item) => item.payload)).toContainEqual({ late: 2 });
    for (const item of late) expect(await queue.complete(item, {}, NO_USAGE)).toBe(true);
    expect(await db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "succeeded", doneCount: 3 });

    // A transaction that fails adds nothing.
    await expect(
      db.$transaction(async (tx) => {
        await queue.appendItems(tx, jobId, [{ key: "never", payload: {} }]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await db.jobItem.count({ where: { jobId } })).toBe(3);
    expect(await queue.lease(jobId, "worker-c", 5, 60_000)).toEqual([]);
  });

  it("queues a job with a fixed id at most once, even when two enqueue it at the same instant", async () => {
    const id = randomUUID();
    const results = await Promise.allSettled([0, 1].map(() => queue.enqueue({ id, kind: "test", params: {}, createdBy: null, items: items(2) })));
    expect(results.filter((result) => result.status === "fulfilled").map((result) => (result as PromiseFulfilledResult<string>).value)).toEqual([id]);
    const refused = results.find((result) => result.status === "rejected") as PromiseRejectedResult | undefined;
    expect(isUniqueViolation(refused?.reason)).toBe(true);
    expect(await db.jobItem.count({ where: { jobId: id } })).toBe(2);
    const leased = await queue.lease(id, "w", 5, 60_000);
    expect(leased).toHaveLength(2);
    for (const item of leased) expect(await queue.complete(item, {}, NO_USAGE)).toBe(true);
    expect(await db.job.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "succeeded", doneCount: 2 });
  });

  it("queues jobs enqueued at the same instant, under one fixed id or each its own, without a deadlock failing any", async () => {
    const id = randomUUID();
    const same = await Promise.allSettled(Array.from({ length: 6 }, () => queue.enqueue({ id, kind: "test", params: {}, createdBy: null, items: items(1) })));
    expect(same.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(same.length).toBeGreaterThan(0);
    expect(same.filter((result) => !(result.status === "fulfilled" || isUniqueViolation(result.reason)))).toEqual([]);
    const distinct = await Promise.all(Array.from({ length: 6 }, () => queue.enqueue({ kind: "test", params: {}, createdBy: null, items: items(1) })));
    expect(new Set(distinct).size).toBe(6);
    expect(await db.jobItem.count()).toBe(7);
  });

  it("returns items of an expired lease to the queue, and the late holder can no longer record them", async () => {
    const jobId = await queue.enqueue({ kind: "test", params: {}, createdBy: null, items: items(2) });
    const leased = await queue.lease(jobId, "crashed", 2, 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await queue.recoverExpiredLeases()).toBe(2);
    const again = await queue.lease(jobId, "rescuer", 2, 60_000);
    expect(again.map((item) => item.attempt)).toEqual([2, 2]);
    expect(await queue.complete(leased[0]!, {}, NO_USAGE)).toBe(false);
    for (const item of again) expect(await queue.complete(item, {}, NO_USAGE)).toBe(true);
    expect(await db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "succeeded", doneCount: 2 });
  });

  it("retries no sooner than Retry-After, and fails an item for good after its last attempt", async () => {
    const jobId = await queue.enqueue({ kind: "test", params: {}, createdBy: null, items: items(1) });
    const [item] = await queue.lease(jobId, "w", 1, 60_000);
    const before = Date.now();
    expect(await queue.fail(item!, { message: "rate-limited (HTTP 429)", retryable: true, retryAfterMs: 5_000 })).toBe("retry");
    const row = await db.jobItem.findUniqueOrThrow({ where: { id: item!.id } });
    expect(row.status).toBe("pending");
    expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 5_000);
    expect(await queue.lease(jobId, "w", 1, 60_000)).toEqual([]);

    await dueNow(item!.id, 2);
    const [last] = await queue.lease(jobId, "w", 1, 60_000);
    expect(last?.attempt).toBe(3);
    expect(await queue.fail(last!, { message: "server-error (HTTP 503)", retryable: true })).toBe("failed");
    expect(await db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "failed", failedCount: 1, doneCount: 0 });
    expect((await db.jobItem.findUniqueOrThrow({ where: { id: item!.id } })).error).toBe("server-error (HTTP 503)");
  });

  it("cancels pending items at once; a leased item may still record the call it made", async () => {
    const jobId = await queue.enqueue({ kind: "test", params: {}, createdBy: null, items: items(4) });
    const [inFlight] = await queue.lease(jobId, "w", 1, 60_000);
    expect(await queue.cancel(jobId)).toBe(true);
    expect(await queue.lease(jobId, "w", 3, 60_000)).toEqual([]);
    expect(await queue.heartbeat([inFlight!], 60_000)).toEqual([inFlight!.id]);
    expect(await queue.complete(inFlight!, {}, NO_USAGE)).toBe(true);
    expect(await db.jobItem.count({ where: { jobId, status: "cancelled" } })).toBe(3);
    expect((await db.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("cancelled");
    expect(await queue.resume(jobId)).toBe(false);
  });

  it("never leases past a shared limit of live leases, whichever worker asks", async () => {
    const jobId = await queue.enqueue({ kind: "test", params: {}, createdBy: null, endpointId: "endpoint-1", items: items(10) });
    const capacity = { filter: { endpointId: "endpoint-1" }, limit: 4 };
    const racing = (await Promise.all(["a", "b", "c"].map((worker) => queue.lease(jobId, worker, 3, 60_000, capacity)))).flat();
    expect(racing.length).toBeGreaterThan(0);
    expect(racing.length).toBeLessThanOrEqual(4);
    const leased = [...racing, ...(await queue.lease(jobId, "d", 3, 60_000, capacity))];
    expect(leased).toHaveLength(4);
    expect(await queue.lease(jobId, "e", 3, 60_000, capacity)).toEqual([]);
    expect(await queue.leasedCount({ endpointId: "endpoint-1" })).toBe(4);
    expect(await queue.leasedCount({ endpointId: "endpoint-2" })).toBe(0);
    expect(await queue.complete(leased[0]!, {}, NO_USAGE)).toBe(true);
    expect(await queue.lease(jobId, "f", 3, 60_000, capacity)).toHaveLength(1);
  });

  it("leases nothing while paused and resumes where it stopped", async () => {
    const jobId = await queue.enqueue({ kind: "test", params: {}, createdBy: null, items: items(3) });
    expect(await queue.lease(jobId, "w", 1, 60_000)).toHaveLength(1);
    expect(await queue.pause(jobId)).toBe(true);
    expect(await queue.lease(jobId, "w", 3, 60_000)).toEqual([]);
    expect(await queue.nextDueAt(["test"])).toBeNull();
    expect(await queue.resume(jobId)).toBe(true);
    expect(await queue.lease(jobId, "w", 3, 60_000)).toHaveLength(2);
  });

  it("keeps a refunded attempt uncounted and a hopeless failure final at once", async () => {
    const jobId = await queue.enqueue({ kind: "test", params: {}, createdBy: null, items: items(2) });
    const [first, second] = await queue.lease(jobId, "w", 2, 60_000);
    expect(await queue.fail(first!, { message: "cooling down", retryable: true, retryAfterMs: 0, refund: true })).toBe("retry");
    expect(await queue.fail(second!, { message: "bad request (HTTP 400)", retryable: false, usage: { ...NO_USAGE, calls: 1, inputTokens: 7 } })).toBe("failed");
    await dueNow(first!.id);
    const [again] = await queue.lease(jobId, "w", 2, 60_000);
    expect(again).toMatchObject({ id: first!.id, attempt: 1 });
    expect(await queue.complete(again!, { verdict: true }, { ...NO_USAGE, calls: 1, inputTokens: 5, outputTokens: 2, latencyMs: 40 })).toBe(true);
    expect(await db.jobItem.findUniqueOrThrow({ where: { id: first!.id } })).toMatchObject({
      status: "done",
      result: JSON.stringify({ verdict: true }),
      calls: 1,
      inputTokens: 5,
      outputTokens: 2,
      latencyMs: 40,
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    expect(await db.job.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({ status: "succeeded", doneCount: 1, failedCount: 1, calls: 2, inputTokens: 12, outputTokens: 2 });
  });

  it("backs off exponentially with jitter, capped, and never under Retry-After", () => {
    const policy = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 8_000 };
    expect(retryDelayMs(1, policy, null, () => 0)).toBe(500);
    expect(retryDelayMs(3, policy, null, () => 1)).toBe(4_000);
    expect(retryDelayMs(10, policy, null, () => 1)).toBe(8_000);
    expect(retryDelayMs(1, policy, 30_000, () => 1)).toBe(30_000);
  });
});
