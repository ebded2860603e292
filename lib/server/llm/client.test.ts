import { afterEach, describe, expect, it } from "vitest";
import {
  faultsThen,
  fixedReply,
  malformedBody,
  rateLimited,
  serverError,
  slowReply,
  startOpenAIStub,
  type OpenAIStub,
  type StubHandler,
} from "@/test/support/openai-stub";
import { createChatClient, retryAfterMs, type LlmEndpoint } from "./client";
import { RateWindow } from "./limits";

const OK = "<reason>fine</reason><result>true</result>";
const messages = [
  { role: "system" as const, content: "You judge." },
  { role: "user" as const, content: "Is it fine?" },
];

let stub: OpenAIStub | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});

async function start(handler: StubHandler): Promise<OpenAIStub> {
  stub = await startOpenAIStub(handler);
  return stub;
}

/** A client whose backoff sleeps are recorded and skipped, so retry tests take no wall time. */
function clientFor(server: OpenAIStub, endpoint: Partial<LlmEndpoint> = {}) {
  const sleeps: number[] = [];
  const client = createChatClient(
    { baseURL: server.baseURL, model: "stub-judge", params: { temperature: 0, max_tokens: 64 }, ...endpoint },
    { sleep: async (ms) => void sleeps.push(ms), random: () => 1 },
  );
  return { client, sleeps };
}

