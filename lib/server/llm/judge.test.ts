import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { judgeMessages, passUserMessage, STRICT_REASK_TEXT, type JudgeItem } from "@/lib/judge";
import { faultsThen, fixedReply, officialReply, rateLimited, serverError, slowReply, startOpenAIStub, type OpenAIStub, type StubHandler } from "@/test/support/openai-stub";
import { fileCallCache, memoryCallCache } from "./cache";
import { createChatClient, type LlmEndpoint } from "./client";
import { judgeIdentity, judgeItems, promptFingerprint } from "./judge";

function item(n: number): JudgeItem {
  const user = passUserMessage({ nodeSelection: `Start\nLLM ${n}\nEnd`, designPrinciple: "d", workflow: "{}", keyNodes: ["llm"] });
  return {
    key: `m/T_${n}`,
    stage: "pass",
    model: "m",
    task: "T",
    round: n,
    test: null,
    messages: judgeMessages("You judge.", user),
    recorded: n % 2 === 0,
    inputMaterial: `input ${n}`,
  };
}
const items = (count: number) => Array.from({ length: count }, (_, i) => item(i + 1));

let stub: OpenAIStub | null = null;
const temporary: string[] = [];
afterEach(async () => {
  await stub?.close();
  stub = null;
  for (const dir of temporary.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function setup(handler: StubHandler, endpoint: Partial<LlmEndpoint> = {}) {
  stub = await startOpenAIStub(handler);
  const client = createChatClient({ baseURL: stub.baseURL, model: "stub-judge", params: { temperature: 0, max_tokens: 8192 }, ...endpoint }, { sleep: async () => {} });
  return { server: stub, client };
}

/** A verdict derived from the round in the prompt, so each item has its own expected answer. */
const byRound: StubHandler = (request) => {
  const round = Number(/LLM (\d+)/.exec(request.messages[1]?.content ?? "")?.[1]);
  return { kind: "reply", content: officialReply(`round ${round}`, round % 3 !== 0) };
};

describe("judgeItems", () => {
  it("judges every item with the official reading, in item order, and counts calls and tokens", async () => {
    const { client } = await setup(byRound, { concurrency: 4 });
    const run = await judgeItems(items(9), { client });
    expect(run.results.map((judged) => judged.item.key)).toEqual(items(9).map((entry) => entry.key));
    expect(run.results.map((judged) => judged.verdict)).toEqual([true, true, false, true, true, false, true, true, false]);
    expect(run.results.filter((judged) => !(judged.samples[0]?.wellFormed === true && judged.samples[0].reason === "round " + judged.item.round)).map((judged) => judged.item.key)).toEqual([]);
    expect(run).toMatchObject({ calls: 9, cacheHits: 0, cancelled: false });
    expect(run.promptTokens).toBeGreaterThan(0);
  });

  it("makes zero HTTP calls the second time with the same cache directory", async () => {
    const { server, client } = await setup(byRound);
    const dir = await mkdtemp(path.join(os.tmpdir(), "judge-cache-"));
    temporary.push(dir);
    const first = await judgeItems(items(5), { client, cache: fileCallCache(dir), samples: 2 });
    expect(first.calls).toBe(10);
    expect(server.calls).toBe(10);
    const second = await judgeItems(items(5), { client, cache: fileCallCache(dir), samples: 2 });
    expect(server.calls).toBe(10);
    expect(second).toMatchObject({ calls: 0, cacheHits: 10 });
    expect(second.results.map((judged) => judged.verdict)).toEqual(first.results.map((judged) => judged.verdict));
    expect(second.results.filter((judged) => !judged.cached).map((judged) => judged.item.key)).toEqual([]);
    expect((await readdir(dir)).length).toBeGreaterThan(0);
    const refreshed = await judgeItems(items(1), { client, cache: fileCallCache(dir), refresh: true });
    expect(refreshed.calls).toBe(1);
  });

  it("asks each sample separately and takes the majority, a tie counting as a fail", async () => {
    const answers = [true, false, true, true, false];
    let index = 0;
    const { client } = await setup(() => ({ kind: "reply", content: officialReply("r", answers[index++ % answers.length] as boolean) }), { concurrency: 1 });
    const three = await judgeItems(items(1), { client, samples: 3 });
    expect(three.results[0]?.samples.map((sample) => sample.verdict)).toEqual([true, false, true]);
    expect(three.results[0]?.majority).toMatchObject({ verdict: true, pass: 2, fail: 1 });
    const two = await judgeItems([item(7)], { client, samples: 2 });
    expect(two.results[0]?.samples.map((sample) => sample.verdict)).toEqual([true, false]);
    expect(two.results[0]).toMatchObject({ verdict: false, majority: { tie: true } });
  });

  it("records 429 and 5xx that outlast the retries as errors, never as verdicts", async () => {
    const { server, client } = await setup((request) => {
      const round = Number(/LLM (\d+)/.exec(request.messages[1]?.content ?? "")?.[1]);
      if (round === 1) return rateLimited("1");
      if (round === 2) return serverError(503);
      return { kind: "reply", content: officialReply("ok", true) };
    }, { maxRetries: 2, concurrency: 1 });
    const cache = memoryCallCache();
    const run = await judgeItems(items(3), { client, cache });
    expect(run.results.map((judged) => [judged.verdict, judged.error?.kind ?? null])).toEqual([
      [null, "rate-limited"],
      [null, "server-error"],
      [true, null],
    ]);
    expect(run.results[0]?.samples[0]).toMatchObject({ verdict: null, wellFormed: null, raw: null, calls: 3 });
    expect(run.calls).toBe(7);
    expect(server.calls).toBe(7);
    expect(cache.size).toBe(1);
  });

  it("retries a transient 429 and 500 and then judges", async () => {
    const { client } = await setup(faultsThen([rateLimited("1"), serverError(500)], fixedReply(officialReply("ok", false))), { concurrency: 1 });
    const run = await judgeItems(items(1), { client });
    expect(run.results[0]).toMatchObject({ verdict: false, error: null });
    expect(run.results[0]?.samples[0]?.calls).toBe(3);
  });

  it("records a timeout as an error", async () => {
    const { client } = await setup(() => slowReply(1_000), { timeoutMs: 50, maxRetries: 0 });
    const run = await judgeItems(items(1), { client });
    expect(run.results[0]).toMatchObject({ verdict: null, error: { kind: "timeout" } });
  });

  it("reads a malformed reply the official way by default and flags it", async () => {
    const { client } = await setup(fixedReply("I think it is fine."));
    const run = await judgeItems(items(1), { client });
    expect(run.results[0]).toMatchObject({ verdict: true, error: null });
    expect(run.results[0]?.samples[0]).toMatchObject({ wellFormed: false, reasks: 0, calls: 1 });
  });

  it("strict: re-asks after a malformed reply with the reply and a format request, then uses the well-formed answer", async () => {
    const { server, client } = await setup(faultsThen([{ kind: "reply", content: "It is fine." }], fixedReply(officialReply("Rule 1 fails.", false))));
    const run = await judgeItems(items(1), { client, strict: true });
    expect(run.results[0]).toMatchObject({ verdict: false, error: null });
    expect(run.results[0]?.samples[0]).toMatchObject({ wellFormed: true, reasks: 1, calls: 2, reason: "Rule 1 fails." });
    const reask = server.requests[1]?.messages ?? [];
    expect(reask).toHaveLength(4);
    expect(reask[2]).toEqual({ role: "assistant", content: "It is fine." });
    expect(reask[3]).toEqual({ role: "user", content: STRICT_REASK_TEXT });
  });

  it("strict: gives up after the bounded re-asks with no verdict", async () => {
    const { server, client } = await setup(fixedReply("no tags at all, false or not"));
    const run = await judgeItems(items(1), { client, strict: 2 });
    expect(run.results[0]).toMatchObject({ verdict: null, error: { kind: "malformed-reply" } });
    expect(run.results[0]?.samples[0]).toMatchObject({ reasks: 2, wellFormed: false });
    expect(server.calls).toBe(3);
  });

  it("cancel: starts nothing new and stops within one item", async () => {
    const { server, client } = await setup(() => ({ kind: "reply", content: officialReply("ok", true), delayMs: 100 }), { concurrency: 1 });
    const controller = new AbortController();
    const progress: number[] = [];
    const run = await judgeItems(items(20), {
      client,
      signal: controller.signal,
      onProgress: (update) => {
        progress.push(update.done);
        if (update.done === 2) controller.abort();
      },
    });
    expect(run.cancelled).toBe(true);
    expect(run.results).toHaveLength(2);
    expect(server.calls).toBeLessThanOrEqual(3);
    expect(progress).toEqual([1, 2]);
  });

  it("cancel: aborts the call in flight", async () => {
    const { client } = await setup(() => slowReply(5_000), { concurrency: 2 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const run = await judgeItems(items(4), { client, signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(run).toMatchObject({ cancelled: true, results: [] });
  });

  it("runs many calls on one caller's signal without listener-leak warnings", async () => {
    const { client } = await setup(() => ({ kind: "reply", content: officialReply("ok", true), delayMs: 20 }), { concurrency: 16 });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const run = await judgeItems(items(40), { client, signal: new AbortController().signal });
      expect(run.results).toHaveLength(40);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it("names the judge by endpoint, model, parameters, prompt fingerprint and strictness, never the key", async () => {
    const { client } = await setup(byRound, { apiKey: "sk-secret" });
    const identity = JSON.parse(judgeIdentity(client, promptFingerprint("PROMPT"), true)) as Record<string, unknown>;
    expect(identity).toEqual({ endpoint: client.endpoint, model: "stub-judge", params: { temperature: 0, max_tokens: 8192 }, promptFingerprint: promptFingerprint("PROMPT"), strict: true });
    expect(JSON.stringify(identity)).not.toContain("sk-secret");
    expect(promptFingerprint("PROMPT")).toMatch(/^[0-9a-f]{64}$/);
  });
});
