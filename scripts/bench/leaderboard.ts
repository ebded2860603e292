// `npm run bench:leaderboard`: the leaderboard and task matrix at scale. Imports the shared benchmark and its 12 runs
// into a scratch SQLite database, then writes 100 synthetic models × 3 runs (300 runs, 23,700 responses) copied from
// the real runs with ~10% of pass verdicts flipped deterministically, and removes the originals. It then times
//   1. in process: the pages' data functions (SQL aggregation + pure aggregation and ranking), and
//   2. over HTTP: GET / and GET /tasks/<task> against the production server (`next start`, built when sources changed):
//      data loading + React server rendering + HTML, full body received.
// Reports medians after warm-up. Targets (HTTP): leaderboard ≤ 150 ms, task matrix ≤ 200 ms.
// `--postgres` (npm run bench:leaderboard:pg) does the same on PostgreSQL: a scratch database on the server
// DATABASE_URL names (the npm script starts a throwaway local one), dropped afterwards unless --keep.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabaseClient, dialectOf, type Database } from "../../lib/server/db";
import { isPostgresUrl } from "../../lib/database-url";
import { migratePostgres } from "../lib/migrate-postgres";
import { insertRows } from "../../lib/server/bulk-insert";
import { getTaskMatrix, listTasks } from "../../lib/server/data/drilldown";
import { loadLeaderboard, selectBenchmark } from "../../lib/server/data/leaderboard";
import { parseJudgeChoice } from "../../lib/judge/choice";
import { expandRunPaths, readImportFiles, runImport } from "../../lib/server/import/import-service";
import { seedPublishedResults } from "../../lib/server/published";
import type { SessionUser } from "../../lib/server/session";
import { runPrisma } from "../prisma-offline.mjs";
import { locateBenchmark, median, printTable, runMain } from "./common";

const MODELS = 100;
const RUNS_PER_MODEL = 3;
const FLIP_PERCENT = 10;
const WARMUP = 3;
const SAMPLES = 20;
const TASK = "PaperDeepReader";
const PORT = Number(process.env.BENCH_PORT ?? 3419);
const TARGETS = { leaderboard: 150, task: 200 };
const ACTOR: SessionUser = { id: "bench", email: "bench@localhost", name: null, role: "viewer" };
const FAMILIES = ["GPT", "Claude", "Gemini", "Qwen", "GLM", "DeepSeek", "Kimi"];

