// `npm run -s generate -- --benchmark DIR --endpoint URL --model NAME [--api-key-env VAR] --out FILE
// [--mode zero-shot|agentic-opencode|agentic|feedback] [--tasks A,B] [--concurrency N]`: generates a model's answers
// to the benchmark's tasks and writes the official response file [{id, category, task, answer1..N}], saved
// atomically after every turn. It reads the instructions, prompts and skill only, never the check files. An
// existing --out is resumed: its non-empty answers are kept. Every turn (attempts, repairs, errors) is appended to
// FILE.turns.jsonl. Exit 0 when every turn has an answer, 1 when some failed (run again to resume), 2 for bad
// arguments, 130 when interrupted.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseGenerationFile } from "@/lib/benchmark/runs";
import { GENERATION_MODES, ZERO_SHOT_PARAMS, type GenerationMode } from "@/lib/generation/protocol";
import { endpointIdentity } from "@/lib/judge";
import { readGenerationInputs, readJsonFile } from "@/lib/server/benchmark-files";
import { opencodeInstall, openOpencodeAgent, readSkillFolder } from "@/lib/server/generation/opencode";
import { generateResponses, type ResponseItem } from "@/lib/server/generation/runner";
import { createChatClient } from "@/lib/server/llm";
import { apiKeyFromEnv, decimal, describeIssues, endpointOption, parseOptions, required, runCommandLine, UsageError, wholeNumber } from "./lib/cli";

const USAGE = `Usage: npm run -s generate -- --benchmark <dir> --endpoint <url> --model <name> --out <file>
         [--api-key-env <VAR>] [--mode <mode>] [--tasks <A,B>] [--concurrency <n>]
  --benchmark <dir>     Chat2Workflow benchmark directory (dataset/query.json, prompts/builder_prompt.txt,
                        .agents/skills/chat2workflow/ for the agentic modes); the check files are never read
  --endpoint <url>      base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1
  --model <name>        the model id to generate with
  --api-key-env <VAR>   read the API key from this environment variable (local servers need none)
  --out <file>          the response file to write; when it exists, its answers are kept and the rest generated
  --mode <mode>         zero-shot (default, official): the builder prompt as system message, one call per round;
                        agentic-opencode (official): the paper's agentic baseline, the opencode agent run per
                          attempt in a sandbox copy of the skill folder (5 attempts, 4 auto-repairs);
                        agentic (ours): the same attempts and repairs, one chat call per attempt, no agent;
                        feedback (ours): agentic, and attempts 2-5 are told the previous attempt's problems
                          found from the answer and the instruction alone
  --tasks <A,B>         only these tasks (names as in query.json); other tasks' answers in --out are kept
  --concurrency <n>     tasks in progress and calls in flight at once (default 4); rounds of a task run in order
  --temperature <t>     default 0.7 for zero-shot; the agentic modes send none unless given (not agentic-opencode)
  --max-tokens <n>      default 32768 for zero-shot; the agentic modes send none unless given (not agentic-opencode)
  --timeout <seconds>   per call (default 600 zero-shot, 300 agentic: a timed-out attempt counts as the official
                        [TIMEOUT] answer at once); agentic-opencode: the wall clock of one opencode run (300)
  --max-retries <n>     retries of 429, 5xx and malformed bodies per call (default 2)
  --work-dir <dir>      agentic-opencode: where each task's sandbox and opencode home are made (default: a new
                        temporary directory); each task's is removed when the task is done`;

const OPTIONS = {
  benchmark: { type: "string" },
  endpoint: { type: "string" },
  model: { type: "string" },
  "api-key-env": { type: "string" },
  out: { type: "string" },
  mode: { type: "string" },
  tasks: { type: "string" },
  concurrency: { type: "string" },
  temperature: { type: "string" },
  "max-tokens": { type: "string" },
  timeout: { type: "string" },
  "max-retries": { type: "string" },
  "work-dir": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

interface Options {
  benchmark: string;
  endpoint: string;
  model: string;
  apiKey: string | null;
  out: string;
  mode: GenerationMode;
  /** Only these tasks (by name), or every task. */
  tasks: string[] | null;
  concurrency: number;
  temperature: number | undefined;
  maxTokens: number | undefined;
  timeoutMs: number;
  maxRetries: number;
  workDir: string | null;
}

function toOptions(values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string }): Options {
  const mode = (values.mode ?? "zero-shot") as GenerationMode;
  if (!GENERATION_MODES.includes(mode)) throw new UsageError(`--mode must be one of ${GENERATION_MODES.join(", ")} (got "${values.mode}")`);
  const agentic = mode !== "zero-shot";
  if (mode === "agentic-opencode" && (values.temperature !== undefined || values["max-tokens"] !== undefined)) {
    throw new UsageError("--temperature and --max-tokens do not apply to agentic-opencode: opencode sends its own, as in the official baseline");
  }
  return {
    benchmark: required(values.benchmark, "benchmark"),
    endpoint: endpointOption(values.endpoint),
    model: required(values.model, "model"),
    apiKey: apiKeyFromEnv(values["api-key-env"]),
    out: required(values.out, "out"),
    mode,
    tasks: values.tasks === undefined ? null : taskList(values.tasks),
    concurrency: wholeNumber(values.concurrency, "concurrency", 4, 1),
    temperature: values.temperature === undefined ? (agentic ? undefined : ZERO_SHOT_PARAMS.temperature) : decimal(values.temperature, "temperature", 0),
    maxTokens: values["max-tokens"] === undefined ? (agentic ? undefined : ZERO_SHOT_PARAMS.max_tokens) : wholeNumber(values["max-tokens"], "max-tokens", 1, 1),
    timeoutMs: decimal(values.timeout, "timeout", agentic ? 300 : 600) * 1000,
    maxRetries: wholeNumber(values["max-retries"], "max-retries", 2, 0),
    workDir: values["work-dir"] ?? null,
  };
}

