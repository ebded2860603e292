import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { FILL_HEADER, PageCache, pageBody, SqliteDataVersion } from "./page-cache";

const RENDER_NONCE = "renderNonce0123456789==";

function page(body: string, init: { status?: number; headers?: Record<string, string> } = {}) {
  return new Response(body, {
    status: init.status ?? 200,
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": `script-src 'nonce-${RENDER_NONCE}' 'strict-dynamic'`, ...init.headers },
  });
}

function harness(options: { maxBytes?: number; maxEntries?: number; maxAgeMs?: number } = {}) {
  let version: number | null = 1;
  const renders: { url: string; headers: Record<string, string> }[] = [];
  let next = (url: string) => page(`<script nonce="${RENDER_NONCE}">render ${renders.length - 1} of ${url}</script>`);
  const cache = new PageCache({ maxBytes: options.maxBytes ?? 1024 * 1024, maxAgeMs: options.maxAgeMs ?? 60_000, maxEntries: options.maxEntries ?? 1000 }, () => version, async (url, headers) => {
    renders.push({ url, headers });
    await new Promise((resolve) => setTimeout(resolve, 5));
    return next(url);
  });
  return {
    cache,
    renders,
    setVersion: (value: number | null) => (version = value),
    respondWith: (make: (url: string) => Response) => (next = make),
  };
}

describe("PageCache", () => {
  it("renders a page once for every reader waiting on it and serves each with its own nonce", async () => {
    const { cache, renders } = harness();
    const pages = await Promise.all(Array.from({ length: 20 }, () => cache.lookup("k", "/tasks/A", {})));
    expect(renders).toHaveLength(1);
    expect(renders[0]!.headers[FILL_HEADER]).toBe(cache.fillToken);
    const served = pageBody(pages[0]!, "freshNonceForReaderOne1").toString();
    expect(served).toBe(`<script nonce="freshNonceForReaderOne1">render 0 of /tasks/A</script>`);
    expect(served).not.toContain(RENDER_NONCE);
    await cache.lookup("k", "/tasks/A", {});
    expect(renders).toHaveLength(1);
  });

  it("renders again once the data version moves, and never serves the page of an older version", async () => {
    const { cache, renders, setVersion } = harness();
    await cache.lookup("k", "/runs", {});
    setVersion(2);
    const page2 = await cache.lookup("k", "/runs", {});
    expect(renders).toHaveLength(2);
    expect(pageBody(page2!, "freshNonceForReaderTwo2").toString()).toContain("render 1 of /runs");
  });

  it("stores nothing without a version source, and renders per request", async () => {
    const { cache, renders, setVersion } = harness();
    setVersion(null);
    expect(await cache.lookup("k", "/", {})).toBeNull();
    expect(renders).toHaveLength(0);
  });

  it("leaves errors, cookie-setting answers and pages without the nonce to the normal render", async () => {
    const { cache, renders, respondWith } = harness();
    respondWith(() => page("boom", { status: 500 }));
    expect(await cache.lookup("a", "/a", {})).toBeNull();
    respondWith(() => page(`<script nonce="${RENDER_NONCE}"></script>`, { headers: { "set-cookie": "x=1" } }));
    expect(await cache.lookup("b", "/b", {})).toBeNull();
    respondWith(() => page("<p>no nonce</p>"));
    expect(await cache.lookup("c", "/c", {})).toBeNull();
    // The refusal is remembered for this version: the next reader goes straight to the normal render.
    expect(await cache.lookup("a", "/a", {})).toBeNull();
    expect(renders).toHaveLength(3);
    expect(cache.size.entries).toBe(3);
  });

  it("keeps a stored redirect's status and relative Location", async () => {
    const { cache, respondWith } = harness();
    respondWith(() => page(`<script nonce="${RENDER_NONCE}"></script>`, { status: 307, headers: { location: "/?benchmark=b" } }));
    const stored = await cache.lookup("root", "/", {});
    expect(stored?.status).toBe(307);
    expect(stored?.headers).toContainEqual(["location", "/?benchmark=b"]);
  });

  it("evicts the least recently used pages to stay under its byte bound", async () => {
    const { cache, renders, respondWith } = harness({ maxBytes: 3 * 1024 });
    respondWith((url) => page(`<script nonce="${RENDER_NONCE}">${url}${"x".repeat(800)}</script>`));
    for (const key of ["1", "2", "3", "4", "5"]) await cache.lookup(key, `/${key}`, {});
    expect(cache.size.bytes).toBeLessThanOrEqual(3 * 1024);
    expect(cache.size.entries).toBeGreaterThan(0);
    await cache.lookup("5", "/5", {});
    expect(renders).toHaveLength(5);
    await cache.lookup("1", "/1", {});
    expect(renders).toHaveLength(6);
  });
});

