// Pass and resolve rates as the official statistics define them, per model, run, domain and round (spec §6).
// Counts stay exact integers (numerator and denominator, never a rounded rate); bad outcomes come back as issues.

import { BENCHMARK_DOMAINS } from "../benchmark/domains";
import { z } from "zod";
import { issue, type StatsIssue } from "./common";
import { err, ok, type Result } from "../result";

/** Every turn carries three test cases, whether or not it reached the resolve stage. */
export const CASES_PER_TURN = 3;

/** The order the official statistics and the paper list domains in; other domains follow alphabetically. */
export const DOMAIN_ORDER = BENCHMARK_DOMAINS;

/** Rounds the official per-round breakdown prints. Round 4 still counts in the overall and per-domain figures. */
export const OFFICIAL_ROUNDS = [1, 2, 3] as const;

export const turnOutcomeSchema = z.object({
  model: z.string().min(1),
  runId: z.string().min(1),
  task: z.string().min(1),
  domain: z.string().min(1),
  round: z.number().int().min(1),
  passed: z.boolean(),
  /** Test cases passed, 0..3; null when the run has no resolve data at all. */
  casesPassed: z.number().int().min(0).max(CASES_PER_TURN).nullable(),
});

export type TurnOutcome = z.infer<typeof turnOutcomeSchema>;

export const RATE_SCOPES = ["overall", "domain", "round"] as const;
export type RateScope = (typeof RATE_SCOPES)[number];

export interface RateRow {
  model: string;
  scope: RateScope;
  /** "all" for overall, the domain name, or the round number as a string. */
  key: string;
  passNum: number;
  passDen: number;
  /** Null when none of the runs pooled into this row has resolve data. */
  resolveNum: number | null;
  resolveDen: number | null;
  /** Test cases not judged yet among the pooled runs: while any is, resolveNum and resolveDen are null (no rate). */
  resolveNotJudged?: number;
  /** Published figures only: the percentages exactly as printed; the counts above are derived from them. */
  passPercent?: number;
  resolvePercent?: number | null;
}

export interface RunRateRow extends RateRow {
  runId: string;
}

