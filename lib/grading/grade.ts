// The deterministic grading algorithm of the scoring guide (§5.1): hard gates, normalisation, weighted score, bands,
// floor cap and pass, with every decision written down as a reason. Pure; bad criteria come back as issues.

import { err, ok, type Result } from "../result";
import {
  adjustForSampleSize,
  DEFAULT_PRIOR,
  DEFAULT_PRIOR_WEIGHT,
  gradingIssue,
  normalize,
  type FormulaId,
  type FormulaParams,
  type GradingIssue,
  type RawScore,
} from "./formulas";

export const GRADES = ["A", "B", "C", "D", "F"] as const;
export type Grade = (typeof GRADES)[number];

/** Lower bounds (inclusive) of each band on the 0–100 scale; below the last is F. */
export const BANDS: readonly { grade: Exclude<Grade, "F">; min: number }[] = [
  { grade: "A", min: 90 },
  { grade: "B", min: 80 },
  { grade: "C", min: 70 },
  { grade: "D", min: 60 },
];

export const DEFAULT_PASS_THRESHOLD = 70;
/** §5.2: an A needs every critical floor cleared by this margin. */
export const FLOOR_MARGIN_FOR_A = 0.1;

/** How far the judges of one response disagree, measured by the caller from its panel or samples. */
export interface JudgeDisagreement {
  /** 0 = unanimous; compared with `limit`. */
  value: number;
  /** Above this the disagreement is not "low" (§5.2) and an A is withheld. */
  limit: number;
  /** How it was measured, e.g. "2 of 3 samples say pass". */
  detail: string;
}

/** One §5.2 placement check for an A; `holds: null` when it could not be measured. */
export interface PlacementCheck {
  check: "floor_margin" | "judge_disagreement";
  holds: boolean | null;
  detail: string;
}

/** A hard gate's outcome; `passed: null` means the gate was not reached (an earlier gate already failed). */
export interface GateInput {
  name: string;
  passed: boolean | null;
  reason?: string;
}

export interface CriterionInput {
  name: string;
  formula: FormulaId;
  /** Null when the criterion does not apply to this response; `notApplicable` then says why. */
  raw: RawScore | null;
  weight: number;
  /** On the normalised 0..1 scale. */
  critical_floor?: number;
  params?: FormulaParams;
  notApplicable?: string;
  /** Where the raw value came from, for the grade card (e.g. "3 of 3 test cases resolved"). */
  evidence?: string;
}

export interface GradeInput {
  id: string;
  gates: readonly GateInput[];
  criteria: readonly CriterionInput[];
  pass_threshold?: number;
  /** n of the small-sample adjustment; default 1. */
  sample_count?: number;
  prior?: number;
  prior_weight?: number;
  judge_disagreement?: JudgeDisagreement;
  /** Latency and cost of the response, for the §5.2 tie-breakers when no criterion carries them. */
  operations?: Operations;
}

export interface Operations {
  latency_ms: number | null;
  cost: number | null;
}

export interface CriterionResult {
  name: string;
  formula: FormulaId;
  raw: RawScore | null;
  params?: FormulaParams;
  weight: number;
  applicable: boolean;
  notApplicable?: string;
  evidence?: string;
  norm: number | null;
  adjusted_norm: number | null;
  critical_floor: number | null;
  floor_failed: boolean;
}

export interface GateResult {
  name: string;
  passed: boolean | null;
  reason: string | null;
}

export interface GradeResult {
  id: string;
  passed: boolean;
  grade: Grade;
  /** The band of the weighted score alone, before gates and floors. */
  band_grade: Grade;
  weighted_0_1: number;
  weighted_100: number;
  pass_threshold: number;
  sample_count: number;
  gates: GateResult[];
  gate_failures: string[];
  floor_failures: string[];
  criteria: CriterionResult[];
  operations: Operations;
  /** §5.2's extra conditions for an A (floor margin, low judge disagreement), checked whatever the band. */
  placement: PlacementCheck[];
  /** Machine-readable reasons, in the order the algorithm met them. */
  reasons: string[];
  /** Why this grade, in words, from the §5.2 checklist. */
  explanation: string;
}

export function bandOf(weighted100: number): Grade {
  return BANDS.find((band) => weighted100 >= band.min)?.grade ?? "F";
}

/** The worse of two grades (F is worst). */
export function worseGrade(a: Grade, b: Grade): Grade {
  return GRADES.indexOf(a) >= GRADES.indexOf(b) ? a : b;
}

