// Summaries of scored responses as the score CLI reports them: pass rates, fail-step counts, frequent diagnostics.

import { BENCHMARK_DOMAINS } from "../benchmark/domains";
import type { OfficialStep } from "./diagnostics";

export const SUMMARY_STEPS: readonly OfficialStep[] = ["step_1_1", "step_1_2", "step_1_3", "step_1_4"];
const STEPS = SUMMARY_STEPS;
/** Rounds the official per-round table prints; round 4 still counts overall. */
const REPORTED_ROUNDS = [1, 2, 3] as const;

/** What the summary reads of a scored response: a row holding a ScoredResponse fits, and so does the CLI's compact row. */
export interface SummaryRow {
  model: string;
  round: number;
  domain: string;
  recorded: { valid: boolean } | null;
  score: {
    passed: boolean;
    failStep: OfficialStep | null;
    diagnostics: readonly { code: string; category: string }[];
    repaired: { passed: boolean; failStep: OfficialStep | null };
  };
}

export interface Rate {
  passed: number;
  repaired: number;
  recorded: number | null;
  n: number;
}

function rateOf(rows: readonly SummaryRow[]): Rate {
  const withRecord = rows.filter((row) => row.recorded);
  return {
    passed: rows.filter((row) => row.score.passed).length,
    repaired: rows.filter((row) => row.score.repaired.passed).length,
    recorded: withRecord.length === rows.length && rows.length > 0 ? withRecord.filter((row) => row.recorded?.valid).length : null,
    n: rows.length,
  };
}

function groupBy<K>(rows: readonly SummaryRow[], key: (row: SummaryRow) => K): Map<K, SummaryRow[]> {
  const groups = new Map<K, SummaryRow[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

function stepCounts(rows: readonly SummaryRow[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(STEPS.map((step) => [step, 0]));
  for (const row of rows) if (row.score.failStep) counts[row.score.failStep] = (counts[row.score.failStep] ?? 0) + 1;
  return counts;
}

interface CodeCount {
  code: string;
  category: string;
  responses: number;
  occurrences: number;
}

function topCodes(rows: readonly SummaryRow[], limit: number): CodeCount[] {
  const counts = new Map<string, CodeCount>();
  for (const row of rows) {
    const seen = new Set<string>();
    for (const d of row.score.diagnostics) {
      const entry = counts.get(d.code) ?? { code: d.code, category: d.category, responses: 0, occurrences: 0 };
      entry.occurrences += 1;
      if (!seen.has(d.code)) entry.responses += 1;
      seen.add(d.code);
      counts.set(d.code, entry);
    }
  }
  return [...counts.values()].sort((a, b) => b.responses - a.responses || b.occurrences - a.occurrences).slice(0, limit);
}

export function summarizeScores(rows: readonly SummaryRow[]) {
  const byDomain = groupBy(rows, (row) => row.domain);
  const byRound = groupBy(rows, (row) => row.round);
  const byModel = groupBy(rows, (row) => row.model);
  const domainNames = [...BENCHMARK_DOMAINS, ...[...byDomain.keys()].filter((d) => !(BENCHMARK_DOMAINS as readonly string[]).includes(d))];
  return {
    overall: rateOf(rows),
    byDomain: domainNames.filter((d) => byDomain.has(d)).map((domain) => ({ domain, ...rateOf(byDomain.get(domain) ?? []) })),
    byRound: [...byRound.keys()].sort((a, b) => a - b).map((round) => ({ round, reported: (REPORTED_ROUNDS as readonly number[]).includes(round), ...rateOf(byRound.get(round) ?? []) })),
    failSteps: stepCounts(rows),
    repairedFailSteps: Object.fromEntries(STEPS.map((step) => [step, rows.filter((row) => row.score.repaired.failStep === step).length])),
    topCodes: topCodes(rows, 15),
    byModel: [...byModel].map(([model, list]) => ({ model, ...rateOf(list), failSteps: stepCounts(list), topCodes: topCodes(list, 3).map((c) => c.code) })),
  };
}
