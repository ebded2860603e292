// `npm run -s generate -- --benchmark DIR --endpoint URL --model NAME [--api-key-env VAR] --out FILE
// [--mode zero-shot|agentic|feedback] [--concurrency N]`: generates a model's answers to every benchmark task and
// writes the official response file [{id, category, task, answer1..N}], saved atomically after every turn. An
// existing --out is resumed: its non-empty answers are kept. Every turn (attempts, repairs, errors) is appended to
// FILE.turns.jsonl. Exit 0 when every turn has an answer, 1 when some failed (run again to resume), 2 for bad
// arguments, 130 when interrupted.
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseGenerationFile } from "@/lib/benchmark/runs";
import { GENERATION_MODES, ZERO_SHOT_PARAMS, type GenerationMode } from "@/lib/generation/protocol";
import { endpointIdentity } from "@/lib/judge";
import { readBenchmarkDir, readJsonFile } from "@/lib/server/benchmark-files";
import { generateResponses, type ResponseItem } from "@/lib/server/generation/runner";
import { createChatClient } from "@/lib/server/llm";
import { apiKeyFromEnv, decimal, describeIssues, endpointOption, parseOptions, required, runCommandLine, UsageError, wholeNumber } from "./lib/cli";

const USAGE = `Usage: npm run -s generate -- --benchmark <dir> --endpoint <url> --model <name> --out <file>
         [--api-key-env <VAR>] [--mode zero-shot|agentic|feedback] [--concurrency <n>]
  --benchmark <dir>     Chat2Workflow benchmark directory (dataset/query.json, prompts/builder_prompt.txt,
                        .agents/skills/chat2workflow/SKILL.md for the agentic modes)
  --endpoint <url>      base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1
  --model <name>        the model id to generate with
  --api-key-env <VAR>   read the API key from this environment variable (local servers need none)
  --out <file>          the response file to write; when it exists, its answers are kept and the rest generated
  --mode <mode>         zero-shot (default): the official protocol, builder prompt as system message;
                        agentic: the official agentic baseline (skill inline, 5 attempts, 4 auto-repairs);
                        feedback: agentic, and attempts 2-5 are told the previous attempt's problems
  --concurrency <n>     tasks in progress and calls in flight at once (default 4); rounds of a task run in order
  --temperature <t>     default 0.7 for zero-shot; the agentic modes send none unless given
  --max-tokens <n>      default 32768 for zero-shot; the agentic modes send none unless given
  --timeout <seconds>   per call (default 600 zero-shot, 300 agentic: a timed-out attempt counts as the official
                        [TIMEOUT] answer)
  --max-retries <n>     retries of 429, 5xx, timeouts and malformed bodies per call (default 2)`;

const OPTIONS = {
  benchmark: { type: "string" },
  endpoint: { type: "string" },
  model: { type: "string" },
  "api-key-env": { type: "string" },
  out: { type: "string" },
  mode: { type: "string" },
  concurrency: { type: "string" },
  temperature: { type: "string" },
  "max-tokens": { type: "string" },
  timeout: { type: "string" },
  "max-retries": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

interface Options {
  benchmark: string;
  endpoint: string;
  model: string;
  apiKey: string | null;
  out: string;
  mode: GenerationMode;
  concurrency: number;
  temperature: number | undefined;
  maxTokens: number | undefined;
  timeoutMs: number;
  maxRetries: number;
}

function toOptions(values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string }): Options {
  const mode = (values.mode ?? "zero-shot") as GenerationMode;
  if (!GENERATION_MODES.includes(mode)) throw new UsageError(`--mode must be one of ${GENERATION_MODES.join(", ")} (got "${values.mode}")`);
  const agentic = mode !== "zero-shot";
  return {
    benchmark: required(values.benchmark, "benchmark"),
    endpoint: endpointOption(values.endpoint),
    model: required(values.model, "model"),
    apiKey: apiKeyFromEnv(values["api-key-env"]),
    out: required(values.out, "out"),
    mode,
    concurrency: wholeNumber(values.concurrency, "concurrency", 4, 1),
    temperature: values.temperature === undefined ? (agentic ? undefined : ZERO_SHOT_PARAMS.temperature) : decimal(values.temperature, "temperature", 0),
    maxTokens: values["max-tokens"] === undefined ? (agentic ? undefined : ZERO_SHOT_PARAMS.max_tokens) : wholeNumber(values["max-tokens"], "max-tokens", 1, 1),
    timeoutMs: decimal(values.timeout, "timeout", agentic ? 300 : 600) * 1000,
    maxRetries: wholeNumber(values["max-retries"], "max-retries", 2, 0),
  };
}

