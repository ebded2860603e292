// `npm run test:load`: fifty concurrent anonymous clients against the production build on loopback, one page at a
// time, with the 12 shared runs imported. Reports per page: requests, errors, p50/p95/p99 latency, response size and
// whether the page came from the page store; /api/health's latency while response pages are under load, and while two
// clients read the 2 MB-field page (the stall). Exits 1 on any error, a page over 2 MB, or (unless
// LOAD_REPORT_ONLY=1) a missed latency target. Bounded: pages × LOAD_DURATION_S plus start-up.
//   LOAD_DURATION_S   seconds per page (default 30), LOAD_CONNECTIONS (default 50),
//   LOAD_PORT         port of the server it starts (default 3206), LOAD_URL to use an already running server
//                     (loopback only; then the database must already hold the shared runs),
//   LOAD_REPORT_ONLY  1: report latency figures without failing on them (busy machines, CI); errors still fail.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import autocannon, { type Result as LoadResult } from "autocannon";
import { locateBenchmarkDir } from "@/lib/server/benchmark-location";
import { createDatabaseClient } from "@/lib/server/db";
import { measureUploadRefusals } from "../bench/upload-refusal";

const ROOT = path.resolve(__dirname, "../..");
const DURATION_S = Number(process.env.LOAD_DURATION_S ?? 30);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const PORT = Number(process.env.LOAD_PORT ?? 3206);
const BASE = process.env.LOAD_URL ?? `http://127.0.0.1:${PORT}`;
const DATABASE_FILE = path.join(ROOT, "data", "e2e.db");
const REPORT_ONLY = process.env.LOAD_REPORT_ONLY === "1";
const HEALTH_LIMIT_MS = 50;
/** What a browser sends when it loads a page (the readers being simulated). */
const PAGE_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

interface Target {
  name: string;
  path: string;
  p95LimitMs: number;
  connections?: number;
  watchHealth?: boolean;
  /** A redirect is the expected answer (a URL without `?benchmark=`). */
  redirects?: boolean;
  /** Fail on latency (otherwise reported only). */
  enforced?: boolean;
  /** Request headers instead of a browser's page load (a client-side navigation's RSC request). */
  headers?: Record<string, string>;
}

/**
 * The router's state a client-side navigation sends from the leaderboard (its root segment): what a click on a link
 * there asks for. Next.js answers with the RSC payload of the target page.
 */
const NAVIGATION_STATE_TREE = encodeURIComponent(JSON.stringify(["", { children: ["__PAGE__", {}] }]));
const NAVIGATION_HEADERS = { rsc: "1", "next-router-state-tree": NAVIGATION_STATE_TREE, accept: "*/*" };

/** A navigation's URL: Next.js names the right `_rsc` value for these headers by redirecting to it. */
async function navigationPath(path: string): Promise<string> {
  const response = await fetch(`${BASE}${path}`, { redirect: "manual", headers: NAVIGATION_HEADERS });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (response.status === 307 && location) {
    const url = new URL(location, BASE);
    return `${url.pathname}${url.search}`;
  }
  return path;
}

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "[::1]", "::1"].includes(host)) {
    throw new Error(`The load test runs against loopback only; ${host} is not a loopback host.`);
  }
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

async function waitForHealth(timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`the server at ${BASE} did not become healthy within ${timeoutMs / 1000} s`);
}

function startServer(): ChildProcess {
  console.log("• starting the production server with the demo data and the shared benchmark's runs (scripts/e2e-server.ts)");
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), "--conditions=react-server", "scripts/e2e-server.ts", "--port", String(PORT)], {
    cwd: ROOT,
    env: { ...process.env, PUBLIC_READ: "true" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (chunk: Buffer) => process.stdout.write(chunk.toString().split("\n").filter((line) => line.startsWith("•")).map((line) => `${line}\n`).join("")));
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  return child;
}

/**
 * Gives one recorded response (not the largest) a 2 MB design_principle in the throwaway load-test database, as an
 * import from before the per-field cap could have stored it; returns its id.
 */
