// `npm run -s grade -- --input FILE [--json]`: grades a JSON list of cases by the scoring guide's algorithm (§5.1).
// `npm run -s grade -- --rubric FILE --run RUN [--benchmark DIR] [--json]`: grades a stored run (id or label) or a
// run file with a rubric; `--evidence FILE` adds an evidence file (docs/evidence.md), alone or for the run's responses.
// With --json stdout carries one JSON document. Exit codes: 0 done, 1 not found, 2 bad input.
import { readFileSync } from "node:fs";
import { gradeCases, parseGradeCases, toContractResult, type ContractResult } from "@/lib/grading/cases";
import { reportBundle, type ReportBundle } from "@/lib/grading/report";
import type { EvidenceFile } from "@/lib/grading/evidence";
import { gradeEvidenceRun, loadEvidenceFile, loadRubricFile, storeRunGrades, type GradedRun } from "@/lib/server/grading";
import { OUTPUT_OPTIONS, parseCommandLine, runCommandLine, usageError } from "./lib/cli";
import { COMMAND_LINE, GRADING_OPTIONS, reportFailure, withGradedRuns } from "./lib/graded-run";
import { printData } from "./lib/stdout";

const USAGE = `Usage: npm run -s grade -- --input <file> [--json]
       npm run -s grade -- --rubric <file> --run <run> [--evidence <file>] [--benchmark <dir>] [--dry-run] [--json] [--database <url>]
       npm run -s grade -- --rubric <file> --evidence <file> [--json]
  --input <file>      a JSON list of cases {id, hard_gates, pass_threshold?, sample_count?, criteria: [...]}
  --rubric <file>     a rubric YAML file (see rubrics/)
  --run <run>         a stored run's id or label, or a run file (with --benchmark)
  --evidence <file>   a JSON evidence file (docs/evidence.schema.json): gates, metrics, judge scores per response;
                      alone it is graded by itself, with --run it supplies what the stored run cannot
  --benchmark <dir>   the benchmark directory a run file belongs to
  --dry-run           do not store the grades of a stored run (they are stored by default)
  --json              print one JSON document on stdout
  --database <url>    database URL (default: DATABASE_URL or file:./data/studio.db)`;

function printTable(results: readonly ContractResult[]): void {
  console.log(["id", "grade", "passed", "weighted", "gate failures", "floor failures"].join("\t"));
  for (const result of results) {
    console.log([result.id, result.grade, result.passed ? "yes" : "no", result.weighted_100.toFixed(2), result.gate_failures.join(",") || "-", result.floor_failures.join(",") || "-"].join("\t"));
  }
}

