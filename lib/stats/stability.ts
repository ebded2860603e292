// How stable a model is across several runs of one configuration: per turn, in how many of the n runs it passes; and
// pass@n (some run passes) and pass^n (every run passes) for the pass stage and for test cases (resolve), per domain
// and overall, each with the same 95% Wilson interval the leaderboard draws. Only turns every run answered count.

import type { Interval } from "./intervals";
import { wilsonInterval } from "./intervals";

export interface StabilityRunTurn {
  passed: boolean;
  /** Verdicts of the turn's test cases by position (a turn failing the pass stage resolves none); null: not judged. */
  cases: readonly (boolean | null)[];
}

export interface StabilityTurnInput {
  turnKey: string;
  task: string;
  round: number;
  domain: string;
  /** Per run id, the turn's outcome in that run; a run missing here did not answer the turn. */
  byRun: ReadonlyMap<string, StabilityRunTurn>;
}

export interface StabilityTurn {
  turnKey: string;
  task: string;
  round: number;
  domain: string;
  /** Runs (of n) where the turn passes. */
  passes: number;
  passingRuns: string[];
  failingRuns: string[];
}

export interface StabilityFigure {
  k: number;
  n: number;
  interval: Interval | null;
}

export interface StabilityScope {
  scope: string;
  turns: number;
  passAtN: StabilityFigure;
  passAllN: StabilityFigure;
  /** Test cases resolved in some run / in every run, over cases per turn × turns; null when any verdict is not judged. */
  resolveAtN: StabilityFigure | null;
  resolveAllN: StabilityFigure | null;
}

export interface Stability {
  runIds: string[];
  turns: StabilityTurn[];
  /** Turns that pass in some runs and fail in others. */
  flipping: StabilityTurn[];
  /** How many turns passed in exactly k runs, k = 0..n. */
  histogram: number[];
  overall: StabilityScope;
  domains: StabilityScope[];
  /** Turns some run did not answer (left out). */
  incomplete: number;
}

const figure = (k: number, n: number): StabilityFigure => {
  const interval = wilsonInterval(k, n);
  return { k, n, interval: interval.ok ? interval.value : null };
};

function scopeOf(scope: string, turns: readonly StabilityTurnInput[], runIds: readonly string[], casesPerTurn: number): StabilityScope {
  let some = 0;
  let all = 0;
  let casesSome = 0;
  let casesAll = 0;
  let judged = true;
  for (const turn of turns) {
    const outcomes = runIds.map((id) => turn.byRun.get(id)!);
    const passes = outcomes.filter((outcome) => outcome.passed).length;
    if (passes > 0) some += 1;
    if (passes === runIds.length) all += 1;
    for (let position = 0; position < casesPerTurn; position++) {
      const verdicts = outcomes.map((outcome) => (outcome.passed ? (outcome.cases[position] === undefined ? false : outcome.cases[position]!) : false));
      if (verdicts.some((verdict) => verdict === null)) judged = false;
      if (verdicts.some((verdict) => verdict === true)) casesSome += 1;
      if (verdicts.every((verdict) => verdict === true)) casesAll += 1;
    }
  }
  const cases = turns.length * casesPerTurn;
  return {
    scope,
    turns: turns.length,
    passAtN: figure(some, turns.length),
    passAllN: figure(all, turns.length),
    resolveAtN: judged && casesPerTurn > 0 ? figure(casesSome, cases) : null,
    resolveAllN: judged && casesPerTurn > 0 ? figure(casesAll, cases) : null,
  };
}

/**
 * The stability of `runIds` (n ≥ 2 runs of one configuration) over `turns`. `casesPerTurn` is the official
 * denominator's 3, or 0 for runs without resolve data (then the resolve figures are null).
 */
export function stabilityAcrossRuns(runIds: readonly string[], turns: readonly StabilityTurnInput[], casesPerTurn: number): Stability {
  const complete = turns.filter((turn) => runIds.every((id) => turn.byRun.has(id)));
  const perTurn: StabilityTurn[] = complete.map((turn) => {
    const passingRuns = runIds.filter((id) => turn.byRun.get(id)!.passed);
    return { turnKey: turn.turnKey, task: turn.task, round: turn.round, domain: turn.domain, passes: passingRuns.length, passingRuns, failingRuns: runIds.filter((id) => !passingRuns.includes(id)) };
  });
  const histogram = Array.from({ length: runIds.length + 1 }, () => 0);
  for (const turn of perTurn) histogram[turn.passes]! += 1;
  const domains = [...new Set(complete.map((turn) => turn.domain))].sort();
  return {
    runIds: [...runIds],
    turns: perTurn,
    flipping: perTurn.filter((turn) => turn.passes > 0 && turn.passes < runIds.length),
    histogram,
    overall: scopeOf("overall", complete, runIds, casesPerTurn),
    domains: domains.map((domain) => scopeOf(domain, complete.filter((turn) => turn.domain === domain), runIds, casesPerTurn)),
    incomplete: turns.length - complete.length,
  };
}
