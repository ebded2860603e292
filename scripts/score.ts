// `npm run score -- --benchmark <dir> --run <file|dir> [--yaml-out <dir>] [--coze-out <dir>] [--json]`: scores recorded runs (or
// generation outputs) with the official steps 1_1–1_3 plus the rule judge, and reports pass rates and diagnostics.
// With --json, stdout carries exactly one JSON document; progress and warnings go to stderr. Bad input exits 2.
// Thin over the core: scoring, summaries (lib/workflow/score-summary.ts) and exports live there; this file reads
// files, writes files and prints.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { BenchmarkIssue } from "@/lib/benchmark/issues";
import { parseGenerationFile, parseRunFile, type RunRecord } from "@/lib/benchmark/runs";
import type { TurnSpec } from "@/lib/benchmark/turn";
import { readBenchmarkDir } from "@/lib/server/benchmark-files";
import { configuredBenchmarkDir, locateBenchmarkDir } from "@/lib/server/benchmark-location";
import type { Diagnostic } from "@/lib/workflow/diagnostics";
import { cozePackage } from "@/lib/workflow/coze-package";
import { buildDifyDsl, difyAppName } from "@/lib/workflow/dify-dsl";
import { toDifyYaml } from "@/lib/workflow/dify-yaml";
import type { ResponseInput } from "@/lib/workflow/response";
import { scoreResponse } from "@/lib/workflow/score";
import { SUMMARY_STEPS as STEPS, summarizeScores as summary, type Rate, type ScoredRow } from "@/lib/workflow/score-summary";
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
  --json             print one JSON document on stdout (progress goes to stderr)`;


class UsageError extends Error {}

interface RunInput {
  model: string;
  file: string;
  items: { task: string; round: number; input: ResponseInput; recorded: RunRecord | null }[];
}


// -- arguments and input -------------------------------------------------------------------------------------------

interface Options {
  benchmark: string;
  run: string;
  yamlOut: string | null;
  cozeOut: string | null;
  githubToken: string;
  json: boolean;
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
  const benchmark = configuredBenchmarkDir({ explicit: values.benchmark });
  return {
    benchmark,
    run: path.resolve(values.run ?? path.join(benchmark, "runs")),
    yamlOut: values["yaml-out"] ? path.resolve(values["yaml-out"]) : null,
    cozeOut: values["coze-out"] ? path.resolve(values["coze-out"]) : null,
    githubToken: tokenVariable === undefined ? "" : (process.env[tokenVariable] ?? ""),
    json: values.json === true,
  };
}

function formatIssues(issues: readonly BenchmarkIssue[], limit = 10): string {
  const lines = issues.slice(0, limit).map((issue) => `  ${issue.message}`);
  if (issues.length > limit) lines.push(`  … and ${issues.length - limit} more`);
  return lines.join("\n");
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

/** A recorded run (runs/<model>.json) or, failing that, a generation output ({task, answer1..N} items). */
function readRunInput(file: string): RunInput {
  const model = path.basename(file, ".json");
  const label = path.basename(file);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const records = parseRunFile(label, data);
  if (records.ok) {
    return {
      model,
      file,
      items: records.value.map((record) => ({
        task: record.task,
        round: record.round,
        input: { nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow },
        recorded: record,
      })),
    };
  }
  const generation = parseGenerationFile(label, data);
  if (!generation.ok) throw new UsageError(`${file} is neither a run file nor a generation output:\n${formatIssues(records.issues)}`);
  return {
    model,
    file,
    items: generation.value.flatMap((item) =>
      item.answers.map((answer) => ({ task: item.task, round: answer.round, input: { raw: answer.text }, recorded: null })),
    ),
  };
}

// -- scoring -------------------------------------------------------------------------------------------------------

function scoreRuns(runs: readonly RunInput[], turns: ReadonlyMap<string, TurnSpec>, domains: ReadonlyMap<string, string>): ScoredRow[] {
  const rows: ScoredRow[] = [];
  for (const run of runs) {
    let skipped = 0;
    for (const item of run.items) {
      const turn = turns.get(`${item.task}_${item.round}`);
      if (!turn) {
        skipped += 1;
        continue;
      }
      const score = scoreResponse(item.input, turn);
      rows.push({ model: run.model, task: item.task, round: item.round, domain: domains.get(item.task) ?? "?", recorded: item.recorded, score });
    }
    const note = skipped ? ` (${skipped} skipped: no such task/round in the benchmark)` : "";
    process.stderr.write(`scored ${run.model}: ${run.items.length - skipped} responses${note}\n`);
  }
  return rows;
}

function writeYaml(rows: readonly ScoredRow[], outDir: string): number {
  let written = 0;
  for (const row of rows) {
    if (!row.score.conversion) continue;
    const dir = path.join(outDir, row.model);
    mkdirSync(dir, { recursive: true });
    const name = difyAppName(row.task, row.round);
    writeFileSync(path.join(dir, `${name}.yml`), toDifyYaml(buildDifyDsl(row.score.conversion, name)));
    written += 1;
  }
  return written;
}

interface CozeWritten {
  written: number;
  /** Responses with no package, by the code of the reason (the JSON did not parse: "no-workflow-json"). */
  skipped: Record<string, number>;
}

function writeCoze(rows: readonly ScoredRow[], outDir: string, githubToken: string): CozeWritten {
  const result: CozeWritten = { written: 0, skipped: {} };
  for (const row of rows) {
    const json = row.score.parsed.json;
    const built = json.ok ? cozePackage(json.value, difyAppName(row.task, row.round), { githubToken }) : null;
    if (!built?.ok) {
      const code = built ? (built.issues[0]?.code ?? "unknown") : "no-workflow-json";
      result.skipped[code] = (result.skipped[code] ?? 0) + 1;
      continue;
    }
    const dir = path.join(outDir, row.model);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${difyAppName(row.task, row.round)}.zip`), built.value.bytes);
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

