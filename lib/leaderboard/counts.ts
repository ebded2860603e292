// Pass and resolve rates from counts grouped per (run, domain, round), the shape a SQL GROUP BY returns.
// Gives exactly what lib/stats/rates gives for the same turns (tested), without one row per turn in memory.

import {
  CASES_PER_TURN,
  RATE_SCOPES,
  rateRowsOf,
  spreadOf,
  spreadRows,
  type RateRow,
  type RateScope,
  type RunRateRow,
  type ScopeAccumulators,
  type SpreadRow,
  type TurnOutcome,
} from "../stats/rates";
import { issue, isCount, type StatsIssue } from "../stats/common";
import { err, ok, type Result } from "../result";

/** Turns of one run in one domain and round, with how many passed and how many test cases resolved. */
export interface CellCount {
  model: string;
  runId: string;
  domain: string;
  round: number;
  turns: number;
  passed: number;
  /** Test cases passed; null when the run has no resolve data at all (raw-output runs). */
  casesPassed: number | null;
  /** Test cases not judged yet (text outputs no LLM judge has answered); 0 when absent. */
  casesNotJudged?: number;
}

/** Groups per-turn outcomes into cell counts: how a database's GROUP BY would count them. */
export function countOutcomes(outcomes: readonly TurnOutcome[]): CellCount[] {
  const cells = new Map<string, CellCount>();
  const resolveRuns = new Set(outcomes.filter((outcome) => outcome.casesPassed !== null).map((outcome) => JSON.stringify([outcome.model, outcome.runId])));
  for (const outcome of outcomes) {
    const key = JSON.stringify([outcome.model, outcome.runId, outcome.domain, outcome.round]);
    let cell = cells.get(key);
    if (cell === undefined) {
      const hasResolve = resolveRuns.has(JSON.stringify([outcome.model, outcome.runId]));
      cell = { model: outcome.model, runId: outcome.runId, domain: outcome.domain, round: outcome.round, turns: 0, passed: 0, casesPassed: hasResolve ? 0 : null };
      cells.set(key, cell);
    }
    cell.turns += 1;
    if (outcome.passed) cell.passed += 1;
    if (cell.casesPassed !== null) cell.casesPassed += outcome.casesPassed ?? 0;
  }
  return [...cells.values()];
}

/**
 * Refuses counts no set of turns could produce: negative or fractional counts, more passes than turns, resolved
 * cases without passed turns (only passing turns reach the resolve stage), one run under two models, a run with
 * resolve data in some cells only, or the same (run, domain, round) twice.
 */
export function validateCounts(cells: readonly CellCount[]): StatsIssue[] {
  const issues: StatsIssue[] = [];
  const runModel = new Map<string, string>();
  const runResolve = new Map<string, boolean>();
  const seen = new Set<string>();
  cells.forEach((cell, index) => {
    if (cell.model.length === 0 || cell.runId.length === 0 || cell.domain.length === 0) issues.push(issue("invalid-cell", "model, run and domain must be non-empty", [index]));
    if (!Number.isSafeInteger(cell.round) || cell.round < 1) issues.push(issue("invalid-cell", `round must be a positive integer, got ${cell.round}`, [index, "round"]));
    if (!isCount(cell.turns) || !isCount(cell.passed) || (cell.casesPassed !== null && !isCount(cell.casesPassed))) {
      issues.push(issue("invalid-count", "counts must be non-negative integers", [index]));
      return;
    }
    if (cell.passed > cell.turns) issues.push(issue("count-exceeds-total", `${cell.passed} passed of ${cell.turns} turns`, [index, "passed"]));
    if (cell.casesPassed !== null && cell.casesPassed > CASES_PER_TURN * cell.passed) {
      issues.push(issue("cases-without-pass", `${cell.casesPassed} cases resolved but only ${cell.passed} turns passed`, [index, "casesPassed"]));
    }
    const key = cell.runId + SEP + cell.domain + SEP + cell.round;
    if (seen.has(key)) issues.push(issue("duplicate-cell", `run ${cell.runId} has ${cell.domain} round ${cell.round} more than once`, [index]));
    seen.add(key);
    const model = runModel.get(cell.runId);
    if (model !== undefined && model !== cell.model) issues.push(issue("inconsistent-model", `run ${cell.runId} belongs to ${model} and ${cell.model}`, [index, "model"]));
    runModel.set(cell.runId, cell.model);
    const resolve = runResolve.get(cell.runId);
    if (resolve !== undefined && resolve !== (cell.casesPassed !== null)) {
      issues.push(issue("inconsistent-resolve", `run ${cell.runId} has resolve data in some cells only`, [index, "casesPassed"]));
    }
    runResolve.set(cell.runId, cell.casesPassed !== null);
  });
  return issues;
}

/** Keys are joined with a separator no name contains, cheaper than JSON keys. */
const SEP = "\u0000";

function newScopes(): ScopeAccumulators {
  return new Map(RATE_SCOPES.map((scope) => [scope, new Map()]));
}

function add(scopes: ScopeAccumulators, scope: RateScope, key: string, cell: CellCount): void {
  const byKey = scopes.get(scope)!;
  let acc = byKey.get(key);
  if (acc === undefined) {
    acc = { passNum: 0, passDen: 0, resolveNum: 0, resolveDen: 0, hasResolve: false };
    byKey.set(key, acc);
  }
  acc.passNum += cell.passed;
  acc.passDen += cell.turns;
  if (cell.casesPassed !== null) {
    // Every turn of a run with resolve data counts three cases, passed or not (the official denominator).
    acc.hasResolve = true;
    acc.resolveNum += cell.casesPassed;
    acc.resolveDen += CASES_PER_TURN * cell.turns;
    if (cell.casesNotJudged) acc.resolveNotJudged = (acc.resolveNotJudged ?? 0) + cell.casesNotJudged;
  }
}

