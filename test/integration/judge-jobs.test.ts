// Judging stored runs on durable jobs against a loopback OpenAI-compatible stub: verdict rows, the database call
// cache, retries that end as item errors, cancel/pause, and keys that never leave the server.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/roles";
import { AuthorizationError } from "@/lib/server/authz";
import { seedDemoData } from "@/lib/server/demo-data";
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, testEndpointConnection, updateEndpoint, type EndpointFields } from "@/lib/server/endpoints/endpoints";
import { controlJob, getJobDetail, listJobs } from "@/lib/server/jobs/jobs-data";
import { judgeJobHandler, startJudgeJob } from "@/lib/server/jobs/judge-job";
import { SqliteJobQueue } from "@/lib/server/jobs/sqlite-queue";
import { JobWorker } from "@/lib/server/jobs/worker";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase } from "../support/database";
import { startDeliveryCountingStub, type DeliveryCountingStub } from "../support/delivery-counting-stub";

process.env.C2W_SECRETS_KEY ??= randomBytes(32).toString("base64");

const actor = (role: Role): SessionUser => ({ id: `user-${role}`, email: `${role}@example.org`, name: null, role });
const admin = actor("admin");
const researcher = actor("researcher");
const API_KEY = "sk-test-judge-0123456789abcdefWXYZ";
const PASS = "<reason>The workflow follows the design.</reason>\n<result>\ntrue\n</result>";
const FAIL = "<reason>A key node is missing.</reason>\n<result>\nfalse\n</result>";

function fields(baseUrl: string, overrides: Partial<EndpointFields> = {}): EndpointFields {
  return {
    label: "stub-judge",
    baseUrl,
    model: "stub-model",
    temperature: 0,
    maxTokens: null,
    concurrency: 4,
    rpm: null,
    tpm: null,
    timeoutMs: 10_000,
    inputPricePerMTok: 1,
    outputPricePerMTok: 4,
    ...overrides,
  };
}

