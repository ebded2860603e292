// `kill -9` of a `npm run worker` process in the middle of a generate job, with calls in flight, then a new worker:
// the run completes, every turn is stored exactly once, and the loopback stub delivered no (task, round) reply twice.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "@/lib/benchmark/runs";
import { startEvaluation } from "@/lib/server/evaluations/start-evaluation";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";
import { startDeliveryCountingStub, type DeliveryCountingStub } from "../support/delivery-counting-stub";
import { exited, startWorkerProcess, waitFor } from "../support/worker-process";
import { actor, importBenchmarkOnly, stubEndpoint } from "../support/evaluation-fixtures";
import { recordedAnswerText } from "../support/generation-replay";


describe.skipIf(!benchmarkDir)(`a generating worker killed with SIGKILL${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let stub: DeliveryCountingStub;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    const queries = JSON.parse(readFileSync(path.join(benchmarkDir as string, "dataset", "query.json"), "utf8")) as Record<string, unknown>[];
    const records = JSON.parse(readFileSync(path.join(benchmarkDir as string, "runs", "claude_sonnet4d5.json"), "utf8")) as RunRecord[];
    // A (task, round) is told by its user turns: no two tasks share a prefix of queries.
    const answers = new Map<string, string>();
    for (const task of queries) {
      const asked = Object.keys(task).filter((key) => /^query\d+$/.test(key)).map((key) => String(task[key]));
      asked.forEach((_, index) => {
        const record = records.find((candidate) => candidate.task === task.task && candidate.round === index + 1);
        if (record) answers.set(asked.slice(0, index + 1).join("\n"), recordedAnswerText(record));
      });
    }
    stub = await startDeliveryCountingStub((call) => {
      const answer = answers.get(call.userMessage);
      return answer === undefined ? { kind: "error", status: 404 } : { kind: "reply", content: answer, delayMs: 250 };
    });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await stub?.close();
  });

  it("is taken over by a new worker; every turn stored once, no reply delivered twice, the run complete", async () => {
    await emptyDatabase(db);
    const benchmarkId = await importBenchmarkOnly(db, benchmarkDir as string);
    const endpointId = await stubEndpoint(db, stub.baseURL, { concurrency: 4 });
    const started = await startEvaluation(db, actor("researcher"), { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "rule" } });
    if (!started.ok) throw new Error(started.message);
    const runId = started.runIds[0] as string;
    const deliveredTotal = () => [...stub.delivered.values()].reduce((sum, count) => sum + count, 0);

    const first = startWorkerProcess(testDatabaseUrl());
    children.push(first);
    await waitFor(async () => (await db.response.count({ where: { runId } })) >= 12, 90_000, "the first worker to store 12 turns");
    // Replies stop before the kill, so every reply delivered went to a live worker; its calls in flight die with it.
    stub.hold();
    await waitFor(() => stub.received.length - deliveredTotal() >= 1, 10_000, "a call in flight");
    // A reply written just before the hold is in the worker's hands, not yet in its cache: on a busy machine the kill
    // could land in between and the reply would be asked again. Kill only once every delivered reply is cached.
    await waitFor(async () => (await db.llmCallCache.count()) >= deliveredTotal(), 30_000, "every delivered reply to be cached");
    first.kill("SIGKILL");
    await exited(first);
    const cutOff = stub.dropHeldAndResume();
    expect(cutOff).toBeGreaterThanOrEqual(1);
    const storedAtKill = await db.response.count({ where: { runId } });
    expect(storedAtKill).toBeLessThan(79);

    const second = startWorkerProcess(testDatabaseUrl());
    children.push(second);
    await waitFor(async () => (await db.run.findUniqueOrThrow({ where: { id: runId } })).status !== "in-progress", 120_000, "the second worker to finish the run");
    second.kill("SIGTERM");
    await exited(second);

    expect(await db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: "complete", responseCount: 79 });
    expect((await db.evaluation.findUniqueOrThrow({ where: { id: started.evaluationId } })).status).toBe("succeeded");
    const responses = await db.response.findMany({ where: { runId }, select: { turnId: true, _count: { select: { attempts: true } } } });
    expect(responses).toHaveLength(79);
    expect(new Set(responses.map((response) => response.turnId)).size).toBe(79);
    expect(responses.filter((response) => response._count.attempts !== 1)).toEqual([]);
    // Every (task, round) was delivered exactly once; a request cut off by the kill never got its reply.
    expect(stub.delivered.size).toBe(79);
    expect([...stub.delivered.entries()].filter(([, count]) => count !== 1)).toEqual([]);
    const job = await db.job.findUniqueOrThrow({ where: { id: started.jobId } });
    expect(job).toMatchObject({ status: "succeeded", doneCount: 27, failedCount: 0 });
    // Each stored turn cost one call: paid, or replayed from the cache when its reply had arrived before the kill.
    expect(job.calls + job.cachedCalls).toBe(79);
  });
});
