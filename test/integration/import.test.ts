import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { expandRunPaths, readImportFiles, runImport, type ImportFile } from "@/lib/server/import/import-service";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";

const ROOT = path.resolve(__dirname, "../..");
const DEMO = path.join(ROOT, "prisma/demo");
const LIMITS = { maxFileBytes: 50 * 1024 * 1024, maxResponses: 20_000 };

async function demoRunFiles(): Promise<ImportFile[]> {
  const { files } = await readImportFiles((await expandRunPaths([path.join(DEMO, "runs")])).files, LIMITS.maxFileBytes);
  return files;
}

/** Row counts of every table that an import writes: equal counts before and after mean nothing was written. */
async function tableCounts() {
  const db = testDatabase();
  return {
    benchmarks: await db.benchmark.count(),
    turns: await db.turn.count(),
    models: await db.model.count(),
    runs: await db.run.count(),
    responses: await db.response.count(),
    passResults: await db.passResult.count(),
    diagnostics: await db.diagnostic.count(),
    cases: await db.caseResult.count(),
    judges: await db.judgeVerdict.count(),
  };
}

describe("importing the demo benchmark", () => {
  const db = testDatabase();
  beforeEach(() => emptyDatabase(db));

  it("stores the benchmark, runs and verdicts, and a second import of the same content writes nothing", async () => {
    const request = { benchmark: { kind: "directory" as const, dir: path.join(DEMO, "benchmark") }, runs: await demoRunFiles(), importedBy: "test" };
    const first = await runImport(db, request, LIMITS);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.benchmarkCreated).toBe(true);
    expect(first.runs.map((run) => [run.model, run.origin, run.created])).toEqual([
      ["demo_alpha", "recorded", true],
      ["demo_beta", "recorded", true],
      ["demo_delta", "imported", true],
      ["demo_gamma", "recorded", true],
    ]);
    const afterFirst = await tableCounts();
    expect(afterFirst).toMatchObject({ benchmarks: 1, turns: 15, runs: 4, responses: 15 * 3 + 6 });

    const second = await runImport(db, request, LIMITS);
    if (!second.ok) throw new Error("the second import failed");
    expect(second.runs.length).toBeGreaterThan(0);
    expect(second.runs.filter((run) => run.created)).toEqual([]);
    expect(second.benchmarkCreated).toBeFalsy();
    expect(await tableCounts()).toEqual(afterFirst);
  });

  it("rejects a run file with a malformed entry whole, naming file, entry and field, and writes nothing", async () => {
    const runs = await demoRunFiles();
    const alpha = runs.find((file) => file.name.endsWith("demo_alpha.json"))!;
    const records = JSON.parse(alpha.content) as Record<string, unknown>[];
    records[4] = { ...records[4], valid: "yes" };
    const broken = { name: "runs/broken.json", content: JSON.stringify(records) };
    const before = await tableCounts();
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: path.join(DEMO, "benchmark") }, runs: [runs[1]!, broken], importedBy: "test" }, LIMITS);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.issues).toHaveLength(1);
    expect(outcome.issues[0]).toMatchObject({ file: "runs/broken.json", field: "valid" });
    expect(outcome.issues[0]!.entry).toMatch(/^record 5 \(\w+ round \d\)$/);
    expect(outcome.issues[0]!.message).toContain("runs/broken.json › record 5");
    expect(await tableCounts()).toEqual(before);
  });

  it("rejects a run that names a turn the benchmark does not have", async () => {
    const runs = await demoRunFiles();
    const records = JSON.parse(runs[0]!.content) as Record<string, unknown>[];
    records[0] = { ...records[0], task: "NoSuchTask" };
    const outcome = await runImport(
      db,
      { benchmark: { kind: "directory", dir: path.join(DEMO, "benchmark") }, runs: [{ name: "runs/x.json", content: JSON.stringify(records) }], importedBy: "test" },
      LIMITS,
    );
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.issues[0]!.message).toMatch(/runs\/x\.json › record 1 \(NoSuchTask round 1\) › task: .*not a turn of the benchmark/);
    expect((await tableCounts()).benchmarks).toBe(0);
  });

  it("enforces the size and response limits", async () => {
    const runs = await demoRunFiles();
    const request = { benchmark: { kind: "directory" as const, dir: path.join(DEMO, "benchmark") }, runs, importedBy: "test" };
    const tooBig = await runImport(db, request, { maxFileBytes: 1000, maxResponses: 20_000 });
    expect(!tooBig.ok && tooBig.issues.some((problem) => /1000-byte limit/.test(problem.message))).toBe(true);
    const tooMany = await runImport(db, request, { maxFileBytes: LIMITS.maxFileBytes, maxResponses: 10 });
    expect(!tooMany.ok && tooMany.issues.some((problem) => /exceed the limit of 10/.test(problem.message))).toBe(true);
    expect((await tableCounts()).runs).toBe(0);
  });

  it("leaves the database as it was when the import process is killed inside its write transaction", async () => {
    const before = await tableCounts();
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", "scripts/import.ts", "--benchmark", path.join(DEMO, "benchmark"), "--runs", path.join(DEMO, "runs")],
      // Its own process group: tsx runs the script in a child process, and SIGKILL must reach that one too.
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: testDatabaseUrl(), C2W_TEST_IMPORT_PAUSE_MS: "60000" }, stdio: ["ignore", "ignore", "pipe"], detached: true },
    );
    await new Promise<void>((resolve, reject) => {
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("paused inside the write transaction")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`import exited (${code}) before pausing:\n${stderr}`)));
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    process.kill(-child.pid!, "SIGKILL");
    await exited;
    // tsx runs the script in a child of its own: wait until the whole group is gone, or the writer may still hold
    // its lock for a moment and the import below fail with SQLITE_BUSY.
    for (let attempt = 0; attempt < 500; attempt += 1) {
      try {
        process.kill(-child.pid!, 0);
      } catch {
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await tableCounts()).toEqual(before);
    // The killed writer's lock is gone: the next import goes through.
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: path.join(DEMO, "benchmark") }, runs: await demoRunFiles(), importedBy: "test" }, LIMITS);
    expect(outcome.ok).toBe(true);
  });
});