function taskList(text: string): string[] {
  const names = text.split(",").map((name) => name.trim()).filter((name) => name !== "");
  if (names.length === 0) throw new UsageError("--tasks needs at least one task name, e.g. --tasks PaperQA,Mermaid");
  return [...new Set(names)];
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
  const benchmark = await readGenerationInputs(options.benchmark);
  if (!benchmark.ok) {
    console.error(`error: cannot read the benchmark at ${options.benchmark}:\n${describeIssues(benchmark.issues)}`);
    return 1;
  }
  const unknown = options.tasks?.filter((name) => !benchmark.value.queries.some((task) => task.task === name)) ?? [];
  if (unknown.length > 0) {
    console.error(`error: --tasks: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a task" : "are not tasks"} of ${options.benchmark}/dataset/query.json`);
    return 2;
  }
  const tasks = options.tasks ? benchmark.value.queries.filter((task) => options.tasks?.includes(task.task)) : benchmark.value.queries;
  const builderPrompt = benchmark.value.prompts.find((prompt) => prompt.name === "builder_prompt")?.text;
  if (options.mode === "zero-shot" && builderPrompt === undefined) {
    console.error(`error: ${options.benchmark}: prompts/builder_prompt.txt is missing (the zero-shot system prompt)`);
    return 1;
  }
  let skill = "";
  const skillDir = path.join(options.benchmark, ".agents", "skills", "chat2workflow");
  if (options.mode !== "zero-shot") {
    const skillFile = path.join(skillDir, "SKILL.md");
    if (!existsSync(skillFile)) {
      console.error(`error: ${skillFile} is missing (the agentic modes send it with every attempt)`);
      return 1;
    }
    skill = readFileSync(skillFile, "utf8");
  }
  const install = options.mode === "agentic-opencode" ? opencodeInstall() : null;
  if (install && !install.ok) {
    console.error(`error: agentic-opencode cannot run: ${install.reason}`);
    return 1;
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
  let openAgent;
  let madeWorkDir: string | null = null;
  if (install?.ok) {
    const skillFiles = await readSkillFolder(skillDir);
    const workDir = options.workDir ? path.resolve(options.workDir) : (madeWorkDir = mkdtempSync(path.join(os.tmpdir(), "c2w-opencode-")));
    console.error(`agentic-opencode with ${install.version} (the official baseline pins opencode 1.3.17), sandboxes in ${workDir}`);
    openAgent = (task: { task: string }) =>
      openOpencodeAgent({ install, workDir, task: task.task, skillFiles, baseURL: options.endpoint, apiKey: options.apiKey, model: options.model, timeoutMs: options.timeoutMs });
  }
  const controller = new AbortController();
  const onSignal = () => {
    console.error("interrupted: finishing nothing new; answers so far are saved");
    controller.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  // With --tasks, the answers the file already holds for other tasks are written back unchanged, in task order.
  const order = new Map(benchmark.value.queries.map((task, index) => [task.task, index]));
  const others = existing.filter((item) => !tasks.some((task) => task.task === item.task));
  const fileText = (items: readonly ResponseItem[]) =>
    `${JSON.stringify([...items, ...others].sort((a, b) => (order.get(a.task) ?? order.size) - (order.get(b.task) ?? order.size)), null, 4)}\n`;
  const total = tasks.reduce((sum, task) => sum + task.queries.length, 0);
  const log = `${options.out}.turns.jsonl`;
  let done = 0;
  const started = performance.now();
  const run = await generateResponses({
    client,
    tasks,
    mode: options.mode,
    builderPrompt: builderPrompt ?? "",
    skill,
    existing,
    ...(openAgent ? { openAgent } : {}),
    concurrency: options.concurrency,
    params,
    signal: controller.signal,
    onTurn: (record, items) => {
      writeAtomically(options.out, fileText(items));
      // The skill text is the same in every attempt's message: the log names it instead of repeating it.
      const attempts = record.attempts?.map((attempt) => ({ ...attempt, message: skill ? attempt.message.replace(skill, "[SKILL.md]") : attempt.message }));
      const entry = { ...record, ...(attempts ? { attempts } : {}), ...(install?.ok ? { agent: install.version } : {}), model: options.model, endpoint: endpointIdentity(options.endpoint), at: new Date().toISOString() };
      appendFileSync(log, `${JSON.stringify(entry)}\n`);
      done += 1;
      const status = record.ok ? (record.accepted === false ? "fallback" : "ok") : `FAILED ${record.error}`;
      console.error(`[${done}] ${record.task}_${record.round}: ${status}${record.attempts ? ` (${record.attempts.length} attempt(s))` : ""}`);
    },
  });
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  if (madeWorkDir) rmSync(madeWorkDir, { recursive: true, force: true });
  // A run with nothing left to generate still writes the file (in task order, from what was given).
  if (run.generated === 0 && run.failed === 0) writeAtomically(options.out, fileText(run.items));
  const usage = client.usage();
  console.error(
    `${options.mode} generation with ${options.model} at ${endpointIdentity(options.endpoint)}: ${run.generated} turn(s) generated, ${run.skipped} kept, ${run.failed} failed of ${total}; ` +
      `${usage.calls} HTTP calls, ${usage.retries} retries, ${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (run.cancelled) return 130;
  return run.failed > 0 || run.generated + run.skipped < total ? 1 : 0;
}

runCommandLine(main);
