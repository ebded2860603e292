// `npm run judge:agreement -- [--benchmark <dir>] [--json]`: compares the rule judge with the recorded step_1_4
// verdicts over every record that reached step 1_4, overall and per model, and lists the disagreements by kind.
// Thin over the core: the benchmark is read with lib/server/benchmark-files, the comparison is
// lib/workflow/rule-judge-agreement.ts (shared with the corpus test); this file only prints.
import { parseArgs } from "node:util";
import { readBenchmarkDir } from "@/lib/server/benchmark-files";
import { locateBenchmarkDir } from "@/lib/server/benchmark-location";
import { agreementRate, BOTH_FALSE_REASONS, DISAGREEMENT_KINDS, matrixTotal, type ConfusionMatrix } from "@/lib/workflow/rule-judge";
import { agreementReportJson, ruleJudgeAgreement, type AgreementReport } from "@/lib/workflow/rule-judge-agreement";
import { runPipedCommandLine } from "./lib/stdout";

const USAGE = `Usage: npm run judge:agreement -- [--benchmark <dir>] [--json]
  --benchmark <dir>  Chat2Workflow benchmark directory (default: C2W_BENCHMARK_DIR, else ../shared/chat2workflow)
  --json             print one JSON document instead of tables`;

function matrixRow(label: string, matrix: ConfusionMatrix, width: number): string {
  const cells = [matrix.tt, matrix.tf, matrix.ft, matrix.ff, matrixTotal(matrix)].map((n) => String(n).padStart(5));
  return `${label.padEnd(width)}${cells.join("")}  ${agreementRate(matrix).toFixed(3)}`;
}

function printReport(report: AgreementReport): void {
  const { overall } = report;
  const agree = overall.tt + overall.ff;
  console.log(`Rule judge vs recorded step_1_4 verdicts: ${agree}/${matrixTotal(overall)} agree (${(100 * agreementRate(overall)).toFixed(1)}%)`);
  console.log("");
  console.log("                 LLM true  LLM false");
  console.log(`rule true        ${String(overall.tt).padStart(8)}  ${String(overall.tf).padStart(9)}`);
  console.log(`rule false       ${String(overall.ft).padStart(8)}  ${String(overall.ff).padStart(9)}`);
  console.log("");
  const width = Math.max(6, ...[...report.perModel.keys()].map((model) => model.length)) + 2;
  console.log(`${"model".padEnd(width)}${["TT", "TF", "FT", "FF", "n"].map((h) => h.padStart(5)).join("")}  agree`);
  for (const [model, matrix] of report.perModel) console.log(matrixRow(model, matrix, width));
  console.log(matrixRow("all", overall, width));
  console.log("");
  console.log("Disagreements by kind (TF = rule true, LLM false; FT = rule false, LLM true):");
  for (const kind of DISAGREEMENT_KINDS) {
    const cases = report.disagreements.filter((d) => d.kind === kind);
    if (cases.length === 0) continue;
    const oldWording = cases.filter((d) => d.quotesOldWording).length;
    console.log(`  ${kind}: ${cases.length}${oldWording > 0 ? ` (${oldWording} reasons quote the old case-only note)` : ""}`);
    for (const d of cases) {
      const gaps = [
        d.missingKeyNodes.length ? `missing key ${d.missingKeyNodes.join(",")}` : "",
        d.undeclaredUsed.length ? `undeclared ${d.undeclaredUsed.join(",")}` : "",
        d.declaredUnused.length ? `unused ${d.declaredUnused.join(",")}` : "",
      ].filter(Boolean);
      const selection = (d.nodeSelection ?? "").replace(/\s+/g, " ").slice(0, 90);
      console.log(`    ${d.model}/${d.task}/${d.round}  ${gaps.join("; ") || "sets match"}  | ${selection}`);
    }
  }
  console.log("");
  console.log("Both false, by the rule that fails:");
  for (const reason of BOTH_FALSE_REASONS) console.log(`  ${reason}: ${report.bothFalse[reason]}`);
  console.log(`Unmapped selection fragments: ${report.unmapped.length}`);
  for (const text of report.unmapped) console.log(`  "${text}"`);
}

async function main(): Promise<number> {
  let values: { benchmark?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { benchmark: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const location = locateBenchmarkDir({ explicit: values.benchmark });
  if (!location.ok) {
    console.error(`judge:agreement: ${location.message}`);
    return 2;
  }
  const benchmark = location.dir;
  const files = await readBenchmarkDir(benchmark);
  if (!files.ok) {
    console.error(`judge:agreement: cannot read the benchmark at ${benchmark}:\n${files.issues.slice(0, 10).map((issue) => `  ${issue.message}`).join("\n")}`);
    return 2;
  }
  const turns = files.value.turns;
  const report = ruleJudgeAgreement(files.value.runs, (task, round) => turns.get(`${task}_${round}`)?.keyNodes ?? []);
  if (values.json) console.log(JSON.stringify(agreementReportJson(report), null, 2));
  else printReport(report);
  return 0;
}

runPipedCommandLine(main);
