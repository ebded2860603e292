// Standings by grade: a set of graded responses (a run, or a model's pooled runs) summed up into the figures the
// §5.2 tie-breakers read, then ordered with the deciding rule written beside each row. Pure.

import type { GradeResult } from "./grade";
import { meanAndSd, reportBundle, type ReportBundle } from "./report";
import type { Rubric } from "./rubric";
import { orderByGrade, orderedByPhrase, type OrderedCandidate, type TieBreakCandidate, type TieBreakRole } from "./tie-break";

/** Which criterion feeds each tie-breaker, from the rubric's `tie_break:` fields. */
export type TieBreakCriteria = Partial<Record<TieBreakRole, string>>;

export function tieBreakCriteria(rubric: Pick<Rubric, "criteria">): TieBreakCriteria {
  const roles: TieBreakCriteria = {};
  for (const criterion of rubric.criteria) if (criterion.tie_break) roles[criterion.tie_break] = criterion.name;
  return roles;
}

export interface Standing extends TieBreakCandidate {
  label: string;
  /** Runs pooled into this row; the gate-failure figure is per run so models with more runs are not penalised. */
  runs: number;
  bundle: ReportBundle;
}

function percentile95(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
}

function applicable(results: readonly GradeResult[], name: string | undefined) {
  if (name === undefined) return [];
  return results.flatMap((result) => result.criteria.filter((criterion) => criterion.name === name && criterion.applicable && criterion.norm !== null));
}

function rawNumbers(results: readonly GradeResult[], name: string | undefined): number[] {
  return applicable(results, name).flatMap((criterion) => (typeof criterion.raw === "number" ? [criterion.raw] : []));
}

function operations(results: readonly GradeResult[], field: "latency_ms" | "cost"): number[] {
  return results.flatMap((result) => (result.operations[field] === null ? [] : [result.operations[field]]));
}

const round = (value: number | null, digits: number) => (value === null ? null : Number(value.toFixed(digits)));

/** The figures of one row: weighted mean, responses failing a gate (per run), and the rubric's tie-break criteria. */
export function standingOf(id: string, label: string, runs: number, results: readonly GradeResult[], roles: TieBreakCriteria): Standing {
  const bundle = reportBundle(results);
  const gateFailed = results.filter((result) => result.gate_failures.length > 0).length;
  const meanNorm = (role: TieBreakRole) => round(meanAndSd(applicable(results, roles[role]).map((criterion) => criterion.norm as number)).mean, 4);
  return {
    id,
    label,
    runs,
    bundle,
    weighted_100: bundle.weightedMean === null ? -Infinity : Number(bundle.weightedMean.toFixed(2)),
    gate_failure_count: round(gateFailed / Math.max(1, runs), 2)!,
    correctness: meanNorm("correctness"),
    safety: meanNorm("safety"),
    p95_latency: percentile95(roles.latency ? rawNumbers(results, roles.latency) : operations(results, "latency_ms")),
    cost: round(meanAndSd(roles.cost ? rawNumbers(results, roles.cost) : operations(results, "cost")).mean, 2),
  };
}

export interface OrderedStanding extends OrderedCandidate<Standing> {
  /** "ordered by fewer hard-gate failures", or null for the first row and rows the weighted score alone placed. */
  decidingRule: string | null;
  /** The full sentence of the decision against the row above. */
  explanation: string | null;
}

/** Rows best first by §5.2; a row placed by a tie-breaker says which. */
export function orderStandings(standings: readonly Standing[]): OrderedStanding[] {
  return orderByGrade(standings).map((entry) => ({
    ...entry,
    decidingRule: entry.versusAbove && entry.versusAbove.decidedBy !== "weighted score" ? orderedByPhrase(entry.versusAbove.decidedBy) : null,
    explanation: entry.versusAbove?.explanation ?? null,
  }));
}