async function plantTwoMegabyteField(exceptId: string): Promise<string> {
  const db = createDatabaseClient(`file:${DATABASE_FILE}`);
  try {
    const target = await db.response.findFirstOrThrow({ where: { id: { not: exceptId }, rawText: null, designPrinciple: { not: null }, run: { origin: "recorded" } }, select: { id: true } });
    const text = "## Plan\n\n" + "The workflow reads the paper, then summarises it section by section. ".repeat(30_000);
    await db.response.update({ where: { id: target.id }, data: { designPrinciple: text } });
    return target.id;
  } finally {
    await db.$disconnect();
  }
}

/** The recorded response with the most text: the heaviest response page. */
async function largestResponseId(): Promise<{ id: string; chars: number }> {
  const db = createDatabaseClient(`file:${DATABASE_FILE}`);
  try {
    const rows = await db.$queryRawUnsafe<{ id: string; chars: unknown }[]>(
      `SELECT r."id" AS id, COALESCE(LENGTH(r."rawText"), 0) + COALESCE(LENGTH(r."workflow"), 0) + COALESCE(LENGTH(r."designPrinciple"), 0) + COALESCE(LENGTH(r."nodeSelection"), 0) AS chars
       FROM "Response" r JOIN "Run" ru ON ru."id" = r."runId" WHERE ru."origin" = 'recorded' ORDER BY chars DESC LIMIT 1`,
    );
    const runs = await db.run.count({ where: { origin: "recorded", label: { not: { startsWith: "demo_" } } } });
    if (runs < 12) throw new Error(`the load test needs the 12 shared runs imported; the database has ${runs}`);
    return { id: rows[0]!.id, chars: Number(rows[0]!.chars) };
  } finally {
    await db.$disconnect();
  }
}

async function measureHealthDuring(stop: { done: boolean }): Promise<number[]> {
  const times: number[] = [];
  while (!stop.done) {
    const started = performance.now();
    try {
      await (await fetch(`${BASE}/api/health`)).arrayBuffer();
      times.push(performance.now() - started);
    } catch {
      times.push(Number.POSITIVE_INFINITY);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return times.sort((a, b) => a - b);
}

async function load(target: Target) {
  const url = `${BASE}${target.path}`;
  // Uncompressed, like autocannon's requests: the size is the page's HTML.
  const requestHeaders = target.headers ?? { accept: PAGE_ACCEPT };
  const probe = await fetch(url, { redirect: "manual", headers: { "accept-encoding": "identity", ...requestHeaders } });
  const bytes = (await probe.arrayBuffer()).byteLength;
  const expected = (status: number) => (target.redirects ? status >= 300 && status < 400 : status >= 200 && status < 300);
  if (!expected(probe.status)) throw new Error(`${target.path} answers ${probe.status} before the load starts`);
  const times: number[] = [];
  let unexpected = 0;
  const stop = { done: false };
  const health = target.watchHealth ? measureHealthDuring(stop) : Promise.resolve([] as number[]);
  const result = await new Promise<LoadResult>((resolve, reject) => {
    const instance = autocannon({ url, connections: target.connections ?? CONNECTIONS, duration: DURATION_S, timeout: 30, headers: requestHeaders }, (error, outcome) => (error ? reject(error) : resolve(outcome)));
    instance.on("response", (_client, status, _bytes, responseTime) => {
      times.push(responseTime);
      if (!expected(status)) unexpected += 1;
    });
  });
  stop.done = true;
  const healthTimes = await health;
  times.sort((a, b) => a - b);
  const errors = result.errors + result.timeouts + unexpected;
  const p95 = quantile(times, 0.95);
  return {
    page: target.name,
    path: target.path,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    errors,
    p50Ms: Math.round(quantile(times, 0.5)),
    p95Ms: Math.round(p95),
    p99Ms: Math.round(quantile(times, 0.99)),
    htmlBytes: bytes,
    stored: probe.headers.get("x-studio-page-cache") === "stored",
    p95LimitMs: target.p95LimitMs,
    ...(target.watchHealth ? { healthP50Ms: Math.round(quantile(healthTimes, 0.5)), healthP95Ms: Math.round(quantile(healthTimes, 0.95)), healthMaxMs: Math.round(healthTimes.at(-1) ?? NaN) } : {}),
    latencyOk: p95 <= target.p95LimitMs,
    enforced: target.enforced !== false,
    errors0: errors === 0,
  };
}

/** Where a reader of `path` lands: the path itself, or the target of its redirect (e.g. `/` → `/?benchmark=…`). */
async function landingPath(path: string): Promise<string> {
  const response = await fetch(`${BASE}${path}`, { redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (response.status < 300 || response.status >= 400 || !location) return path;
  const url = new URL(location, BASE);
  return `${url.pathname}${url.search}`;
}

/** /api/health latencies while `clients` read `path` for `seconds` (the issue: two 2 MB-field requests stalled it). */
async function healthWhileReading(path: string, clients: number, seconds: number) {
  const stop = { done: false };
  const health = measureHealthDuring(stop);
  const page: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < deadline) {
        const started = performance.now();
        await (await fetch(`${BASE}${path}`, { headers: { accept: PAGE_ACCEPT } })).arrayBuffer();
        page.push(performance.now() - started);
      }
    }),
  );
  stop.done = true;
  const times = await health;
  page.sort((a, b) => a - b);
  return { clients, pageP95Ms: Math.round(quantile(page, 0.95)), healthP50Ms: Math.round(quantile(times, 0.5)), healthP95Ms: Math.round(quantile(times, 0.95)), healthMaxMs: Math.round(times.at(-1) ?? NaN) };
}

