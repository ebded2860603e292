// The scoring guide's minimum reporting bundle (§10) over a set of grades: pass rate, weighted mean and standard
// deviation, hard-gate failure rate by gate, per-criterion distributions and top failure reasons. Pure and total.

import { GRADES, type Grade, type GradeResult } from "./grade";

export const DISTRIBUTION_BINS = 5;

export interface GateFailureRate {
  gate: string;
  failed: number;
  /** Responses on which the gate was evaluated (not "not reached"). */
  evaluated: number;
  /** failed / all responses: the release-relevant figure. */
  rate: number;
}

export interface CriterionDistribution {
  name: string;
  formula: string;
  applicable: number;
  notApplicable: number;
  /** Mean of the norms over applicable responses; null when none applies. */
  mean: number | null;
  floorFailures: number;
  /** Counts of norms in [0, 0.2), [0.2, 0.4), … [0.8, 1.0]. */
  bins: { from: number; to: number; count: number }[];
  /** Why it was not applicable, when it was not (the first reason seen). */
  notApplicableReason: string | null;
}

export interface ReportBundle {
  count: number;
  passed: number;
  passRate: number | null;
  weightedMean: number | null;
  /** Sample standard deviation; null below two responses. */
  weightedSd: number | null;
  grades: Record<Grade, number>;
  gateFailureRates: GateFailureRate[];
  criteria: CriterionDistribution[];
  topFailureReasons: { reason: string; count: number }[];
}

/** A failure reason without its per-response detail, so equal causes group: "graph: unknown-reference". */
export function failureKeys(result: GradeResult): string[] {
  const keys: string[] = [];
  for (const gate of result.gates) {
    if (gate.passed !== false) continue;
    const code = gate.reason?.match(/—\s*([a-z0-9-]+):/)?.[1];
    keys.push(`gate ${gate.name}${code ? `: ${code}` : ""}`);
  }
  for (const name of result.floor_failures) keys.push(`floor missed: ${name}`);
  if (result.gate_failures.length === 0 && result.floor_failures.length === 0 && !result.passed) keys.push("below pass threshold");
  return keys;
}

export function meanAndSd(values: readonly number[]): { mean: number | null; sd: number | null } {
  if (values.length === 0) return { mean: null, sd: null };
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  if (values.length < 2) return { mean, sd: null };
  const squares = values.reduce((sum, value) => sum + (value - mean) ** 2, 0);
  return { mean, sd: Math.sqrt(squares / (values.length - 1)) };
}

export function reportBundle(results: readonly GradeResult[], topReasons = 10): ReportBundle {
  const count = results.length;
  const passed = results.filter((result) => result.passed).length;
  const { mean, sd } = meanAndSd(results.map((result) => result.weighted_100));
  const grades = Object.fromEntries(GRADES.map((grade) => [grade, 0])) as Record<Grade, number>;
  for (const result of results) grades[result.grade] += 1;

  const gateOrder: string[] = [];
  const gates = new Map<string, { failed: number; evaluated: number }>();
  const criteriaOrder: string[] = [];
  const criteria = new Map<string, { formula: string; norms: number[]; notApplicable: number; floorFailures: number; reason: string | null }>();
  const reasons = new Map<string, number>();
  for (const result of results) {
    for (const gate of result.gates) {
      let entry = gates.get(gate.name);
      if (!entry) {
        entry = { failed: 0, evaluated: 0 };
        gates.set(gate.name, entry);
        gateOrder.push(gate.name);
      }
      if (gate.passed !== null) entry.evaluated += 1;
      if (gate.passed === false) entry.failed += 1;
    }
    for (const criterion of result.criteria) {
      let entry = criteria.get(criterion.name);
      if (!entry) {
        entry = { formula: criterion.formula, norms: [], notApplicable: 0, floorFailures: 0, reason: null };
        criteria.set(criterion.name, entry);
        criteriaOrder.push(criterion.name);
      }
      if (criterion.applicable && criterion.norm !== null) entry.norms.push(criterion.norm);
      else {
        entry.notApplicable += 1;
        entry.reason ??= criterion.notApplicable ?? null;
      }
      if (criterion.floor_failed) entry.floorFailures += 1;
    }
    for (const key of failureKeys(result)) reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }

  return {
    count,
    passed,
    passRate: count === 0 ? null : passed / count,
    weightedMean: mean,
    weightedSd: sd,
    grades,
    gateFailureRates: gateOrder.map((gate) => {
      const entry = gates.get(gate)!;
      return { gate, failed: entry.failed, evaluated: entry.evaluated, rate: count === 0 ? 0 : entry.failed / count };
    }),
    criteria: criteriaOrder.map((name) => {
      const entry = criteria.get(name)!;
      const bins = Array.from({ length: DISTRIBUTION_BINS }, (_, index) => ({ from: index / DISTRIBUTION_BINS, to: (index + 1) / DISTRIBUTION_BINS, count: 0 }));
      for (const norm of entry.norms) bins[Math.min(DISTRIBUTION_BINS - 1, Math.floor(norm * DISTRIBUTION_BINS))]!.count += 1;
      return {
        name,
        formula: entry.formula,
        applicable: entry.norms.length,
        notApplicable: entry.notApplicable,
        mean: meanAndSd(entry.norms).mean,
        floorFailures: entry.floorFailures,
        bins,
        notApplicableReason: entry.norms.length === 0 || entry.notApplicable > 0 ? entry.reason : null,
      };
    }),
    topFailureReasons: [...reasons.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, topReasons)
      .map(([reason, reasonCount]) => ({ reason, count: reasonCount })),
  };
}
