// `npm run -s dry-run -- --benchmark <dir> --run <file|dir> [--case-files <dir>] [--endpoint <url> --model <name>
// [--api-key-env VAR]] [--concurrency N] --json`: executes the three test cases of every turn that passes the pass stage
// (recorded `valid` for a recorded run; our scoring for a generation output) locally, following Dify's engine, and
// prints what each execution would do. Exit 0; 1 when input cannot be read; 2 for bad arguments.
// Thin over the core: the executor is lib/dry-run, the file check lib/resolve/official.ts.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseGenerationFile, parseRunFile } from "@/lib/benchmark/runs";
import { mockModel } from "@/lib/dry-run/mock-model";
import { dryRunTurn } from "@/lib/dry-run/turns";
import { createCaseFileReader } from "@/lib/server/dry-run/document-reader";
import { endpointModel } from "@/lib/server/dry-run/endpoint-model";
import { exporterFiles } from "@/lib/server/dry-run/exporter-files";
import { createSandboxCodeRunner } from "@/lib/server/sandbox/code-runner";
import { readBenchmarkDir } from "@/lib/server/benchmark-files";
import { createChatClient } from "@/lib/server/llm";
import type { ResponseInput } from "@/lib/workflow/response";
import { scoreResponse } from "@/lib/workflow/score";
import { apiKeyFromEnv, describeIssues, endpointOption, parseOptions, required, UsageError, wholeNumber } from "./lib/cli";
import { printData, runPipedCommandLine } from "./lib/stdout";

const USAGE = `Usage: npm run -s dry-run -- --benchmark <dir> --run <file|dir> [--case-files <dir>]
         [--endpoint <url> --model <name> [--api-key-env <VAR>]] [--concurrency <n>] --json
  --benchmark <dir>      Chat2Workflow benchmark directory (dataset/)
  --run <file|dir>       a recorded run (runs/<model>.json) or a generation output, or a directory of them
  --case-files <dir>     the test input files; a test naming a missing file fails, document extractors read the
                         files' real text (default: files are assumed present, their text is a stand-in)
  --endpoint <url>       run LLM, classifier and extractor nodes on this OpenAI-compatible API (a local execution,
                         never a Dify resolve rate); default: the deterministic mock model
  --model <name>         the model id at --endpoint
  --api-key-env <VAR>    the endpoint's API key from this environment variable
  --concurrency <n>      turns executed at once (default 4)
  --json                 print one JSON document on stdout (required: the only output format)`;

const OPTIONS = {
  benchmark: { type: "string" },
  run: { type: "string" },
  "case-files": { type: "string" },
  endpoint: { type: "string" },
  model: { type: "string" },
  "api-key-env": { type: "string" },
  concurrency: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };

function toOptions(values: Values) {
  if (!values.json) throw new UsageError("--json is required (the dry run prints one JSON document)");
  if ((values.model !== undefined || values["api-key-env"] !== undefined) && values.endpoint === undefined) throw new UsageError("--model and --api-key-env need --endpoint");
  return {
    benchmark: required(values.benchmark, "benchmark"),
    run: required(values.run, "run"),
    caseFiles: values["case-files"] ?? null,
    endpoint: values.endpoint === undefined ? null : { baseURL: endpointOption(values.endpoint), model: required(values.model, "model"), apiKey: apiKeyFromEnv(values["api-key-env"]) },
    concurrency: wholeNumber(values.concurrency, "concurrency", 4, 1),
  };
}

interface Item {
  model: string;
  task: string;
  round: number;
  input: ResponseInput;
  /** Recorded `valid`; null for a generation output (then our scoring decides). */
  valid: boolean | null;
}