describe("createChatClient against the loopback stub", () => {
  it("sends the model, messages and parameters and returns the reply with usage", async () => {
    const server = await start(fixedReply(OK));
    const { client } = clientFor(server);
    const outcome = await client.complete(messages);
    expect(outcome).toMatchObject({ ok: true, content: OK, attempts: 1, finishReason: "stop" });
    expect(outcome.ok && outcome.usage?.promptTokens).toBeGreaterThan(0);
    expect(server.requests[0]).toMatchObject({ model: "stub-judge", messages, body: { temperature: 0, max_tokens: 64 } });
    expect(client.usage()).toMatchObject({ calls: 1, succeeded: 1, failed: 0, retries: 0 });
    expect(client.usage().promptTokens).toBeGreaterThan(0);
  });

  it("sends no Authorization header without a key, and the bearer key when given one", async () => {
    const server = await start(fixedReply(OK));
    await clientFor(server).client.complete(messages);
    await clientFor(server, { apiKey: "sk-test-123" }).client.complete(messages);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[1]?.headers.authorization).toBe("Bearer sk-test-123");
  });

  it("waits as long as Retry-After asks on 429 and 503, then succeeds", async () => {
    const server = await start(faultsThen([rateLimited("3"), serverError(503, { "retry-after": "1.5" })], fixedReply(OK)));
    const { client, sleeps } = clientFor(server);
    const outcome = await client.complete(messages);
    expect(outcome).toMatchObject({ ok: true, content: OK, attempts: 3 });
    expect(sleeps).toEqual([3000, 1500]);
    expect(server.calls).toBe(3);
    expect(client.usage()).toMatchObject({ calls: 3, retries: 2, rateLimited: 1, succeeded: 1 });
  });

  it("backs off exponentially on 5xx without Retry-After", async () => {
    const server = await start(faultsThen([serverError(500), serverError(502), serverError(500)], fixedReply(OK)));
    const { client, sleeps } = clientFor(server, { backoffBaseMs: 100, backoffMaxMs: 250 });
    expect((await client.complete(messages)).ok).toBe(true);
    expect(sleeps).toEqual([100, 200, 250]);
  });

  it("returns a rate-limited error (not a reply) once retries run out, having made exactly 1 + maxRetries calls", async () => {
    const server = await start(() => rateLimited("1"));
    const { client, sleeps } = clientFor(server, { maxRetries: 2 });
    const outcome = await client.complete(messages);
    expect(outcome).toMatchObject({ ok: false, attempts: 3, error: { kind: "rate-limited", status: 429 } });
    expect(server.calls).toBe(3);
    expect(sleeps).toEqual([1000, 1000]);
    expect(client.usage()).toMatchObject({ calls: 3, failed: 1, succeeded: 0 });
  });

  it("gives up at once when Retry-After is longer than it is willing to wait", async () => {
    const server = await start(() => rateLimited("600"));
    const { client, sleeps } = clientFor(server, { maxRetryAfterMs: 60_000 });
    const outcome = await client.complete(messages);
    expect(outcome).toMatchObject({ ok: false, attempts: 1, error: { kind: "rate-limited" } });
    expect(!outcome.ok && outcome.error.message).toMatch(/600 s/);
    expect(sleeps).toEqual([]);
  });

  it("times out a slow reply, retries, and reports a timeout", async () => {
    const server = await start(() => slowReply(1_000));
    const { client } = clientFor(server, { timeoutMs: 100, maxRetries: 1 });
    const started = Date.now();
    const outcome = await client.complete(messages);
    expect(outcome).toMatchObject({ ok: false, attempts: 2, error: { kind: "timeout" } });
    expect(Date.now() - started).toBeLessThan(900);
    expect(server.calls).toBe(2);
  });

  it("fails a timed-out call at once when asked not to retry timeouts (the agentic protocol), still retrying 5xx", async () => {
    const server = await start(faultsThen([serverError(503)], () => slowReply(1_000)));
    const { client } = clientFor(server, { timeoutMs: 100, maxRetries: 3 });
    const outcome = await client.complete(messages, { retryTimeouts: false });
    expect(outcome).toMatchObject({ ok: false, attempts: 2, error: { kind: "timeout" } });
    expect(server.calls).toBe(2);
  });

  it("retries a malformed body and a reply without text, then reports malformed-response", async () => {
    const server = await start(faultsThen([malformedBody], () => ({ kind: "reply", content: null })));
    const { client } = clientFor(server, { maxRetries: 2 });
    const outcome = await client.complete(messages);
    expect(outcome).toMatchObject({ ok: false, attempts: 3, error: { kind: "malformed-response" } });
  });

  it("does not retry a 400 or 401", async () => {
    const server = await start(() => ({ kind: "error", status: 401, message: "bad key" }));
    const { client } = clientFor(server);
    expect(await client.complete(messages)).toMatchObject({ ok: false, attempts: 1, error: { kind: "client-error", status: 401 } });
    expect(server.calls).toBe(1);
  });

  it("reports a refused connection as an error", async () => {
    const server = await start(fixedReply(OK));
    const baseURL = server.baseURL;
    await server.close();
    stub = null;
    const client = createChatClient({ baseURL, model: "m", maxRetries: 1 }, { sleep: async () => {} });
    expect(await client.complete(messages)).toMatchObject({ ok: false, attempts: 2, error: { kind: "connection" } });
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const server = await start(async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 30));
      inFlight -= 1;
      return { kind: "reply", content: OK };
    });
    const { client } = clientFor(server, { concurrency: 3 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => client.complete(messages)));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(10);
    expect(peak).toBe(3);
  });

  it("stops a call in flight when its signal aborts, without retrying", async () => {
    const server = await start(() => slowReply(2_000));
    const { client } = clientFor(server);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const outcome = await client.complete(messages, { signal: controller.signal });
    expect(outcome).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.calls).toBe(1);
  });
});

describe("retryAfterMs", () => {
  it("reads retry-after-ms, seconds and HTTP dates", () => {
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250" }))).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after": "Wed, 21 Oct 2026 07:28:10 GMT" }), Date.parse("Wed, 21 Oct 2026 07:28:00 GMT"))).toBe(10_000);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }))).toBeNull();
    expect(retryAfterMs(new Headers())).toBeNull();
  });
});

/** Stands in for the window's long waits: yields briefly so the test can move the clock. */
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe("RateWindow", () => {
  it("admits at most rpm requests per sliding minute", async () => {
    let now = 0;
    const window = new RateWindow(2, null, () => now, tick);
    await window.acquire(1);
    await window.acquire(1);
    let third = false;
    const pending = window.acquire(1).then(() => (third = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(third).toBe(false);
    now = 60_000;
    await pending;
    expect(third).toBe(true);
  });

  it("admits calls while their tokens fit the per-minute budget, and settles with real usage", async () => {
    let now = 0;
    const window = new RateWindow(null, 100, () => now, tick);
    const first = await window.acquire(80);
    first.settle(10);
    await window.acquire(80);
    let admitted = false;
    const pending = window.acquire(50).then(() => (admitted = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(admitted).toBe(false);
    now = 60_001;
    await pending;
    expect(admitted).toBe(true);
  });
});
