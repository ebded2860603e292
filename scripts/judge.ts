// `npm run -s judge -- --benchmark DIR --run FILE_OR_DIR --stage pass|resolve --endpoint URL --model NAME ... --json`:
// re-judges recorded runs with an OpenAI-compatible model using the official judge protocols. With --json, stdout
// carries exactly one JSON document; messages go to stderr. Exit 2 for bad arguments, 1 for unreadable input or when
// no question got a verdict, 130 when interrupted.
import path from "node:path";
import type { BenchmarkIssue } from "@/lib/benchmark/issues";
import { endpointIdentity, judgeItemsFor, officialSystemPrompt, OFFICIAL_JUDGE_PARAMS, type JudgeItem, type JudgeStage, type RecordedRun } from "@/lib/judge";
import { readBenchmarkDir, readRunFile } from "@/lib/server/benchmark-files";
import { expandRunPaths } from "@/lib/server/import/import-service";
import { createChatClient, fileCallCache, judgeItems, type JudgedItem, type JudgeRun } from "@/lib/server/llm";
import { cohenKappaFromCounts } from "@/lib/stats/agreement";
import { parseCommandLine, runCommandLine, usageError } from "./lib/cli";

const USAGE = `Usage: npm run -s judge -- --benchmark <dir> --run <file|dir> --stage pass|resolve --endpoint <url> --model <name>
         [--api-key-env <VAR>] [--concurrency <n>] [--samples <k>] [--cache-dir <dir>] [--no-cache] [--strict] [--json]
  --benchmark <dir>     Chat2Workflow benchmark directory (dataset/, prompts/)
  --run <file|dir>      a recorded run (runs/<model>.json) or a directory of them; the model is the file's base name
  --stage pass|resolve  pass: one verdict per turn that passed steps 1_1-1_3 (step 1_4);
                        resolve: one verdict per test case with recorded non-file outputs
  --endpoint <url>      base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1
  --model <name>        the judge model id
  --api-key-env <VAR>   read the API key from this environment variable (local servers need none)
  --concurrency <n>     calls in flight at once (default 4)
  --samples <k>         ask k times per item and take the majority (default 1; a tie counts as a fail)
  --cache-dir <dir>     keep replies here; an identical call is answered from it without an HTTP request
  --no-cache            do not read the cache (fresh replies still replace what it holds)
  --strict              re-ask (at most twice) when a reply lacks <result>true|false</result>; such an item
                        then has no verdict instead of the official reading
  --temperature <t>     default 0 (the official setting)
  --max-tokens <n>      default 8192 (the official setting)
  --timeout <seconds>   per request (default 120)
  --max-retries <n>     retries of 429, 5xx, timeouts and malformed bodies (default 4)
  --rpm <n>, --tpm <n>  requests and tokens per minute
  --json                print {"verdicts": [...], "calls": n} on stdout`;

const OPTIONS = {
  benchmark: { type: "string" },
  run: { type: "string" },
  stage: { type: "string" },
  endpoint: { type: "string" },
  model: { type: "string" },
  "api-key-env": { type: "string" },
  concurrency: { type: "string" },
  samples: { type: "string" },
  "cache-dir": { type: "string" },
  "no-cache": { type: "boolean" },
  strict: { type: "boolean" },
  temperature: { type: "string" },
  "max-tokens": { type: "string" },
  timeout: { type: "string" },
  "max-retries": { type: "string" },
  rpm: { type: "string" },
  tpm: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

interface Options {
  benchmark: string;
  run: string;
  stage: JudgeStage;
  endpoint: string;
  model: string;
  apiKey: string | null;
  concurrency: number;
  samples: number;
  cacheDir: string | null;
  noCache: boolean;
  strict: boolean;
  temperature: number;
  maxTokens: number;
  timeoutMs: number;
  maxRetries: number;
  rpm: number | null;
  tpm: number | null;
  json: boolean;
}

class UsageError extends Error {}

function wholeNumber(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min) throw new UsageError(`--${name} must be a whole number ≥ ${min} (got "${value}")`);
  return number;
}

function decimal(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number < 0) throw new UsageError(`--${name} must be a number ≥ 0 (got "${value}")`);
  return number;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