/** The answers of an existing output file (resume); an error message when it exists but cannot be used. */
async function existingItems(file: string): Promise<ResponseItem[] | string> {
  if (!existsSync(file)) return [];
  const data = await readJsonFile(file, path.basename(file));
  if (!data.ok) return describeIssues(data.issues);
  const parsed = parseGenerationFile(path.basename(file), data.value);
  if (!parsed.ok) return describeIssues(parsed.issues);
  return parsed.value.map((item) => {
    const entry = { id: item.id, category: item.category, task: item.task } as ResponseItem;
    for (const answer of item.answers) entry[`answer${answer.round}`] = answer.text;
    return entry;
  });
}

/** Write-then-rename, so an interrupted run never leaves a half-written response file. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

async function main(): Promise<number> {
  const options = parseOptions({ args: process.argv.slice(2), options: OPTIONS, allowPositionals: false }, USAGE, toOptions, "stderr");
  if (typeof options === "number") return options;
  const benchmark = await readBenchmarkDir(options.benchmark, { includeRuns: false });
  if (!benchmark.ok) {
    console.error(`error: cannot read the benchmark at ${options.benchmark}:\n${describeIssues(benchmark.issues)}`);
    return 1;
  }
  const builderPrompt = benchmark.value.prompts.find((prompt) => prompt.name === "builder_prompt")?.text;
  if (options.mode === "zero-shot" && builderPrompt === undefined) {
    console.error(`error: ${options.benchmark}: prompts/builder_prompt.txt is missing (the zero-shot system prompt)`);
    return 1;
  }
  let skill = "";
  if (options.mode !== "zero-shot") {
    const skillFile = path.join(options.benchmark, ".agents", "skills", "chat2workflow", "SKILL.md");
    if (!existsSync(skillFile)) {
      console.error(`error: ${skillFile} is missing (the agentic modes send it with every attempt)`);
      return 1;
    }
    skill = readFileSync(skillFile, "utf8");
  }
  const existing = await existingItems(options.out);
  if (typeof existing === "string") {
    console.error(`error: cannot resume from ${options.out}:\n${existing}`);
    return 1;
  }

  const client = createChatClient({
    baseURL: options.endpoint,
    apiKey: options.apiKey,
    model: options.model,
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
  });
  const params = {
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
  };
  const controller = new AbortController();
  const onSignal = () => {
    console.error("interrupted: finishing nothing new; answers so far are saved");
    controller.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const total = benchmark.value.queries.reduce((sum, task) => sum + task.queries.length, 0);
  const log = `${options.out}.turns.jsonl`;
  let done = 0;
  const started = performance.now();
  const run = await generateResponses({
    client,
    tasks: benchmark.value.queries,
    mode: options.mode,
    builderPrompt: builderPrompt ?? "",
    skill,
    turns: benchmark.value.turns,
    existing,
    concurrency: options.concurrency,
    params,
    signal: controller.signal,
    onTurn: (record, items) => {
      writeAtomically(options.out, `${JSON.stringify(items, null, 4)}\n`);
      // The skill text is the same in every attempt's message: the log names it instead of repeating it.
      const attempts = record.attempts?.map((attempt) => ({ ...attempt, message: skill ? attempt.message.replace(skill, "[SKILL.md]") : attempt.message }));
      const entry = { ...record, ...(attempts ? { attempts } : {}), model: options.model, endpoint: endpointIdentity(options.endpoint), at: new Date().toISOString() };
      appendFileSync(log, `${JSON.stringify(entry)}\n`);
      done += 1;
      const status = record.ok ? (record.accepted === false ? "fallback" : "ok") : `FAILED ${record.error}`;
      console.error(`[${done}] ${record.task}_${record.round}: ${status}${record.attempts ? ` (${record.attempts.length} attempt(s))` : ""}`);
    },
  });
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  // A run with nothing left to generate still writes the file (in task order, from what was given).
  if (run.generated === 0 && run.failed === 0) writeAtomically(options.out, `${JSON.stringify(run.items, null, 4)}\n`);
  const usage = client.usage();
  console.error(
    `${options.mode} generation with ${options.model} at ${endpointIdentity(options.endpoint)}: ${run.generated} turn(s) generated, ${run.skipped} kept, ${run.failed} failed of ${total}; ` +
      `${usage.calls} HTTP calls, ${usage.retries} retries, ${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (run.cancelled) return 130;
  return run.failed > 0 || run.generated + run.skipped < total ? 1 : 0;
}

runCommandLine(main);
