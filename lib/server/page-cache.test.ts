import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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

function harness(options: { maxBytes?: number } = {}) {
  let version: number | null = 1;
  const renders: { url: string; headers: Record<string, string> }[] = [];
  let next = (url: string) => page(`<script nonce="${RENDER_NONCE}">render ${renders.length - 1} of ${url}</script>`);
  const cache = new PageCache({ maxBytes: options.maxBytes ?? 1024 * 1024, maxAgeMs: 60_000 }, () => version, async (url, headers) => {
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