function readItems(file: string): Item[] | string {
  const model = path.basename(file, ".json");
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`;
  }
  const records = parseRunFile(path.basename(file), data);
  if (records.ok) {
    return records.value.map((record) => ({
      model,
      task: record.task,
      round: record.round,
      input: { nodeSelection: record.node_selection ?? null, designPrinciple: record.design_principle ?? null, workflow: record.workflow ?? null },
      valid: record.valid,
    }));
  }
  const generation = parseGenerationFile(path.basename(file), data);
  if (!generation.ok) return `${file} is neither a run file nor a generation output:\n${describeIssues(records.issues)}`;
  return generation.value.flatMap((entry) => entry.answers.map((answer) => ({ model, task: entry.task, round: answer.round, input: { raw: answer.text }, valid: null })));
}

function runFiles(target: string): string[] | null {
  if (!existsSync(target)) return null;
  if (statSync(target).isFile()) return [target];
  return readdirSync(target).filter((name) => name.endsWith(".json")).sort().map((name) => path.join(target, name));
}

async function main(): Promise<number> {
  const options = parseOptions({ args: process.argv.slice(2), options: OPTIONS, allowPositionals: false }, USAGE, toOptions, "stderr");
  if (typeof options === "number") return options;
  const benchmark = await readBenchmarkDir(options.benchmark, { includeRuns: false });
  if (!benchmark.ok) {
    console.error(`error: cannot read the benchmark at ${options.benchmark}:\n${describeIssues(benchmark.issues)}`);
    return 1;
  }
  const files = runFiles(options.run);
  if (!files || files.length === 0) {
    console.error(`error: --run ${options.run}: no such file, or a directory without .json run files`);
    return 1;
  }
  if (options.caseFiles !== null && !existsSync(options.caseFiles)) {
    console.error(`error: --case-files ${options.caseFiles}: no such directory`);
    return 1;
  }
  const items: Item[] = [];
  for (const file of files) {
    const read = readItems(file);
    if (typeof read === "string") {
      console.error(`error: ${read}`);
      return 1;
    }
    items.push(...read);
  }
  const caseFiles = options.caseFiles;
  const caseFileExists = caseFiles === null ? null : (name: string) => !name.includes("/") && !name.includes("\\") && existsSync(path.join(caseFiles, name));
  const model = options.endpoint === null ? mockModel : endpointModel(createChatClient({ baseURL: options.endpoint.baseURL, apiKey: options.endpoint.apiKey, model: options.endpoint.model, concurrency: options.concurrency }));
  // Code nodes run in sandbox processes (no host files or network; Dify's 15 s limit per node).
  const code = createSandboxCodeRunner({ size: Math.min(options.concurrency, 2) });
  // Document extractors read the case files' real text (parsed in a worker with size and time limits).
  const documents = caseFiles === null ? null : createCaseFileReader({ dir: caseFiles });
  const executions: unknown[][] = items.map(() => []);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as Item;
      const turn = benchmark.value.turns.get(`${item.task}_${item.round}`);
      if (!turn) continue;
      const passes = item.valid ?? scoreResponse(item.input, turn).passed;
      if (!passes) continue;
      const results = await dryRunTurn({ input: item.input, turn, caseFileExists, services: { model, code, documents, files: exporterFiles, maxSteps: 500 } });
      executions[index] = (results ?? []).map(({ test, execution }) => ({
        model: item.model,
        task: item.task,
        round: item.round,
        test,
        outcome: execution.outcome,
        failedNode: execution.failedNode,
        reason: execution.reason ?? execution.fileCheckReason,
        outputs: execution.outputs,
        fileCheck: execution.fileCheck,
      }));
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    await code.close();
    await documents?.close();
  }
  // Never a Dify resolve rate: with the mock it is a prediction, with an endpoint a local execution of that model.
  const label = options.endpoint === null ? "dry run, mock model (a prediction, not a Dify resolve rate)" : `local execution, model ${options.endpoint.model} at ${options.endpoint.baseURL} (not a Dify resolve rate)`;
  await printData(JSON.stringify({ label, executions: executions.flat() }));
  return 0;
}

runPipedCommandLine(main);