describe.skipIf(!benchmarkDir)(`importing the shared benchmark and its 12 runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();

  it("stores pass and resolve counts per model, domain and round equal to the recorded files", async () => {
    await emptyDatabase(db);
    const runsDir = path.join(benchmarkDir!, "runs");
    const { files } = await readImportFiles((await expandRunPaths([runsDir])).files, LIMITS.maxFileBytes);
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: benchmarkDir! }, runs: files, importedBy: "test" }, LIMITS);
    expect(outcome.ok).toBe(true);

    // Expected counts straight from the JSON files, without the project's parsers.
    const queries = JSON.parse(readFileSync(path.join(benchmarkDir!, "dataset/query.json"), "utf8")) as { task: string; category: string }[];
    const domainOf = new Map(queries.map((query) => [query.task, query.category]));
    const expected = new Map<string, { pass: number; resolve: number; turns: number }>();
    for (const file of files) {
      const model = path.basename(file.name, ".json");
      for (const record of JSON.parse(file.content) as Record<string, unknown>[]) {
        for (const key of [`${model}|all`, `${model}|domain:${domainOf.get(record.task as string)}`, `${model}|round:${record.round}`]) {
          const entry = expected.get(key) ?? { pass: 0, resolve: 0, turns: 0 };
          entry.turns += 1;
          if (record.valid === true) entry.pass += 1;
          entry.resolve += [record.test1, record.test2, record.test3].filter((test) => test === true).length;
          expected.set(key, entry);
        }
      }
    }

    const rows = await db.passResult.findMany({
      select: {
        valid: true,
        response: {
          select: {
            caseResults: { select: { verdict: true } },
            run: { select: { model: { select: { name: true } } } },
            turn: { select: { round: true, task: { select: { domain: { select: { name: true } } } } } },
          },
        },
      },
    });
    const stored = new Map<string, { pass: number; resolve: number; turns: number }>();
    for (const row of rows) {
      const model = row.response.run.model.name;
      for (const key of [`${model}|all`, `${model}|domain:${row.response.turn.task.domain.name}`, `${model}|round:${row.response.turn.round}`]) {
        const entry = stored.get(key) ?? { pass: 0, resolve: 0, turns: 0 };
        entry.turns += 1;
        if (row.valid) entry.pass += 1;
        entry.resolve += row.response.caseResults.filter((testCase) => testCase.verdict).length;
        stored.set(key, entry);
      }
    }
    expect(stored.size).toBe(expected.size);
    expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(expected));
    expect(expected.get("gpt_5d2|all")).toEqual({ pass: 55, resolve: 121, turns: 79 });
  });
});
