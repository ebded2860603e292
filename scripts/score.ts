// `npm run score -- --benchmark <dir> --run <file|dir> [--yaml-out <dir>] [--coze-out <dir>] [--json]`: scores recorded runs (or
// generation outputs) with the official steps 1_1–1_3 plus the rule judge, and reports pass rates and diagnostics.
// With --json, stdout carries exactly one JSON document; progress and warnings go to stderr. Bad input exits 2.
// Thin over the core: scoring, summaries (lib/workflow/score-summary.ts) and exports live there; scripts/lib/score-runs.ts
// reads and scores the run files (on worker threads too); this file parses arguments, writes files and prints.
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { readBenchmarkDir } from "@/lib/server/benchmark-files";
import { configuredBenchmarkDir, locateBenchmarkDir } from "@/lib/server/benchmark-location";
import { difyAppName } from "@/lib/workflow/dify-dsl";
import { SUMMARY_STEPS as STEPS, summarizeScores as summary, type Rate } from "@/lib/workflow/score-summary";
import { defaultThreads, formatIssues, responsesJsonPieces, runScoringWorkerIfAny, startScoringThreads, UsageError, type ReportRow, type ScoredRunFile } from "./lib/score-runs";
import { runPipedCommandLine } from "./lib/stdout";

const USAGE = `Usage: npm run score -- [--benchmark <dir>] [--run <file|dir>] [--yaml-out <dir>] [--coze-out <dir> [--github-token-env <VAR>]] [--json]
  --benchmark <dir>  Chat2Workflow benchmark directory (default: C2W_BENCHMARK_DIR, else ../shared/chat2workflow)
  --run <file|dir>   a run file (runs/<model>.json or a generation output) or a directory of them
                     (default <benchmark>/runs); the model name is the file's base name
  --yaml-out <dir>   write <dir>/<model>/<Task>_<round>.yml for every response that converts
  --coze-out <dir>   write <dir>/<model>/<Task>_<round>.zip (the Coze workflow package) for every response
                     the official Coze converter converts
  --github-token-env <VAR>
                     with --coze-out: the HTTP nodes' bearer token is the value of the environment variable VAR
                     (the official converter's github_rest_token; EMPTY when this is not given or VAR is empty)
  --json             print one JSON document on stdout (progress goes to stderr)
  --threads <n>      score on n threads, run files shared out as each thread finishes one (default: one per
                     core, at most 4; the output is the same for any n)`;

// -- arguments and input -------------------------------------------------------------------------------------------

interface Options {
  benchmark: string;
  run: string;
  yamlOut: string | null;
  cozeOut: string | null;
  githubToken: string;
  json: boolean;
  threads: number;
}

function parseOptions(argv: string[]): Options | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        benchmark: { type: "string" },
        run: { type: "string" },
        "yaml-out": { type: "string" },
        "coze-out": { type: "string" },
        "github-token-env": { type: "string" },
        json: { type: "boolean" },
        threads: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return "help";
  const tokenVariable = values["github-token-env"];
  if (tokenVariable !== undefined && !values["coze-out"]) throw new UsageError("--github-token-env only applies with --coze-out");
  if (tokenVariable !== undefined && process.env[tokenVariable] === undefined) {
    throw new UsageError(`--github-token-env ${tokenVariable}: the environment variable ${tokenVariable} is not set`);
  }
  const threads = values.threads === undefined ? defaultThreads() : Number(values.threads);
  if (!Number.isInteger(threads) || threads < 1) throw new UsageError(`--threads ${values.threads}: expected a whole number of threads, 1 or more`);
  const benchmark = configuredBenchmarkDir({ explicit: values.benchmark });
  return {
    benchmark,
    run: path.resolve(values.run ?? path.join(benchmark, "runs")),
    yamlOut: values["yaml-out"] ? path.resolve(values["yaml-out"]) : null,
    cozeOut: values["coze-out"] ? path.resolve(values["coze-out"]) : null,
    githubToken: tokenVariable === undefined ? "" : (process.env[tokenVariable] ?? ""),
    json: values.json === true,
    threads,
  };
}