/** One pass over the cells: counts per run, then per model by summing its runs' counts, in first-seen order. */
function accumulate(cells: readonly CellCount[]): { models: Map<string, ScopeAccumulators>; runs: Map<string, { model: string; runId: string; scopes: ScopeAccumulators }> } {
  const runs = new Map<string, { model: string; runId: string; scopes: ScopeAccumulators }>();
  for (const cell of cells) {
    const runKey = cell.model + SEP + cell.runId;
    let run = runs.get(runKey);
    if (run === undefined) {
      run = { model: cell.model, runId: cell.runId, scopes: newScopes() };
      runs.set(runKey, run);
    }
    add(run.scopes, "overall", "all", cell);
    add(run.scopes, "domain", cell.domain, cell);
    add(run.scopes, "round", String(cell.round), cell);
  }
  const models = new Map<string, ScopeAccumulators>();
  for (const run of runs.values()) {
    let pooled = models.get(run.model);
    if (pooled === undefined) {
      pooled = newScopes();
      models.set(run.model, pooled);
    }
    for (const [scope, byKey] of run.scopes) {
      const target = pooled.get(scope)!;
      for (const [key, acc] of byKey) {
        const into = target.get(key);
        if (into === undefined) {
          target.set(key, { ...acc });
        } else {
          into.passNum += acc.passNum;
          into.passDen += acc.passDen;
          into.resolveNum += acc.resolveNum;
          into.resolveDen += acc.resolveDen;
          into.hasResolve ||= acc.hasResolve;
          if (acc.resolveNotJudged) into.resolveNotJudged = (into.resolveNotJudged ?? 0) + acc.resolveNotJudged;
        }
      }
    }
  }
  return { models, runs };
}

/** Rates per model with its runs pooled, as aggregateRates computes them from turns; same row order. */
export function ratesFromCounts(cells: readonly CellCount[]): Result<RateRow[], StatsIssue> {
  const summary = summarizeCounts(cells, []);
  return summary.ok ? ok(summary.value.rates) : summary;
}

function runRows(runs: ReturnType<typeof accumulate>["runs"]): RunRateRow[] {
  const rows: RunRateRow[] = [];
  for (const run of runs.values()) for (const row of rateRowsOf(run.scopes, run.model)) rows.push({ ...row, runId: run.runId });
  return rows;
}

/** Rates per run, as perRunRates computes them from turns. */
export function runRatesFromCounts(cells: readonly CellCount[]): Result<RunRateRow[], StatsIssue> {
  const issues = validateCounts(cells);
  if (issues.length > 0) return err(...issues);
  return ok(runRows(accumulate(cells).runs));
}

/** Run-to-run spread per model, as runSpread computes it (sample standard deviation, runs with resolve data only). */
export function spreadFromCounts(cells: readonly CellCount[], scopes: readonly RateScope[] = ["overall", "domain"]): Result<SpreadRow[], StatsIssue> {
  const issues = validateCounts(cells);
  if (issues.length > 0) return err(...issues);
  return ok(spreadRows(runRows(accumulate(cells).runs), scopes));
}

export interface CountSummary {
  rates: RateRow[];
  spreads: SpreadRow[];
}

/**
 * Pooled rates and run-to-run spread (for the scopes given) from one validation and one pass over the cells. Spread
 * rows are given for models with several runs only, in no particular order (callers look them up by model, scope
 * and key); their values are those of spreadFromCounts.
 */
export function summarizeCounts(cells: readonly CellCount[], spreadScopes: readonly RateScope[] = ["overall", "domain"]): Result<CountSummary, StatsIssue> {
  const issues = validateCounts(cells);
  if (issues.length > 0) return err(...issues);
  const { models, runs } = accumulate(cells);
  const rates = [...models].flatMap(([model, scopes]) => rateRowsOf(scopes, model));
  const runsPerModel = new Map<string, number>();
  for (const run of runs.values()) runsPerModel.set(run.model, (runsPerModel.get(run.model) ?? 0) + 1);
  // Per (model, scope, key): the per-run rates, straight from the runs' accumulators (no per-run rows built).
  const groups = new Map<string, { model: string; scope: RateScope; key: string; pass: number[]; resolve: number[] }>();
  for (const run of runs.values()) {
    if ((runsPerModel.get(run.model) ?? 0) < 2) continue;
    for (const scope of spreadScopes) {
      for (const [key, acc] of run.scopes.get(scope)!) {
        const id = run.model + SEP + scope + SEP + key;
        let group = groups.get(id);
        if (group === undefined) {
          group = { model: run.model, scope, key, pass: [], resolve: [] };
          groups.set(id, group);
        }
        if (acc.passDen > 0) group.pass.push(acc.passNum / acc.passDen);
        if (acc.hasResolve && acc.resolveDen > 0 && !acc.resolveNotJudged) group.resolve.push(acc.resolveNum / acc.resolveDen);
      }
    }
  }
  const spreadRows: SpreadRow[] = [];
  for (const group of groups.values()) {
    const pass = spreadOf(group.pass);
    if (pass !== null) spreadRows.push({ model: group.model, scope: group.scope, key: group.key, pass, resolve: spreadOf(group.resolve) });
  }
  return ok({ rates, spreads: spreadRows });
}
