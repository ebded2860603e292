// `npm run import -- [--benchmark <dir>] [--runs <file|dir>...] [--model <name>] [--label <text>] [--name <text>] [--database <url>]`
// Imports a benchmark directory and run files (recorded runs or raw generation output), scores every response and
// prints what was imported. Exit codes: 0 imported (or already present), 1 rejected input, 2 bad arguments.
// `npm run import -- --bundle <file> [--benchmark <dir>]` imports a run bundle, re-scores and re-derives it, and prints
// "verified" or each disagreement (exit 0 verified, 1 refused or imported with disagreements).
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { describeFinding, describeRefusal } from "@/lib/bundle/format";
import { locateBenchmarkDir } from "@/lib/server/benchmark-location";
import { importRunBundle } from "@/lib/server/bundles/import-bundle";
import { expandRunPaths, readImportFiles, runImport, type ImportOutcome, type ImportProgress } from "@/lib/server/import/import-service";
import { commandLineEnv, parseCommandLine, runCommandLine, usageError, withDatabase } from "./lib/cli";

const USAGE = `Usage: npm run import -- [--benchmark <dir>] [--runs <file|dir> ...] [options]
       npm run import -- --bundle <file> [--benchmark <dir>] [--database <url>] [--json]
  --bundle <file>     a run bundle (npm run export -- bundle, or GET /api/v1/runs/<id>/bundle): imports it as a
                      run, re-scores every response, re-derives every verdict it can from the recorded calls and
                      prints "verified" or each disagreement; --benchmark names the benchmark's directory when
                      the database does not hold it yet
  --benchmark <dir>   benchmark directory with dataset/ (and prompts/); default: C2W_BENCHMARK_DIR, else
                      ../shared/chat2workflow
  --runs <path>       run file or directory of run files; repeat for several (recorded runs/*.json
                      or official generation output with answer1..answerN)
  --model <name>      model name for every run (default: each file's base name, e.g. gpt_5d2)
  --name <text>       benchmark name when it is new (default: the directory name)
  --label <text>      run label for every run (default: the file name)
  --database <url>    database URL (default: DATABASE_URL or file:./data/studio.db)
  --json              print the outcome as JSON on stdout`;

let lastPhase: string | null = null;

/** A live status line on a terminal; one line per phase when stderr is a file or pipe. */
function printProgress(progress: ImportProgress) {
  if (!process.stderr.isTTY) {
    if (progress.phase !== lastPhase) process.stderr.write(`${progress.phase}…\n`);
    lastPhase = progress.phase;
    return;
  }
  const files = progress.fileCount ? ` file ${Math.min(progress.fileIndex + 1, progress.fileCount)}/${progress.fileCount}` : "";
  const responses = progress.responsesTotal ? ` responses ${progress.responsesDone}/${progress.responsesTotal}` : "";
  process.stderr.write(`\r${progress.phase.padEnd(10)}${files}${responses}${progress.file ? ` ${progress.file}` : ""}`.padEnd(100));
  if (progress.phase === "done") process.stderr.write("\n");
}

function percent(numerator: number, denominator: number): string {
  return denominator ? `${((100 * numerator) / denominator).toFixed(2)}%` : "—";
}

