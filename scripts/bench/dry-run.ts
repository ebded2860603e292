// `npm run bench:dry-run`: dry-runs (mock model) every test of every turn that passed in the shared recorded runs and
// compares each prediction with the recorded Dify outcome ("reached the judge or passed with files only" vs
// "failed before the judge"). Prints agreement, the share of failures found, the false-alarm rate, the confusion
// matrix, the figures per node type and per predicted failure reason, the largest disagreement causes, and the time.
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { dryRunTurn, predictedOutcome, recordedOutcome, type RecordedOutcome } from "../../lib/dry-run/turns";
import { mockModel } from "../../lib/dry-run/mock-model";
import type { DryRunExecution } from "../../lib/dry-run/execute";
import { parseResponse } from "../../lib/workflow/response";
import { locateBenchmark, printTable, runMain } from "./common";
import { loadBenchmarkCorpus } from "./corpus";
import { sandboxCodeRunner } from "./dry-run-sandbox";
import { createCaseFileReader } from "../../lib/server/dry-run/document-reader";
import { chartPreviews } from "../../lib/server/dry-run/chart-svg";
import { exporterFiles } from "../../lib/server/dry-run/exporter-files";

interface Row {
  model: string;
  task: string;
  round: number;
  test: number;
  recorded: RecordedOutcome;
  predicted: RecordedOutcome;
  execution: DryRunExecution;
  nodeTypes: string[];
}