function toOptions(values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string }): Options {
  const stage = required(values.stage, "stage");
  if (stage !== "pass" && stage !== "resolve") throw new UsageError(`--stage must be pass or resolve (got "${stage}")`);
  const endpoint = required(values.endpoint, "endpoint");
  if (!/^https?:\/\/[^/]/i.test(endpoint)) throw new UsageError(`--endpoint must be an http(s) base URL such as http://127.0.0.1:8000/v1 (got "${endpoint}")`);
  const keyVariable = values["api-key-env"];
  let apiKey: string | null = null;
  if (keyVariable !== undefined) {
    apiKey = process.env[keyVariable] ?? null;
    if (!apiKey) throw new UsageError(`--api-key-env ${keyVariable}: that environment variable is not set`);
  }
  const rpm = values.rpm === undefined ? null : wholeNumber(values.rpm, "rpm", 0, 1);
  const tpm = values.tpm === undefined ? null : wholeNumber(values.tpm, "tpm", 0, 1);
  return {
    benchmark: required(values.benchmark, "benchmark"),
    run: required(values.run, "run"),
    stage,
    endpoint,
    model: required(values.model, "model"),
    apiKey,
    concurrency: wholeNumber(values.concurrency, "concurrency", 4, 1),
    samples: wholeNumber(values.samples, "samples", 1, 1),
    cacheDir: values["cache-dir"] ?? null,
    noCache: values["no-cache"] === true,
    strict: values.strict === true,
    temperature: decimal(values.temperature, "temperature", OFFICIAL_JUDGE_PARAMS.temperature ?? 0),
    maxTokens: wholeNumber(values["max-tokens"], "max-tokens", OFFICIAL_JUDGE_PARAMS.max_tokens ?? 8192, 1),
    timeoutMs: decimal(values.timeout, "timeout", 120) * 1000,
    maxRetries: wholeNumber(values["max-retries"], "max-retries", 4, 0),
    rpm,
    tpm,
    json: values.json === true,
  };
}

function describeIssues(issues: readonly BenchmarkIssue[]): string {
  return issues
    .slice(0, 10)
    .map((entry) => `  ${entry.message}`)
    .join("\n");
}

/** The runs named by --run: the file itself, or the directory's *.json in name order. */
async function loadRuns(target: string): Promise<RecordedRun[]> {
  const expanded = await expandRunPaths([target]);
  if (expanded.issues.length) throw new Error(`--run ${describeIssues(expanded.issues).trim()}`);
  const runs: RecordedRun[] = [];
  for (const file of expanded.files) {
    const records = await readRunFile(file, { label: path.basename(file) });
    if (!records.ok) throw new Error(`cannot read the run ${file}:\n${describeIssues(records.issues)}`);
    runs.push({ model: path.basename(file, ".json"), records: records.value });
  }
  return runs;
}

// -- output ----------------------------------------------------------------------------------------------------------

interface VerdictRow {
  model: string;
  task: string;
  round: number;
  test: number | null;
  verdict: boolean | null;
  cached: boolean;
}

function verdictRow(judged: JudgedItem): VerdictRow {
  const { item } = judged;
  return { model: item.model, task: item.task, round: item.round, test: item.test, verdict: judged.verdict, cached: judged.cached };
}

