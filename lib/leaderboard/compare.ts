// Paired comparison of two runs on the same turns: McNemar's test and a bootstrap interval of the difference, for
// pass (one item per turn) and resolve (one item per test case), and the turns where exactly one of them passes.

import { comparePaired, pairItems, type PairedComparison } from "../stats/paired";
import { CASES_PER_TURN } from "../stats/rates";
import type { StatsIssue } from "../stats/common";
import { err, ok, type Result } from "../result";
import type { Column } from "./export";

export interface PairTurn {
  /** "<Task>_<round>": the item id both runs share. */
  turn: string;
  task: string;
  domain: string;
  round: number;
  responseId: string;
  passed: boolean;
  /** Resolved or not, per test case 1..3; null when the run has no resolve data. */
  cases: boolean[] | null;
}

export interface DiscordantTurn {
  turn: string;
  task: string;
  domain: string;
  round: number;
  /** Which side passes the pass stage. */
  passes: "a" | "b";
  responseA: string;
  responseB: string;
  casesA: number | null;
  casesB: number | null;
}

/** A turn both runs answered, with each side's pass verdict (the per-turn table of a paired comparison). */
export interface PairedTurn {
  turn: string;
  task: string;
  domain: string;
  round: number;
  passA: boolean;
  passB: boolean;
  responseA: string;
  responseB: string;
}

export interface RunComparison {
  pass: PairedComparison;
  /** Null unless both runs carry resolve data. */
  resolve: PairedComparison | null;
  /** Turns only one run answered: outside the paired comparison, listed rather than dropped silently. */
  onlyA: string[];
  onlyB: string[];
  discordant: DiscordantTurn[];
  /** Every turn both runs answered, in run A's order. */
  turns: PairedTurn[];
}

export interface CompareOptions {
  seed?: number;
  resamples?: number;
}

const countTrue = (values: readonly boolean[] | null) => (values === null ? null : values.filter(Boolean).length);

export function compareRuns(a: readonly PairTurn[], b: readonly PairTurn[], options: CompareOptions = {}): Result<RunComparison, StatsIssue> {
  const paired = pairItems(
    a.map((turn) => ({ id: turn.turn, passed: turn.passed })),
    b.map((turn) => ({ id: turn.turn, passed: turn.passed })),
  );
  if (!paired.ok) return paired;
  const pass = comparePaired(paired.value.pairs, options);
  if (!pass.ok) return pass;

  let resolve: PairedComparison | null = null;
  const bothResolve = a.length > 0 && b.length > 0 && a.every((turn) => turn.cases !== null) && b.every((turn) => turn.cases !== null);
  if (bothResolve) {
    const cases = (turns: readonly PairTurn[]) =>
      turns.flatMap((turn) => Array.from({ length: CASES_PER_TURN }, (_, index) => ({ id: `${turn.turn}#test${index + 1}`, passed: turn.cases?.[index] === true })));
    const casePairs = pairItems(cases(a), cases(b));
    if (!casePairs.ok) return casePairs;
    const compared = comparePaired(casePairs.value.pairs, options);
    if (!compared.ok) return compared;
    resolve = compared.value;
  }

  const byTurnB = new Map(b.map((turn) => [turn.turn, turn]));
  const discordant: DiscordantTurn[] = [];
  const turns: PairedTurn[] = [];
  for (const turnA of a) {
    const turnB = byTurnB.get(turnA.turn);
    if (!turnB) continue;
    turns.push({ turn: turnA.turn, task: turnA.task, domain: turnA.domain, round: turnA.round, passA: turnA.passed, passB: turnB.passed, responseA: turnA.responseId, responseB: turnB.responseId });
    if (turnA.passed === turnB.passed) continue;
    discordant.push({
      turn: turnA.turn,
      task: turnA.task,
      domain: turnA.domain,
      round: turnA.round,
      passes: turnA.passed ? "a" : "b",
      responseA: turnA.responseId,
      responseB: turnB.responseId,
      casesA: countTrue(turnA.cases),
      casesB: countTrue(turnB.cases),
    });
  }
  if (paired.value.pairs.length === 0 && (a.length > 0 || b.length > 0)) {
    return err({ code: "no-common-turns", message: "the two runs share no turns" });
  }
  return ok({ pass: pass.value, resolve, onlyA: paired.value.onlyA, onlyB: paired.value.onlyB, discordant, turns });
}

export const DISCORDANT_COLUMNS: readonly Column<DiscordantTurn>[] = [
  { key: "turn", value: (row) => row.turn },
  { key: "task", value: (row) => row.task },
  { key: "domain", value: (row) => row.domain },
  { key: "round", value: (row) => row.round },
  { key: "passes", value: (row) => row.passes },
  { key: "responseA", value: (row) => row.responseA },
  { key: "responseB", value: (row) => row.responseB },
  { key: "casesA", value: (row) => row.casesA },
  { key: "casesB", value: (row) => row.casesB },
];
