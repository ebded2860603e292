// `npm run bench:import`: imports the shared benchmark and all its recorded runs into a fresh SQLite database,
// scoring every response. Each import runs in its own process (as `npm run import` does) so its peak memory is
// its own; 5 timed imports after one warm-up; prints the median time and the peak RSS. Targets: ≤ 5 s, ≤ 400 MB.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabaseClient } from "../../lib/server/db";
import { expandRunPaths, readImportFiles, runImport } from "../../lib/server/import/import-service";
import { runPrisma } from "../prisma-offline.mjs";
import { locateBenchmark, median, printTable, runMain } from "./common";

const RUNS = 5;
const LIMITS = { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 };

/** One import into `databaseFile`; prints {ms, rssMb, runs, responses} as JSON. */
async function importOnce(dir: string, databaseFile: string): Promise<void> {
  const db = createDatabaseClient(`file:${databaseFile}`);
  const start = performance.now();
  // Timed from reading the files to the committed transaction: what `npm run import` does.
  const paths = await expandRunPaths([path.join(dir, "runs")]);
  const { files } = await readImportFiles(paths.files, LIMITS.maxFileBytes);
  const outcome = await runImport(db, { benchmark: { kind: "directory", dir }, runs: files, importedBy: "bench" }, LIMITS);
  const ms = performance.now() - start;
  await db.$disconnect();
  if (!outcome.ok) throw new Error(outcome.issues.map((issue) => issue.message).join("\n"));
  const responses = outcome.runs.reduce((total, run) => total + run.responses, 0);
  console.log(JSON.stringify({ ms, rssMb: process.resourceUsage().maxRSS / 1024, runs: outcome.runs.length, responses }));
}

async function main(): Promise<void> {
  const dir = locateBenchmark();
  const single = process.argv.indexOf("--single");
  if (single !== -1) return importOnce(dir, process.argv[single + 1]!);

  const scratch = mkdtempSync(path.join(tmpdir(), "c2w-bench-import-"));
  try {
    // One migrated empty database, copied for every import so each starts from nothing.
    const template = path.join(scratch, "template.db");
    const migrated = runPrisma(["migrate", "deploy"], { env: { ...process.env, DATABASE_URL: `file:${template}` }, stdio: "pipe" });
    if (migrated.status !== 0) throw new Error(`migrate deploy failed:\n${migrated.stdout}${migrated.stderr}`);
    const results: { ms: number; rssMb: number; runs: number; responses: number }[] = [];
    for (let run = 0; run <= RUNS; run += 1) {
      const file = path.join(scratch, `run-${run}.db`);
      copyFileSync(template, file);
      const child = spawnSync(process.execPath, [...process.execArgv, __filename, "--single", file], { encoding: "utf8", env: process.env });
      if (child.status !== 0) throw new Error(`import ${run} failed:\n${child.stdout}${child.stderr}`);
      const result = JSON.parse(child.stdout.trim().split("\n").pop()!) as (typeof results)[number];
      if (run > 0) results.push(result); // the first import warms the file cache
    }
    const times = results.map((result) => result.ms);
    const first = results[0]!;
    console.log(`Import benchmark — ${first.runs} runs, ${first.responses} responses from ${dir}; ${RUNS} imports after one warm-up, each in its own process\n`);
    printTable(
      ["measure", "value"],
      [
        ["median import + scoring (s)", (median(times) / 1000).toFixed(2)],
        ["fastest (s)", (Math.min(...times) / 1000).toFixed(2)],
        ["slowest (s)", (Math.max(...times) / 1000).toFixed(2)],
        ["median peak RSS of the import process (MB)", median(results.map((result) => result.rssMb)).toFixed(0)],
        ["largest peak RSS (MB)", Math.max(...results.map((result) => result.rssMb)).toFixed(0)],
      ],
    );
    console.log("\ntargets: median ≤ 5 s, peak RSS ≤ 400 MB");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

runMain(main);
