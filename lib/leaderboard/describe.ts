// Words for leaderboard figures: the count behind a rate, its interval, run spread and differences, as shown in
// tooltips and exports. Pure; rates are fractions, differences print in percentage points.

import { formatPercent } from "../format";
import type { Metric, MetricName, RankInfo, Source } from "./board";

/** A difference of two rates in percentage points with an explicit sign, e.g. "+1.25 pp" or "−0.42 pp". */
export function formatDelta(delta: number | null | undefined, digits = 2): string {
  if (delta === null || delta === undefined || Number.isNaN(delta)) return "—";
  const points = delta * 100;
  const rounded = Number(points.toFixed(digits));
  if (rounded === 0) return `±${(0).toFixed(digits)} pp`;
  return `${rounded > 0 ? "+" : "−"}${Math.abs(rounded).toFixed(digits)} pp`;
}

export function formatInterval(lower: number, upper: number, digits = 1): string {
  return `${(lower * 100).toFixed(digits)}–${(upper * 100).toFixed(digits)}%`;
}

const UNITS: Record<MetricName, { items: string; verb: string }> = {
  pass: { items: "turns", verb: "passed" },
  resolve: { items: "test cases", verb: "resolved" },
};

function trimNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/**
 * "55 of 79 turns passed" (measured) or "53.33 of 79 turns passed per run on average (160 of 237 over 3 runs, counts
 * derived from the printed rate)": a published rate is shown as printed, its counts only serve the interval.
 */
export function describeCount(metric: Metric, name: MetricName, source: Source): string {
  const unit = UNITS[name];
  if (source === "published") {
    return `${trimNumber(metric.num)} of ${metric.den} ${unit.items} ${unit.verb} per run on average (${metric.k} of ${metric.n} over ${metric.runs} runs, counts derived from the printed rate)`;
  }
  const pooled = metric.runs > 1 ? ` over ${metric.runs} runs` : "";
  return `${metric.num} of ${metric.den} ${unit.items} ${unit.verb}${pooled}`;
}

export function describeSpread(metric: Metric): string | null {
  const spread = metric.spread;
  if (!spread || spread.n < 2) return null;
  const sd = spread.sd === null ? "" : `, sd ${(spread.sd * 100).toFixed(1)} pp`;
  return `${spread.n} runs range ${formatInterval(spread.min, spread.max)}${sd}`;
}

/** The full tooltip text of a figure: rate, count, 95% Wilson interval and run spread. */
export function describeMetric(metric: Metric, name: MetricName, source: Source): string {
  const parts = [`${formatPercent(metric.rate)} — ${describeCount(metric, name, source)}`, `95% Wilson interval ${formatInterval(metric.lower, metric.upper)}`];
  const spread = describeSpread(metric);
  if (spread) parts.push(spread);
  return parts.join("; ");
}

/** "3" or "3=" when another model has exactly the same rate, "—" without a rank. */
export function formatRank(info: RankInfo): string {
  if (info.rank === null) return "—";
  return info.tied ? `${info.rank}=` : String(info.rank);
}
