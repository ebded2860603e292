// The behaviour every CallCache implementation owes judging (file, memory, database): a shared suite each
// implementation's test runs with its own factory, so a new store is checked against the same promises.
import { describe, expect, it } from "vitest";
import { callCacheKey, type CachedReply, type CallCache } from "@/lib/server/llm/cache";

const call = { endpoint: "http://127.0.0.1:9/v1", model: "m", params: { temperature: 0 }, messages: [{ role: "user" as const, content: "q" }], sample: 0 };
const reply: CachedReply = { content: "<result>true</result>", usage: { promptTokens: 3, completionTokens: 2 }, storedAt: "2026-01-01T00:00:00.000Z" };

/** `makeCache` returns a fresh, empty cache; `reopen` (optional) another instance over the same storage. */
export function describeCallCacheContract(name: string, makeCache: () => Promise<{ cache: CallCache; reopen?: () => CallCache }>): void {
  describe(`${name}: CallCache contract`, () => {
    it("answers a miss with null", async () => {
      const { cache } = await makeCache();
      expect(await cache.get(callCacheKey(call))).toBeNull();
    });

    it("returns what was put, under that key only", async () => {
      const { cache, reopen } = await makeCache();
      const key = callCacheKey(call);
      await cache.put(key, reply);
      expect(await cache.get(key)).toEqual(reply);
      expect(await cache.get(callCacheKey({ ...call, sample: 1 }))).toBeNull();
      if (reopen) expect(await reopen().get(key)).toEqual(reply);
    });

    it("replaces an entry when the same key is put again (a refreshed reply)", async () => {
      const { cache } = await makeCache();
      const key = callCacheKey(call);
      await cache.put(key, reply);
      const fresh = { ...reply, content: "<result>false</result>", storedAt: "2026-02-01T00:00:00.000Z" };
      await cache.put(key, fresh);
      expect(await cache.get(key)).toEqual(fresh);
    });
  });
}
