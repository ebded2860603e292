// `npm run -s resolve -- --benchmark DIR --run FILE --dify URL --dify-email E --dify-password-env VAR --case-files DIR
// --endpoint URL --model NAME --out FILE`: the official resolve stage against your Dify 1.9 — imports each valid
// record's workflow (step 1_5), runs its three test cases with files from the case-files directory, applies the file
// checks and asks the resolve judge — and writes the official resolve record file. Exit 0 when done, 1 when input
// cannot be read or signing in to Dify fails, 2 for bad arguments.
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { endpointIdentity, officialSystemPrompt, OFFICIAL_JUDGE_PARAMS } from "@/lib/judge";
import { readBenchmarkDir, readRunFile } from "@/lib/server/benchmark-files";
import { DIFY_RUN_TIMEOUT_MS, signIn } from "@/lib/server/dify/client";
import { createChatClient } from "@/lib/server/llm";
import { resolveRecords } from "@/lib/server/resolve/runner";
import { apiKeyFromEnv, decimal, describeIssues, endpointOption, parseOptions, required, runCommandLine, UsageError } from "./lib/cli";

const USAGE = `Usage: npm run -s resolve -- --benchmark <dir> --run <file> --dify <url> --dify-email <email>
         --dify-password-env <VAR> --case-files <dir> --endpoint <url> --model <name> --out <file>
         [--api-key-env <VAR>] [--user <name>] [--run-timeout <seconds>] [--keep-apps]
  --benchmark <dir>          Chat2Workflow benchmark directory (dataset/, prompts/)
  --run <file>               pass-stage records [{task, round, node_selection, design_principle, workflow, valid, ...}]
  --dify <url>               your Dify 1.9 origin, e.g. http://localhost (console API at /console/api, service at /v1)
  --dify-email <email>       the Dify account to sign in with
  --dify-password-env <VAR>  read its password from this environment variable
  --case-files <dir>         the test input files (the benchmark's case_files/); a missing file fails its test
  --endpoint <url>           the resolve judge: base URL of an OpenAI-compatible API
  --model <name>             the judge model id
  --api-key-env <VAR>        the judge's API key from this environment variable
  --out <file>               the resolve record file to write
  --user <name>              the user sent with uploads and runs (default "chat2workflow")
  --run-timeout <seconds>    per workflow run (default 1200, Dify's own execution limit)
  --keep-apps                keep the created Dify apps (default: delete them afterwards)`;

const OPTIONS = {
  benchmark: { type: "string" },
  run: { type: "string" },
  dify: { type: "string" },
  "dify-email": { type: "string" },
  "dify-password-env": { type: "string" },
  "case-files": { type: "string" },
  endpoint: { type: "string" },
  model: { type: "string" },
  "api-key-env": { type: "string" },
  out: { type: "string" },
  user: { type: "string" },
  "run-timeout": { type: "string" },
  "keep-apps": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };

function toOptions(values: Values) {
  const dify = required(values.dify, "dify").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]/i.test(dify)) throw new UsageError(`--dify must be an http(s) URL such as http://localhost (got "${dify}")`);
  const passwordVariable = required(values["dify-password-env"], "dify-password-env");
  const password = process.env[passwordVariable];
  if (!password) throw new UsageError(`--dify-password-env ${passwordVariable}: that environment variable is not set`);
  return {
    benchmark: required(values.benchmark, "benchmark"),
    run: required(values.run, "run"),
    dify,
    email: required(values["dify-email"], "dify-email"),
    password,
    caseFiles: required(values["case-files"], "case-files"),
    endpoint: endpointOption(values.endpoint),
    model: required(values.model, "model"),
    apiKey: apiKeyFromEnv(values["api-key-env"]),
    out: required(values.out, "out"),
    user: values.user ?? "chat2workflow",
    runTimeoutMs: decimal(values["run-timeout"], "run-timeout", DIFY_RUN_TIMEOUT_MS / 1000) * 1000,
    keepApps: values["keep-apps"] ?? false,
  };
}

async function main(): Promise<number> {
  const options = parseOptions({ args: process.argv.slice(2), options: OPTIONS, allowPositionals: false }, USAGE, toOptions, "stderr");
  if (typeof options === "number") return options;
  if (!existsSync(options.caseFiles)) {
    console.error(`error: --case-files ${options.caseFiles}: no such directory`);
    return 1;
  }
  const benchmark = await readBenchmarkDir(options.benchmark, { includeRuns: false });
  if (!benchmark.ok) {
    console.error(`error: cannot read the benchmark at ${options.benchmark}:\n${describeIssues(benchmark.issues)}`);
    return 1;
  }
  const prompt = benchmark.value.prompts.find((candidate) => candidate.name === "evaluation_resolve_system");
  if (!prompt) {
    console.error(`error: ${options.benchmark}: prompts/evaluation_resolve_system.txt is missing`);
    return 1;
  }
  const records = await readRunFile(options.run);
  if (!records.ok) {
    console.error(`error: cannot read ${options.run}:\n${describeIssues(records.issues)}`);
    return 1;
  }
  const session = await signIn(`${options.dify}/console/api`, options.email, options.password);
  if (!session.ok) {
    console.error(`error: cannot sign in to Dify at ${options.dify}: ${session.error.message}`);
    return 1;
  }
  const judge = createChatClient({ baseURL: options.endpoint, apiKey: options.apiKey, model: options.model, params: OFFICIAL_JUDGE_PARAMS });
  const started = performance.now();
  const run = await resolveRecords(records.value, {
    dify: session.value,
    serviceBase: `${options.dify}/v1`,
    turns: benchmark.value.turns,
    fileChecks: benchmark.value.checkResolve,
    queries: new Map(benchmark.value.queries.map((task) => [task.task, task.queries])),
    caseFilesDir: options.caseFiles,
    judge,
    judgeSystemPrompt: officialSystemPrompt(prompt.text),
    user: options.user,
    runTimeoutMs: options.runTimeoutMs,
    keepApps: options.keepApps,
    onNote: (note) => console.error(note),
  });
  const temporary = `${options.out}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(run.records, null, 4)}\n`);
  renameSync(temporary, options.out);
  const passed = run.records.reduce((sum, record) => sum + [record.test1, record.test2, record.test3].filter((test) => test === true).length, 0);
  console.error(
    `resolve: ${passed} of ${3 * run.records.length} tests passed (${((100 * passed) / Math.max(1, 3 * run.records.length)).toFixed(2)}%); ` +
      `${run.judgeCalls} judge call(s) to ${options.model} at ${endpointIdentity(options.endpoint)}; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return 0;
}

runCommandLine(main);