/** Resident memory (MB) of the server's processes: the process group the load test started. */
function serverRssMb(groupId: number): number | null {
  const listed = spawnSync("ps", ["-o", "rss=", "-g", String(groupId)], { encoding: "utf8" });
  if (listed.status !== 0) return null;
  return Math.round(listed.stdout.split("\n").reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024);
}

/**
 * Anonymous page loads of `count` unique URLs (each with a 3,000-character query), 25 at a time: every one is
 * rendered and offered to the page store, whose memory must stay within PAGE_CACHE_MB however many there are.
 */
async function floodUniqueUrls(count: number): Promise<{ requests: number; errors: number }> {
  let next = 0;
  let errors = 0;
  const filler = "q".repeat(3000);
  await Promise.all(
    Array.from({ length: 25 }, async () => {
      while (next < count) {
        const index = next++;
        try {
          const response = await fetch(`${BASE}/tasks?flood=${index}-${filler}`, { redirect: "manual", headers: { accept: PAGE_ACCEPT } });
          await response.arrayBuffer();
          if (response.status >= 400) errors += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return { requests: count, errors };
}

async function main(): Promise<number> {
  assertLoopback(BASE);
  if (!(DURATION_S > 0 && DURATION_S <= 120)) throw new Error("LOAD_DURATION_S must be between 1 and 120");
  if (!(CONNECTIONS > 0 && CONNECTIONS <= 200)) throw new Error("LOAD_CONNECTIONS must be between 1 and 200");
  let server: ChildProcess | null = null;
  if (!process.env.LOAD_URL) {
    const benchmark = locateBenchmarkDir({ projectDir: ROOT });
    if (!benchmark.ok) {
      console.log(`skipped (the load test needs the benchmark's 12 runs): ${benchmark.message}`);
      return 0;
    }
    server = startServer();
  }
  try {
    await waitForHealth(15 * 60 * 1000);
    const largest = process.env.LOAD_URL ? null : await largestResponseId();
    const planted = largest ? await plantTwoMegabyteField(largest.id) : null;
    const leaderboard = await landingPath("/");
    const task = await landingPath("/tasks/PaperQA");
    const leaderboardNavigation = await navigationPath(leaderboard);
    const taskNavigation = await navigationPath(task);
    const targets: Target[] = [
      ...(leaderboard !== "/" ? [{ name: "/ (its redirect)", path: "/", p95LimitMs: 300, redirects: true }] : []),
      { name: "leaderboard", path: leaderboard, p95LimitMs: 300 },
      ...(task !== "/tasks/PaperQA" ? [{ name: "task page (its redirect)", path: "/tasks/PaperQA", p95LimitMs: 300, redirects: true }] : []),
      { name: "task page", path: task, p95LimitMs: 300 },
      { name: "leaderboard, client-side navigation (RSC)", path: leaderboardNavigation, p95LimitMs: 300, headers: NAVIGATION_HEADERS },
      { name: "task page, client-side navigation (RSC)", path: taskNavigation, p95LimitMs: 300, headers: NAVIGATION_HEADERS },
      ...(largest ? [{ name: `largest response page (${largest.chars} characters of model output)`, path: `/responses/${largest.id}`, p95LimitMs: 500, watchHealth: true }] : []),
      ...(planted ? [{ name: "response page with a 2 MB design_principle", path: `/responses/${planted}`, p95LimitMs: 500, watchHealth: true }] : []),
    ];
    const results = [];
    for (const target of targets) {
      console.log(`• ${CONNECTIONS} clients for ${DURATION_S} s on ${target.path}`);
      const result = await load(target);
      console.log(JSON.stringify(result));
      results.push(result);
    }
    const stall = planted ? await healthWhileReading(`/responses/${planted}`, 2, Math.min(10, DURATION_S)) : null;
    if (stall) console.log(`• /api/health while 2 clients read the 2 MB-field page: ${JSON.stringify(stall)}`);
    const flood = Number(process.env.LOAD_FLOOD_URLS ?? 1500);
    if (server?.pid && flood > 0) {
      const before = serverRssMb(server.pid);
      const outcome = await floodUniqueUrls(flood);
      const after = serverRssMb(server.pid);
      console.log(`• ${outcome.requests} unique 3 KB URLs loaded anonymously (${outcome.errors} errors): server memory ${before} MB before, ${after} MB after; the page store's bound is PAGE_CACHE_MB=${process.env.PAGE_CACHE_MB ?? 64} MB`);
    }
    console.log("• anonymous 60 MB posts (upload route, then a server action)");
    const refusals = await measureUploadRefusals(BASE);
    for (const refusal of refusals) console.log(JSON.stringify(refusal));
    console.log("\npage | req/s | errors | p50 ms | p95 ms (limit) | p99 ms | bytes | stored | /api/health p50/p95 ms");
    for (const r of results) {
      const health = "healthP95Ms" in r ? `${r.healthP50Ms}/${r.healthP95Ms}` : "";
      console.log(`${r.page} | ${r.requestsPerSecond} | ${r.errors} | ${r.p50Ms} | ${r.p95Ms} (${r.p95LimitMs}) | ${r.p99Ms} | ${r.htmlBytes} | ${r.stored ? "yes" : "no"} | ${health}`);
    }
    const errorFree = results.every((r) => r.errors0);
    const bounded = results.every((r) => r.htmlBytes <= 2 * 1024 * 1024);
    const fast = results.every((r) => r.latencyOk || !r.enforced);
    const unstalled = !stall || stall.healthP95Ms <= HEALTH_LIMIT_MS;
    console.log(`zero errors: ${errorFree}; every page ≤ 2 MB of HTML: ${bounded}; every p95 within its limit: ${fast}; /api/health p95 ≤ ${HEALTH_LIMIT_MS} ms while the 2 MB-field page is read: ${unstalled}`);
    if (REPORT_ONLY && !(fast && unstalled)) console.log("LOAD_REPORT_ONLY=1: latency figures are reported, not enforced");
    return errorFree && bounded && (REPORT_ONLY || (fast && unstalled)) ? 0 : 1;
  } finally {
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(3);
  },
);