/** FNV-1a: a stable hash, so the same synthetic database is generated every time. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

type Row = Record<string, unknown>;
const plain = (row: Row): Row => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === "bigint" ? Number(value) : value]));

async function synthesize(db: Database, benchmarkId: string): Promise<{ runs: number; responses: number }> {
  const sourceRuns = await db.$queryRawUnsafe<Row[]>(`SELECT * FROM "Run" WHERE "benchmarkId" = ? ORDER BY "label"`, benchmarkId);
  const turns = new Map((await db.turn.findMany({ where: { benchmarkId }, select: { id: true, key: true } })).map((turn) => [turn.id, turn.key]));
  const sources: { run: Row; responses: Row[]; passResults: Row[]; diagnostics: Row[]; cases: Row[]; ruleVerdicts: Row[] }[] = [];
  for (const run of sourceRuns) {
    const responses = (await db.$queryRawUnsafe<Row[]>(`SELECT * FROM "Response" WHERE "runId" = ?`, run.id)).map(plain);
    const ids = responses.map((response) => response.id as string);
    const inList = ids.map(() => "?").join(",");
    const passResults = (await db.$queryRawUnsafe<Row[]>(`SELECT * FROM "PassResult" WHERE "responseId" IN (${inList})`, ...ids)).map(plain);
    const passIds = passResults.map((pass) => pass.id as string);
    const diagnostics = (await db.$queryRawUnsafe<Row[]>(`SELECT * FROM "Diagnostic" WHERE "passResultId" IN (${passIds.map(() => "?").join(",")})`, ...passIds)).map(plain);
    const cases = (await db.$queryRawUnsafe<Row[]>(`SELECT * FROM "CaseResult" WHERE "responseId" IN (${inList})`, ...ids)).map(plain);
    // The rule judge's step 1_4 verdicts, so "judged by" figures can be timed too.
    const ruleVerdicts = (await db.$queryRawUnsafe<Row[]>(`SELECT * FROM "JudgeVerdict" WHERE "judge" = 'rule' AND "stage" = 'pass' AND "responseId" IN (${inList})`, ...ids)).map(plain);
    sources.push({ run: plain(run), responses, passResults, diagnostics, cases, ruleVerdicts });
  }

  let responseCount = 0;
  await db.$transaction(
    async (tx) => {
      for (let model = 0; model < MODELS; model += 1) {
        const modelId = randomUUID();
        const name = `synth_${String(model).padStart(3, "0")}`;
        await insertRows(tx, "Model", [{ id: modelId, name, displayName: `Synthetic ${model}`, family: FAMILIES[model % FAMILIES.length], access: model % 3 === 0 ? "closed" : "open", provider: null }]);
        for (let copy = 0; copy < RUNS_PER_MODEL; copy += 1) {
          const source = sources[(model * RUNS_PER_MODEL + copy) % sources.length]!;
          const runId = randomUUID();
          await insertRows(tx, "Run", [
            { ...source.run, id: runId, modelId, label: `${name}_run${copy + 1}.json`, contentHash: randomUUID(), sourceFile: null, importedBy: "bench", importedAt: new Date(Date.UTC(2026, 0, 1, 0, model, copy)) },
          ]);
          const responses: Row[] = [];
          const passes: Row[] = [];
          const diagnostics: Row[] = [];
          const cases: Row[] = [];
          const judgeVerdicts: Row[] = [];
          const ruleByResponse = new Map(source.ruleVerdicts.map((verdict) => [verdict.responseId as string, verdict]));
          const passByResponse = new Map(source.passResults.map((pass) => [pass.responseId as string, pass]));
          for (const response of source.responses) {
            const responseId = randomUUID();
            responses.push({ ...response, id: responseId, runId });
            const rule = ruleByResponse.get(response.id as string);
            if (rule) judgeVerdicts.push({ ...rule, id: randomUUID(), responseId });
            const pass = passByResponse.get(response.id as string)!;
            const seed = hash(`${name}|${copy}|${turns.get(response.turnId as string)}`);
            const flip = seed % 100 < FLIP_PERCENT;
            const valid = flip ? !pass.valid : Boolean(pass.valid);
            const passId = randomUUID();
            const failStep = valid ? null : flip ? "step_1_4" : pass.failStep;
            passes.push({ ...pass, id: passId, responseId, valid, failStep, recordedValid: valid, recordedFailStep: failStep });
            for (const diagnostic of source.diagnostics) if (diagnostic.passResultId === pass.id) diagnostics.push({ ...diagnostic, id: randomUUID(), passResultId: passId });
            if (!valid) continue;
            const sourceCases = source.cases.filter((entry) => entry.responseId === response.id);
            for (let position = 1; position <= 3; position += 1) {
              const original = sourceCases.find((entry) => entry.position === position);
              // A turn flipped to passing gets verdicts from the hash; otherwise the recorded ones are kept.
              const verdict = original && !flip ? Boolean(original.verdict) : ((seed >>> (8 + position)) & 1) === 1;
              cases.push({ id: randomUUID(), responseId, position, verdict, outputs: (original?.outputs as string | null) ?? null, fileCheck: (original?.fileCheck as string | null) ?? null });
            }
          }
          await insertRows(tx, "Response", responses);
          await insertRows(tx, "PassResult", passes);
          await insertRows(tx, "Diagnostic", diagnostics);
          await insertRows(tx, "CaseResult", cases);
          await insertRows(tx, "JudgeVerdict", judgeVerdicts);
          responseCount += responses.length;
        }
      }
      // Only the synthetic runs remain: 100 models × 3 runs.
      await tx.$executeRawUnsafe(`DELETE FROM "Run" WHERE "id" IN (${sourceRuns.map(() => "?").join(",")})`, ...sourceRuns.map((run) => run.id));
    },
    { timeout: 10 * 60 * 1000 },
  );
  // Fresh planner statistics, as a long-running database has them.
  await db.$executeRawUnsafe(dialectOf(db) === "postgres" ? "ANALYZE" : "PRAGMA optimize");
  return { runs: MODELS * RUNS_PER_MODEL, responses: responseCount };
}

const ms = (values: number[]) => median(values).toFixed(1);
const min = (values: number[]) => Math.min(...values).toFixed(1);
const max = (values: number[]) => Math.max(...values).toFixed(1);

/** Medians need samples: WARMUP untimed runs, then SAMPLES timed ones, each after an untimed `before`. */
async function time(work: () => Promise<unknown>, before?: () => Promise<unknown>): Promise<number[]> {
  for (let index = 0; index < WARMUP; index += 1) {
    await before?.();
    await work();
  }
  const samples: number[] = [];
  for (let index = 0; index < SAMPLES; index += 1) {
    await before?.();
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples;
}

async function waitForServer(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15 * 60 * 1000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}) before answering`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`no answer from ${url}`);
}

async function fetchBody(url: string): Promise<number> {
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return body.byteLength;
}

/** A browser's page load (it accepts text/html), which the page store may answer; throws when it did not. */
async function fetchStoredPage(url: string): Promise<number> {
  const response = await fetch(url, { headers: { accept: "text/html,application/xhtml+xml" } });
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  if (response.headers.get("x-studio-page-cache") !== "stored") throw new Error(`${url}: not answered from the page store`);
  return body.byteLength;
}

/**
 * Flags for iterating: --keep leaves the generated database in place, --reuse <file or postgres URL> times an
 * earlier one, --no-http skips the server, --postgres runs on PostgreSQL (DATABASE_URL names the server).
 */
function options() {
  const argv = process.argv.slice(2);
  const reuse = argv.indexOf("--reuse");
  const reused = reuse === -1 ? null : (argv[reuse + 1] ?? "");
  return {
    keep: argv.includes("--keep"),
    reuse: reused === null ? null : isPostgresUrl(reused) ? reused : path.resolve(reused),
    http: !argv.includes("--no-http"),
    postgres: argv.includes("--postgres") || (reused !== null && isPostgresUrl(reused)),
  };
}

/** A scratch database on the PostgreSQL server DATABASE_URL names. */
function scratchPostgresUrl(): string {
  const server = process.env.DATABASE_URL ?? "";
  if (!isPostgresUrl(server)) throw new Error("--postgres needs DATABASE_URL=postgresql://… naming a server (npm run bench:leaderboard:pg starts one)");
  const url = new URL(server);
  url.pathname = `/c2w_bench_leaderboard_${randomUUID().slice(0, 8)}`;
  return url.toString();
}

async function dropPostgresDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const admin = createDatabaseClient(url.toString());
  try {
    await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.$disconnect();
  }
}

async function prepare(databaseUrl: string): Promise<{ runs: number; responses: number }> {
  const dir = locateBenchmark();
  if (isPostgresUrl(databaseUrl)) await migratePostgres(databaseUrl);
  else {
    const migrated = runPrisma(["migrate", "deploy"], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: "pipe" });
    if (migrated.status !== 0) throw new Error(`migrate deploy failed:\n${migrated.stdout}${migrated.stderr}`);
  }
  const db = createDatabaseClient(databaseUrl);
  try {
    if (!isPostgresUrl(databaseUrl)) await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await seedPublishedResults(db);
    const { files } = await readImportFiles((await expandRunPaths([path.join(dir, "runs")])).files, 64 * 1024 * 1024);
    const imported = await runImport(db, { benchmark: { kind: "directory", dir }, runs: files, importedBy: "bench" }, { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 });
    if (!imported.ok) throw new Error(imported.issues.map((found) => found.message).join("\n"));
    const generateStart = performance.now();
    const scale = await synthesize(db, imported.benchmarkId);
    console.error(`• generated ${scale.runs} runs, ${scale.responses} responses in ${((performance.now() - generateStart) / 1000).toFixed(1)} s`);
    return scale;
  } finally {
    await db.$disconnect();
  }
}

async function main(): Promise<void> {
  const flags = options();
  const scratch = mkdtempSync(path.join(tmpdir(), "c2w-bench-leaderboard-"));
  const databaseUrl = flags.reuse && isPostgresUrl(flags.reuse) ? flags.reuse : flags.postgres ? scratchPostgresUrl() : `file:${flags.reuse ?? path.join(scratch, "bench.db")}`;
  console.error(`• database: ${flags.postgres ? "PostgreSQL" : "SQLite"}`);
  let server: ChildProcess | null = null;
  try {
    const scale = flags.reuse ? { runs: MODELS * RUNS_PER_MODEL, responses: MODELS * RUNS_PER_MODEL * 79 } : await prepare(databaseUrl);
    const db = createDatabaseClient(databaseUrl);

    const selection = await selectBenchmark(db, ACTOR, null);
    const benchmarkId = selection.benchmark!.id;
    const board = await loadLeaderboard(db, ACTOR, null);
    const tasks = await listTasks(db, ACTOR, benchmarkId);
    const matrix = await getTaskMatrix(db, ACTOR, benchmarkId, TASK);
    const dataLeaderboard = await time(() => loadLeaderboard(db, ACTOR, null, { fresh: true }));
    const dataMatrix = await time(() => getTaskMatrix(db, ACTOR, benchmarkId, TASK, { fresh: true }));
    const warmLeaderboard = await time(() => loadLeaderboard(db, ACTOR, null));
    const warmMatrix = await time(() => getTaskMatrix(db, ACTOR, benchmarkId, TASK));
    const rule = parseJudgeChoice("rule");
    if (!rule.ok) throw new Error(rule.issues.join("; "));
    const judgedLeaderboard = await time(() => loadLeaderboard(db, ACTOR, null, { fresh: true, judge: rule.value }));
    const warmJudgedLeaderboard = await time(() => loadLeaderboard(db, ACTOR, null, { judge: rule.value }));
    await db.$disconnect();
    if (!flags.http) {
      console.log(
        `data functions (in process), medians: leaderboard ${ms(dataLeaderboard)} ms uncached, ${ms(warmLeaderboard)} ms cached; judged by the rule judge ${ms(judgedLeaderboard)} ms uncached, ${ms(warmJudgedLeaderboard)} ms cached; task matrix ${ms(dataMatrix)} ms uncached, ${ms(warmMatrix)} ms cached`,
      );
      return;
    }

    const base = `http://localhost:${PORT}`;
    // Something already answering there would be measured instead of this build: refuse.
    const occupied = await fetch(`${base}/api/health`).then(
      () => true,
      () => false,
    );
    if (occupied) throw new Error(`port ${PORT} is in use; set BENCH_PORT to a free port`);
    console.error("• starting the production server (builds first when sources changed; minutes on a busy machine)…");
    server = spawn(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "--conditions=react-server", "scripts/start.ts", "--port", String(PORT)], {
      cwd: path.resolve(__dirname, "../.."),
      env: { ...process.env, DATABASE_URL: databaseUrl, SKIP_DEMO_DATA: "true", APP_ENV: "local", PUBLIC_READ: "true" },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    });
    await waitForServer(`${base}/api/health`, server);
    let leaderboardBytes = 0;
    let taskBytes = 0;
    // Warm: repeated requests, the read cache hits. Cold: a write from this process before each (untimed) request
    // moves the data version (SQLite's data_version, PostgreSQL's snapshot), so the server recomputes everything.
    // (The server's start-up migrates the database, which needs it to itself: this connection opens only now.)
    const writer = createDatabaseClient(databaseUrl);
    // (A write that changes nothing commits nothing, so each touch writes a new value.)
    let touches = 0;
    const touch = () => writer.$executeRawUnsafe(`UPDATE "Benchmark" SET "importedBy" = ?`, `bench-${(touches += 1)}`);
    const httpLeaderboard = await time(async () => (leaderboardBytes = await fetchBody(`${base}/`)));
    const httpMatrix = await time(async () => (taskBytes = await fetchBody(`${base}/tasks/${TASK}`)));
    const coldLeaderboard = await time(async () => fetchBody(`${base}/`), touch);
    const coldMatrix = await time(async () => fetchBody(`${base}/tasks/${TASK}`), touch);
    // Anonymous page loads, which the page store answers once it holds the page for the current version.
    const storedLeaderboard = await time(async () => fetchStoredPage(`${base}/`));
    const storedMatrix = await time(async () => fetchStoredPage(`${base}/tasks/${TASK}`));
    await writer.$disconnect();

    const status = (values: number[], target: number) => (median(values) <= target ? `ok (≤ ${target})` : `OVER ${target}`);
    console.log(
      `Leaderboard benchmark — ${board.board.rows.filter((row) => row.inMeasured).length} models × ${RUNS_PER_MODEL} runs (${scale.responses} responses, ${FLIP_PERCENT}% of verdicts flipped), ` +
        `${tasks.length} tasks; task matrix ${TASK}: ${matrix?.matrix.rows.length} runs × ${matrix?.matrix.columns.length} turns. Medians of ${SAMPLES} after ${WARMUP} warm-ups.\n`,
    );
    printTable(
      ["measure", "median ms", "min ms", "max ms", "target"],
      [
        ["GET / (HTTP, read cache warm)", ms(httpLeaderboard), min(httpLeaderboard), max(httpLeaderboard), status(httpLeaderboard, TARGETS.leaderboard)],
        ["GET / (HTTP, after a write: cold)", ms(coldLeaderboard), min(coldLeaderboard), max(coldLeaderboard), status(coldLeaderboard, TARGETS.leaderboard)],
        [`GET /tasks/${TASK} (HTTP, warm)`, ms(httpMatrix), min(httpMatrix), max(httpMatrix), status(httpMatrix, TARGETS.task)],
        [`GET /tasks/${TASK} (HTTP, cold)`, ms(coldMatrix), min(coldMatrix), max(coldMatrix), status(coldMatrix, TARGETS.task)],
        ["GET / (HTTP page load, from the page store)", ms(storedLeaderboard), min(storedLeaderboard), max(storedLeaderboard), ""],
        [`GET /tasks/${TASK} (HTTP page load, from the page store)`, ms(storedMatrix), min(storedMatrix), max(storedMatrix), ""],
        ["leaderboard data (in process, uncached)", ms(dataLeaderboard), min(dataLeaderboard), max(dataLeaderboard), ""],
        ["leaderboard data (in process, cached)", ms(warmLeaderboard), min(warmLeaderboard), max(warmLeaderboard), ""],
        ["leaderboard judged by rule (in process, uncached)", ms(judgedLeaderboard), min(judgedLeaderboard), max(judgedLeaderboard), ""],
        ["leaderboard judged by rule (in process, cached)", ms(warmJudgedLeaderboard), min(warmJudgedLeaderboard), max(warmJudgedLeaderboard), ""],
        ["task matrix data (in process, uncached)", ms(dataMatrix), min(dataMatrix), max(dataMatrix), ""],
        ["task matrix data (in process, cached)", ms(warmMatrix), min(warmMatrix), max(warmMatrix), ""],
      ],
    );
    console.log(`\nresponse sizes: / ${(leaderboardBytes / 1024).toFixed(0)} KB, /tasks/${TASK} ${(taskBytes / 1024).toFixed(0)} KB`);
  } finally {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    if (flags.keep && !flags.reuse) console.error(`• kept the database: ${flags.postgres ? databaseUrl : path.join(scratch, "bench.db")}`);
    else if (flags.postgres && !flags.reuse) await dropPostgresDatabase(databaseUrl);
    rmSync(scratch, { recursive: true, force: true });
  }
}

runMain(main);
