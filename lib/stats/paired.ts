// Paired comparison of two models scored on the same items: McNemar's test and a bootstrap interval of A − B.
// Deterministic: the bootstrap draws from a seeded generator, so the same input and seed give the same interval.

import { checkIds, issue, isCount, proportion, type Proportion, type StatsIssue } from "./common";
import { chiSquareSurvival, lnGamma } from "./special";
import { err, ok, type Result } from "../result";

/** One item (a turn for pass rates, a test case for resolve rates) with each model's outcome on it. */
export interface PairedItem {
  id: string;
  a: boolean;
  b: boolean;
}

export interface ItemOutcome {
  id: string;
  passed: boolean;
}

export interface Pairing {
  /** Items both models were scored on, in the order of model A's list. */
  pairs: PairedItem[];
  /** Ids only model A (or only B) has; they cannot enter a paired comparison and are reported, not dropped silently. */
  onlyA: string[];
  onlyB: string[];
}

/** Joins two models' outcomes by item id. Duplicate or empty ids on either side are refused. */
export function pairItems(a: readonly ItemOutcome[], b: readonly ItemOutcome[]): Result<Pairing, StatsIssue> {
  const issues = [
    ...checkIds(a.map((item) => item.id), "model A item").map((found) => ({ ...found, path: ["a", ...(found.path ?? [])] })),
    ...checkIds(b.map((item) => item.id), "model B item").map((found) => ({ ...found, path: ["b", ...(found.path ?? [])] })),
  ];
  if (issues.length > 0) return err(...issues);
  const bById = new Map(b.map((item) => [item.id, item.passed]));
  const aIds = new Set(a.map((item) => item.id));
  const pairs: PairedItem[] = [];
  const onlyA: string[] = [];
  for (const item of a) {
    const other = bById.get(item.id);
    if (other === undefined) onlyA.push(item.id);
    else pairs.push({ id: item.id, a: item.passed, b: other });
  }
  const onlyB = b.filter((item) => !aIds.has(item.id)).map((item) => item.id);
  return ok({ pairs, onlyA, onlyB });
}

/** The items where exactly one model passes: the only ones McNemar's test and the rate difference depend on. */
export interface DiscordantItems {
  /** A passes, B fails (McNemar's b). */
  aOnly: string[];
  /** A fails, B passes (McNemar's c). */
  bOnly: string[];
}

export function discordantItems(pairs: readonly PairedItem[]): DiscordantItems {
  return {
    aOnly: pairs.filter((pair) => pair.a && !pair.b).map((pair) => pair.id),
    bOnly: pairs.filter((pair) => !pair.a && pair.b).map((pair) => pair.id),
  };
}

export interface PairedCounts {
  n: number;
  bothPass: number;
  aOnly: number;
  bOnly: number;
  bothFail: number;
}

export function pairedCounts(pairs: readonly PairedItem[]): PairedCounts {
  const counts: PairedCounts = { n: pairs.length, bothPass: 0, aOnly: 0, bOnly: 0, bothFail: 0 };
  for (const pair of pairs) {
    if (pair.a && pair.b) counts.bothPass += 1;
    else if (pair.a) counts.aOnly += 1;
    else if (pair.b) counts.bOnly += 1;
    else counts.bothFail += 1;
  }
  return counts;
}

export type McNemarMethod = "exact-binomial" | "chi-square-continuity";

export interface McNemarResult {
  /** Items where only A passes. */
  b: number;
  /** Items where only B passes. */
  c: number;
  method: McNemarMethod;
  /**
   * For "chi-square-continuity": (max(|b − c| − 1, 0))² / (b + c), referred to chi-square with 1 df.
   * For "exact-binomial": min(b, c), the cutoff of the Binomial(b + c, 1/2) tail the p-value sums.
   */
  statistic: number;
  /** Two-sided; 1 when there are no discordant items (nothing distinguishes the models). */
  pValue: number;
}

export interface McNemarOptions {
  /** Use the exact binomial test when b + c is below this (default 25), the chi-square approximation otherwise. */
  exactBelow?: number;
}

/** Largest n for which every C(n, i) and their running sum stay exact integers in a double. */
const EXACT_INTEGER_BINOMIAL_MAX_N = 50;

