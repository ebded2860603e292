// The promotion policy of the scoring guide (§10): a candidate run replaces a baseline only if four rules hold on
// the turns both graded. Pure and deterministic (seeded bootstrap); every rule reports its figures and threshold.

import { bootstrapMeanDifference, type BootstrapInterval } from "../stats/paired";
import { err, ok, type Result } from "../result";
import { adjustForSampleSize, DEFAULT_PRIOR, DEFAULT_PRIOR_WEIGHT } from "./formulas";
import type { GradeResult } from "./grade";

export interface PromotionItem {
  /** The turn both runs answered, e.g. "Task_2". */
  key: string;
  result: GradeResult;
  /** A severe validation failure: at least one error-severity diagnostic. */
  severe: boolean;
}

export interface PromotionThresholds {
  /** Rule 1: the candidate's hard-gate failure rate may exceed the baseline's by at most this (0..1). */
  maxGateFailureIncrease: number;
  /** Rule 2: the bootstrap interval's lower bound of (candidate − baseline) weighted score must be ≥ −margin. */
  nonInferiorityMargin: number;
  /** Rule 3: a floored criterion's miss rate may rise by at most this (0..1). */
  maxFloorMissIncrease: number;
  /** Rule 4: severe validation failures may rise by at most this many turns. */
  maxSevereIncrease: number;
  resamples: number;
  confidence: number;
  seed: number;
  /** §4.1 small-sample adjustment: promotion compares `adjusted = (n·mean + k·prior)/(n + k)`, not raw means. */
  prior: number;
  priorWeight: number;
}

export const DEFAULT_THRESHOLDS: PromotionThresholds = {
  maxGateFailureIncrease: 0.02,
  nonInferiorityMargin: 1,
  maxFloorMissIncrease: 0.02,
  maxSevereIncrease: 0,
  resamples: 2000,
  confidence: 0.95,
  seed: 1,
  prior: DEFAULT_PRIOR,
  priorWeight: DEFAULT_PRIOR_WEIGHT,
};

export interface RuleOutcome {
  rule: 1 | 2 | 3 | 4;
  name: string;
  holds: boolean;
  summary: string;
}

export interface FloorFigures {
  criterion: string;
  floor: number;
  candidateMissRate: number;
  baselineMissRate: number;
  /** Run-level mean norm shrunk toward 0.5 with n = turns where the criterion applied (guide: use adjusted norms). */
  candidateAdjusted: number | null;
  baselineAdjusted: number | null;
  regressed: boolean;
}

export interface PromotionDecision {
  verdict: "PROMOTE" | "HOLD";
  sharedTurns: number;
  candidateOnly: string[];
  baselineOnly: string[];
  thresholds: PromotionThresholds;
  gates: { candidateRate: number; baselineRate: number; increase: number };
  /** Raw means for reading; the interval and verdict are on the adjusted (0–100) weighted scores. */
  weighted: { candidateMean: number; baselineMean: number; candidateAdjusted: number; baselineAdjusted: number; interval: BootstrapInterval; verdict: "improved" | "non-inferior" | "inferior" };
  floors: FloorFigures[];
  severe: { candidate: number; baseline: number };
  rules: RuleOutcome[];
}

