// Stores fully rendered public pages for anonymous readers, keyed by URL and the database's data version, and serves
// them with a fresh CSP nonce. Guarantees: a stored page is served only while no commit happened since it was
// rendered; each page is rendered once per version however many readers wait for it; memory stays under a bound.
//
// Runs inside proxy.ts (Node.js runtime), so it holds no Prisma client and no "server-only" import: it reads the
// version on a connection of its own. SQLite: a read-only connection, whose `PRAGMA data_version` changes whenever
// any other connection (this server's Prisma client, a CLI, a worker) commits. PostgreSQL: the current snapshot
// (`pg_current_snapshot()`), which changes whenever a transaction that wrote ends, on any app instance or worker; the
// read cache (lib/server/data/read-cache.ts) relies on the same fact. A miss renders the page through the app itself
// with one loopback request that carries FILL_HEADER, so the proxy lets it through; that request's nonce is swapped
// for a fresh one per reader.
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { databaseFilePath, isPostgresUrl, postgresConnectionConfig, resolveDatabaseUrl } from "@/lib/database-url";
import { nonceInPolicy, splitOnNonce } from "@/lib/page-cache";

export const FILL_HEADER = "x-studio-page-fill";
export const CACHE_STATUS_HEADER = "x-studio-page-cache";

/** Response headers a stored page keeps; security headers are rebuilt per reader. */
const KEPT_HEADERS = [
  "content-type",
  "cache-control",
  "vary",
  "location",
  "x-content-type-options",
  "referrer-policy",
  "x-frame-options",
  // What the client router reads from an RSC payload's answer.
  "x-nextjs-stale-time",
  "x-nextjs-postponed",
  "x-nextjs-prerender",
  "x-nextjs-rewritten-path",
  "x-nextjs-rewritten-query",
] as const;
/** A page bigger than this is rendered per request (response pages are bounded far below it). */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;
/** A key longer than this (a URL or router state made up to fill memory) is not stored. */
const MAX_KEY_CHARS = 4096;
/** Redirects (a URL without `?benchmark=`) are as stable as pages. */
const STORED_STATUSES = new Set([200, 307, 308]);
/** Answers served to the readers that waited for them but not kept: errors and not-found pages. */
const ONE_OFF_STATUSES = new Set([404, 410]);
/** How long before a failed version source is tried again. */
const REOPEN_AFTER_MS = 10_000;
/** What an entry costs beside its body and headers (the map slot, the objects). */
const ENTRY_OVERHEAD_BYTES = 256;

/** A data version: equal values mean no commit in between. */
type DataVersion = number | string;

interface StoredPage {
  kind: "page";
  version: DataVersion;
  storedAt: number;
  status: number;
  headers: [string, string][];
  /** The page split around its render-time nonce (one part when it carries none, as RSC payloads may). */
  parts: Buffer[];
  /** Everything the entry holds: body, headers and key, in bytes. */
  bytes: number;
  /** Not kept: served only to the readers that waited for its render. */
  oneOff?: boolean;
}

/** A URL whose answer cannot be stored at this version (error, cookie set, no nonce, too big): rendered per request. */
interface Unstorable {
  kind: "unstorable";
  version: DataVersion;
  storedAt: number;
  bytes: number;
}

type Entry = StoredPage | Unstorable;

export interface PageCacheOptions {
  maxBytes: number;
  maxAgeMs: number;
  /** Most entries kept, whatever their size. */
  maxEntries: number;
}

export function pageCacheOptions(env: Record<string, string | undefined> = process.env): PageCacheOptions | null {
  const megabytes = Number(env.PAGE_CACHE_MB ?? 64);
  const seconds = Number(env.PAGE_CACHE_MAX_AGE_S ?? 600);
  const entries = Number(env.PAGE_CACHE_MAX_ENTRIES ?? 5000);
  if (!Number.isFinite(megabytes) || megabytes <= 0) return null;
  return {
    maxBytes: Math.floor(megabytes * 1024 * 1024),
    maxAgeMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 600_000,
    maxEntries: Number.isFinite(entries) && entries > 0 ? Math.floor(entries) : 5000,
  };
}