/**
 * P(X ≤ m) for X ~ Binomial(n, 1/2). Small n sums the integer coefficients exactly before one division by 2ⁿ;
 * larger n sums the ratios C(n, i) / C(n, m) downward from m (each term shrinks, nothing overflows) and scales
 * once by C(n, m) / 2ⁿ computed in log space.
 */
function binomialHalfLowerTail(m: number, n: number): number {
  if (n <= EXACT_INTEGER_BINOMIAL_MAX_N) {
    let coefficient = 1;
    let sum = 1;
    for (let i = 0; i < m; i += 1) {
      coefficient = (coefficient * (n - i)) / (i + 1);
      sum += coefficient;
    }
    return sum / 2 ** n;
  }
  let ratio = 1;
  let sum = 1;
  for (let i = m; i > 0; i -= 1) {
    ratio *= i / (n - i + 1);
    sum += ratio;
    if (ratio < sum * 1e-17) break;
  }
  const lnScale = lnGamma(n + 1) - lnGamma(m + 1) - lnGamma(n - m + 1) - n * Math.LN2;
  return Math.min(1, sum * Math.exp(lnScale));
}

/**
 * McNemar's test of equal pass rates on paired items. Under the null hypothesis each discordant item is equally
 * likely to favour either model, so only b and c matter: small b + c uses the exact binomial distribution (the
 * chi-square approximation is poor there), large b + c the continuity-corrected chi-square, whose correction is
 * floored at zero so b = c gives statistic 0 and p = 1 rather than a spurious positive value.
 */
export function mcnemarTest(b: number, c: number, options: McNemarOptions = {}): Result<McNemarResult, StatsIssue> {
  const exactBelow = options.exactBelow ?? 25;
  const issues: StatsIssue[] = [];
  if (!isCount(b) || !isCount(c)) issues.push(issue("invalid-count", `b and c must be non-negative integers, got ${b} and ${c}`));
  if (!(exactBelow >= 0)) issues.push(issue("invalid-threshold", `exactBelow must be ≥ 0, got ${exactBelow}`, ["exactBelow"]));
  if (issues.length > 0) return err(...issues);

  const n = b + c;
  if (n < exactBelow) {
    const m = Math.min(b, c);
    // Two-sided by doubling the smaller tail; the distribution is symmetric, and at b = c the doubled tail
    // exceeds 1 because it counts the middle term twice.
    return ok({ b, c, method: "exact-binomial", statistic: m, pValue: Math.min(1, 2 * binomialHalfLowerTail(m, n)) });
  }
  const corrected = Math.max(Math.abs(b - c) - 1, 0);
  const statistic = (corrected * corrected) / n;
  return ok({ b, c, method: "chi-square-continuity", statistic, pValue: chiSquareSurvival(statistic, 1) });
}

/**
 * The exact McNemar test at any b + c: the two-sided Binomial(b + c, 1/2) tail, never the chi-square approximation.
 * For paired runs of one model (agentic against error feedback) where the exact p-value is the one to report.
 */
export function exactMcNemarTest(b: number, c: number): Result<McNemarResult, StatsIssue> {
  return mcnemarTest(b, c, { exactBelow: Number.POSITIVE_INFINITY });
}

/**
 * mulberry32: a 32-bit-state generator, plenty for resampling a few thousand items, with a seed that fits in a
 * URL. Returns uniform doubles in [0, 1) with 32 random bits each.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BootstrapOptions {
  /** Number of resamples, default 2000. */
  resamples?: number;
  /** Two-sided confidence level in (0, 1), default 0.95. */
  confidence?: number;
  /** Generator seed (an integer, taken modulo 2³²), default 1. */
  seed?: number;
}

export interface BootstrapInterval {
  /** Rate of A − rate of B on the items given. */
  observed: number;
  lower: number;
  upper: number;
  n: number;
  resamples: number;
  confidence: number;
  seed: number;
}

/**
 * Linear interpolation between order statistics (the common "type 7" sample quantile), so the bounds move
 * smoothly with the confidence level instead of jumping between resampled values.
 */
function quantileSorted(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const low = sorted[below] ?? 0;
  const high = sorted[Math.min(below + 1, sorted.length - 1)] ?? low;
  return low + (position - below) * (high - low);
}

