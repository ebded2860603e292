// Limits before bytes, on the production server: an anonymous 60 MB upload is refused before 1 MB of it is sent, a
// 40 MB run file imports, a run built to stall matchers (86,000 `{{#` in a prompt) and one nested 100,000 deep are
// answered within 2 s while /api/health keeps answering, a client's own X-Forwarded-For does not move the sign-in
// throttle to another address, and a client-side navigation's RSC payload is served from the page store.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { toPostgresStatement } from "../lib/sql/postgres-statement";
import { postLarge } from "../scripts/bench/upload-refusal";
import { queryE2eDatabase, signIn } from "./support";

const SHARED = process.env.C2W_BENCHMARK_DIR ?? path.resolve(__dirname, "../../shared/chat2workflow");
const MB = 1024 * 1024;
const MODEL = "upload_limits_check";

/**
 * Deletes what these journeys imported and the sign-in failures they caused, so the journeys after them see the data
 * they expect and can sign in.
 */
async function cleanUp(names: string[]): Promise<void> {
  await writeE2eDatabase(`DELETE FROM "Model" WHERE "name" IN (${names.map(() => "?").join(", ")})`, names);
  await writeE2eDatabase(`DELETE FROM "SignInThrottle"`, []);
}

async function writeE2eDatabase(sql: string, names: string[]): Promise<void> {
  const postgresUrl = process.env.E2E_DATABASE_URL;
  if (postgresUrl) {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query(toPostgresStatement(sql), names);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new BetterSqlite3(path.resolve(__dirname, "..", "data", "e2e.db"));
  try {
    db.pragma("busy_timeout = 10000");
    db.pragma("foreign_keys = ON");
    db.prepare(sql).run(...names);
  } finally {
    db.close();
  }
}

/** /api/health latencies (ms), one request every 10 ms, until `until` settles. */
async function healthWhile(baseURL: string, until: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const started = performance.now();
    const response = await fetch(new URL("/api/health", baseURL));
    await response.arrayBuffer();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return times;
}

async function importAndWait(request: APIRequestContext, files: { name: string; buffer: Buffer }[], benchmarkId: string): Promise<{ status: string; outcome: unknown; error: string | null }> {
  const form = new FormData();
  form.set("benchmarkId", benchmarkId);
  for (const file of files) form.append("files", new Blob([new Uint8Array(file.buffer)], { type: "application/json" }), file.name);
  const started = await request.post("/api/imports", { multipart: form, timeout: 120_000 });
  expect(started.status(), await started.text()).toBe(202);
  const { jobId } = (await started.json()) as { jobId: string };
  for (;;) {
    const job = (await (await request.get(`/api/imports/${jobId}`)).json()) as { status: string; outcome: unknown; error: string | null };
    if (job.status === "succeeded" || job.status === "failed") return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test.describe("limits before bytes", () => {
  test.skip(!existsSync(path.join(SHARED, "dataset", "query.json")), `the shared benchmark is not at ${SHARED}`);
  test.afterAll(async () => cleanUp([MODEL, `${MODEL}_stall`]));

  test("an anonymous 60 MB upload is refused before 1 MB of it is sent", async ({ baseURL }) => {
    // The route's first request compiles it: measured from the second on.
    await (await fetch(new URL("/api/imports", baseURL), { method: "POST", body: "x" })).arrayBuffer();
    const refusals = [];
    for (let i = 0; i < 3; i++) refusals.push(await postLarge(baseURL!, "/api/imports", { "content-type": "multipart/form-data; boundary=x" }, 60 * MB));
    console.log(`anonymous 60 MB uploads: ${JSON.stringify(refusals)}`);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(401);
      // Paced, so what was sent when the answer came bounds what the server can have read.
      expect(refusal.bytesSentBeforeAnswer).toBeLessThan(1 * MB);
    }
  });

  test("a 40 MB run file imports, and a run built to stall matchers is answered within 2 s while health answers", async ({ page, baseURL }) => {
    test.setTimeout(300_000);
    await signIn(page, "researcher", "/import");
    const [shared] = await queryE2eDatabase<{ id: string }>(`SELECT "id" FROM "Benchmark" WHERE "sourceDir" IS NOT NULL AND "name" NOT LIKE ? ORDER BY "importedAt" LIMIT 1`, "%demo%");
    const benchmarkId = shared?.id;
    expect(benchmarkId).toBeTruthy();

    // A 40 MB run: the shared run of Qwen-3-14B with long design principles and judge reasons (each under the field limit).
    const records = JSON.parse(readFileSync(path.join(SHARED, "runs", "qwen3_14B.json"), "utf8")) as Record<string, unknown>[];
    const padding = (label: string) => ` ${label} `.padEnd(180_000, "The plan reads the input, then writes the answer step by step. ");
    const big = records.map((record, index) => ({ ...record, design_principle: `${String(record.design_principle ?? "")}${padding(`dp${index}`)}`, reason: `${String(record.reason ?? "")}${padding(`r${index}`)}`, llm_evaluate_reason_test1: padding(`t${index}`) }));
    const bigFile = Buffer.from(JSON.stringify(big));
    expect(bigFile.length).toBeGreaterThan(40 * MB);
    const imported = await importAndWait(page.request, [{ name: `${MODEL}.json`, buffer: bigFile }], benchmarkId!);
    expect(imported.status, JSON.stringify(imported.error)).toBe("succeeded");
    expect((imported.outcome as { runs: { responses: number }[] }).runs[0]!.responses).toBe(records.length);

    // 86,000 `{{#` in an LLM prompt (just under the field limit), and a field nested 100,000 deep in another file.
    const parses = (text: unknown) => {
      try {
        return typeof JSON.parse(String(text)) === "object";
      } catch {
        return false;
      }
    };
    const withLlm = records.filter((record) => String(record.workflow ?? "").includes('"llm"') && parses(record.workflow)).sort((a, b) => String(a.workflow).length - String(b.workflow).length);
    const stallRecord = { ...withLlm[0]!, reason: "stall check" } as Record<string, unknown>;
    const workflow = JSON.parse(String(stallRecord.workflow)) as { nodes_info: { type: string; param: Record<string, unknown> }[] };
    const llm = workflow.nodes_info.find((node) => node.type === "llm");
    if (llm) llm.param.user = "{{#".repeat(86_000);
    stallRecord.workflow = JSON.stringify(workflow);
    expect(String(stallRecord.workflow).length).toBeLessThanOrEqual(256 * 1024);
    const stallRun = [stallRecord, ...records.filter((record) => record !== withLlm[0]).slice(0, 2)];
    // Written as text: JSON.stringify itself cannot go 100,000 deep.
    const deepFile = Buffer.from(JSON.stringify([{ ...records[0]!, llm_output_test1: "DEEP" }]).replace('"DEEP"', `${"[".repeat(100_000)}${"]".repeat(100_000)}`));

    const refusalStarted = performance.now();
    const refusal = importAndWait(page.request, [{ name: `${MODEL}_stall.json`, buffer: Buffer.from(JSON.stringify(stallRun)) }, { name: "deep_run.json", buffer: deepFile }], benchmarkId!);
    const healthDuringRefusal = await healthWhile(baseURL!, refusal);
    const refused = await refusal;
    const refusalMs = performance.now() - refusalStarted;
    expect(refused.status).toBe("failed");
    expect(JSON.stringify(refused.outcome)).toContain("deep_run.json › record 0 › llm_output_test1");
    expect(JSON.stringify(refused.outcome)).toContain("nested deeper than");

    const resultStarted = performance.now();
    const result = importAndWait(page.request, [{ name: `${MODEL}_stall.json`, buffer: Buffer.from(JSON.stringify(stallRun)) }], benchmarkId!);
    const healthDuringImport = await healthWhile(baseURL!, result);
    const finished = await result;
    const resultMs = performance.now() - resultStarted;
    expect(finished.status).toBe("succeeded");

    const health = [...healthDuringRefusal, ...healthDuringImport].sort((a, b) => a - b);
    console.log(`stall run refused in ${Math.round(refusalMs)} ms, imported in ${Math.round(resultMs)} ms; /api/health meanwhile (${health.length} requests): p50 ${Math.round(health[health.length >> 1]!)} ms, max ${Math.round(health.at(-1)!)} ms`);
    expect(refusalMs).toBeLessThan(2000);
    expect(resultMs).toBeLessThan(2000);
    expect(health.length).toBeGreaterThan(3);
    // Generous for a busy two-core machine; the stall this guards against blocked every request for seconds.
    expect(health.at(-1)!).toBeLessThan(1000);

    // The stalling response's page is drawn quickly too.
    const run = (finished.outcome as { runs: { runId: string }[] }).runs[0]!;
    const pageStarted = performance.now();
    const runPage = await page.request.get(`/runs/${run.runId}`);
    expect(runPage.status()).toBe(200);
    expect(performance.now() - pageStarted).toBeLessThan(5000);
  });

  test("a client's own X-Forwarded-For does not give it a fresh sign-in budget", async ({ request }) => {
    // From a clean slate: earlier journeys' wrong passwords count against the same loopback address.
    await writeE2eDatabase(`DELETE FROM "SignInThrottle"`, []);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const csrf = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
      const answer = await request.post("/api/auth/callback/credentials", {
        headers: { "x-forwarded-for": `198.51.100.${i + 1}` },
        form: { email: `nobody-${i}@example.org`, password: "wrong-password", csrfToken: csrf.csrfToken, json: "true" },
        maxRedirects: 0,
      });
      statuses.push(answer.status());
    }
    // Counted against the connection's address: after three free attempts the next must wait.
    expect(statuses.length).toBeGreaterThan(3);
    expect(statuses.slice(0, 3).filter((status) => status === 429)).toEqual([]);
    expect(statuses.slice(3)).toContain(429);
  });

  test("a client-side navigation's RSC payload is served from the page store", async ({ request }) => {
    const tree = encodeURIComponent(JSON.stringify(["", { children: ["__PAGE__", {}] }]));
    const headers = { rsc: "1", "next-router-state-tree": tree };
    const landing = await request.get("/tasks", { headers, maxRedirects: 0 });
    const target = landing.status() === 307 ? landing.headers().location! : "/tasks";
    const first = await request.get(target, { headers, maxRedirects: 0 });
    const again = await request.get(first.status() === 307 ? first.headers().location! : target, { headers, maxRedirects: 0 });
    expect(again.status()).toBe(200);
    expect(again.headers()["content-type"]).toContain("text/x-component");
    expect(again.headers()["x-studio-page-cache"]).toBe("stored");
  });
});
