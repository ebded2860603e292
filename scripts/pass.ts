// `npm run -s pass -- [--benchmark DIR] --run FILE --out FILE`: scores an official response file
// [{id, category, task, answer1..N}] and writes the official pass record file (what pass_stage.py writes), sorted by
// (task, round): steps 1_1–1_3 reproduced exactly, the rule judge standing in for the step 1_4 LLM judge, no Dify
// import (so no api_key). Exit 0 on success, 1 for unreadable input, 2 for bad arguments.
import { writeFileSync } from "node:fs";
import { turnKey } from "@/lib/benchmark/dataset";
import { passRecordOfScored, sortPassRecords } from "@/lib/benchmark/official-files";
import { parseGenerationFile } from "@/lib/benchmark/runs";
import { benchmarkContext, checkGenerationRun, describeModel, planGeneratedResponse } from "@/lib/import/plan";
import { readBenchmarkDir, readJsonFile } from "@/lib/server/benchmark-files";
import { configuredBenchmarkDir, locateBenchmarkDir } from "@/lib/server/benchmark-location";
import { sha256 } from "@/lib/server/hash";
import { describeIssues, parseOptions, required, runCommandLine } from "./lib/cli";

const USAGE = `Usage: npm run -s pass -- [--benchmark <dir>] --run <file> --out <file>
  --benchmark <dir>  Chat2Workflow benchmark directory (dataset/, prompts/); default: C2W_BENCHMARK_DIR, else
                     ../shared/chat2workflow
  --run <file>       an official response file [{id, category, task, answer1..N}]
  --out <file>       the pass record file to write [{task, round, node_selection, design_principle, workflow,
                     valid, has_been_judged, fail_step?, reason?}]; the rule judge decides step 1_4`;

const OPTIONS = {
  benchmark: { type: "string" },
  run: { type: "string" },
  out: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

async function main(): Promise<number> {
  const options = parseOptions(
    { args: process.argv.slice(2), options: OPTIONS, allowPositionals: false },
    USAGE,
    (values) => ({ benchmark: configuredBenchmarkDir({ explicit: values.benchmark }), run: required(values.run, "run"), out: required(values.out, "out") }),
    "stderr",
  );
  if (typeof options === "number") return options;
  const location = locateBenchmarkDir({ explicit: options.benchmark });
  if (!location.ok) {
    console.error(`error: ${location.message}`);
    return 2;
  }
  const benchmark = await readBenchmarkDir(options.benchmark, { includeRuns: false });
  if (!benchmark.ok) {
    console.error(`error: cannot read the benchmark at ${options.benchmark}:\n${describeIssues(benchmark.issues)}`);
    return 1;
  }
  const data = await readJsonFile(options.run, options.run);
  const items = data.ok ? parseGenerationFile(options.run, data.value) : data;
  if (!items.ok) {
    console.error(`error: ${describeIssues(items.issues)}`);
    return 1;
  }
  const context = benchmarkContext({ name: "", sourceDir: null, ...benchmark.value }, sha256);
  const issues = checkGenerationRun({ file: options.run, model: describeModel("run"), label: options.run }, items.value, context);
  if (issues.length > 0) {
    console.error(`error: ${describeIssues(issues)}`);
    return 1;
  }
  const records = items.value.flatMap((item) =>
    item.answers.map((answer) => {
      const turn = context.turns.get(turnKey(item.task, answer.round));
      if (!turn) throw new Error(`${item.task} round ${answer.round} is not a turn of the benchmark`);
      return passRecordOfScored(item.task, answer.round, planGeneratedResponse(item.task, answer.round, answer.text, turn, sha256));
    }),
  );
  const sorted = sortPassRecords(records);
  writeFileSync(options.out, `${JSON.stringify(sorted, null, 4)}\n`);
  const valid = sorted.filter((record) => record.valid).length;
  console.error(`${options.out}: ${sorted.length} records, ${valid} valid (${sorted.length === 0 ? 0 : ((100 * valid) / sorted.length).toFixed(2)}% pass rate)`);
  return 0;
}

runCommandLine(main);
