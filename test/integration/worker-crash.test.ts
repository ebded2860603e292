// `kill -9` of a `npm run worker` process in the middle of a judge job, with calls in flight, then a new worker: the
// job finishes and no question is answered twice (counted at the loopback stub as replies delivered).
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoData } from "@/lib/server/demo-data";
import { createEndpoint } from "@/lib/server/endpoints/endpoints";
import { startJudgeJob } from "@/lib/server/jobs/judge-job";
import { emptyDatabase, testDatabase } from "../support/database";
import { startDeliveryCountingStub, type DeliveryCountingStub } from "../support/delivery-counting-stub";
import { exited, startWorkerProcess, waitFor } from "../support/worker-process";

const SECRETS_KEY = randomBytes(32).toString("base64");
process.env.C2W_SECRETS_KEY = SECRETS_KEY;

const admin = { id: "admin", email: "admin@example.org", name: null, role: "admin" as const };
const REPLY = "<reason>ok</reason>\n<result>\ntrue\n</result>";

describe("a worker killed with SIGKILL mid-job", () => {
  const db = testDatabase();
  let stub: DeliveryCountingStub;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    stub = await startDeliveryCountingStub(() => ({ kind: "reply", content: REPLY, delayMs: 150 }));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await stub.close();
  });

  it("is taken over by a new worker that finishes the job with no question answered twice", async () => {
    await emptyDatabase(db);
    expect((await seedDemoData(db)).ok).toBe(true);
    const run = await db.run.findFirstOrThrow({ where: { origin: "recorded", model: { name: "demo_alpha" } } });
    const endpoint = await createEndpoint(
      db,
      admin,
      { label: "crash-judge", baseUrl: stub.baseURL, model: "stub", temperature: 0, maxTokens: null, concurrency: 2, rpm: null, tpm: null, timeoutMs: 10_000, inputPricePerMTok: null, outputPricePerMTok: null },
      "sk-crash-test-key-000000",
    );
    const started = await startJudgeJob(db, admin, { runId: run.id, endpointId: endpoint.id, stage: "resolve", samples: 1, strict: false, refresh: false });
    if (!started.ok) throw new Error(started.message);
    expect(started.items).toBeGreaterThan(10);
    const deliveredTotal = () => [...stub.delivered.values()].reduce((sum, count) => sum + count, 0);

    const first = startWorkerProcess(inject("databaseUrl"), { C2W_SECRETS_KEY: SECRETS_KEY });
    children.push(first);
    await waitFor(() => deliveredTotal() >= 4, 60_000, "the first worker to get 4 replies");
    // Replies stop before the kill, so every reply delivered went to a live worker; the calls it has in flight die
    // with it unanswered.
    stub.hold();
    await waitFor(() => stub.received.length - deliveredTotal() >= 1, 10_000, "a call in flight");
    first.kill("SIGKILL");
    await exited(first);
    const cutOff = stub.dropHeldAndResume();
    expect(cutOff).toBeGreaterThanOrEqual(1);
    const doneAtKill = await db.jobItem.count({ where: { jobId: started.jobId, status: "done" } });
    expect(doneAtKill).toBeLessThan(started.items);

    const second = startWorkerProcess(inject("databaseUrl"), { C2W_SECRETS_KEY: SECRETS_KEY });
    children.push(second);
    await waitFor(
      async () => (await db.job.findUniqueOrThrow({ where: { id: started.jobId } })).status === "succeeded",
      90_000,
      "the second worker to finish the job",
    );
    second.kill("SIGTERM");
    await exited(second);

    const job = await db.job.findUniqueOrThrow({ where: { id: started.jobId } });
    expect(job).toMatchObject({ status: "succeeded", doneCount: started.items, failedCount: 0 });
    expect(await db.judgeVerdict.count({ where: { judge: "crash-judge" } })).toBe(started.items);
    // Every question was answered exactly once; a request cut off by the kill never got its reply.
    expect(stub.delivered.size).toBe(started.items);
    expect([...stub.delivered.entries()].filter(([, count]) => count !== 1)).toEqual([]);
    expect(stub.received.length - deliveredTotal()).toBe(cutOff);
    // Paid calls recorded on the job equal the replies delivered.
    expect(job.calls + job.cachedCalls).toBe(started.items);
  });
});
