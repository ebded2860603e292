import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeCallCacheContract } from "@/test/support/call-cache-contract";
import { callCacheKey, fileCallCache, memoryCallCache } from "./cache";

const call = { endpoint: "http://127.0.0.1:9/v1", model: "m", params: { temperature: 0 }, messages: [{ role: "user" as const, content: "q" }], sample: 0 };
const reply = { content: "<result>true</result>", usage: { promptTokens: 3, completionTokens: 2 }, storedAt: "2026-01-01T00:00:00.000Z" };

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "call-cache-"));
  dirs.push(dir);
  return dir;
}

describe("fileCallCache", () => {
  it("stores a reply under its content address and reads it back in another instance", async () => {
    const dir = await scratch();
    const key = callCacheKey(call);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(callCacheKey({ ...call, sample: 1 })).not.toBe(key);
    await fileCallCache(dir).put(key, reply);
    expect(await fileCallCache(dir).get(key)).toEqual(reply);
    expect(await readdir(path.join(dir, key.slice(0, 2)))).toEqual([`${key}.json`]);
  });

  it("answers a miss, and an unreadable entry, with null", async () => {
    const dir = await scratch();
    const key = callCacheKey(call);
    const cache = fileCallCache(dir);
    expect(await cache.get(key)).toBeNull();
    await cache.put(key, reply);
    await writeFile(path.join(dir, key.slice(0, 2), `${key}.json`), "{not json");
    expect(await cache.get(key)).toBeNull();
  });

  it("refuses keys that are not SHA-256 hex, so no key can name a path outside the directory", async () => {
    const cache = fileCallCache(await scratch());
    await expect(cache.put("../../etc/passwd", reply)).rejects.toThrow(/not a call-cache key/);
  });
});

describeCallCacheContract("fileCallCache", async () => {
  const dir = await scratch();
  return { cache: fileCallCache(dir), reopen: () => fileCallCache(dir) };
});

describeCallCacheContract("memoryCallCache", async () => ({ cache: memoryCallCache() }));