/**
 * Percentile bootstrap interval of the difference in pass rates (A − B). Items are resampled whole, so the pairing
 * (both models on the same turn or case) is kept and the interval reflects their correlation. Null when there are
 * no items. Index draws use floor(u · n), whose bias is below n / 2³², negligible for benchmark sizes.
 */
export function bootstrapDifference(
  pairs: readonly PairedItem[],
  options: BootstrapOptions = {},
): Result<BootstrapInterval | null, StatsIssue> {
  // Each item contributes +1 (only A passes), −1 (only B passes) or 0; the rate difference is their mean.
  return bootstrapMeanDifference(
    pairs.map((pair) => Number(pair.a) - Number(pair.b)),
    options,
  );
}

/**
 * Percentile bootstrap interval of the mean of paired differences (candidate − baseline per item, any real
 * values, e.g. weighted scores on the same turns). Same resampling, seed and quantile rule as bootstrapDifference.
 */
export function bootstrapMeanDifference(
  differences: readonly number[],
  options: BootstrapOptions = {},
): Result<BootstrapInterval | null, StatsIssue> {
  const resamples = options.resamples ?? 2000;
  const confidence = options.confidence ?? 0.95;
  const seed = options.seed ?? 1;
  const issues: StatsIssue[] = [];
  if (!Number.isSafeInteger(resamples) || resamples < 1) issues.push(issue("invalid-resamples", `resamples must be a positive integer, got ${resamples}`, ["resamples"]));
  if (!(confidence > 0 && confidence < 1)) issues.push(issue("invalid-confidence", `confidence must lie strictly between 0 and 1, got ${confidence}`, ["confidence"]));
  if (!Number.isSafeInteger(seed)) issues.push(issue("invalid-seed", `seed must be an integer, got ${seed}`, ["seed"]));
  differences.forEach((value, index) => {
    if (!Number.isFinite(value)) issues.push(issue("invalid-difference", `difference ${index} must be a finite number, got ${value}`, [index]));
  });
  if (issues.length > 0) return err(...issues);
  const n = differences.length;
  if (n === 0) return ok(null);
  const values = Float64Array.from(differences);
  const random = mulberry32(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += values[Math.floor(random() * n)] ?? 0;
    means[r] = sum / n;
  }
  means.sort();
  const alpha = 1 - confidence;
  return ok({
    observed: values.reduce((sum, value) => sum + value, 0) / n,
    lower: quantileSorted(means, alpha / 2),
    upper: quantileSorted(means, 1 - alpha / 2),
    n,
    resamples,
    confidence,
    seed,
  });
}

export interface PairedComparisonOptions extends McNemarOptions, BootstrapOptions {}

export interface PairedComparison {
  counts: PairedCounts;
  rateA: Proportion;
  rateB: Proportion;
  /** Rate of A − rate of B; null without items. */
  difference: number | null;
  mcnemar: McNemarResult;
  /** The exact binomial McNemar test whatever b + c (equal to `mcnemar` when that one is exact). */
  exact: McNemarResult;
  bootstrap: BootstrapInterval | null;
  discordant: DiscordantItems;
}

/** Everything the compare view shows for two models on the same items, in one call. */
export function comparePaired(
  pairs: readonly PairedItem[],
  options: PairedComparisonOptions = {},
): Result<PairedComparison, StatsIssue> {
  const idIssues = checkIds(pairs.map((pair) => pair.id), "item");
  if (idIssues.length > 0) return err(...idIssues);
  const counts = pairedCounts(pairs);
  const mcnemar = mcnemarTest(counts.aOnly, counts.bOnly, options);
  const exact = exactMcNemarTest(counts.aOnly, counts.bOnly);
  const bootstrap = bootstrapDifference(pairs, options);
  if (!mcnemar.ok || !exact.ok || !bootstrap.ok) return err(...(mcnemar.ok ? [] : mcnemar.issues), ...(bootstrap.ok ? [] : bootstrap.issues));
  return ok({
    counts,
    rateA: proportion(counts.bothPass + counts.aOnly, counts.n),
    rateB: proportion(counts.bothPass + counts.bOnly, counts.n),
    difference: counts.n === 0 ? null : (counts.aOnly - counts.bOnly) / counts.n,
    mcnemar: mcnemar.value,
    exact: exact.value,
    bootstrap: bootstrap.value,
    discordant: discordantItems(pairs),
  });
}