async function gradeInputFile(file: string, json: boolean): Promise<number> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    console.error(`error: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const parsed = parseGradeCases(data);
  const graded = parsed.ok ? gradeCases(parsed.value) : parsed;
  if (!graded.ok) {
    for (const found of graded.issues) console.error(`error: ${file}: ${found.message}`);
    return 2;
  }
  if (json) await printData(JSON.stringify({ results: graded.value.results }));
  else printTable(graded.value.results);
  return 0;
}

function printRunSummary(graded: GradedRun, bundle: ReportBundle, stored: number | null): void {
  const pct = (value: number | null) => (value === null ? "-" : `${(value * 100).toFixed(1)}%`);
  console.log(`${graded.run.label} (${graded.run.modelDisplayName}) graded with ${graded.rubric.id} v${graded.rubric.version}: ${bundle.count} responses`);
  console.log(`pass rate ${pct(bundle.passRate)}; weighted mean ${bundle.weightedMean?.toFixed(2) ?? "-"} (sd ${bundle.weightedSd?.toFixed(2) ?? "-"})`);
  console.log(`grades: ${Object.entries(bundle.grades).map(([grade, count]) => `${grade} ${count}`).join(", ")}`);
  console.log(`gate failures: ${bundle.gateFailureRates.map((gate) => `${gate.gate} ${gate.failed} (${pct(gate.rate)})`).join(", ")}`);
  for (const reason of bundle.topFailureReasons.slice(0, 5)) console.log(`  ${String(reason.count).padStart(4)}  ${reason.reason}`);
  if (stored !== null) console.error(`stored ${stored} grading results`);
}

async function gradeEvidenceAlone(rubricFile: string, evidenceFile: string, json: boolean): Promise<number> {
  const [loaded, evidence] = [await loadRubricFile(rubricFile), await loadEvidenceFile(evidenceFile)];
  const problems = [...(loaded.ok ? [] : loaded.issues), ...(evidence.ok ? [] : evidence.issues)];
  if (!loaded.ok || !evidence.ok) return reportFailure({ code: 2, message: problems.join("\nerror: ") });
  const graded = gradeEvidenceRun(loaded.value, evidence.value);
  if (!graded.ok) return reportFailure({ code: 2, message: `${evidenceFile}: ${graded.issues.join(`\nerror: ${evidenceFile}: `)}` });
  const results = graded.value.responses.map((entry) => ({ ...toContractResult(entry.result), missing: entry.missing, placement: entry.result.placement }));
  if (json) {
    await printData(JSON.stringify({ rubric: graded.value.rubric, run: graded.value.run, summary: reportBundle(graded.value.responses.map((entry) => entry.result)), results }));
    return 0;
  }
  printTable(results);
  for (const entry of graded.value.responses) {
    const missing = [...entry.missing.gates.map((gate) => `gate ${gate}`), ...entry.missing.criteria];
    if (missing.length > 0) console.log(`${entry.id}: missing ${missing.join(", ")}`);
  }
  return 0;
}

async function gradeRun(values: { rubric: string; run: string; benchmark?: string; json: boolean; dryRun: boolean; database?: string; evidence?: EvidenceFile }): Promise<number> {
  return withGradedRuns([values.run], values, async ([graded], db) => {
    const stored = db !== null && !values.dryRun ? await storeRunGrades(db, COMMAND_LINE, graded) : null;
    const bundle = reportBundle(graded.responses.map((response) => response.result));
    if (values.json) {
      await printData(
        JSON.stringify({
          run: graded.run,
          rubric: graded.rubric,
          summary: bundle,
          results: graded.responses.map((response) => ({ ...toContractResult(response.result), turn: response.turnKey, judges: response.judges })),
        }),
      );
    } else {
      printRunSummary(graded, bundle, stored);
    }
    return 0;
  });
}

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    {
      options: { input: { type: "string" }, run: { type: "string" }, evidence: { type: "string" }, ...GRADING_OPTIONS, "dry-run": { type: "boolean" }, ...OUTPUT_OPTIONS },
    },
    USAGE,
    "stderr",
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  if (values.input !== undefined) {
    if (values.rubric !== undefined || values.run !== undefined || values.evidence !== undefined) return usageError("--input cannot be combined with --rubric, --run or --evidence", USAGE);
    return gradeInputFile(values.input, values.json ?? false);
  }
  if (values.rubric !== undefined && values.run === undefined && values.evidence !== undefined) return gradeEvidenceAlone(values.rubric, values.evidence, values.json ?? false);
  if (values.rubric !== undefined && values.run !== undefined) {
    let evidence: EvidenceFile | undefined;
    if (values.evidence !== undefined) {
      const loaded = await loadEvidenceFile(values.evidence);
      if (!loaded.ok) return reportFailure({ code: 2, message: loaded.issues.join("\nerror: ") });
      evidence = loaded.value;
    }
    return gradeRun({
      rubric: values.rubric,
      run: values.run,
      json: values.json ?? false,
      dryRun: values["dry-run"] ?? false,
      ...(values.benchmark !== undefined ? { benchmark: values.benchmark } : {}),
      ...(values.database !== undefined ? { database: values.database } : {}),
      ...(evidence ? { evidence } : {}),
    });
  }
  return usageError("give --input <file>, or --rubric <file> with --run <run> and/or --evidence <file>", USAGE);
}

runCommandLine(main);