function printText(rows: readonly ScoredRow[], benchmark: string, yamlWritten: number | null, coze: CozeWritten | null): void {
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

function diagnosticJson(d: Diagnostic) {
  return {
    code: d.code,
    category: d.category,
    severity: d.severity,
    message: d.message,
    ...(d.officialStep ? { officialStep: d.officialStep } : {}),
    ...(d.location ? { location: d.location } : {}),
    ...(d.targetNodeId !== undefined ? { targetNodeId: d.targetNodeId } : {}),
    ...(d.hint ? { hint: d.hint } : {}),
  };
}

function printJson(rows: readonly ScoredRow[], benchmark: string, runs: readonly RunInput[], yamlWritten: number | null, coze: CozeWritten | null): void {
  const document = {
    benchmark,
    runs: runs.map((run) => ({ model: run.model, file: run.file })),
    summary: summary(rows),
    ...(yamlWritten !== null ? { yamlWritten } : {}),
    ...(coze !== null ? { cozeWritten: coze.written, cozeSkipped: coze.skipped } : {}),
    responses: rows.map((row) => ({
      model: row.model,
      task: row.task,
      round: row.round,
      domain: row.domain,
      officialFailStep: row.score.officialFailStep,
      ruleJudge: row.score.ruleJudge ? row.score.ruleJudge.verdict : null,
      failStep: row.score.failStep,
      passed: row.score.passed,
      ...(row.recorded ? { recorded: { valid: row.recorded.valid, failStep: row.recorded.fail_step ?? null } } : {}),
      repaired: {
        applied: row.score.repaired.applied.map((repair) => repair.code),
        officialFailStep: row.score.repaired.officialFailStep,
        ruleJudge: row.score.repaired.ruleJudge ? row.score.repaired.ruleJudge.verdict : null,
        failStep: row.score.repaired.failStep,
        passed: row.score.repaired.passed,
      },
      diagnostics: row.score.diagnostics.map(diagnosticJson),
    })),
  };
  process.stdout.write(`${JSON.stringify(document)}\n`);
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
  try {
    const location = locateBenchmarkDir({ explicit: options.benchmark });
    if (!location.ok) throw new UsageError(location.message);
    // The runs are read from --run below (which may be the benchmark's own runs folder): not twice.
    const benchmark = await readBenchmarkDir(options.benchmark, { includeRuns: false });
    if (!benchmark.ok) throw new UsageError(`cannot read the benchmark at ${options.benchmark}:\n${formatIssues(benchmark.issues)}`);
    const runs = runFilesOf(options.run).map(readRunInput);
    const domains = new Map(benchmark.value.queries.map((task) => [task.task, task.category]));
    const rows = scoreRuns(runs, benchmark.value.turns, domains);
    const yamlWritten = options.yamlOut ? writeYaml(rows, options.yamlOut) : null;
    const coze = options.cozeOut ? writeCoze(rows, options.cozeOut, options.githubToken) : null;
    if (options.json) printJson(rows, options.benchmark, runs, yamlWritten, coze);
    else printText(rows, options.benchmark, yamlWritten, coze);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`score: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

runPipedCommandLine(main);