describe("judge jobs", () => {
  const db = testDatabase();
  let stub: DeliveryCountingStub;
  let runId: string;

  // Fast retries so the fault tests take milliseconds; the policy's shape is what production uses.
  const queue = () => new SqliteJobQueue(db, { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 40 });
  const worker = () => new JobWorker(db, queue(), [judgeJobHandler({ clientRetries: 1, clientBackoffBaseMs: 5 })], { pollMs: 20, leaseMs: 5_000 });

  beforeAll(async () => {
    stub = await startDeliveryCountingStub((call) => ({ kind: "reply", content: call.userMessage.includes("gt_nodes") ? PASS : FAIL }));
  });
  afterAll(() => stub.close());

  beforeEach(async () => {
    await emptyDatabase(db);
    const seeded = await seedDemoData(db);
    expect(seeded.ok).toBe(true);
    const run = await db.run.findFirstOrThrow({ where: { origin: "recorded", model: { name: "demo_alpha" } } });
    runId = run.id;
    stub.received.length = 0;
    stub.delivered.clear();
    stub.setHandler((call) => ({ kind: "reply", content: call.userMessage.includes("gt_nodes") ? PASS : FAIL }));
  });

  it("stores one verdict per eligible turn with the judge's identity, and a second identical job makes zero HTTP calls", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL), API_KEY);
    const first = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    await worker().runUntilIdle();

    const eligible = await db.passResult.count({
      where: { response: { runId }, OR: [{ recordedValid: true }, { recordedFailStep: { in: ["step_1_4", "step_1_5"] } }] },
    });
    expect(eligible).toBeGreaterThan(0);
    expect(first.items).toBe(eligible);
    expect(stub.received).toHaveLength(eligible);
    expect(stub.received.filter((call) => !(call.authorization === `Bearer ${API_KEY}`))).toEqual([]);

    const verdicts = await db.judgeVerdict.findMany({ where: { judge: "stub-judge", stage: "pass" } });
    expect(verdicts).toHaveLength(eligible);
    for (const verdict of verdicts) {
      expect(verdict).toMatchObject({ verdict: true, wellFormed: true, sampleIndex: 0, jobId: first.jobId, rawOutput: PASS, reason: "The workflow follows the design." });
      expect(JSON.parse(verdict.judgeIdentity ?? "{}")).toMatchObject({ model: "stub-model", strict: false, params: { temperature: 0 } });
      expect(verdict.inputFingerprint).toMatch(/^[0-9a-f]{64}$/);
    }
    const firstJob = await getJobDetail(db, researcher, first.jobId);
    expect(firstJob).toMatchObject({ status: "succeeded", done: eligible, failed: 0, remaining: 0, calls: eligible, cachedCalls: 0 });
    expect(firstJob?.inputTokens).toBe(100 * eligible);
    expect(firstJob?.cost).toBeCloseTo((eligible * (100 * 1 + 20 * 4)) / 1_000_000, 12);

    const second = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false });
    if (!second.ok) throw new Error(second.message);
    await worker().runUntilIdle();
    expect(stub.received).toHaveLength(eligible);
    expect(await getJobDetail(db, researcher, second.jobId)).toMatchObject({ status: "succeeded", done: eligible, calls: 0, cachedCalls: eligible, cost: 0 });

    // "refresh" bypasses the cache: every question is asked again.
    const refreshed = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: true });
    if (!refreshed.ok) throw new Error(refreshed.message);
    await worker().runUntilIdle();
    expect(stub.received).toHaveLength(2 * eligible);
  });

  it("judges the resolve stage K times per stored test case, one row per sample", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL, { label: "resolver" }), null);
    const cases = await db.caseResult.count({ where: { response: { runId }, outputs: { not: null } } });
    expect(cases).toBeGreaterThan(0);
    const started = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "resolve", samples: 3, strict: false, refresh: false });
    if (!started.ok) throw new Error(started.message);
    expect(started.items).toBe(3 * cases);
    await worker().runUntilIdle();
    const rows = await db.judgeVerdict.findMany({ where: { judge: "resolver", stage: "resolve" }, orderBy: [{ responseId: "asc" }, { casePosition: "asc" }, { sampleIndex: "asc" }] });
    expect(rows).toHaveLength(3 * cases);
    expect(new Set(rows.map((row) => row.sampleIndex))).toEqual(new Set([0, 1, 2]));
    expect(rows.filter((row) => !(row.verdict === false && row.casePosition >= 1 && row.casePosition <= 3))).toEqual([]);
    // Without a key no Authorization header is sent (local servers need none).
    expect(stub.received.length).toBeGreaterThan(0);
    expect(stub.received.filter((call) => !(call.authorization === undefined))).toEqual([]);
  });

  it("retries 429 after its Retry-After and records a verdict once the endpoint answers", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL, { concurrency: 1 }), null);
    stub.setHandler((call, index) =>
      index === 0 ? { kind: "error", status: 429, headers: { "retry-after": "1" } } : { kind: "reply", content: call.userMessage.includes("gt_nodes") ? PASS : FAIL },
    );
    const started = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false });
    if (!started.ok) throw new Error(started.message);
    await worker().runUntilIdle();
    const [limited, retried] = stub.received;
    expect(limited && retried && retried.question === limited.question).toBe(true);
    expect((retried?.receivedAt ?? 0) - (limited?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950);
    expect(await getJobDetail(db, researcher, started.jobId)).toMatchObject({ status: "succeeded", done: started.items, failed: 0 });
  });

  it("when the client's retries are spent, the queue holds the endpoint's items until its Retry-After", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL, { concurrency: 2 }), null);
    stub.setHandler((call, index) =>
      index === 0 ? { kind: "error", status: 429, headers: { "retry-after": "2" } } : { kind: "reply", content: call.userMessage.includes("gt_nodes") ? PASS : FAIL, delayMs: 5 },
    );
    const started = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false });
    if (!started.ok) throw new Error(started.message);
    const rateLimitedQueue = new SqliteJobQueue(db, { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40 });
    await new JobWorker(db, rateLimitedQueue, [judgeJobHandler({ clientRetries: 0 })], { pollMs: 20, leaseMs: 5_000 }).runUntilIdle();
    const first = stub.received[0]!;
    const retried = stub.received.find((call, index) => index > 0 && call.question === first.question);
    expect(retried && retried.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1_900);
    // Besides the request already in flight beside it, nothing was sent while the endpoint asked to wait.
    const duringWait = stub.received.filter((call) => call.receivedAt > first.receivedAt + 200 && call.receivedAt < first.receivedAt + 1_900);
    expect(duringWait).toEqual([]);
    expect(stub.received).toHaveLength(started.items + 1);
    expect(await getJobDetail(db, researcher, started.jobId)).toMatchObject({ status: "succeeded", done: started.items, failed: 0 });
  });

  it("records 5xx and 429 that never stop as item errors with their messages, never as verdicts", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL), API_KEY);
    stub.setHandler((_call, index) => (index % 2 === 0 ? { kind: "error", status: 503 } : { kind: "error", status: 429, headers: { "retry-after": "0" } }));
    const started = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false });
    if (!started.ok) throw new Error(started.message);
    await worker().runUntilIdle();
    expect(await db.judgeVerdict.count({ where: { judge: "stub-judge" } })).toBe(0);
    const detail = await getJobDetail(db, researcher, started.jobId);
    expect(detail).toMatchObject({ status: "failed", done: 0, failed: started.items, remaining: 0 });
    expect(detail?.errors.length).toBe(Math.min(started.items, 50));
    expect(detail?.errors.filter((item) => !(/(server-error \(HTTP 503\)|rate-limited \(HTTP 429\))/.test(item.error) && item.attempts === 2))).toEqual([]);
    // 2 item attempts × (1 call + 1 client retry) per item.
    expect(stub.received).toHaveLength(started.items * 4);
    expect(JSON.stringify(detail)).not.toContain(API_KEY);
  });

  it("cancel stops within one item; pause holds the job until resumed", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL, { concurrency: 1 }), null);
    const started = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false });
    if (!started.ok) throw new Error(started.message);
    expect(started.items).toBeGreaterThan(3);
    let callsAtCancel = -1;
    stub.setHandler((_call, index) => {
      if (index === 1) {
        callsAtCancel = index + 1;
        void controlJob(db, researcher, started.jobId, "cancel");
      }
      return { kind: "reply", content: PASS, delayMs: 50 };
    });
    await worker().runUntilIdle();
    expect(stub.received.length - callsAtCancel).toBeLessThanOrEqual(1);
    const cancelled = await getJobDetail(db, researcher, started.jobId);
    expect(cancelled?.status).toBe("cancelled");
    expect(await db.jobItem.count({ where: { jobId: started.jobId, status: "cancelled" } })).toBeGreaterThanOrEqual(started.items - 3);

    stub.setHandler(() => ({ kind: "reply", content: PASS }));
    const paused = await startJudgeJob(db, researcher, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: true });
    if (!paused.ok) throw new Error(paused.message);
    expect(await controlJob(db, researcher, paused.jobId, "pause")).toBe(true);
    const before = stub.received.length;
    await worker().runUntilIdle();
    expect(stub.received.length).toBe(before);
    expect(await controlJob(db, researcher, paused.jobId, "resume")).toBe(true);
    await worker().runUntilIdle();
    expect(await getJobDetail(db, researcher, paused.jobId)).toMatchObject({ status: "succeeded", done: paused.items });
  });

  it("never shows a stored key: views, job details and errors hold at most its last 4 characters", async () => {
    const created = await createEndpoint(db, admin, fields("http://127.0.0.1:9/v1"), API_KEY);
    const row = await db.modelEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.apiKeyCipher).not.toContain(API_KEY);
    expect(row.apiKeyCipher).not.toContain(API_KEY.slice(3, 20));
    expect(created).toMatchObject({ hasApiKey: true, apiKeyHint: "WXYZ" });
    const shown = JSON.stringify([created, await listEndpoints(db, researcher), await getEndpoint(db, admin, created.id)]);
    expect(shown).not.toContain(API_KEY);
    expect(shown).not.toContain("apiKeyCipher");
    const kept = await updateEndpoint(db, admin, created.id, fields("http://127.0.0.1:9/v1", { label: "renamed" }), "keep");
    expect(kept).toMatchObject({ label: "renamed", hasApiKey: true });
    const cleared = await updateEndpoint(db, admin, created.id, fields("http://127.0.0.1:9/v1"), "clear");
    expect(cleared).toMatchObject({ hasApiKey: false, apiKeyHint: null });
    // A refused connection is reported, not thrown, and without the key.
    await updateEndpoint(db, admin, created.id, fields("http://127.0.0.1:9/v1", { timeoutMs: 2_000 }), { set: API_KEY });
    const test = await testEndpointConnection(db, admin, created.id);
    expect(test?.ok).toBe(false);
    expect(test?.message).not.toContain(API_KEY);
  });

  it("authorizes every action per role", async () => {
    const endpoint = await createEndpoint(db, admin, fields(stub.baseURL), null);
    const started = await startJudgeJob(db, admin, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false });
    if (!started.ok) throw new Error(started.message);
    const actions: Record<string, (user: SessionUser | null) => Promise<unknown>> = {
      createEndpoint: (user) => createEndpoint(db, user as SessionUser, fields(stub.baseURL, { label: `x-${user?.role}` }), null),
      updateEndpoint: (user) => updateEndpoint(db, user as SessionUser, endpoint.id, fields(stub.baseURL), "keep"),
      testEndpoint: (user) => testEndpointConnection(db, user as SessionUser, "missing"),
      deleteEndpoint: (user) => deleteEndpoint(db, user as SessionUser, "missing"),
      listEndpoints: (user) => listEndpoints(db, user),
      startJudgeJob: (user) => startJudgeJob(db, user as SessionUser, { runId, endpointId: endpoint.id, stage: "pass", samples: 1, strict: false, refresh: false }),
      listJobs: (user) => listJobs(db, user),
      getJobDetail: (user) => getJobDetail(db, user, started.jobId),
      pauseJob: (user) => controlJob(db, user, started.jobId, "pause"),
      resumeJob: (user) => controlJob(db, user, started.jobId, "resume"),
      cancelJob: (user) => controlJob(db, user, "missing", "cancel"),
    };
    const allowed: Record<string, readonly (Role | "anonymous")[]> = {
      createEndpoint: ["admin"],
      updateEndpoint: ["admin"],
      testEndpoint: ["admin"],
      deleteEndpoint: ["admin"],
      listEndpoints: ["admin", "researcher"],
      startJudgeJob: ["admin", "researcher"],
      listJobs: ["admin", "researcher"],
      getJobDetail: ["admin", "researcher"],
      pauseJob: ["admin", "researcher"],
      resumeJob: ["admin", "researcher"],
      cancelJob: ["admin", "researcher"],
    };
    for (const [name, call] of Object.entries(actions)) {
      for (const role of ["admin", "researcher", "annotator", "viewer", "anonymous"] as const) {
        const user = role === "anonymous" ? null : actor(role);
        const attempt = call(user).then(
          () => "allowed",
          (error: unknown) => (error instanceof AuthorizationError ? "refused" : `threw ${String(error)}`),
        );
        expect(`${name} as ${role}: ${await attempt}`).toBe(`${name} as ${role}: ${allowed[name]?.includes(role) ? "allowed" : "refused"}`);
      }
    }
  });
});