/** round(x, 2) for the 0–100 scale; the epsilon keeps values like 81.815 from rounding down through binary error. */
export function roundTo2(value: number): number {
  return Math.round((value + Number.EPSILON * Math.max(1, Math.abs(value))) * 100) / 100;
}

function bandRange(grade: Grade): string {
  switch (grade) {
    case "A":
      return "90–100";
    case "B":
      return "80–89.99";
    case "C":
      return "70–79.99";
    case "D":
      return "60–69.99";
    case "F":
      return "below 60";
  }
}

function fmt(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0$/, "");
}

function checkInput(input: GradeInput): GradingIssue[] {
  const issues: GradingIssue[] = [];
  const threshold = input.pass_threshold ?? DEFAULT_PASS_THRESHOLD;
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 100) issues.push(gradingIssue("bad-threshold", `pass_threshold must lie in 0..100, got ${threshold}`, ["pass_threshold"]));
  const n = input.sample_count ?? 1;
  if (!Number.isSafeInteger(n) || n < 0) issues.push(gradingIssue("bad-sample-count", `sample_count must be a non-negative integer, got ${n}`, ["sample_count"]));
  const names = new Set<string>();
  input.criteria.forEach((criterion, index) => {
    if (names.has(criterion.name)) issues.push(gradingIssue("duplicate-criterion", `criterion "${criterion.name}" appears twice`, ["criteria", index, "name"]));
    names.add(criterion.name);
    if (!Number.isFinite(criterion.weight) || criterion.weight < 0) issues.push(gradingIssue("bad-weight", `criterion "${criterion.name}": weight must be a non-negative number, got ${criterion.weight}`, ["criteria", index, "weight"]));
    const floor = criterion.critical_floor;
    if (floor !== undefined && !(Number.isFinite(floor) && floor >= 0 && floor <= 1)) {
      issues.push(gradingIssue("bad-floor", `criterion "${criterion.name}": critical_floor is on the normalised scale and must lie in 0..1, got ${floor}`, ["criteria", index, "critical_floor"]));
    }
  });
  return issues;
}