export interface PromotionIssue {
  code: string;
  message: string;
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const signed = (value: number, digits = 2) => `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;

function floorFigures(candidate: readonly PromotionItem[], baseline: readonly PromotionItem[], maxIncrease: number, prior: number, priorWeight: number): FloorFigures[] {
  const names = new Map<string, number>();
  for (const item of [...baseline, ...candidate]) {
    for (const criterion of item.result.criteria) if (criterion.critical_floor !== null && !names.has(criterion.name)) names.set(criterion.name, criterion.critical_floor);
  }
  const side = (items: readonly PromotionItem[], name: string) => {
    const applicable = items.flatMap((item) => item.result.criteria.filter((criterion) => criterion.name === name && criterion.applicable && criterion.norm !== null));
    const misses = applicable.filter((criterion) => criterion.floor_failed).length;
    const mean = applicable.length === 0 ? null : applicable.reduce((sum, criterion) => sum + (criterion.norm as number), 0) / applicable.length;
    return { missRate: items.length === 0 ? 0 : misses / items.length, adjusted: mean === null ? null : adjustForSampleSize(mean, applicable.length, prior, priorWeight) };
  };
  return [...names.entries()].map(([criterion, floor]) => {
    const c = side(candidate, criterion);
    const b = side(baseline, criterion);
    const fellBelow = c.adjusted !== null && b.adjusted !== null && c.adjusted < floor && b.adjusted >= floor;
    return {
      criterion,
      floor,
      candidateMissRate: c.missRate,
      baselineMissRate: b.missRate,
      candidateAdjusted: c.adjusted,
      baselineAdjusted: b.adjusted,
      regressed: fellBelow || c.missRate - b.missRate > maxIncrease + 1e-12,
    };
  });
}

/** Why a floor regressed or, when the candidate sits below it, why that is no regression. */
function floorReason(floor: FloorFigures, maxIncrease: number): string {
  const rise = floor.candidateMissRate - floor.baselineMissRate;
  const below = floor.candidateAdjusted !== null && floor.candidateAdjusted < floor.floor;
  if (floor.regressed) {
    return below && floor.baselineAdjusted !== null && floor.baselineAdjusted >= floor.floor
      ? " — regressed: the candidate fell below the floor the baseline clears"
      : ` — regressed: misses up ${signed(rise * 100, 1)} points, more than the allowed +${(maxIncrease * 100).toFixed(1)}`;
  }
  if (below && floor.baselineAdjusted === null) return " — below the floor, with no baseline figure to regress from";
  if (below) return ` — below the floor, as the baseline is too, and misses up ${signed(rise * 100, 1)} points (allowed +${(maxIncrease * 100).toFixed(1)}): not a regression`;
  return "";
}

/** Decides PROMOTE or HOLD on the turns both runs graded; turns only one run has are listed, not compared. */
export function decidePromotion(
  candidate: readonly PromotionItem[],
  baseline: readonly PromotionItem[],
  overrides: Partial<PromotionThresholds> = {},
): Result<PromotionDecision, PromotionIssue> {
  const thresholds = { ...DEFAULT_THRESHOLDS, ...overrides };
  const baselineByKey = new Map(baseline.map((item) => [item.key, item]));
  const candidateKeys = new Set(candidate.map((item) => item.key));
  if (candidateKeys.size !== candidate.length || baselineByKey.size !== baseline.length) return err({ code: "duplicate-turn", message: "a run lists the same turn twice" });
  const pairs = candidate.filter((item) => baselineByKey.has(item.key)).map((item) => ({ c: item, b: baselineByKey.get(item.key)! }));
  if (pairs.length === 0) return err({ code: "no-shared-turns", message: "the runs share no turn: are they on the same benchmark?" });
  const shared = { c: pairs.map((pair) => pair.c), b: pairs.map((pair) => pair.b) };
  const n = pairs.length;

  const gateRate = (items: readonly PromotionItem[]) => items.filter((item) => item.result.gate_failures.length > 0).length / n;
  const gates = { candidateRate: gateRate(shared.c), baselineRate: gateRate(shared.b), increase: 0 };
  gates.increase = gates.candidateRate - gates.baselineRate;

  // Both runs share n, so adjusted(c) − adjusted(b) = n/(n+k) · (mean(c) − mean(b)): the prior cancels and the
  // paired bootstrap of the adjusted difference resamples the per-turn differences scaled by n/(n+k).
  const shrink = n / (n + thresholds.priorWeight);
  const interval = bootstrapMeanDifference(
    pairs.map((pair) => shrink * (pair.c.result.weighted_100 - pair.b.result.weighted_100)),
    { resamples: thresholds.resamples, confidence: thresholds.confidence, seed: thresholds.seed },
  );
  if (!interval.ok) return err(...interval.issues.map((found) => ({ code: found.code, message: found.message })));
  const bounds = interval.value!;
  const mean = (items: readonly PromotionItem[]) => items.reduce((sum, item) => sum + item.result.weighted_100, 0) / n;
  const adjusted = (items: readonly PromotionItem[]) => 100 * adjustForSampleSize(mean(items) / 100, n, thresholds.prior, thresholds.priorWeight);
  const weightedVerdict = bounds.lower > 0 ? "improved" : bounds.lower >= -thresholds.nonInferiorityMargin ? "non-inferior" : "inferior";

  const floors = floorFigures(shared.c, shared.b, thresholds.maxFloorMissIncrease, thresholds.prior, thresholds.priorWeight);
  const severe = { candidate: shared.c.filter((item) => item.severe).length, baseline: shared.b.filter((item) => item.severe).length };

  const level = `${Math.round(thresholds.confidence * 100)}%`;
  const rules: RuleOutcome[] = [
    {
      rule: 1,
      name: "Hard-gate failure rate not worse beyond the threshold",
      holds: gates.increase <= thresholds.maxGateFailureIncrease + 1e-12,
      summary: `candidate ${pct(gates.candidateRate)} vs baseline ${pct(gates.baselineRate)} (${signed(gates.increase * 100, 1)} points; allowed +${(thresholds.maxGateFailureIncrease * 100).toFixed(1)})`,
    },
    {
      rule: 2,
      name: "Weighted score improved or non-inferior",
      holds: weightedVerdict !== "inferior",
      summary: `adjusted weighted score ${adjusted(shared.c).toFixed(2)} vs ${adjusted(shared.b).toFixed(2)} (§4.1, k = ${thresholds.priorWeight}, prior ${thresholds.prior}; raw means ${mean(shared.c).toFixed(2)} vs ${mean(shared.b).toFixed(2)}): difference ${signed(bounds.observed)} (${level} paired bootstrap ${signed(bounds.lower)} to ${signed(bounds.upper)} over ${n} turns); ${weightedVerdict} with margin ${thresholds.nonInferiorityMargin}`,
    },
    {
      rule: 3,
      name: "No critical floor regression",
      holds: floors.every((floor) => !floor.regressed),
      summary:
        floors.length === 0
          ? "the rubric has no critical floors"
          : floors
              .map((floor) => `${floor.criterion}: misses ${pct(floor.candidateMissRate)} vs ${pct(floor.baselineMissRate)}, adjusted ${floor.candidateAdjusted?.toFixed(3) ?? "—"} vs ${floor.baselineAdjusted?.toFixed(3) ?? "—"} (floor ${floor.floor})${floorReason(floor, thresholds.maxFloorMissIncrease)}`)
              .join("; "),
    },
    {
      rule: 4,
      name: "No increase in severe validation failures",
      holds: severe.candidate - severe.baseline <= thresholds.maxSevereIncrease,
      summary: `turns with an error diagnostic: candidate ${severe.candidate} vs baseline ${severe.baseline} (allowed increase ${thresholds.maxSevereIncrease})`,
    },
  ];
  return ok({
    verdict: rules.every((rule) => rule.holds) ? "PROMOTE" : "HOLD",
    sharedTurns: n,
    candidateOnly: candidate.filter((item) => !baselineByKey.has(item.key)).map((item) => item.key),
    baselineOnly: baseline.filter((item) => !candidateKeys.has(item.key)).map((item) => item.key),
    thresholds,
    gates,
    weighted: { candidateMean: mean(shared.c), baselineMean: mean(shared.b), candidateAdjusted: adjusted(shared.c), baselineAdjusted: adjusted(shared.b), interval: bounds, verdict: weightedVerdict },
    floors,
    severe,
    rules,
  });
}