function isDirectory(target: string): boolean {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
}

function runFilesOf(target: string): string[] {
  let stats;
  try {
    stats = statSync(target);
  } catch {
    throw new UsageError(`--run ${target}: no such file or directory`);
  }
  if (stats.isFile()) return [target];
  const files = readdirSync(target)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => path.join(target, name));
  if (files.length === 0) throw new UsageError(`--run ${target}: the directory has no .json run files`);
  return files;
}

// -- writing -------------------------------------------------------------------------------------------------------

function writeYaml(rows: readonly ReportRow[], outDir: string): number {
  let written = 0;
  for (const row of rows) {
    if (typeof row.yaml !== "string") continue;
    const dir = path.join(outDir, row.model);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${difyAppName(row.task, row.round)}.yml`), row.yaml);
    written += 1;
  }
  return written;
}

interface CozeWritten {
  written: number;
  /** Responses with no package, by the code of the reason (the JSON did not parse: "no-workflow-json"). */
  skipped: Record<string, number>;
}

function writeCoze(rows: readonly ReportRow[], outDir: string): CozeWritten {
  const result: CozeWritten = { written: 0, skipped: {} };
  for (const row of rows) {
    if (!row.coze) continue;
    if ("skipped" in row.coze) {
      result.skipped[row.coze.skipped] = (result.skipped[row.coze.skipped] ?? 0) + 1;
      continue;
    }
    const dir = path.join(outDir, row.model);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${difyAppName(row.task, row.round)}.zip`), row.coze.bytes);
    result.written += 1;
  }
  return result;
}

// -- output --------------------------------------------------------------------------------------------------------

function pct(part: number, whole: number): string {
  return whole === 0 ? "  -  " : `${((100 * part) / whole).toFixed(1).padStart(5)}%`;
}

function rateCells(rate: Rate): string {
  const recorded = rate.recorded === null ? "" : `  ${pct(rate.recorded, rate.n)}`;
  return `${pct(rate.passed, rate.n)}  ${pct(rate.repaired, rate.n)}${recorded}  ${String(rate.n).padStart(4)}`;
}

