// The paper's agentic baseline through the app: an agentic-opencode evaluation runs the pinned opencode binary per
// attempt against a loopback stub, stores each attempt with its opencode run (steps, chosen step, exit code,
// duration, stderr tail) for the attempt timeline, and names the agent and its version on the run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptTimeline } from "@/lib/generation/attempt-timeline";
import { startEvaluation } from "@/lib/server/evaluations/start-evaluation";
import { generateJobHandler, SKILL_PLACEHOLDER } from "@/lib/server/jobs/generate-job";
import { jobQueue } from "@/lib/server/jobs/instance";
import { stopPgBoss } from "@/lib/server/jobs/pg-queue";
import { JobWorker } from "@/lib/server/jobs/worker";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";
import { actor, importBenchmarkOnly, stubEndpoint } from "../support/evaluation-fixtures";
import { STUB_ANSWER } from "../support/generation-stub";
import { opencodeMissingReason } from "../support/opencode";
import { startOpenAIStub, type OpenAIStub } from "../support/openai-stub";

const researcher = actor("researcher");
const skip = !benchmarkDir ? benchmarkMissingReason : opencodeMissingReason;

describe.skipIf(skip !== null)(`agentic-opencode evaluations${skip ? ` (skipped: ${skip})` : ""}`, () => {
  const db = testDatabase();
  let stub: OpenAIStub;
  let benchmarkId: string;
  const worker = () => new JobWorker(db, jobQueue(db, testDatabaseUrl(), { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 40 }), [generateJobHandler({ clientRetries: 0 })], { pollMs: 20, leaseMs: 60_000 });

  beforeAll(async () => {
    stub = await startOpenAIStub((request) => {
      if (!Array.isArray(request.body.tools)) return { kind: "reply", content: "A title" };
      return { kind: "reply", content: STUB_ANSWER };
    });
    await emptyDatabase(db);
    benchmarkId = await importBenchmarkOnly(db, benchmarkDir as string);
    // One task of two rounds keeps the opencode runs few.
    await db.task.deleteMany({ where: { benchmarkId, name: { not: "Mermaid" } } });
  });
  afterAll(async () => {
    await stub?.close();
    await stopPgBoss();
  });

  it("refuses sampling overrides, which opencode does not take", async () => {
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "agentic-opencode", params: { temperature: 0.2 } });
    expect(started).toMatchObject({ ok: false, message: expect.stringContaining("opencode's own sampling parameters") });
  });

  it("stores every attempt with its opencode run and names the agent on the run", { timeout: 180_000 }, async () => {
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const first = stub.requests.length;
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "agentic-opencode", judge: { kind: "rule" } });
    if (!started.ok) throw new Error(started.message);
    await worker().runUntilIdle();

    const run = await db.run.findUniqueOrThrow({ where: { id: started.runIds[0] } });
    expect(run).toMatchObject({ status: "complete", responseCount: 2, generationMode: "agentic-opencode", agentVersion: "opencode-ai 1.3.2" });
    const agentRequests = stub.requests.slice(first).filter((request) => Array.isArray(request.body.tools));
    expect(agentRequests).toHaveLength(2);
    for (const request of agentRequests) expect(request.messages.map((message) => message.role)).toEqual(["system", "user"]);

    const responses = await db.response.findMany({ where: { runId: run.id }, include: { attempts: true, turn: { select: { round: true } } }, orderBy: { turn: { round: "asc" } } });
    expect(responses.map((response) => [response.turn.round, response.accepted, response.attempts.length])).toEqual([
      [1, true, 1],
      [2, true, 1],
    ]);
    for (const response of responses) {
      const [attempt] = response.attempts;
      expect(attempt?.message).toContain(SKILL_PLACEHOLDER);
      const [shown] = attemptTimeline(response.attempts.map((row) => ({ ...row })));
      expect(shown?.agentRun).toMatchObject({ agent: "opencode-ai 1.3.2", exitCode: 0, timedOut: false, chosenStep: 0, steps: [STUB_ANSWER] });
      expect(shown?.agentRun?.durationMs).toBeGreaterThan(0);
    }
  });
});