describe("PageCache bounds and one-off answers", () => {
  it("serves a not-found answer to the readers that waited for its render, once, and keeps none of it", async () => {
    const { cache, renders, respondWith } = harness();
    respondWith(() => page(`<script nonce="${RENDER_NONCE}">not found</script>`, { status: 404 }));
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.lookup("missing", "/responses/none", {})));
    expect(renders).toHaveLength(1);
    expect(answers.map((answer) => [answer?.status, answer?.oneOff])).toEqual(Array.from({ length: 5 }, () => [404, true]));
    expect(pageBody(answers[0]!, "readerNonceForTheMiss01").toString()).toContain('nonce="readerNonceForTheMiss01"');
    // Later readers render it themselves (one render per request), and nothing of the page is kept.
    expect(await cache.lookup("missing", "/responses/none", {})).toBeNull();
    expect(renders).toHaveLength(1);
    expect(cache.size.bytes).toBeLessThan(1024);
  });

  it("stores an RSC payload, which carries no nonce, and sends the router's headers with its render", async () => {
    const { cache, renders, respondWith } = harness();
    respondWith(() => new Response('0:["$","div",null,{}]', { headers: { "content-type": "text/x-component", vary: "RSC, Next-Router-State-Tree" } }));
    const first = await cache.lookup("rsc-key", "/tasks/A?_rsc=abc", { rsc: "1", "next-router-state-tree": "tree", accept: "*/*" });
    expect(first?.headers).toContainEqual(["content-type", "text/x-component"]);
    expect(pageBody(first!, "anyNonceAtAll00000000").toString()).toBe('0:["$","div",null,{}]');
    expect(renders[0]!.headers).toMatchObject({ rsc: "1", "next-router-state-tree": "tree", accept: "*/*" });
    await cache.lookup("rsc-key", "/tasks/A?_rsc=abc", { rsc: "1" });
    expect(renders).toHaveLength(1);
  });

  it("counts each entry's key and headers, caps the entries and stays under its bound under a flood of unique URLs", async () => {
    const maxBytes = 2 * 1024 * 1024;
    const { cache, respondWith } = harness({ maxBytes, maxEntries: 300 });
    respondWith(() => page(`<script nonce="${RENDER_NONCE}">small</script>`));
    const filler = "q".repeat(3000);
    await cache.lookup(`/runs?x=${filler}`, `/runs?x=${filler}`, {});
    // One entry costs at least its key (two bytes a character) and its body.
    expect(cache.size.bytes).toBeGreaterThan(2 * (filler.length + 8));
    for (let i = 0; i < 600; i++) await cache.lookup(`/runs?x=${i}${filler}`, `/runs?x=${i}${filler}`, {});
    expect(cache.size.entries).toBeLessThanOrEqual(300);
    expect(cache.size.bytes).toBeLessThanOrEqual(maxBytes);
    // A key longer than any real URL is not stored at all.
    const huge = "z".repeat(15_000);
    expect(await cache.lookup(huge, `/runs?x=${huge}`, {})).toBeNull();
  });

  it("holds no more memory than its bound (within its own overhead) after a flood of unique URLs", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const maxBytes = 4 * 1024 * 1024;
    const { cache, respondWith } = harness({ maxBytes, maxEntries: 5000 });
    // Redirects of long unique URLs: a small body, and the URL twice (the key and the Location header).
    respondWith((url) => page(`<script nonce="${RENDER_NONCE}"></script>`, { status: 307, headers: { location: `${url}&benchmark=b` } }));
    const filler = "u".repeat(4000);
    gc();
    const before = process.memoryUsage();
    for (let i = 0; i < 1200; i++) await cache.lookup(`/tasks?f=${i}-${filler}`, `/tasks?f=${i}-${filler}`, {});
    gc();
    const after = process.memoryUsage();
    const held = after.heapUsed - before.heapUsed + (after.arrayBuffers - before.arrayBuffers);
    expect(cache.size.bytes).toBeLessThanOrEqual(maxBytes);
    expect(cache.size.entries).toBeGreaterThan(50);
    expect(held).toBeLessThan(2 * maxBytes);
  });

  it("drops entries past their age even when no one asks for them again", async () => {
    const { cache } = harness({ maxAgeMs: 50 });
    await cache.lookup("old", "/old", {});
    expect(cache.size.entries).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await cache.lookup("new", "/new", {});
    expect(cache.size.entries).toBe(1);
  });
});

describe("SqliteDataVersion", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("moves when another connection commits and stays put otherwise", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "page-cache-"));
    dirs.push(dir);
    const file = path.join(dir, "db.sqlite");
    const writer = new BetterSqlite3(file);
    writer.pragma("journal_mode = WAL");
    writer.exec("CREATE TABLE t (x INTEGER)");
    const source = new SqliteDataVersion(file);
    const before = source.read();
    expect(before).not.toBeNull();
    expect(source.read()).toBe(before);
    writer.exec("UPDATE t SET x = 1 WHERE x = 42");
    expect(source.read()).toBe(before);
    writer.exec("INSERT INTO t VALUES (1)");
    expect(source.read()).not.toBe(before);
    writer.close();
  });

  it("reports no version for a missing database file", () => {
    expect(new SqliteDataVersion(path.join(tmpdir(), "no-such-dir-page-cache", "db.sqlite")).read()).toBeNull();
  });
});