/** Known domains in the official order, then any others in code-unit order (locale-independent, so stable). */
export function compareDomains(a: string, b: string): number {
  const known: readonly string[] = DOMAIN_ORDER;
  const ia = known.indexOf(a);
  const ib = known.indexOf(b);
  if (ia !== -1 || ib !== -1) {
    if (ia === -1) return 1;
    if (ib === -1) return -1;
    return ia - ib;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortDomains(domains: Iterable<string>): string[] {
  return [...new Set(domains)].sort(compareDomains);
}

/** Whether the official per-round breakdown prints this round (1–3). Accepts a round row's string key too. */
export function isOfficialRound(round: number | string): boolean {
  const value = typeof round === "string" ? Number(round) : round;
  return (OFFICIAL_ROUNDS as readonly number[]).includes(value);
}

/** Whether the official statistics print this row: every overall and domain row, round rows for rounds 1–3. */
export function isOfficialRow(row: Pick<RateRow, "scope" | "key">): boolean {
  return row.scope !== "round" || isOfficialRound(row.key);
}

export function passRate(row: Pick<RateRow, "passNum" | "passDen">): number | null {
  return row.passDen === 0 ? null : row.passNum / row.passDen;
}

export function resolveRate(row: Pick<RateRow, "resolveNum" | "resolveDen">): number | null {
  return row.resolveNum === null || row.resolveDen === null || row.resolveDen === 0 ? null : row.resolveNum / row.resolveDen;
}

const runKey = (outcome: TurnOutcome) => JSON.stringify([outcome.model, outcome.runId]);

/**
 * Checks values against the schema and the cross-record rules the statistics rely on: one outcome per
 * (model, run, task, round); a task belongs to one domain; a turn that failed the pass stage never reached the
 * resolve stage, so it cannot have passed cases (that would mean the outcomes were joined wrongly upstream).
 */
export function validateOutcomes(outcomes: readonly unknown[]): Result<TurnOutcome[], StatsIssue> {
  const issues: StatsIssue[] = [];
  const valid: TurnOutcome[] = [];
  const seen = new Set<string>();
  const taskDomain = new Map<string, string>();
  outcomes.forEach((raw, index) => {
    const parsed = turnOutcomeSchema.safeParse(raw);
    if (!parsed.success) {
      for (const zodIssue of parsed.error.issues) {
        issues.push(issue("invalid-outcome", zodIssue.message, [index, ...zodIssue.path.map((part) => (typeof part === "number" ? part : String(part)))]));
      }
      return;
    }
    const outcome = parsed.data;
    const turn = JSON.stringify([outcome.model, outcome.runId, outcome.task, outcome.round]);
    if (seen.has(turn)) {
      issues.push(issue("duplicate-turn", `${outcome.model} run ${outcome.runId} has ${outcome.task} round ${outcome.round} more than once`, [index]));
    }
    seen.add(turn);
    const domain = taskDomain.get(outcome.task);
    if (domain !== undefined && domain !== outcome.domain) {
      issues.push(issue("inconsistent-domain", `task ${outcome.task} is in domain ${domain} elsewhere, ${outcome.domain} here`, [index, "domain"]));
    }
    if (domain === undefined) taskDomain.set(outcome.task, outcome.domain);
    if (!outcome.passed && outcome.casesPassed !== null && outcome.casesPassed > 0) {
      issues.push(issue("cases-without-pass", `${outcome.task} round ${outcome.round} failed the pass stage but has ${outcome.casesPassed} passed cases`, [index, "casesPassed"]));
    }
    valid.push(outcome);
  });
  return issues.length > 0 ? err(...issues) : ok(valid);
}

/**
 * Runs with resolve data. Resolve data is a property of the run, not of the turn: in such a run every turn counts
 * 3 cases and a turn with casesPassed null (failed the pass stage, never tested) counts 0 of them, exactly as the
 * official denominator 3 × records does. A run whose outcomes are all null contributes to no resolve figure.
 */
function runsWithResolveData(outcomes: readonly TurnOutcome[]): Set<string> {
  return new Set(outcomes.filter((outcome) => outcome.casesPassed !== null).map(runKey));
}

/** Pooled counts of one (scope, key); resolve counts stand only when hasResolve (some pooled run has resolve data). */
export interface RateAccumulator {
  passNum: number;
  passDen: number;
  resolveNum: number;
  resolveDen: number;
  hasResolve: boolean;
  /** Test cases not judged yet (counted from stored case results; turn outcomes carry none). */
  resolveNotJudged?: number;
}

/** Accumulators per scope, then per key. */
export type ScopeAccumulators = Map<RateScope, Map<string, RateAccumulator>>;

function scopeKeys(outcome: TurnOutcome): [RateScope, string][] {
  return [
    ["overall", "all"],
    ["domain", outcome.domain],
    ["round", String(outcome.round)],
  ];
}

/** Order of keys within a scope: domains in DOMAIN_ORDER, rounds ascending. */
export function compareRateKeys(scope: RateScope, a: string, b: string): number {
  if (scope === "domain") return compareDomains(a, b);
  if (scope === "round") return Number(a) - Number(b);
  return 0;
}

/**
 * Sums numerators and denominators per group. Pooling (rather than averaging per-run rates) is what "rate of a
 * model over several runs" means when runs can differ in size; with equal-sized runs the two coincide.
 */
function accumulate(outcomes: readonly TurnOutcome[], groupOf: (outcome: TurnOutcome) => string): Map<string, ScopeAccumulators> {
  const resolveRuns = runsWithResolveData(outcomes);
  const groups = new Map<string, ScopeAccumulators>();
  for (const outcome of outcomes) {
    const group = groupOf(outcome);
    let scopes = groups.get(group);
    if (scopes === undefined) {
      scopes = new Map(RATE_SCOPES.map((scope) => [scope, new Map()]));
      groups.set(group, scopes);
    }
    const hasResolve = resolveRuns.has(runKey(outcome));
    for (const [scope, key] of scopeKeys(outcome)) {
      const byKey = scopes.get(scope);
      if (byKey === undefined) continue;
      let acc = byKey.get(key);
      if (acc === undefined) {
        acc = { passNum: 0, passDen: 0, resolveNum: 0, resolveDen: 0, hasResolve: false };
        byKey.set(key, acc);
      }
      acc.passDen += 1;
      if (outcome.passed) acc.passNum += 1;
      if (hasResolve) {
        acc.hasResolve = true;
        acc.resolveDen += CASES_PER_TURN;
        acc.resolveNum += outcome.casesPassed ?? 0;
      }
    }
  }
  return groups;
}

/** The rows of one model's (or run's) accumulators: scopes in RATE_SCOPES order, keys by compareRateKeys. */
export function rateRowsOf(scopes: ScopeAccumulators, model: string): RateRow[] {
  const rows: RateRow[] = [];
  for (const scope of RATE_SCOPES) {
    const byKey = scopes.get(scope);
    if (byKey === undefined) continue;
    const keys = [...byKey.keys()].sort((a, b) => compareRateKeys(scope, a, b));
    for (const key of keys) {
      const acc = byKey.get(key);
      if (acc === undefined) continue;
      // A resolve rate over cases some of which are not judged would count them as failures: there is none until they are.
      const notJudged = acc.resolveNotJudged ?? 0;
      const rated = acc.hasResolve && notJudged === 0;
      rows.push({
        model,
        scope,
        key,
        passNum: acc.passNum,
        passDen: acc.passDen,
        resolveNum: rated ? acc.resolveNum : null,
        resolveDen: rated ? acc.resolveDen : null,
        ...(notJudged > 0 ? { resolveNotJudged: notJudged } : {}),
      });
    }
  }
  return rows;
}

/**
 * Rates per model (all of its runs pooled) for every scope: overall ("all"), each domain, each round present
 * (use isOfficialRow to keep only what the official statistics print). Models appear in first-seen order; within
 * a model: overall, domains in DOMAIN_ORDER, rounds ascending.
 */
export function aggregateRates(outcomes: readonly TurnOutcome[]): Result<RateRow[], StatsIssue> {
  const validated = validateOutcomes(outcomes);
  if (!validated.ok) return validated;
  const groups = accumulate(validated.value, (outcome) => outcome.model);
  return ok([...groups.entries()].flatMap(([model, scopes]) => rateRowsOf(scopes, model)));
}

/** The same rows for each run separately, ordered by model and run in first-seen order. */
export function perRunRates(outcomes: readonly TurnOutcome[]): Result<RunRateRow[], StatsIssue> {
  const validated = validateOutcomes(outcomes);
  if (!validated.ok) return validated;
  const groups = accumulate(validated.value, runKey);
  const rows: RunRateRow[] = [];
  for (const [key, scopes] of groups) {
    const [model, runId] = JSON.parse(key) as [string, string];
    for (const row of rateRowsOf(scopes, model)) rows.push({ ...row, runId });
  }
  return ok(rows);
}

export interface Spread {
  /** Number of runs the figures are over. */
  n: number;
  min: number;
  max: number;
  mean: number;
  /** Sample standard deviation (n − 1 denominator: the runs are a sample of what the model does); null for one run. */
  sd: number | null;
}

export interface SpreadRow {
  model: string;
  scope: RateScope;
  key: string;
  pass: Spread;
  /** Over the runs with resolve data only; null when none has any. */
  resolve: Spread | null;
}

/** Two-pass mean and deviation: exact enough for a handful of rates in [0, 1] and never negative under the root. */
export function spreadOf(values: readonly number[]): Spread | null {
  const n = values.length;
  if (n === 0) return null;
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  const squares = values.reduce((sum, value) => sum + (value - mean) * (value - mean), 0);
  return { n, min: Math.min(...values), max: Math.max(...values), mean, sd: n < 2 ? null : Math.sqrt(squares / (n - 1)) };
}

/**
 * How much a model's rates vary from run to run: min, max, mean and standard deviation of the per-run rates, for
 * the overall figure and each domain by default. The mean of per-run rates is the paper's "mean of three runs";
 * it equals the pooled rate of aggregateRates whenever the runs cover the same turns.
 */
export function runSpread(
  outcomes: readonly TurnOutcome[],
  scopes: readonly RateScope[] = ["overall", "domain"],
): Result<SpreadRow[], StatsIssue> {
  const perRun = perRunRates(outcomes);
  if (!perRun.ok) return perRun;
  return ok(spreadRows(perRun.value, scopes));
}

/** runSpread's rows from per-run rate rows (for the scopes given), in runSpread's order. */
export function spreadRows(perRun: readonly RunRateRow[], scopes: readonly RateScope[]): SpreadRow[] {
  const groups = new Map<string, { model: string; scope: RateScope; key: string; pass: number[]; resolve: number[] }>();
  for (const row of perRun) {
    if (!scopes.includes(row.scope)) continue;
    const id = JSON.stringify([row.model, row.scope, row.key]);
    let group = groups.get(id);
    if (group === undefined) {
      group = { model: row.model, scope: row.scope, key: row.key, pass: [], resolve: [] };
      groups.set(id, group);
    }
    const pass = passRate(row);
    const resolve = resolveRate(row);
    if (pass !== null) group.pass.push(pass);
    if (resolve !== null) group.resolve.push(resolve);
  }
  const rows: SpreadRow[] = [];
  for (const group of groups.values()) {
    const pass = spreadOf(group.pass);
    if (pass === null) continue;
    rows.push({ model: group.model, scope: group.scope, key: group.key, pass, resolve: spreadOf(group.resolve) });
  }
  const models = [...new Set(rows.map((row) => row.model))];
  rows.sort(
    (x, y) =>
      models.indexOf(x.model) - models.indexOf(y.model) ||
      RATE_SCOPES.indexOf(x.scope) - RATE_SCOPES.indexOf(y.scope) ||
      compareRateKeys(x.scope, x.key, y.key),
  );
  return rows;
}
