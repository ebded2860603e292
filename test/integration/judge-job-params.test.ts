// What app judge jobs send, asserted at a loopback OpenAI-compatible stub: the official temperature 0 and max_tokens
// 8192 by default (whatever the endpoint's own defaults say), the user's overrides when given, the same parameters in
// each verdict's stored identity, and the official client's 600 s timeout per call.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/roles";
import { seedDemoData } from "@/lib/server/demo-data";
import { createEndpoint, type EndpointFields } from "@/lib/server/endpoints/endpoints";
import { getJobDetail } from "@/lib/server/jobs/jobs-data";
import { judgeEndpointClients, judgeJobHandler, startJudgeJob } from "@/lib/server/jobs/judge-job";
import { SqliteJobQueue } from "@/lib/server/jobs/sqlite-queue";
import { JobWorker } from "@/lib/server/jobs/worker";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase } from "../support/database";
import { fixedReply, officialReply, startOpenAIStub, type OpenAIStub } from "../support/openai-stub";

process.env.C2W_SECRETS_KEY ??= randomBytes(32).toString("base64");

const actor = (role: Role): SessionUser => ({ id: `user-${role}`, email: `${role}@example.org`, name: null, role });
const admin = actor("admin");
const researcher = actor("researcher");

/** An endpoint whose own defaults are not the official judge parameters (a generation endpoint, say). */
function fields(baseUrl: string, label: string): EndpointFields {
  return { label, baseUrl, model: "stub-model", temperature: 0.7, maxTokens: 1024, concurrency: 4, rpm: null, tpm: null, timeoutMs: 60_000, inputPricePerMTok: null, outputPricePerMTok: null };
}

describe("judge job parameters", () => {
  const db = testDatabase();
  let stub: OpenAIStub;
  let runId: string;
  const worker = () => new JobWorker(db, new SqliteJobQueue(db, { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 40 }), [judgeJobHandler({ clientRetries: 0 })], { pollMs: 20, leaseMs: 5_000 });

  beforeAll(async () => {
    stub = await startOpenAIStub(fixedReply(officialReply("The key nodes are there.", true)));
  });
  afterAll(() => stub.close());

  beforeEach(async () => {
    await emptyDatabase(db);
    expect((await seedDemoData(db)).ok).toBe(true);
    runId = (await db.run.findFirstOrThrow({ where: { origin: "recorded", model: { name: "demo_alpha" } } })).id;
  });

  it("sends temperature 0 and max_tokens 8192 by default, not the endpoint's defaults, and stores them in the verdicts' identity", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL, "official-params"), null);
    const started = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false });
    if (!started.ok) throw new Error(started.message);
    const before = stub.requests.length;
    await worker().runUntilIdle();
    const sent = stub.requests.slice(before);
    expect(sent.length).toBe(started.items);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) {
      expect(request.body.temperature).toBe(0);
      expect(request.body.max_tokens).toBe(8192);
    }
    const verdicts = await db.judgeVerdict.findMany({ where: { judge: "official-params" } });
    expect(verdicts).toHaveLength(started.items);
    for (const verdict of verdicts) expect(JSON.parse(verdict.judgeIdentity ?? "{}").params).toEqual({ temperature: 0, max_tokens: 8192 });
    const detail = await getJobDetail(db, researcher, started.jobId);
    expect(detail?.params.calls).toBe("temperature 0, max_tokens 8192 (official); timeout 600 s per call");
  });

  it("sends the user's overrides when given, and says they are not the official ones", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL, "overridden"), null);
    const started = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false, temperature: 0.2, maxTokens: 2048 });
    if (!started.ok) throw new Error(started.message);
    const before = stub.requests.length;
    await worker().runUntilIdle();
    const sent = stub.requests.slice(before);
    expect(sent.length).toBe(started.items);
    for (const request of sent) expect([request.body.temperature, request.body.max_tokens]).toEqual([0.2, 2048]);
    const detail = await getJobDetail(db, researcher, started.jobId);
    expect(detail?.params.calls).toBe("temperature 0.2, max_tokens 2048 (not the official 0 / 8192); timeout 600 s per call");
  });

  it("gives each judge call the official client's 600 s instead of the endpoint's 60 s", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL, "slow-judge"), null);
    const entry = await judgeEndpointClients()(db, endpoint.id);
    expect(entry?.config.timeoutMs).toBe(60_000);
    expect(entry?.client.timeoutMs).toBe(600_000);
    expect(entry?.client.params).toEqual({ temperature: 0, max_tokens: 8192 });
  });
});
