// `npm run -s promote -- --candidate RUN --baseline RUN [--json]`: the scoring guide's promotion check (§10) between
// two runs on the same benchmark, graded with a rubric (default the Chat2Workflow profile). RUN is a stored run's id
// or label, or a run file with --benchmark. Exit codes: 0 decided (PROMOTE or HOLD), 1 run not found, 2 bad input.
import path from "node:path";
import { DEFAULT_THRESHOLDS, type PromotionThresholds } from "@/lib/grading/promotion";
import { comparePromotion, DEFAULT_RUBRIC_FILE, RUBRICS_DIR, type PromotionReport } from "@/lib/server/grading";
import { OUTPUT_OPTIONS, parseCommandLine, runCommandLine, usageError } from "./lib/cli";
import { GRADING_OPTIONS, reportFailure, RUN_PAIR_OPTIONS, withGradedRuns } from "./lib/graded-run";
import { printData } from "./lib/stdout";

const USAGE = `Usage: npm run -s promote -- --candidate <run> --baseline <run> [options]
  --candidate <run>           stored run id or label, or a run file (with --benchmark)
  --baseline <run>            the run the candidate would replace, same forms
  --rubric <file>             rubric YAML (default rubrics/${DEFAULT_RUBRIC_FILE})
  --benchmark <dir>           benchmark directory, for run files
  --max-gate-increase <x>     rule 1: allowed rise of the hard-gate failure rate, 0..1 (default ${DEFAULT_THRESHOLDS.maxGateFailureIncrease})
  --margin <points>           rule 2: non-inferiority margin on the 0–100 weighted score (default ${DEFAULT_THRESHOLDS.nonInferiorityMargin})
  --max-floor-increase <x>    rule 3: allowed rise of a floored criterion's miss rate, 0..1 (default ${DEFAULT_THRESHOLDS.maxFloorMissIncrease})
  --max-severe-increase <n>   rule 4: allowed rise in turns with an error diagnostic (default ${DEFAULT_THRESHOLDS.maxSevereIncrease})
  --resamples <n>             bootstrap resamples (default ${DEFAULT_THRESHOLDS.resamples})
  --seed <n>                  bootstrap seed (default ${DEFAULT_THRESHOLDS.seed})
  --json                      print one JSON document on stdout
  --database <url>            database URL (default: DATABASE_URL or file:./data/studio.db)`;

const NUMBER_OPTIONS = {
  "max-gate-increase": "maxGateFailureIncrease",
  margin: "nonInferiorityMargin",
  "max-floor-increase": "maxFloorMissIncrease",
  "max-severe-increase": "maxSevereIncrease",
  resamples: "resamples",
  seed: "seed",
} as const satisfies Record<string, keyof PromotionThresholds>;

function printDecision(report: PromotionReport): void {
  const { decision } = report;
  console.log(`${decision.verdict}: candidate ${report.candidate.label} (${report.candidate.modelDisplayName}) vs baseline ${report.baseline.label} (${report.baseline.modelDisplayName})`);
  console.log(`rubric ${report.rubric.id} v${report.rubric.version}; ${decision.sharedTurns} shared turns; weighted mean ${decision.weighted.candidateMean.toFixed(2)} vs ${decision.weighted.baselineMean.toFixed(2)}`);
  const [above, below] = report.order;
  console.log(`by grade: ${above!.candidate.label} above ${below!.candidate.label} (${below!.decidingRule ?? "ordered by weighted score"})`);
  for (const rule of decision.rules) console.log(`  ${rule.holds ? "ok  " : "FAIL"} ${rule.rule}. ${rule.name}: ${rule.summary}`);
  if (decision.candidateOnly.length + decision.baselineOnly.length > 0) {
    console.log(`  not compared: ${decision.candidateOnly.length} turn(s) only in the candidate, ${decision.baselineOnly.length} only in the baseline`);
  }
}

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    {
      options: {
        ...RUN_PAIR_OPTIONS,
        ...GRADING_OPTIONS,
        "max-gate-increase": { type: "string" },
        margin: { type: "string" },
        "max-floor-increase": { type: "string" },
        "max-severe-increase": { type: "string" },
        resamples: { type: "string" },
        seed: { type: "string" },
        ...OUTPUT_OPTIONS,
      },
    },
    USAGE,
    "stderr",
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  if (!values.candidate || !values.baseline) return usageError("--candidate and --baseline are required", USAGE);
  const thresholds: Partial<PromotionThresholds> = {};
  for (const [option, key] of Object.entries(NUMBER_OPTIONS) as [keyof typeof NUMBER_OPTIONS, keyof PromotionThresholds][]) {
    const text = values[option];
    if (text === undefined) continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) return usageError(`--${option} must be a non-negative number, got ${JSON.stringify(text)}`, USAGE);
    if ((key === "resamples" || key === "seed" || key === "maxSevereIncrease") && !Number.isSafeInteger(value)) return usageError(`--${option} must be an integer, got ${text}`, USAGE);
    thresholds[key] = value;
  }
  const rubric = values.rubric ?? path.join(RUBRICS_DIR, DEFAULT_RUBRIC_FILE);
  return withGradedRuns([values.candidate, values.baseline], { rubric, benchmark: values.benchmark, database: values.database }, async ([candidate, baseline]) => {
    const report = comparePromotion(candidate, baseline, thresholds);
    if (!report.ok) return reportFailure({ code: 2, message: report.issues.join("; ") });
    if (values.json) await printData(JSON.stringify(report.value));
    else printDecision(report.value);
    return 0;
  });
}

runCommandLine(main);