/** Bytes of a string held in memory (V8 keeps most as one byte per character, some as two: count two). */
const stringBytes = (text: string) => text.length * 2;

/** The data version of a SQLite database file, read on a private read-only connection; null when unavailable. */
export class SqliteDataVersion {
  private connection: BetterSqlite3.Database | null = null;
  private failedAt = 0;

  constructor(private readonly file: string) {}

  read(): number | null {
    if (!this.connection) {
      if (Date.now() - this.failedAt < REOPEN_AFTER_MS) return null;
      try {
        this.connection = new BetterSqlite3(this.file, { readonly: true, fileMustExist: true });
      } catch {
        this.failedAt = Date.now();
        return null;
      }
    }
    try {
      return Number(this.connection.pragma("data_version", { simple: true }));
    } catch {
      this.connection.close();
      this.connection = null;
      this.failedAt = Date.now();
      return null;
    }
  }
}

/** The current snapshot of a PostgreSQL database, read on a connection of its own; null when unavailable. */
export class PostgresSnapshotVersion {
  private client: Promise<pg.Client> | null = null;
  private failedAt = 0;

  constructor(private readonly url: string) {}

  async read(): Promise<string | null> {
    if (!this.client) {
      if (Date.now() - this.failedAt < REOPEN_AFTER_MS) return null;
      this.client = this.connect();
    }
    try {
      // Asked per request, never shared between requests: a reader must see a version taken after it arrived.
      const result = await (await this.client).query<{ snapshot: string }>("SELECT pg_current_snapshot()::text AS snapshot");
      return result.rows[0]?.snapshot ?? null;
    } catch {
      this.drop();
      return null;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.then((connected) => connected.end()).catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ ...postgresConnectionConfig(this.url), application_name: "studio page store" });
    // A server restart or a dropped connection: the next read reconnects (after REOPEN_AFTER_MS).
    client.on("error", () => this.drop());
    await client.connect();
    return client;
  }

  private drop(): void {
    const client = this.client;
    this.client = null;
    this.failedAt = Date.now();
    void client?.then((connected) => connected.end()).catch(() => undefined);
  }
}

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly filling = new Map<string, Promise<Entry | null>>();
  private bytes = 0;
  private lastSweep = 0;
  readonly fillToken = crypto.randomUUID();

  constructor(
    private readonly options: PageCacheOptions,
    private readonly version: () => DataVersion | null | Promise<DataVersion | null>,
    private readonly render: (url: string, headers: Record<string, string>) => Promise<Response>,
  ) {}

  /**
   * The stored page for `key`, rendering it first when needed (once, however many readers wait); null when it must be
   * rendered per request (no version source, or the answer is not storable). `fillHeaders` are what the render
   * request sends (the forwarded host and, for an RSC payload, the router's headers).
   */
  async lookup(key: string, url: string, fillHeaders: Record<string, string>): Promise<StoredPage | null> {
    if (key.length > MAX_KEY_CHARS) return null;
    const version = await this.version();
    if (version === null) return null;
    const now = Date.now();
    this.sweep(now);
    const hit = this.entries.get(key);
    if (hit && hit.version === version && now - hit.storedAt < this.options.maxAgeMs) {
      // Most recently used last, so the oldest entry is the first to go.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.kind === "page" ? hit : null;
    }
    const fillKey = `${version}\n${key}`;
    let pending = this.filling.get(fillKey);
    if (!pending) {
      pending = this.fill(key, version, url, fillHeaders).finally(() => this.filling.delete(fillKey));
      this.filling.set(fillKey, pending);
    }
    const entry = await pending;
    return entry?.kind === "page" ? entry : null;
  }

  /** Stored pages and their total size (tests, diagnostics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  private async fill(key: string, version: DataVersion, url: string, fillHeaders: Record<string, string>): Promise<Entry | null> {
    let entry: Entry;
    try {
      const response = await this.render(url, { accept: "text/html", ...fillHeaders, [FILL_HEADER]: this.fillToken, "accept-encoding": "identity" });
      entry = await toEntry(response, version, stringBytes(key));
    } catch {
      // The reader's own request renders the page as usual; the next reader tries again.
      return null;
    }
    if (entry.kind === "page" && entry.oneOff) {
      // Served to the readers waiting for this render; later ones render it themselves (it is remembered as such).
      this.store(key, { kind: "unstorable", version, storedAt: entry.storedAt, bytes: stringBytes(key) + ENTRY_OVERHEAD_BYTES });
      return entry;
    }
    this.store(key, entry);
    return entry;
  }

  private store(key: string, entry: Entry): void {
    const previous = this.entries.get(key);
    if (previous) {
      this.bytes -= previous.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    while ((this.bytes > this.options.maxBytes || this.entries.size > this.options.maxEntries) && this.entries.size > 0) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.bytes;
    }
  }

  /** Drops entries past their age (at most once a second): a page stored and never read again does not stay. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 1000) return;
    this.lastSweep = now;
    for (const [key, entry] of this.entries) {
      if (now - entry.storedAt < this.options.maxAgeMs) continue;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }
}

function headerBytes(headers: readonly [string, string][]): number {
  return headers.reduce((sum, [name, value]) => sum + stringBytes(name) + stringBytes(value) + 64, 0);
}

async function toEntry(response: Response, version: DataVersion, keyBytes: number): Promise<Entry> {
  const storedAt = Date.now();
  const unstorable: Unstorable = { kind: "unstorable", version, storedAt, bytes: keyBytes + ENTRY_OVERHEAD_BYTES };
  const length = Number(response.headers.get("content-length") ?? 0);
  const oneOff = ONE_OFF_STATUSES.has(response.status);
  if ((!STORED_STATUSES.has(response.status) && !oneOff) || response.headers.has("set-cookie") || length > MAX_PAGE_BYTES) {
    // Drained, not cancelled: cancelling a not-found answer mid-stream left the reader's own render of it waiting.
    await response.arrayBuffer();
    return unstorable;
  }
  const rsc = (response.headers.get("content-type") ?? "").startsWith("text/x-component");
  const nonce = nonceInPolicy(response.headers.get("content-security-policy"));
  const body = await response.text();
  if (Buffer.byteLength(body) > MAX_PAGE_BYTES) return unstorable;
  // A page must carry its render's nonce to be served with another; an RSC payload may carry none.
  const parts = nonce ? (splitOnNonce(body, nonce) ?? (rsc ? [body] : null)) : rsc ? [body] : null;
  if (!parts) return unstorable;
  const buffers = parts.map((part) => Buffer.from(part));
  const headers: [string, string][] = [];
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers.push([name, value]);
  }
  const bytes = buffers.reduce((sum, part) => sum + part.length, 0) + headerBytes(headers) + keyBytes + ENTRY_OVERHEAD_BYTES;
  return { kind: "page", version, storedAt, status: response.status, headers, parts: buffers, bytes, ...(oneOff ? { oneOff: true } : {}) };
}

/** The stored page's body with `nonce` wherever the render-time nonce was. */
export function pageBody(page: StoredPage, nonce: string): Buffer {
  const separator = Buffer.from(nonce);
  const pieces: Buffer[] = [];
  page.parts.forEach((part, index) => {
    if (index > 0) pieces.push(separator);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

export type { StoredPage };

let shared: PageCache | null | undefined;

/** The server's page cache, or null when disabled (PAGE_CACHE_MB=0) or the database has no version source. */
export function serverPageCache(): PageCache | null {
  if (shared !== undefined) return shared;
  const options = pageCacheOptions();
  const databaseUrl = resolveDatabaseUrl(process.env.DATABASE_URL, process.cwd());
  const file = databaseFilePath(databaseUrl);
  const source = isPostgresUrl(databaseUrl) ? new PostgresSnapshotVersion(databaseUrl) : file ? new SqliteDataVersion(file) : null;
  if (!options || !source) {
    shared = null;
    return shared;
  }
  shared = new PageCache(options, () => source.read(), (url, headers) => fetch(new URL(url, internalOrigin()), { headers, redirect: "manual" }));
  return shared;
}

/** Where this server answers on its own machine (next start records it once listening). */
function internalOrigin(): string {
  return process.env.__NEXT_PRIVATE_ORIGIN ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
}