const percent = (part: number, whole: number) => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`);

/** Per model and overall: judged items, errors, pass rates and agreement with the recorded verdicts. */
function summary(items: readonly JudgeItem[], run: JudgeRun, options: Options): string {
  const byModel = new Map<string, JudgedItem[]>();
  for (const judged of run.results) byModel.set(judged.item.model, [...(byModel.get(judged.item.model) ?? []), judged]);
  const lines = [
    `Judge ${options.model} at ${endpointIdentity(options.endpoint)}, ${options.stage} stage, ${options.samples} sample(s) per item${options.strict ? ", strict" : ""}`,
    "",
    `${"model".padEnd(36)} ${"items".padStart(5)} ${"errors".padStart(6)} ${"judge pass".padStart(10)} ${"recorded".padStart(8)} ${"agree".padStart(7)} ${"kappa".padStart(6)}`,
  ];
  const row = (label: string, judged: readonly JudgedItem[]) => {
    const answered = judged.filter((entry) => entry.verdict !== null);
    const paired = answered.filter((entry) => entry.item.recorded !== null);
    let a = 0, b = 0, c = 0, d = 0; // judge pass/recorded pass, judge pass/recorded fail, judge fail/recorded pass, both fail
    for (const entry of paired) {
      if (entry.verdict && entry.item.recorded) a += 1;
      else if (entry.verdict) b += 1;
      else if (entry.item.recorded) c += 1;
      else d += 1;
    }
    const kappa = cohenKappaFromCounts(a, b, c, d);
    const recordedPass = paired.filter((entry) => entry.item.recorded).length;
    lines.push(
      `${label.padEnd(36)} ${String(judged.length).padStart(5)} ${String(judged.length - answered.length).padStart(6)} ${percent(a + b, paired.length).padStart(10)} ${percent(recordedPass, paired.length).padStart(8)} ${percent(a + d, paired.length).padStart(7)} ${(kappa.kappa === null ? "-" : kappa.kappa.toFixed(3)).padStart(6)}`,
    );
  };
  for (const [model, judged] of byModel) row(model, judged);
  if (byModel.size > 1) row("all", run.results);
  const errors = new Map<string, number>();
  for (const judged of run.results) if (judged.error) errors.set(judged.error.kind, (errors.get(judged.error.kind) ?? 0) + 1);
  lines.push(
    "",
    `${run.results.length} of ${items.length} items judged${run.cancelled ? " (cancelled)" : ""}; ${run.calls} HTTP calls, ${run.cacheHits} cache hits, ${run.usage.retries} retries; ${run.promptTokens} prompt + ${run.completionTokens} completion tokens`,
  );
  if (errors.size) lines.push(`errors (no verdict): ${[...errors].map(([kind, count]) => `${kind} ${count}`).join(", ")}`);
  lines.push("agree and kappa compare the judge with the verdicts the run recorded, over items both answered.");
  return lines.join("\n");
}

// -- main ------------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const parsed = parseCommandLine({ args: process.argv.slice(2), options: OPTIONS, allowPositionals: false }, USAGE);
  if (typeof parsed === "number") return parsed;
  let options: Options;
  try {
    options = toOptions(parsed.values);
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message, USAGE);
    throw error;
  }

  const benchmark = await readBenchmarkDir(options.benchmark, { includeRuns: false });
  if (!benchmark.ok) {
    console.error(`error: cannot read the benchmark at ${options.benchmark}:\n${describeIssues(benchmark.issues)}`);
    return 1;
  }
  const promptName = `evaluation_${options.stage}_system`;
  const prompt = benchmark.value.prompts.find((candidate) => candidate.name === promptName);
  if (!prompt) {
    console.error(`error: ${options.benchmark} has no prompts/${promptName}.txt (the official judge's system prompt)`);
    return 1;
  }
  let runs: RecordedRun[];
  try {
    runs = await loadRuns(options.run);
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const built = judgeItemsFor(options.stage, runs, {
    turns: benchmark.value.turns,
    queries: new Map(benchmark.value.queries.map((task) => [task.task, task.queries])),
    systemPrompt: officialSystemPrompt(prompt.text),
  });
  for (const problem of built.issues) console.error(`warning: ${problem.key}: ${problem.problem} (skipped)`);

  const client = createChatClient({
    baseURL: options.endpoint,
    apiKey: options.apiKey,
    model: options.model,
    params: { temperature: options.temperature, max_tokens: options.maxTokens },
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    requestsPerMinute: options.rpm,
    tokensPerMinute: options.tpm,
  });
  const controller = new AbortController();
  const onSignal = () => {
    console.error("interrupted: finishing without starting new calls");
    controller.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  console.error(`judging ${built.items.length} ${options.stage}-stage item(s) from ${runs.length} run(s) with ${options.model}`);
  let lastReport = Date.now();
  const run = await judgeItems(built.items, {
    client,
    samples: options.samples,
    strict: options.strict,
    cache: options.cacheDir ? fileCallCache(options.cacheDir) : null,
    refresh: options.noCache,
    signal: controller.signal,
    onProgress: (progress) => {
      const now = Date.now();
      if (now - lastReport >= 2000 || progress.done === progress.total) {
        lastReport = now;
        console.error(`  ${progress.done}/${progress.total} judged, ${progress.failed} without verdict, ${progress.calls} calls, ${progress.cacheHits} cache hits`);
      }
    },
  });
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  const failed = run.results.filter((judged) => judged.verdict === null);
  for (const judged of failed.slice(0, 5)) console.error(`error: ${judged.item.key}: ${judged.error?.kind}: ${judged.error?.message}`);
  if (failed.length > 5) console.error(`error: … and ${failed.length - 5} more item(s) without a verdict`);

  if (options.json) {
    process.stdout.write(`${JSON.stringify({ verdicts: run.results.map(verdictRow), calls: run.calls })}\n`);
  } else {
    console.log(summary(built.items, run, options));
  }
  if (run.cancelled) return 130;
  // Nothing judged at all (an unreachable endpoint, a wrong model) is a failed run, even though the document is printed.
  return built.items.length > 0 && run.results.every((judged) => judged.verdict === null) ? 1 : 0;
}

runCommandLine(main);
