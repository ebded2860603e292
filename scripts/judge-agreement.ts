// `npm run judge:agreement -- [--benchmark <dir>] [--json]`: compares the rule judge with the recorded step_1_4
// verdicts over every record that reached step 1_4, overall and per model, and lists the disagreements by kind.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  addVerdictPair,
  agreementRate,
  BOTH_FALSE_REASONS,
  classifyDisagreement,
  DISAGREEMENT_KINDS,
  emptyMatrix,
  failureReason,
  matrixTotal,
  OLD_JUDGE_WORDING,
  ruleJudge,
  type BothFalseReason,
  type ConfusionMatrix,
  type DisagreementKind,
} from "@/lib/workflow/rule-judge";

const USAGE = `Usage: npm run judge:agreement -- [--benchmark <dir>] [--json]
  --benchmark <dir>  Chat2Workflow benchmark directory (default ../shared/chat2workflow)
  --json             print one JSON document instead of tables`;

class UsageError extends Error {}

interface JudgedRecord {
  model: string;
  task: string;
  round: number;
  nodeSelection: string | null;
  workflowText: string;
  llmVerdict: boolean;
  reason: string | null;
}

interface Disagreement {
  kind: DisagreementKind;
  model: string;
  task: string;
  round: number;
  nodeSelection: string | null;
  missingKeyNodes: string[];
  undeclaredUsed: string[];
  declaredUnused: string[];
  quotesOldWording: boolean;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Key nodes per `<Task>_<round>` from dataset/check_pass_stage.json. */
function readKeyNodes(benchmark: string): Map<string, string[]> {
  const data = asRecord(readJson(path.join(benchmark, "dataset", "check_pass_stage.json")));
  if (!data) throw new UsageError("check_pass_stage.json is not an object");
  const keyNodes = new Map<string, string[]>();
  for (const [turn, spec] of Object.entries(data)) {
    const related = asRecord(spec)?.related_nodes;
    if (Array.isArray(related)) keyNodes.set(turn, related.filter((node): node is string => typeof node === "string"));
  }
  return keyNodes;
}

/** Records that reached step 1_4: valid, or failed exactly there. */
function readJudgedRecords(benchmark: string): JudgedRecord[] {
  const runsDir = path.join(benchmark, "runs");
  let files: string[];
  try {
    files = readdirSync(runsDir).filter((file) => file.endsWith(".json")).sort();
  } catch {
    throw new UsageError(`no runs directory at ${runsDir}`);
  }
  const records: JudgedRecord[] = [];
  for (const file of files) {
    const model = path.basename(file, ".json");
    const rows = readJson(path.join(runsDir, file));
    if (!Array.isArray(rows)) throw new UsageError(`${file} is not a list of records`);
    for (const row of rows) {
      const record = asRecord(row);
      if (!record || typeof record.task !== "string" || typeof record.round !== "number") continue;
      const reached = record.valid === true || record.fail_step === "step_1_4";
      if (!reached || typeof record.workflow !== "string") continue;
      records.push({
        model,
        task: record.task,
        round: record.round,
        nodeSelection: typeof record.node_selection === "string" ? record.node_selection : null,
        workflowText: record.workflow,
        llmVerdict: record.valid === true,
        reason: typeof record.reason === "string" ? record.reason : null,
      });
    }
  }
  return records;
}

function parseWorkflow(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

interface AgreementReport {
  overall: ConfusionMatrix;
  perModel: Map<string, ConfusionMatrix>;
  disagreements: Disagreement[];
  bothFalse: Record<BothFalseReason, number>;
  unmapped: string[];
}

function evaluate(records: readonly JudgedRecord[], keyNodes: ReadonlyMap<string, string[]>): AgreementReport {
  const overall = emptyMatrix();
  const perModel = new Map<string, ConfusionMatrix>();
  const disagreements: Disagreement[] = [];
  const bothFalse = Object.fromEntries(BOTH_FALSE_REASONS.map((reason) => [reason, 0])) as Record<BothFalseReason, number>;
  const unmapped: string[] = [];
  for (const record of records) {
    const result = ruleJudge({
      nodeSelection: record.nodeSelection,
      workflow: parseWorkflow(record.workflowText),
      keyNodes: keyNodes.get(`${record.task}_${record.round}`) ?? [],
    });
    addVerdictPair(overall, result.verdict, record.llmVerdict);
    const modelMatrix = perModel.get(record.model) ?? emptyMatrix();
    addVerdictPair(modelMatrix, result.verdict, record.llmVerdict);
    perModel.set(record.model, modelMatrix);
    unmapped.push(...result.unmapped.map((fragment) => fragment.text));
    const kind = classifyDisagreement(result, record.llmVerdict, record.reason);
    if (kind) {
      disagreements.push({
        kind,
        model: record.model,
        task: record.task,
        round: record.round,
        nodeSelection: record.nodeSelection,
        missingKeyNodes: result.missingKeyNodes,
        undeclaredUsed: result.undeclaredUsed,
        declaredUnused: result.declaredUnused,
        quotesOldWording: record.reason !== null && OLD_JUDGE_WORDING.test(record.reason),
      });
    }
    const reason = !result.verdict && !record.llmVerdict ? failureReason(result) : null;
    if (reason) bothFalse[reason] += 1;
  }
  return { overall, perModel, disagreements, bothFalse, unmapped };
}

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

function reportJson(report: AgreementReport): unknown {
  return {
    overall: { ...report.overall, n: matrixTotal(report.overall), agreement: agreementRate(report.overall) },
    perModel: Object.fromEntries(
      [...report.perModel].map(([model, m]) => [model, { ...m, n: matrixTotal(m), agreement: agreementRate(m) }]),
    ),
    disagreements: report.disagreements,
    bothFalse: report.bothFalse,
    unmapped: report.unmapped,
  };
}

function main(): number {
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
  const benchmark = path.resolve(values.benchmark ?? path.join("..", "shared", "chat2workflow"));
  try {
    const report = evaluate(readJudgedRecords(benchmark), readKeyNodes(benchmark));
    if (values.json) console.log(JSON.stringify(reportJson(report), null, 2));
    else printReport(report);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`judge:agreement: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

// A closed pipe (`| head`) is a normal way to stop reading; exit quietly instead of crashing.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = main();
