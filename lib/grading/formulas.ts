// The formula registry of the scoring guide (§4.1): each formula id turns a raw score into a normalised 0..1 value.
// Pure and total: bad raw values or parameters come back as issues naming the field, never as NaN or a throw.

import { err, ok, type Result } from "../result";

export const FORMULA_IDS = ["binary", "likert_1_5", "likert_neg2_2", "pairwise", "lower_is_better", "clamp01", "ratio"] as const;
export type FormulaId = (typeof FORMULA_IDS)[number];

export interface PairwiseCounts {
  wins: number;
  losses: number;
  ties: number;
}

export interface RatioCounts {
  passed: number;
  total: number;
}

export type RawScore = number | PairwiseCounts | RatioCounts;

/** Service-level objectives for `lower_is_better`: at or below `slo_good` scores 1, at or above `slo_bad` scores 0. */
export interface FormulaParams {
  slo_good?: number;
  slo_bad?: number;
}

/** Why a raw value could not be normalised; `field` names the offending part of the criterion. */
export interface GradingIssue {
  code: string;
  message: string;
  path: (string | number)[];
}

export function gradingIssue(code: string, message: string, path: (string | number)[] = []): GradingIssue {
  return { code, message, path };
}

export function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

export function isFormulaId(value: unknown): value is FormulaId {
  return typeof value === "string" && (FORMULA_IDS as readonly string[]).includes(value);
}

/** One line per formula, shown next to normalised values so a reader can recompute them. */
export const FORMULA_DESCRIPTIONS: Record<FormulaId, string> = {
  binary: "norm = raw (0 or 1)",
  likert_1_5: "norm = (raw − 1) / 4",
  likert_neg2_2: "norm = (raw + 2) / 4",
  pairwise: "norm = (wins + 0.5·ties) / (wins + losses + ties)",
  lower_is_better: "norm = clamp((slo_bad − raw) / (slo_bad − slo_good))",
  clamp01: "norm = clamp(raw)",
  ratio: "norm = passed / total",
};

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function finiteNumber(raw: unknown, formula: FormulaId): Result<number, GradingIssue> {
  if (typeof raw !== "number" || !Number.isFinite(raw)) {
    return err(gradingIssue("raw-not-number", `formula ${formula} needs a finite number as raw, got ${JSON.stringify(raw)}`, ["raw"]));
  }
  return ok(raw);
}

function inRange(raw: unknown, formula: FormulaId, low: number, high: number): Result<number, GradingIssue> {
  const value = finiteNumber(raw, formula);
  if (!value.ok) return value;
  // Validation before normalisation (guide §2.4): an out-of-scale Likert answer is a data error, not a clamp.
  if (value.value < low || value.value > high) {
    return err(gradingIssue("raw-out-of-scale", `formula ${formula} needs raw in ${low}..${high}, got ${value.value}`, ["raw"]));
  }
  return value;
}

/** Normalises `raw` with `formula`; the result always lies in 0..1. */
export function normalize(formula: FormulaId, raw: unknown, params: FormulaParams = {}): Result<number, GradingIssue> {
  switch (formula) {
    case "binary": {
      if (raw !== 0 && raw !== 1) return err(gradingIssue("raw-not-binary", `formula binary needs raw 0 or 1, got ${JSON.stringify(raw)}`, ["raw"]));
      return ok(raw);
    }
    case "likert_1_5": {
      const value = inRange(raw, formula, 1, 5);
      return value.ok ? ok((value.value - 1) / 4) : value;
    }
    case "likert_neg2_2": {
      const value = inRange(raw, formula, -2, 2);
      return value.ok ? ok((value.value + 2) / 4) : value;
    }
    case "clamp01": {
      const value = finiteNumber(raw, formula);
      return value.ok ? ok(clamp01(value.value)) : value;
    }
    case "pairwise": {
      if (!isRecord(raw)) return err(gradingIssue("raw-not-pairwise", `formula pairwise needs raw {wins, losses, ties}, got ${JSON.stringify(raw)}`, ["raw"]));
      const issues = (["wins", "losses", "ties"] as const)
        .filter((key) => !isCount(raw[key]))
        .map((key) => gradingIssue("raw-not-count", `pairwise ${key} must be a non-negative integer, got ${JSON.stringify(raw[key])}`, ["raw", key]));
      if (issues.length > 0) return err(...issues);
      const { wins, losses, ties } = raw as unknown as PairwiseCounts;
      const total = wins + losses + ties;
      if (total === 0) return err(gradingIssue("raw-empty", "pairwise needs at least one comparison (wins + losses + ties > 0)", ["raw"]));
      return ok((wins + 0.5 * ties) / total);
    }
    case "ratio": {
      if (!isRecord(raw)) return err(gradingIssue("raw-not-ratio", `formula ratio needs raw {passed, total}, got ${JSON.stringify(raw)}`, ["raw"]));
      const issues = (["passed", "total"] as const)
        .filter((key) => !isCount(raw[key]))
        .map((key) => gradingIssue("raw-not-count", `ratio ${key} must be a non-negative integer, got ${JSON.stringify(raw[key])}`, ["raw", key]));
      if (issues.length > 0) return err(...issues);
      const { passed, total } = raw as unknown as RatioCounts;
      if (total === 0) return err(gradingIssue("raw-empty", "ratio needs total > 0", ["raw", "total"]));
      if (passed > total) return err(gradingIssue("raw-passed-above-total", `ratio passed (${passed}) exceeds total (${total})`, ["raw", "passed"]));
      return ok(passed / total);
    }
    case "lower_is_better": {
      const value = finiteNumber(raw, formula);
      if (!value.ok) return value;
      const { slo_good: good, slo_bad: bad } = params;
      const issues: GradingIssue[] = [];
      if (typeof good !== "number" || !Number.isFinite(good)) issues.push(gradingIssue("param-missing", "lower_is_better needs a finite params.slo_good", ["params", "slo_good"]));
      if (typeof bad !== "number" || !Number.isFinite(bad)) issues.push(gradingIssue("param-missing", "lower_is_better needs a finite params.slo_bad", ["params", "slo_bad"]));
      if (issues.length > 0) return err(...issues);
      if (!((bad as number) > (good as number))) {
        return err(gradingIssue("param-order", `lower_is_better needs slo_bad > slo_good, got good ${good} and bad ${bad}`, ["params"]));
      }
      return ok(clamp01(((bad as number) - value.value) / ((bad as number) - (good as number))));
    }
  }
}

export const DEFAULT_PRIOR = 0.5;
export const DEFAULT_PRIOR_WEIGHT = 20;

/**
 * Small-sample reliability adjustment (§4.1): shrinks a norm measured on `n` samples toward `prior` with the weight
 * of `k` pseudo-samples, so a single lucky turn cannot swing a promotion decision. n = 0 gives the prior.
 */
export function adjustForSampleSize(norm: number, n: number, prior = DEFAULT_PRIOR, k = DEFAULT_PRIOR_WEIGHT): number {
  const samples = Math.max(0, n);
  if (samples + k === 0) return prior;
  return (samples * norm + k * prior) / (samples + k);
}