/** Grades one case by §5.1. Issues name the criterion index and field when a raw value or weight is unusable. */
export function gradeCase(input: GradeInput): Result<GradeResult, GradingIssue> {
  const issues = checkInput(input);
  const passThreshold = input.pass_threshold ?? DEFAULT_PASS_THRESHOLD;
  const sampleCount = input.sample_count ?? 1;
  const prior = input.prior ?? DEFAULT_PRIOR;
  const priorWeight = input.prior_weight ?? DEFAULT_PRIOR_WEIGHT;
  const reasons: string[] = [];

  // STEP 1: hard gates. The guide returns early here; we keep going so the weighted score survives for diagnostics.
  const gates: GateResult[] = input.gates.map((gate) => ({ name: gate.name, passed: gate.passed, reason: gate.reason ?? null }));
  const gateFailures = gates.filter((gate) => gate.passed === false).map((gate) => gate.name);
  for (const gate of gates) {
    if (gate.passed === false) reasons.push(`hard_gate_failure: ${gate.name}${gate.reason ? ` (${gate.reason})` : ""}`);
  }

  // STEP 2: normalise each applicable criterion and test its floor.
  const criteria: CriterionResult[] = [];
  input.criteria.forEach((criterion, index) => {
    const base = {
      name: criterion.name,
      formula: criterion.formula,
      raw: criterion.raw,
      ...(criterion.params ? { params: criterion.params } : {}),
      weight: criterion.weight,
      ...(criterion.evidence ? { evidence: criterion.evidence } : {}),
      critical_floor: criterion.critical_floor ?? null,
    };
    if (criterion.raw === null) {
      const why = criterion.notApplicable ?? "no raw value";
      reasons.push(`not_applicable: ${criterion.name} (${why})`);
      criteria.push({ ...base, applicable: false, notApplicable: why, norm: null, adjusted_norm: null, floor_failed: false });
      return;
    }
    const norm = normalize(criterion.formula, criterion.raw, criterion.params);
    if (!norm.ok) {
      for (const found of norm.issues) issues.push({ ...found, path: ["criteria", index, ...found.path], message: `criterion "${criterion.name}": ${found.message}` });
      return;
    }
    const floorFailed = criterion.critical_floor !== undefined && norm.value < criterion.critical_floor;
    if (floorFailed) reasons.push(`critical_floor_missed: ${criterion.name} (${fmt(norm.value)} < ${fmt(criterion.critical_floor as number)})`);
    criteria.push({
      ...base,
      applicable: true,
      norm: norm.value,
      adjusted_norm: adjustForSampleSize(norm.value, sampleCount, prior, priorWeight),
      floor_failed: floorFailed,
    });
  });
  if (issues.length > 0) return err(...issues);

  // STEP 3: weighted aggregate over the applicable criteria; inapplicable ones leave the weights renormalised.
  const weighted = criteria.filter((criterion) => criterion.applicable);
  const weightSum = weighted.reduce((sum, criterion) => sum + criterion.weight, 0);
  if (weightSum <= 0) {
    return err(gradingIssue("no-weight", "no applicable criterion with a positive weight: the weighted score is undefined", ["criteria"]));
  }
  const weighted01 = weighted.reduce((sum, criterion) => sum + criterion.weight * (criterion.norm as number), 0) / weightSum;
  const weighted100 = roundTo2(weighted01 * 100);

  // STEP 4–5: band, then the floor cap; a failed gate overrides both.
  const bandGrade = bandOf(weighted100);
  const floorFailures = criteria.filter((criterion) => criterion.floor_failed).map((criterion) => criterion.name);
  let grade = bandGrade;
  if (floorFailures.length > 0) {
    grade = worseGrade(grade, "D");
    if (grade !== bandGrade) reasons.push(`grade_capped_at_D: band ${bandGrade} capped by critical floor`);
  }
  const placement = placementChecks(criteria, input.judge_disagreement);
  if (grade === "A") {
    const failing = placement.filter((check) => check.holds === false);
    for (const check of failing) reasons.push(`a_withheld_${check.check}: ${check.detail}`);
    if (failing.length > 0) grade = "B";
  }
  if (gateFailures.length > 0) grade = "F";

  // STEP 6: pass.
  const aboveThreshold = weighted100 >= passThreshold;
  if (!aboveThreshold) reasons.push(`below_pass_threshold: ${fmt(weighted100)} < ${fmt(passThreshold)}`);
  const passed = gateFailures.length === 0 && floorFailures.length === 0 && aboveThreshold;

  const result: GradeResult = {
    id: input.id,
    passed,
    grade,
    band_grade: bandGrade,
    weighted_0_1: weighted01,
    weighted_100: weighted100,
    pass_threshold: passThreshold,
    sample_count: sampleCount,
    gates,
    gate_failures: gateFailures,
    floor_failures: floorFailures,
    criteria,
    operations: input.operations ?? { latency_ms: null, cost: null },
    placement,
    reasons,
    explanation: "",
  };
  result.explanation = explainPlacement(result);
  return ok(result);
}

function placementChecks(criteria: readonly CriterionResult[], disagreement: JudgeDisagreement | undefined): PlacementCheck[] {
  const floored = criteria.filter((criterion) => criterion.applicable && criterion.critical_floor !== null);
  const thin = floored.filter((criterion) => (criterion.norm as number) < (criterion.critical_floor as number) + FLOOR_MARGIN_FOR_A - 1e-12);
  const margin: PlacementCheck = {
    check: "floor_margin",
    holds: thin.length === 0,
    detail:
      floored.length === 0
        ? "no critical floor applies"
        : thin.length === 0
          ? `every critical floor cleared by at least ${fmt(FLOOR_MARGIN_FOR_A)}`
          : thin.map((criterion) => `${criterion.name} ${fmt(criterion.norm as number)} < floor ${fmt(criterion.critical_floor as number)} + ${fmt(FLOOR_MARGIN_FOR_A)}`).join(", "),
  };
  const judges: PlacementCheck =
    disagreement === undefined
      ? { check: "judge_disagreement", holds: null, detail: "a single judgement: disagreement not measurable" }
      : {
          check: "judge_disagreement",
          holds: disagreement.value <= disagreement.limit + 1e-12,
          detail: `${disagreement.detail}: disagreement ${fmt(disagreement.value)} ${disagreement.value <= disagreement.limit + 1e-12 ? "≤" : ">"} ${fmt(disagreement.limit)}`,
        };
  return [margin, judges];
}

