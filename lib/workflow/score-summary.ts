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

/** Counts of one group of rows, gathered in the single pass over them. */
class Tally {
  passed = 0;
  repaired = 0;
  withRecord = 0;
  recordedValid = 0;
  n = 0;

  add(row: SummaryRow): void {
    this.n += 1;
    if (row.score.passed) this.passed += 1;
    if (row.score.repaired.passed) this.repaired += 1;
    if (row.recorded) {
      this.withRecord += 1;
      if (row.recorded.valid) this.recordedValid += 1;
    }
  }

  rate(): Rate {
    return { passed: this.passed, repaired: this.repaired, recorded: this.withRecord === this.n && this.n > 0 ? this.recordedValid : null, n: this.n };
  }
}

interface CodeCount {
  code: string;
  category: string;
  responses: number;
  occurrences: number;
}

/** A code's count and the last row that counted it (so a response counts once without a set per row). */
type CodeTally = CodeCount & { lastRow: number };

/** Diagnostic codes by responses affected, then occurrences; ties keep the order codes first appeared in. */
class CodeTallies {
  private readonly counts = new Map<string, CodeTally>();

  add(row: SummaryRow, rowIndex: number): void {
    const diagnostics = row.score.diagnostics;
    for (let i = 0; i < diagnostics.length; i += 1) {
      const d = diagnostics[i] as SummaryRow["score"]["diagnostics"][number];
      let entry = this.counts.get(d.code);
      if (!entry) {
        entry = { code: d.code, category: d.category, responses: 0, occurrences: 0, lastRow: -1 };
        this.counts.set(d.code, entry);
      }
      entry.occurrences += 1;
      if (entry.lastRow !== rowIndex) entry.responses += 1;
      entry.lastRow = rowIndex;
    }
  }

  top(limit: number): CodeCount[] {
    return [...this.counts.values()]
      .sort((a, b) => b.responses - a.responses || b.occurrences - a.occurrences)
      .slice(0, limit)
      .map(({ code, category, responses, occurrences }) => ({ code, category, responses, occurrences }));
  }
}

function emptyStepCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const step of STEPS) counts[step] = 0;
  return counts;
}

function countStep(counts: Record<string, number>, step: OfficialStep | null): void {
  if (step) counts[step] = (counts[step] ?? 0) + 1;
}

interface ModelTally {
  tally: Tally;
  failSteps: Record<string, number>;
  codes: CodeTallies;
}

/** One pass over the rows: the report's tail runs on the main thread after scoring, on cold code. */
export function summarizeScores(rows: readonly SummaryRow[]) {
  const overall = new Tally();
  const byDomain = new Map<string, Tally>();
  const byRound = new Map<number, Tally>();
  const byModel = new Map<string, ModelTally>();
  const failSteps = emptyStepCounts();
  const repairedFailSteps = emptyStepCounts();
  const codes = new CodeTallies();
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as SummaryRow;
    overall.add(row);
    let domain = byDomain.get(row.domain);
    if (!domain) byDomain.set(row.domain, (domain = new Tally()));
    domain.add(row);
    let round = byRound.get(row.round);
    if (!round) byRound.set(row.round, (round = new Tally()));
    round.add(row);
    let model = byModel.get(row.model);
    if (!model) byModel.set(row.model, (model = { tally: new Tally(), failSteps: emptyStepCounts(), codes: new CodeTallies() }));
    model.tally.add(row);
    countStep(failSteps, row.score.failStep);
    countStep(model.failSteps, row.score.failStep);
    const repairedStep = row.score.repaired.failStep;
    if (repairedStep && Object.hasOwn(repairedFailSteps, repairedStep)) repairedFailSteps[repairedStep] = (repairedFailSteps[repairedStep] ?? 0) + 1;
    codes.add(row, index);
    model.codes.add(row, index);
  }
  const domainNames = [...BENCHMARK_DOMAINS, ...[...byDomain.keys()].filter((d) => !(BENCHMARK_DOMAINS as readonly string[]).includes(d))];
  return {
    overall: overall.rate(),
    byDomain: domainNames.filter((d) => byDomain.has(d)).map((domain) => ({ domain, ...(byDomain.get(domain) as Tally).rate() })),
    byRound: [...byRound.keys()].sort((a, b) => a - b).map((round) => ({ round, reported: (REPORTED_ROUNDS as readonly number[]).includes(round), ...(byRound.get(round) as Tally).rate() })),
    failSteps,
    repairedFailSteps,
    topCodes: codes.top(15),
    byModel: [...byModel].map(([model, tally]) => ({ model, ...tally.tally.rate(), failSteps: tally.failSteps, topCodes: tally.codes.top(3).map((c) => c.code) })),
  };
}