function printText(rows: readonly ReportRow[], benchmark: string, yamlWritten: number | null, coze: CozeWritten | null): void {
  const s = summary(rows);
  const models = s.byModel.length;
  const hasRecord = s.overall.recorded !== null;
  const head = `${"".padEnd(32)}${["pass", "repair", ...(hasRecord ? ["record"] : [])].map((h) => h.padStart(6)).join("  ")}      n`;
  console.log(`Scored ${rows.length} responses from ${models} model(s) against ${benchmark}`);
  console.log("pass = official steps 1_1–1_3 plus the rule judge as step 1_4; repair = the same after mechanical repairs");
  console.log(hasRecord ? "record = the run file's own `valid`\n" : "");
  console.log(head);
  console.log(`${"overall".padEnd(32)}${rateCells(s.overall)}`);
  console.log("\nBy domain");
  for (const d of s.byDomain) console.log(`  ${d.domain.padEnd(30)}${rateCells(d)}`);
  console.log("\nBy round");
  for (const r of s.byRound) {
    const note = r.reported ? "" : "  (not in the official per-round table; counted overall)";
    console.log(`  ${`round ${r.round}`.padEnd(30)}${rateCells(r)}${note}`);
  }
  console.log("\nFail steps (first failing step; step_1_4 = rule judge)");
  for (const step of STEPS) {
    const count = s.failSteps[step] ?? 0;
    console.log(`  ${step.padEnd(10)}${String(count).padStart(5)}  ${pct(count, rows.length)}   after repairs ${String(s.repairedFailSteps[step] ?? 0).padStart(5)}`);
  }
  console.log(`  ${"passed".padEnd(10)}${String(s.overall.passed).padStart(5)}  ${pct(s.overall.passed, rows.length)}   after repairs ${String(s.overall.repaired).padStart(5)}`);
  console.log("\nTop diagnostic codes (responses affected / occurrences)");
  for (const c of s.topCodes) console.log(`  ${c.code.padEnd(32)} ${c.category.padEnd(12)}${String(c.responses).padStart(5)} / ${c.occurrences}`);
  console.log("\nPer model");
  const width = Math.max(8, ...s.byModel.map((m) => m.model.length)) + 2;
  const columns = ["pass", "repair", ...(hasRecord ? ["record"] : [])].map((h) => h.padStart(6)).join("  ");
  console.log(`  ${"model".padEnd(width)}${columns}      n   1_1  1_2  1_3  1_4  top codes`);
  for (const m of s.byModel) {
    const steps = STEPS.map((step) => String(m.failSteps[step] ?? 0).padStart(4)).join(" ");
    console.log(`  ${m.model.padEnd(width)}${rateCells(m)}  ${steps}  ${m.topCodes.join(", ")}`);
  }
  if (yamlWritten !== null) console.log(`\nWrote ${yamlWritten} Dify YAML file(s).`);
  if (coze !== null) {
    const reasons = Object.entries(coze.skipped).sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`);
    console.log(`\nWrote ${coze.written} Coze package(s); no package for ${rows.length - coze.written}${reasons.length ? ` (${reasons.join(", ")})` : ""}.`);
  }
}

function printJson(rows: readonly ReportRow[], benchmark: string, runs: readonly ScoredRunFile[], yamlWritten: number | null, coze: CozeWritten | null): void {
  const document = {
    benchmark,
    runs: runs.map((run) => ({ model: run.model, file: run.file })),
    summary: summary(rows),
    ...(yamlWritten !== null ? { yamlWritten } : {}),
    ...(coze !== null ? { cozeWritten: coze.written, cozeSkipped: coze.skipped } : {}),
    responses: [],
  };
  // The responses come serialised from the threads that scored them: spliced into the last key's empty array.
  const head = JSON.stringify(document).slice(0, -"]}".length);
  process.stdout.write(Buffer.concat([Buffer.from(head), ...responsesJsonPieces(runs), Buffer.from("]}\n")]));
}

async function main(): Promise<number> {
  let options: Options | "help";
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`score: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (options === "help") {
    console.log(USAGE);
    return 0;
  }
  // Workers boot while this thread reads the benchmark; a single run file needs none.
  const threads = startScoringThreads(isDirectory(options.run) ? options.threads : 1);
  try {
    const location = locateBenchmarkDir({ explicit: options.benchmark });
    if (!location.ok) throw new UsageError(location.message);
    // The runs are read from --run below (which may be the benchmark's own runs folder): not twice. Scoring reads no
    // prompts.
    const benchmark = await readBenchmarkDir(options.benchmark, { includeRuns: false, includePrompts: false });
    if (!benchmark.ok) throw new UsageError(`cannot read the benchmark at ${options.benchmark}:\n${formatIssues(benchmark.issues)}`);
    const runFiles = runFilesOf(options.run);
    const runs = await threads.score(runFiles, {
      turns: benchmark.value.turns,
      domains: new Map(benchmark.value.queries.map((task) => [task.task, task.category])),
      json: options.json,
      yaml: options.yamlOut !== null,
      coze: options.cozeOut ? { githubToken: options.githubToken } : null,
    });
    for (const run of runs) {
      const note = run.skipped ? ` (${run.skipped} skipped: no such task/round in the benchmark)` : "";
      process.stderr.write(`scored ${run.model}: ${run.rows.length} responses${note}\n`);
    }
    const rows = runs.flatMap((run) => run.rows);
    const yamlWritten = options.yamlOut ? writeYaml(rows, options.yamlOut) : null;
    const coze = options.cozeOut ? writeCoze(rows, options.cozeOut) : null;
    if (options.json) printJson(rows, options.benchmark, runs, yamlWritten, coze);
    else printText(rows, options.benchmark, yamlWritten, coze);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`score: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    threads.close();
  }
}

// The same bundle runs the worker threads that score run files beside the main thread.
if (!runScoringWorkerIfAny()) runPipedCommandLine(main);