function printOutcome(outcome: Extract<ImportOutcome, { ok: true }>) {
  console.log(`benchmark ${outcome.benchmarkName} ${outcome.benchmarkCreated ? "imported" : "already present"} (${outcome.benchmarkId})`);
  for (const run of outcome.runs) {
    const status = run.created ? "imported" : "already imported, nothing written";
    const resolve = run.casesPassed === null ? "no resolve data" : `resolve ${run.casesPassed}/${3 * run.responses} (${percent(run.casesPassed, 3 * run.responses)})`;
    const categories = Object.entries(run.diagnosticsByCategory).map(([category, count]) => `${category} ${count}`).join(", ");
    console.log(
      `run ${run.label} [${run.origin}]: ${status}; ${run.responses} responses; pass ${run.passed}/${run.responses} (${percent(run.passed, run.responses)}); ` +
        `deterministic pass ${run.deterministicPassed}/${run.responses}; ${resolve}; diagnostics: ${categories || "none"}; ` +
        `disagreements with recorded verdicts: ${run.disagreements.failStep} fail-step, ${run.disagreements.judge} judge`,
    );
  }
}

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    {
      options: {
        benchmark: { type: "string" },
        runs: { type: "string", multiple: true },
        bundle: { type: "string" },
        model: { type: "string" },
        label: { type: "string" },
        name: { type: "string" },
        database: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    },
    USAGE,
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  if (values.bundle) {
    if (values.runs?.length) return usageError("--bundle imports one bundle; give --runs separately", USAGE);
    return importBundle(values.bundle, values.benchmark, values.database, values.json === true);
  }
  const location = locateBenchmarkDir({ explicit: values.benchmark });
  if (!location.ok) return usageError(location.message, USAGE);
  const benchmarkDir = location.dir;
  const env = commandLineEnv(values.database);
  const limits = { maxFileBytes: env.IMPORT_MAX_FILE_MB * 1024 * 1024, maxResponses: env.IMPORT_MAX_RESPONSES, maxFieldChars: env.IMPORT_MAX_FIELD_KB * 1024 };
  const expanded = await expandRunPaths(values.runs ?? []);
  const read = await readImportFiles(expanded.files, limits.maxFileBytes);
  const readIssues = [...expanded.issues, ...read.issues];
  if (readIssues.length) {
    for (const readIssue of readIssues) console.error(`error: ${readIssue.message}`);
    return 1;
  }
  return withDatabase(env.DATABASE_URL, async (db) => {
    const outcome = await runImport(
      db,
      {
        benchmark: { kind: "directory", dir: path.resolve(benchmarkDir), name: values.name },
        runs: read.files,
        model: values.model,
        label: values.label,
        importedBy: "cli",
      },
      limits,
      {
        onProgress: values.json ? undefined : printProgress,
        // Test-only: hold the write transaction open so a test can kill the process inside it.
        afterRunWritten: process.env.C2W_TEST_IMPORT_PAUSE_MS
          ? async () => {
              process.stderr.write("paused inside the write transaction\n");
              await new Promise((resolve) => setTimeout(resolve, Number(process.env.C2W_TEST_IMPORT_PAUSE_MS)));
            }
          : undefined,
      },
    );
    if (values.json) {
      console.log(JSON.stringify(outcome, null, 2));
      return outcome.ok ? 0 : 1;
    }
    if (!outcome.ok) {
      process.stderr.write("\n");
      console.error(`import rejected, nothing was written (${outcome.issues.length} problem${outcome.issues.length === 1 ? "" : "s"}):`);
      for (const problem of outcome.issues.slice(0, 50)) console.error(`  ${problem.message}`);
      if (outcome.issues.length > 50) console.error(`  … and ${outcome.issues.length - 50} more`);
      return 1;
    }
    printOutcome(outcome);
    return 0;
  });
}

async function importBundle(file: string, benchmarkDir: string | undefined, database: string | undefined, json: boolean): Promise<number> {
  const env = commandLineEnv(database);
  const maxBytes = env.IMPORT_MAX_REQUEST_MB * 1024 * 1024;
  let bytes: Uint8Array;
  try {
    if ((await stat(file)).size > maxBytes) {
      console.error(`error: ${file}: larger than the ${env.IMPORT_MAX_REQUEST_MB} MB limit (IMPORT_MAX_REQUEST_MB)`);
      return 1;
    }
    bytes = new Uint8Array(await readFile(file));
  } catch {
    console.error(`error: ${file}: cannot be read`);
    return 1;
  }
  return withDatabase(env.DATABASE_URL, async (db) => {
    const outcome = await importRunBundle(db, { bytes, fileName: path.basename(file), importedBy: "cli", maxBytes, ...(benchmarkDir ? { benchmarkDir: path.resolve(benchmarkDir) } : {}) });
    if (json) {
      console.log(JSON.stringify(outcome, null, 2));
      return outcome.ok && outcome.verification === "verified" ? 0 : 1;
    }
    if (!outcome.ok) {
      console.error(`bundle refused, nothing was written (${outcome.refusals.length} problem${outcome.refusals.length === 1 ? "" : "s"}):`);
      for (const refusal of outcome.refusals.slice(0, 50)) console.error(`  ${describeRefusal(refusal)}`);
      return 1;
    }
    const checked = outcome.checked;
    console.error(
      `run ${outcome.label} (${outcome.runId}) ${outcome.created ? "imported" : "already imported, nothing written"}: ${checked.rescored} responses re-scored, ` +
        `${checked.passVerdictsRederived} pass verdicts and ${checked.caseVerdictsRederived} test cases re-derived, ${checked.judgeVerdictsRederived} judge verdicts re-read from their replies, ` +
        `${checked.turnsReplayed} generated turns replayed from ${checked.calls} recorded calls; taken as recorded: ${checked.passVerdictsAsRecorded} pass verdicts, ${checked.caseVerdictsAsRecorded} test cases`,
    );
    if (outcome.verification === "verified") {
      console.log("verified");
      return 0;
    }
    console.log(`disagreements: ${outcome.findings.length}`);
    for (const finding of outcome.findings) console.log(`  ${describeFinding(finding)}`);
    return 1;
  });
}

runCommandLine(main);
