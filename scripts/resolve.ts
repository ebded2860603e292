// `npm run -s resolve -- --benchmark DIR --run FILE --dify URL --dify-email E --dify-password-env VAR --case-files DIR
// --endpoint URL --model NAME --out FILE`: the official resolve stage against your Dify (1.9 or later) — checks that
// its workspace has what the records' workflows need, imports each valid record's workflow (step 1_5), runs its three
// test cases with files from the case-files directory, applies the file checks and asks the resolve judge — and
// writes the official resolve record file. The same per-turn implementation as the app's resolve job.
// `npm run -s resolve -- judge --run ID --judge LABEL[,LABEL…]`: judges, in the database, the test cases a Dify
// execution left not judged. Exit 0 when done, 1 when input cannot be read, Dify or the judge cannot be used, or (for
// judge) cases stay not judged; 2 for bad arguments.
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { endpointIdentity, judgeParams, officialSystemPrompt, OFFICIAL_JUDGE_TIMEOUT_MS } from "@/lib/judge";
import { readBenchmarkDir, readRunFile } from "@/lib/server/benchmark-files";
import { DIFY_RUN_TIMEOUT_MS, signIn } from "@/lib/server/dify/client";
import { jobQueue } from "@/lib/server/jobs/instance";
import { resolveJobHandler, startResolveJudgeJob } from "@/lib/server/jobs/resolve-job";
import { JobWorker } from "@/lib/server/jobs/worker";
import { createChatClient } from "@/lib/server/llm";
import { singleClientPanel } from "@/lib/server/resolve/judge-panel";
import { checkReadiness, resolveRecords } from "@/lib/server/resolve/runner";
import type { ConsoleSessions } from "@/lib/server/resolve/resolve-turn";
import type { SessionUser } from "@/lib/server/session";
import { apiKeyFromEnv, commandLineEnv, decimal, describeIssues, endpointOption, parseOptions, required, runCommandLine, UsageError, wholeNumber, withDatabase } from "./lib/cli";

const USAGE = `Usage: npm run -s resolve -- --benchmark <dir> --run <file> --dify <url> --dify-email <email>
         --dify-password-env <VAR> --case-files <dir> --endpoint <url> --model <name> --out <file>
         [--api-key-env <VAR>] [--user <name>] [--run-timeout <seconds>] [--keep-apps]
       npm run -s resolve -- judge --run <run id> --judge <endpoint label>[,<label>...] [--samples <k>] [--database <url>]
  --benchmark <dir>          Chat2Workflow benchmark directory (dataset/, prompts/)
  --run <file>               pass-stage records [{task, round, node_selection, design_principle, workflow, valid, ...}]
  --dify <url>               your Dify origin, e.g. http://localhost (console API at /console/api, service at /v1);
                             1.9 and later (the password is sent as the version reports it wants it)
  --dify-email <email>       the Dify account to sign in with
  --dify-password-env <VAR>  read its password from this environment variable
  --case-files <dir>         the test input files (the benchmark's case_files/); a missing file fails its test
  --endpoint <url>           the resolve judge: base URL of an OpenAI-compatible API
  --model <name>             the judge model id
  --api-key-env <VAR>        the judge's API key from this environment variable
  --out <file>               the resolve record file to write (a case the judge did not answer has no testN)
  --user <name>              the user sent with uploads and runs (default "chat2workflow")
  --run-timeout <seconds>    per workflow run (default 1200, Dify's own execution limit)
  --keep-apps                keep the created Dify apps (default: delete them afterwards)

judge: asks the model endpoints of the database (by label; several make a panel) about every test case of the run
  that a Dify execution left not judged, and stores the verdicts as the run's own; runs here until done.
  --run <run id>             the run (its id, as in /runs/<id>)
  --judge <labels>           endpoint labels, comma-separated
  --samples <k>              samples per endpoint and case (default 1; majority, ties fail)
  --database <url>           default DATABASE_URL`;

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

/** Signs in once, and again when Dify answers 401 to an import (the session expired). */
function consoleSessions(options: { dify: string; email: string; password: string }): ConsoleSessions {
  let session: ReturnType<typeof signIn> | null = null;
  const renew = () => (session = signIn(`${options.dify}/console/api`, options.email, options.password));
  return { current: () => session ?? renew(), renew };
}

