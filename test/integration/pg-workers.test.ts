// Three `npm run worker` processes share one PostgreSQL queue (pg-boss) while this process plays the web app: it
// enqueues judge jobs and runs no worker. Over 1,000 items are judged against a loopback stub, every one exactly once
// (verdict rows, replies counted at the stub); one worker is killed with SIGKILL midway and the items it held are
// finished by the others once their leases expire. Runs in the PostgreSQL integration run (npm run test:integration:pg,
// on this test file's own database); the SQLite run skips it.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "@/lib/server/demo-data";
import { judgeJobKind } from "@/lib/server/jobs/judge-job";
import { stopPgBoss } from "@/lib/server/jobs/pg-queue";
import { testDatabase, testDatabaseUrl, testingOnPostgres } from "../support/database";
import { startDeliveryCountingStub, type DeliveryCountingStub } from "../support/delivery-counting-stub";
import { enqueueDemoJudging, startWorkerProcess, stubEndpoints, waitFor, type WorkerProcess } from "../support/pg-workers";

const SECRETS_KEY = randomBytes(32).toString("base64");
const REPLY = "<reason>ok</reason>\n<result>\ntrue\n</result>";
// Long enough that a live worker on a loaded machine keeps its leases (a heartbeat every third of it): only the
// killed worker's items may be asked twice.
const LEASE_MS = 10_000;
const JUDGES = ["pg-judge-a", "pg-judge-b"];
const SAMPLES = 6;

const onPostgres = testingOnPostgres();
if (!onPostgres) console.warn("Skipping the multi-worker test on SQLite: it runs in the PostgreSQL integration run (npm run test:integration:pg).");

describe.skipIf(!onPostgres)("three workers on one PostgreSQL queue, one killed with SIGKILL midway", () => {
  const db = testDatabase();
  let stub: DeliveryCountingStub;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    // This process is the web app: its DATABASE_URL names the shared database, and it runs no worker.
    process.env.C2W_SECRETS_KEY = SECRETS_KEY;
    process.env.IN_PROCESS_WORKER = "false";
    expect((await seedDemoData(db)).ok).toBe(true);
    stub = await startDeliveryCountingStub(() => ({ kind: "reply", content: REPLY, delayMs: 40 }));
  });

  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
    await Promise.all(workers.map((worker) => worker.exited));
    await stub?.close();
    await stopPgBoss();
  });

  it("judges every item exactly once, and the items a killed worker held are finished by the others", async () => {
    const endpoints = await stubEndpoints(db, stub.baseURL, JUDGES, 64);
    const enqueued = await enqueueDemoJudging(
      db,
      endpoints.map((endpoint) => endpoint.id),
      SAMPLES,
      true,
    );
    expect(enqueued.items).toBeGreaterThanOrEqual(1_000);

    for (let index = 0; index < 3; index += 1) {
      workers.push(startWorkerProcess(testDatabaseUrl(), { leaseMs: LEASE_MS, pollMs: 100, maxInFlight: 16, secretsKey: SECRETS_KEY }));
    }
    const [victim] = workers;
    const done = async () => (await db.job.aggregate({ where: { id: { in: enqueued.jobIds } }, _sum: { doneCount: true } }))._sum.doneCount ?? 0;
    await waitFor(async () => (await done()) >= enqueued.items * 0.3, 180_000, "30% of the items to be judged");

    // Replies stop before the kill, and the kill waits until the replies already delivered are recorded (no item
    // finishes for a while): every reply the stub delivered reached a worker that recorded it.
    stub.hold();
    let lastDone = -1;
    let steadySince = Date.now();
    await waitFor(
      async () => {
        const now = await done();
        if (now !== lastDone) [lastDone, steadySince] = [now, Date.now()];
        return Date.now() - steadySince >= 1_500;
      },
      30_000,
      "the replies delivered before the hold to be recorded",
    );
    const victimLeases = () =>
      db.jobItem.findMany({ where: { jobId: { in: enqueued.jobIds }, status: "leased", leaseOwner: { contains: `:${victim!.child.pid}:` } }, select: { id: true } });
    await waitFor(async () => (await victimLeases()).length > 0, 10_000, "the worker to be killed to hold leases");
    victim!.child.kill("SIGKILL");
    await victim!.exited;
    const heldByVictim = (await victimLeases()).map((item) => item.id);
    expect(heldByVictim.length).toBeGreaterThan(0);
    stub.dropHeldAndResume();
    const doneAtKill = await done();
    expect(doneAtKill).toBeLessThan(enqueued.items);

    await waitFor(
      async () => (await db.job.count({ where: { id: { in: enqueued.jobIds }, status: "succeeded" } })) === enqueued.jobIds.length,
      240_000,
      "every job to succeed",
      200,
    );

    const jobs = await db.job.findMany({ where: { id: { in: enqueued.jobIds } } });
    expect(jobs.filter((job) => job.doneCount !== job.itemCount || job.failedCount !== 0)).toEqual([]);
    // One verdict per item (the key is unique per response, stage, case, judge and sample).
    expect(await db.judgeVerdict.count({ where: { judge: { in: JUDGES } } })).toBe(enqueued.items);

    // The jobs bypass the call cache, so each item makes one call: every question reached the stub exactly as many
    // times as items ask it (per judge, sample and run sharing it), no more.
    const items = await db.jobItem.findMany({ where: { jobId: { in: enqueued.jobIds } }, select: { payload: true, status: true } });
    expect(items).toHaveLength(enqueued.items);
    expect(items.filter((item) => item.status !== "done")).toEqual([]);
    const expected = new Map<string, number>();
    for (const item of items) {
      const payload = judgeJobKind.payloadSchema.parse(JSON.parse(item.payload));
      // Hashed as the stub hashes a request's messages.
      const asked = payload.messages.map((message) => ({ role: message.role, content: message.content }));
      const question = createHash("sha256").update(JSON.stringify(asked)).digest("hex");
      expected.set(question, (expected.get(question) ?? 0) + 1);
    }
    expect(Object.fromEntries(stub.delivered)).toEqual(Object.fromEntries(expected));

    // The killed worker's items went back to the queue after their leases expired and were judged by another worker.
    const rescued = await db.jobItem.findMany({ where: { id: { in: heldByVictim } }, select: { status: true, attempts: true } });
    expect(rescued).toHaveLength(heldByVictim.length);
    expect(rescued.filter((item) => item.status !== "done" || item.attempts < 2)).toEqual([]);
  });
});
