// Wilson score intervals for k successes of n, and a leaderboard ranking that ties items it cannot tell apart.
// Bounds always lie in [0, 1] and contain k/n, are exactly 0 at k = 0 and 1 at k = n; n = 0 yields null.

import { checkIds, issue, isCount, type StatsIssue } from "./common";
import { err, ok, type Result } from "../result";

/** The two-sided 95% standard normal quantile, Φ⁻¹(0.975). */
export const Z_95 = 1.959963984540054;

export interface Interval {
  /** The point estimate k / n. */
  estimate: number;
  lower: number;
  upper: number;
}

export interface WilsonOptions {
  /** Standard normal quantile for the confidence level; defaults to Z_95 (95%). */
  z?: number;
}

/**
 * Lower Wilson bound. The bounds are the roots of (n + z²)p² − (2k + z²)p + k²/n = 0; the larger root is a sum
 * of positive terms, and the smaller one is taken from the product of the roots, k² / (n (n + z²)), instead of
 * the textbook difference, which cancels catastrophically when k is small next to z√n.
 */
function wilsonLower(k: number, n: number, z: number): number {
  if (k === 0) return 0;
  const z2 = z * z;
  const larger = (k + z2 / 2 + z * Math.sqrt((k * (n - k)) / n + z2 / 4)) / (n + z2);
  return Math.min(k / n, (k * k) / (n * (n + z2) * larger));
}

function checkZ(z: number): StatsIssue[] {
  return Number.isFinite(z) && z > 0 ? [] : [issue("invalid-z", `z must be a positive finite number, got ${z}`, ["z"])];
}

function checkCounts(k: number, n: number, path: (string | number)[] = []): StatsIssue[] {
  if (!isCount(k) || !isCount(n)) return [issue("invalid-count", `k and n must be non-negative integers, got ${k} of ${n}`, path)];
  if (k > n) return [issue("count-exceeds-total", `k (${k}) exceeds n (${n})`, path)];
  return [];
}

/** Computes the interval of already-validated counts; n > 0. */
function wilsonUnchecked(k: number, n: number, z: number): Interval {
  // The interval is symmetric under k ↔ n − k, p ↔ 1 − p, so the upper bound reuses the stable lower one.
  // The max() only matters for a vanishing z, where rounding could put 1 − (n − k)/n an ulp below k/n.
  const estimate = k / n;
  return { estimate, lower: wilsonLower(k, n, z), upper: Math.max(estimate, 1 - wilsonLower(n - k, n, z)) };
}

/**
 * The Wilson score interval for a binomial proportion: unlike the Wald interval it never leaves [0, 1] and
 * keeps sensible coverage at the 0% and 100% rates small benchmarks produce. Null when n = 0 (no estimate).
 */
export function wilsonInterval(k: number, n: number, options: WilsonOptions = {}): Result<Interval | null, StatsIssue> {
  const z = options.z ?? Z_95;
  const issues = [...checkCounts(k, n), ...checkZ(z)];
  if (issues.length > 0) return err(...issues);
  return ok(n === 0 ? null : wilsonUnchecked(k, n, z));
}

export interface RankInput {
  id: string;
  k: number;
  n: number;
}

export interface RankedItem extends RankInput {
  /** Null when n = 0: an item with no observations cannot be ranked. */
  interval: Interval | null;
  /** 1 = best. Items sharing a rank are statistically indistinguishable from each other. Null when unranked. */
  rank: number | null;
  /** Ids of the items whose interval lies entirely above this one's (why the rank is not 1), in ranked order. */
  above: string[];
}

/**
 * Ranks items by their Wilson intervals. Definition: rank(i) = 1 + the number of items j whose interval lies
 * strictly above i's (lower(j) > upper(i)); intervals that touch count as overlapping. This is "rank by upper
 * bound" as public leaderboards use it, and it guarantees two things a reader relies on:
 *   - if j is significantly better than i (disjoint intervals, j above), then rank(j) < rank(i);
 *   - two items with the same rank have overlapping intervals (so a tie is never hiding a clear difference).
 * Identical counts always tie. Ranks may skip numbers, and a wide interval (small n) can rank better than a
 * narrow one with a higher estimate when no item is clearly above it; the order returned is rank, then point
 * estimate (high first), then n (high first), then id, with unranked (n = 0) items last.
 */
export function rankWithTies(items: readonly RankInput[], options: WilsonOptions = {}): Result<RankedItem[], StatsIssue> {
  const z = options.z ?? Z_95;
  const issues = [...checkZ(z), ...checkIds(items.map((item) => item.id), "item")];
  items.forEach((item, index) => issues.push(...checkCounts(item.k, item.n, [index])));
  if (issues.length > 0) return err(...issues);

  const withIntervals = items.map((item) => ({ ...item, interval: item.n === 0 ? null : wilsonUnchecked(item.k, item.n, z) }));
  const ranked: RankedItem[] = withIntervals.map((item) => {
    const own = item.interval;
    if (own === null) return { ...item, rank: null, above: [] };
    const above = withIntervals
      .filter((other) => other.interval !== null && other.interval.lower > own.upper)
      .map((other) => other.id);
    return { ...item, rank: 1 + above.length, above };
  });

  ranked.sort((x, y) => {
    const rx = x.rank ?? Number.POSITIVE_INFINITY;
    const ry = y.rank ?? Number.POSITIVE_INFINITY;
    if (rx !== ry) return rx < ry ? -1 : 1;
    const ex = x.interval?.estimate ?? -1;
    const ey = y.interval?.estimate ?? -1;
    if (ex !== ey) return ey - ex;
    if (x.n !== y.n) return y.n - x.n;
    return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
  });
  const position = new Map(ranked.map((item, index) => [item.id, index]));
  for (const item of ranked) item.above.sort((x, y) => (position.get(x) ?? 0) - (position.get(y) ?? 0));
  return ok(ranked);
}