async function main(): Promise<number> {
  if (process.argv[2] === "judge") return judgeStored(process.argv.slice(3));
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
    console.error(`error: ${options.benchmark}: prompts/evaluation_resolve_system.txt is missing, so the resolve judge cannot be asked`);
    return 1;
  }
  const records = await readRunFile(options.run);
  if (!records.ok) {
    console.error(`error: cannot read ${options.run}:\n${describeIssues(records.issues)}`);
    return 1;
  }
  const sessions = consoleSessions(options);
  const session = await sessions.current();
  if (!session.ok) {
    console.error(`error: cannot sign in to Dify at ${options.dify}: ${session.error.message.split(options.password).join("[redacted]")}`);
    return 1;
  }
  const turns = benchmark.value.turns;
  const lacking = await checkReadiness(records.value, { sessions, turns });
  if (lacking) {
    console.error(`error: ${lacking}`);
    return 1;
  }
  const client = createChatClient({ baseURL: options.endpoint, apiKey: options.apiKey, model: options.model, params: judgeParams(), timeoutMs: OFFICIAL_JUDGE_TIMEOUT_MS });
  const started = performance.now();
  const run = await resolveRecords(records.value, {
    sessions,
    serviceBase: `${options.dify}/v1`,
    turns,
    queries: new Map(benchmark.value.queries.map((task) => [task.task, task.queries])),
    caseFilesDir: options.caseFiles,
    judge: singleClientPanel(client, options.model, { systemPrompt: officialSystemPrompt(prompt.text), fileText: prompt.text }),
    modelName: "resolve",
    user: options.user,
    runTimeoutMs: options.runTimeoutMs,
    keepApps: options.keepApps,
    onNote: (note) => console.error(note),
  });
  const temporary = `${options.out}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(run.records, null, 4)}\n`);
  renameSync(temporary, options.out);
  const passed = run.records.reduce((sum, record) => sum + [record.test1, record.test2, record.test3].filter((test) => test === true).length, 0);
  const judgedTotal = 3 * run.records.length - run.notJudged;
  console.error(
    `resolve: ${passed} of ${3 * run.records.length} tests passed` +
      (run.notJudged > 0 ? `; ${run.notJudged} not judged (the judge gave no verdict), so no rate over all tests (${passed} of ${judgedTotal} judged)` : ` (${((100 * passed) / Math.max(1, 3 * run.records.length)).toFixed(2)}%)`) +
      `; ${run.judgeCalls} judge call(s) to ${options.model} at ${endpointIdentity(options.endpoint)}; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return run.notJudged > 0 ? 1 : 0;
}

const JUDGE_OPTIONS = {
  run: { type: "string" },
  judge: { type: "string" },
  samples: { type: "string" },
  database: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The database tools act as a researcher (who may run jobs). */
const CLI_ACTOR: SessionUser = { id: "cli", email: "cli@localhost", name: "command line", role: "researcher" };

async function judgeStored(args: string[]): Promise<number> {
  const options = parseOptions(
    { args, options: JUDGE_OPTIONS, allowPositionals: false },
    USAGE,
    (values) => ({
      runId: required(values.run, "run"),
      labels: required(values.judge, "judge").split(",").map((label) => label.trim()).filter(Boolean),
      samples: wholeNumber(values.samples, "samples", 1, 1),
      database: values.database,
    }),
    "stderr",
  );
  if (typeof options === "number") return options;
  const url = commandLineEnv(options.database).DATABASE_URL;
  return withDatabase(url, async (db) => {
    const endpoints = await db.modelEndpoint.findMany({ where: { label: { in: options.labels } }, select: { id: true, label: true } });
    const unknown = options.labels.filter((label) => !endpoints.some((endpoint) => endpoint.label === label));
    if (unknown.length > 0) {
      console.error(`error: no model endpoint is labelled ${unknown.map((label) => `"${label}"`).join(", ")}`);
      return 1;
    }
    const started = await startResolveJudgeJob(db, CLI_ACTOR, { runId: options.runId, endpointIds: endpoints.map((endpoint) => endpoint.id), samples: options.samples });
    if (!started.ok) {
      console.error(`error: ${started.message}`);
      return 1;
    }
    console.error(`resolve judge: ${started.cases} case(s) of ${started.items} turn(s) to judge (job ${started.jobId})`);
    await new JobWorker(db, jobQueue(db, url), [resolveJobHandler()], { pollMs: 200 }).runUntilIdle();
    const job = await db.job.findUnique({ where: { id: started.jobId }, select: { status: true } });
    const left = await db.caseResult.count({ where: { response: { runId: options.runId }, verdict: null, outputs: { not: null } } });
    console.error(`resolve judge: job ${job?.status ?? "gone"}; ${started.cases - left} judged, ${left} still not judged`);
    return left > 0 || job?.status !== "succeeded" ? 1 : 0;
  });
}

runCommandLine(main);