const pct = (part: number, whole: number): string => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)} %`);

function reasonCategory(execution: DryRunExecution): string {
  if (execution.outcome === "completed") return execution.fileCheck === "failed" ? `file check: ${execution.fileCheckReason?.replace(/"[^"]*"/g, "…").replace(/\.\w+/g, ".ext")}` : "completed";
  const reason = execution.reason ?? "";
  const node = execution.trace.find((step) => step.nodeId === execution.failedNode)?.type ?? (execution.failedNode ? "start" : "-");
  return `${node}: ${reason.replace(/"[^"]*"|'[^']*'|`[^`]*`|\[[^\]]*\]/g, "…").replace(/\d+/g, "N").slice(0, 90)}`;
}

runMain(async () => {
  const dir = locateBenchmark();
  const corpus = await loadBenchmarkCorpus(dir);
  const code = await sandboxCodeRunner();
  // Document extractors read the benchmark's case files (DRY_RUN_CASE_FILES=0: stand-in text, as without --case-files).
  const caseFiles = process.env.DRY_RUN_CASE_FILES === "0" ? null : path.join(dir, "case_files");
  const documents = caseFiles !== null && existsSync(caseFiles) ? createCaseFileReader({ dir: caseFiles }) : null;
  // Exporters write real files and charts are drawn as SVG previews (DRY_RUN_EXPORTER_FILES=0: neither, size 0).
  const files = process.env.DRY_RUN_EXPORTER_FILES === "0" ? null : exporterFiles;
  const charts = files === null ? null : chartPreviews;
  const started = performance.now();
  const work = corpus.runs.flatMap((run) => run.records.filter((record) => record.valid).map((record) => ({ run, record })));
  const rowsPerTurn: Row[][] = work.map(() => []);
  let next = 0;
  // Turns run concurrently so the sandbox processes run code nodes while the engine works on other turns.
  const worker = async (): Promise<void> => {
    while (next < work.length) {
      const index = next++;
      const { run, record } = work[index] as (typeof work)[number];
      const turn = corpus.turns.get(`${record.task}_${record.round}`);
      if (!turn) continue;
      const input = { nodeSelection: record.node_selection ?? null, designPrinciple: record.design_principle ?? null, workflow: record.workflow ?? null };
      const results = await dryRunTurn({ input, turn, caseFileExists: null, services: { model: mockModel, code: code.runner, documents, files, charts, maxSteps: 500 } });
      const parsed = parseResponse(input);
      const nodeTypes = parsed.json.ok && parsed.json.value && typeof parsed.json.value === "object" && !Array.isArray(parsed.json.value) && Array.isArray(parsed.json.value.nodes_info)
        ? [...new Set(parsed.json.value.nodes_info.map((node) => (node && typeof node === "object" && !Array.isArray(node) ? String(node.type) : "?")))]
        : [];
      for (const result of results ?? []) {
        const recorded = recordedOutcome(record, result.test);
        if (!recorded) continue;
        rowsPerTurn[index]?.push({ model: run.model, task: record.task, round: record.round, test: result.test, recorded, predicted: predictedOutcome(result.execution), execution: result.execution, nodeTypes });
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const rows = rowsPerTurn.flat();
  const elapsed = (performance.now() - started) / 1000;
  await code.close();
  await documents?.close();
  const positives = rows.filter((row) => row.recorded === "failed-before-judge");
  const negatives = rows.filter((row) => row.recorded === "reached-judge");
  const truePositives = positives.filter((row) => row.predicted === "failed-before-judge").length;
  const falseAlarms = negatives.filter((row) => row.predicted === "failed-before-judge").length;
  const agree = rows.filter((row) => row.recorded === row.predicted).length;
  console.log(`Dry run (mock model${code.label}, ${documents ? "case files read" : "case-file text mocked"}, ${files ? "exporter files written, charts drawn" : "exporter files not written, charts not drawn"}) of ${rows.length} recorded test executions from ${corpus.runs.length} runs (${dir})`);
  console.log(`load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}\n`);
  console.log(`agreement with the recorded Dify outcome   ${pct(agree, rows.length)}  (${agree}/${rows.length})   target ≥ 90 %`);
  console.log(`failures before the judge found (recall)  ${pct(truePositives, positives.length)}  (${truePositives}/${positives.length})   target ≥ 70 %`);
  console.log(`false alarms (of tests that reached it)   ${pct(falseAlarms, negatives.length)}  (${falseAlarms}/${negatives.length})   target ≤ 5 %`);
  console.log(`time for all runs                          ${elapsed.toFixed(1)} s   target ≤ 60 s`);
  const steps = rows.flatMap((row) => row.execution.trace);
  const tally = new Map<string, number>();
  for (const file of steps.flatMap((step) => step.files ?? [])) tally.set(`${file.extension} ${file.content}`, (tally.get(`${file.extension} ${file.content}`) ?? 0) + 1);
  console.log(`tool files in the traces                   ${[...tally].sort().map(([key, count]) => `${key} ${count}`).join(", ") || "none"}; chart previews ${steps.filter((step) => step.chart).length}\n`);
  console.log("Confusion matrix (rows: recorded Dify outcome; columns: dry-run prediction)");
  printTable(["recorded \\ predicted", "failed before judge", "reached judge"], [
    ["failed before judge", String(truePositives), String(positives.length - truePositives)],
    ["reached judge", String(falseAlarms), String(negatives.length - falseAlarms)],
  ]);
  console.log("\nPer node type (executions whose workflow uses it)");
  const types = [...new Set(rows.flatMap((row) => row.nodeTypes))].sort();
  printTable(["node type", "executions", "agreement", "recall", "false alarms"], types.map((type) => {
    const subset = rows.filter((row) => row.nodeTypes.includes(type));
    const p = subset.filter((row) => row.recorded === "failed-before-judge");
    const n = subset.filter((row) => row.recorded === "reached-judge");
    return [type, String(subset.length), pct(subset.filter((row) => row.recorded === row.predicted).length, subset.length), pct(p.filter((row) => row.predicted === row.recorded).length, p.length), pct(n.filter((row) => row.predicted !== row.recorded).length, n.length)];
  }));
  console.log("\nPer predicted failure reason (recorded failed before judge / reached judge)");
  const reasons = new Map<string, [number, number]>();
  for (const row of rows.filter((r) => r.predicted === "failed-before-judge")) {
    const key = reasonCategory(row.execution);
    const counts = reasons.get(key) ?? [0, 0];
    counts[row.recorded === "failed-before-judge" ? 0 : 1] += 1;
    reasons.set(key, counts);
  }
  printTable(["reason", "failed before", "reached"], [...reasons].sort((a, b) => b[1][0] + b[1][1] - a[1][0] - a[1][1]).map(([reason, [p, n]]) => [reason, String(p), String(n)]));
  console.log("\nLargest disagreement causes (task_round: missed failures / false alarms)");
  const causes = new Map<string, [number, number]>();
  for (const row of rows.filter((r) => r.recorded !== r.predicted)) {
    const key = `${row.task}_${row.round}`;
    const counts = causes.get(key) ?? [0, 0];
    counts[row.recorded === "failed-before-judge" ? 0 : 1] += 1;
    causes.set(key, counts);
  }
  printTable(["turn", "missed", "false alarms"], [...causes].sort((a, b) => b[1][0] + b[1][1] - a[1][0] - a[1][1]).slice(0, 10).map(([key, [m, f]]) => [key, String(m), String(f)]));
  if (process.argv.includes("--verbose")) for (const row of rows.filter((r) => r.recorded !== r.predicted)) console.log(row.model, row.task, row.round, row.test, row.recorded, reasonCategory(row.execution));
});