/** The §5.2 checklist in words: which gates, floors and band put the result where it is, and what kept it there. */
export function explainPlacement(result: Omit<GradeResult, "explanation">): string {
  const parts: string[] = [];
  const score = `weighted score ${fmt(result.weighted_100)}`;
  const floorMisses = result.criteria.filter((criterion) => criterion.floor_failed);
  if (result.gate_failures.length > 0) {
    const failed = result.gates.filter((gate) => gate.passed === false).map((gate) => (gate.reason ? `${gate.name} (${gate.reason})` : gate.name));
    parts.push(`F: release-blocking — hard gate${failed.length > 1 ? "s" : ""} ${failed.join(", ")} failed; the ${score} (band ${result.band_grade}) is kept for diagnostics only and cannot override a failed gate.`);
  } else if (floorMisses.length > 0) {
    const misses = floorMisses.map((criterion) => `${criterion.name} ${fmt(criterion.norm as number)} < floor ${fmt(criterion.critical_floor as number)}`).join(", ");
    parts.push(
      result.grade === result.band_grade
        ? `${result.grade}: ${score} is in ${bandRange(result.grade)}, and a critical floor was missed (${misses}), which alone fails the pass.`
        : `D: grade capped — the ${score} alone would place it in ${result.band_grade}, but a critical floor was missed (${misses}).`,
    );
  } else {
    const floored = result.criteria.filter((criterion) => criterion.applicable && criterion.critical_floor !== null);
    const thin = floored.filter((criterion) => (criterion.norm as number) < (criterion.critical_floor as number) + FLOOR_MARGIN_FOR_A - 1e-12);
    const floorWords =
      floored.length === 0
        ? "no critical floors apply"
        : thin.length === 0
          ? `every critical floor is cleared by at least ${fmt(FLOOR_MARGIN_FOR_A)}`
          : `floors pass, but near the boundary for ${thin.map((criterion) => `${criterion.name} (${fmt(criterion.norm as number)} vs ${fmt(criterion.critical_floor as number)})`).join(", ")}`;
    const weakest = result.criteria
      .filter((criterion) => criterion.applicable && (criterion.norm as number) < 1)
      .sort((a, b) => (a.norm as number) - (b.norm as number))
      .slice(0, 2)
      .map((criterion) => `${criterion.name} ${fmt(criterion.norm as number)}`);
    const gaps = weakest.length > 0 ? ` Weakest criteria: ${weakest.join(", ")}.` : "";
    switch (result.grade) {
      case "A":
        parts.push(`A: all hard gates pass, ${floorWords}, judges agree (${result.placement.find((check) => check.check === "judge_disagreement")?.detail}), and the ${score} is in 90–100.`);
        break;
      case "B": {
        const withheld = result.band_grade === "A" ? result.placement.filter((check) => check.holds === false) : [];
        parts.push(
          withheld.length > 0
            ? `B: the ${score} is in 90–100, but §5.2 withholds an A: ${withheld.map((check) => (check.check === "floor_margin" ? `floors not cleared by ${fmt(FLOOR_MARGIN_FOR_A)} (${check.detail})` : `judges disagree (${check.detail})`)).join("; ")}.`
            : `B: all hard gates pass, ${floorWords}; the ${score} is in 80–89.99: strong, with limited non-critical defects.${gaps}`,
        );
        break;
      }
      case "C":
        parts.push(`C: all hard gates pass, ${floorWords}; the ${score} is in 70–79.99: an acceptable baseline with clear improvement items.${gaps}`);
        break;
      case "D":
        parts.push(`D: all hard gates pass, ${floorWords}; the ${score} is in 60–69.99: multiple material quality gaps.${gaps}`);
        break;
      case "F":
        parts.push(`F: all hard gates pass, but the ${score} is below 60.${gaps}`);
        break;
    }
  }
  const skipped = result.criteria.filter((criterion) => !criterion.applicable);
  if (skipped.length > 0) parts.push(`Not applicable (left out of the weights): ${skipped.map((criterion) => `${criterion.name} — ${criterion.notApplicable}`).join("; ")}.`);
  parts.push(
    result.passed
      ? `Passed: gates and floors hold and ${fmt(result.weighted_100)} ≥ the pass threshold ${fmt(result.pass_threshold)}.`
      : `Not passed${result.weighted_100 < result.pass_threshold ? `: ${fmt(result.weighted_100)} is below the pass threshold ${fmt(result.pass_threshold)}` : ""}.`,
  );
  return parts.join(" ");
}
