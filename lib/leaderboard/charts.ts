// Chart data prepared from counts: degradation across rounds, fail-step and failure-category distributions,
// per-domain rates and pass vs resolve. Each comes with the rows of its data table; chart components only render.

import { wilsonInterval } from "../stats/intervals";
import { OFFICIAL_ROUNDS, isOfficialRound, sortDomains, type RateRow } from "../stats/rates";
import { OFFICIAL_STEPS } from "../workflow/diagnostics";
import type { ModelInfo } from "./board";
import type { Column } from "./export";

const rate = (num: number | null, den: number | null): number | null => (num === null || den === null || den === 0 ? null : num / den);

/** Series keys safe for chart libraries that read dotted keys as paths ("gpt-4.1" would be one). */
export const seriesKey = (index: number) => `m${index}`;

export interface ChartModel {
  name: string;
  displayName: string;
  key: string;
}

/**
 * The models a chart draws: those asked for (in the order given) when any, else every model when there are at most
 * `max`, else the `max` best by overall resolve rate (pass rate for models without resolve data).
 */
export function chooseChartModels(rates: readonly RateRow[], models: readonly ModelInfo[], requested: readonly string[], max = 12): ChartModel[] {
  const overall = rates.filter((row) => row.scope === "overall");
  const known = new Map(models.map((model) => [model.name, model]));
  let names = requested.filter((name) => overall.some((row) => row.model === name));
  if (names.length === 0) {
    const ordered = [...overall].sort(
      (a, b) => (rate(b.resolveNum, b.resolveDen) ?? -1) - (rate(a.resolveNum, a.resolveDen) ?? -1) || (rate(b.passNum, b.passDen) ?? 0) - (rate(a.passNum, a.passDen) ?? 0),
    );
    names = (overall.length <= max ? overall : ordered.slice(0, max)).map((row) => row.model);
  }
  return names.map((name, index) => ({ name, displayName: known.get(name)?.displayName ?? name, key: seriesKey(index) }));
}

// -- degradation across rounds ---------------------------------------------------------------------------------------

export interface RoundRow {
  model: string;
  displayName: string;
  round: number;
  /** Whether the round is charted (rounds 1–3, as in the official statistics and the paper's Figure 4). */
  charted: boolean;
  passNum: number;
  passDen: number;
  passRate: number | null;
  resolveNum: number | null;
  resolveDen: number | null;
  resolveRate: number | null;
}

export interface RoundTurns {
  round: number;
  /** Turns of the benchmark in this round (per run); tasks with fewer rounds drop out of later rounds. */
  turns: number;
}

/** One x position of a chart: the label and one value per series key; `<key>:ci` holds a rate's 95% interval as the distances below and above it (what error bars draw). */
export type ChartPoint = Record<string, string | number | null | [number, number]>;

/** The key of a series' interval in a ChartPoint. */
export const intervalKey = (key: string) => `${key}:ci`;

function intervalAround(num: number | null, den: number | null): [number, number] | null {
  if (num === null || den === null || den <= 0) return null;
  const interval = wilsonInterval(Math.round(num), Math.round(den));
  if (!interval.ok || interval.value === null) return null;
  const estimate = num / den;
  return [Math.max(0, estimate - interval.value.lower), Math.max(0, interval.value.upper - estimate)];
}

export interface Degradation {
  table: RoundRow[];
  /** Rounds on the x axis, with their turn counts. */
  charted: RoundTurns[];
  /** Rounds present but not charted (round 4), with their turn counts, for the note under the chart. */
  omitted: RoundTurns[];
  pass: ChartPoint[];
  resolve: ChartPoint[];
}

export function degradation(rates: readonly RateRow[], models: readonly ChartModel[], allModels: readonly ModelInfo[], roundTurns: readonly RoundTurns[]): Degradation {
  const names = new Map(allModels.map((model) => [model.name, model.displayName]));
  const table: RoundRow[] = rates
    .filter((row) => row.scope === "round")
    .map((row) => ({
      model: row.model,
      displayName: names.get(row.model) ?? row.model,
      round: Number(row.key),
      charted: isOfficialRound(row.key),
      passNum: row.passNum,
      passDen: row.passDen,
      passRate: rate(row.passNum, row.passDen),
      resolveNum: row.resolveNum,
      resolveDen: row.resolveDen,
      resolveRate: rate(row.resolveNum, row.resolveDen),
    }));
  const sortedTurns = [...roundTurns].sort((a, b) => a.round - b.round);
  const charted = sortedTurns.filter((entry) => (OFFICIAL_ROUNDS as readonly number[]).includes(entry.round));
  const omitted = sortedTurns.filter((entry) => !(OFFICIAL_ROUNDS as readonly number[]).includes(entry.round));
  const point = (round: RoundTurns, metric: "passRate" | "resolveRate"): ChartPoint => {
    const entry: ChartPoint = { round: round.round, label: `Round ${round.round} (${round.turns} turns)` };
    for (const model of models) {
      const row = table.find((candidate) => candidate.model === model.name && candidate.round === round.round);
      entry[model.key] = row?.[metric] ?? null;
      const interval = row ? (metric === "passRate" ? intervalAround(row.passNum, row.passDen) : intervalAround(row.resolveNum, row.resolveDen)) : null;
      if (interval) entry[intervalKey(model.key)] = interval;
    }
    return entry;
  };
  return { table, charted, omitted, pass: charted.map((round) => point(round, "passRate")), resolve: charted.map((round) => point(round, "resolveRate")) };
}

export const ROUND_COLUMNS: readonly Column<RoundRow>[] = [
  { key: "model", value: (row) => row.model },
  { key: "round", value: (row) => row.round },
  { key: "charted", value: (row) => row.charted },
  { key: "passNum", value: (row) => row.passNum },
  { key: "passDen", value: (row) => row.passDen },
  { key: "passRate", value: (row) => row.passRate },
  { key: "resolveNum", value: (row) => row.resolveNum },
  { key: "resolveDen", value: (row) => row.resolveDen },
  { key: "resolveRate", value: (row) => row.resolveRate },
];

// -- fail-step distribution ----------------------------------------------------------------------------------------

/** Turns of a model grouped by the fail step of their pass verdict (null: passed). */
export interface FailStepCount {
  model: string;
  failStep: string | null;
  turns: number;
}

export const FAIL_STEPS = OFFICIAL_STEPS;

export interface FailStepRow {
  model: string;
  displayName: string;
  turns: number;
  passed: number;
  /** Failures per official step (step_1_1 … step_1_4). */
  steps: Record<string, number>;
  /** Failures at any other recorded step. */
  other: number;
  /** Share of all turns failing at each step. */
  shares: Record<string, number | null>;
  /** P(fail at the step | the turn reached it): failures at the step over turns that passed every earlier step. */
  conditional: Record<string, number | null>;
}

export function failStepDistribution(counts: readonly FailStepCount[], models: readonly ModelInfo[]): FailStepRow[] {
  const names = new Map(models.map((model) => [model.name, model.displayName]));
  const order = [...new Set(counts.map((count) => count.model))];
  return order.map((model) => {
    const own = counts.filter((count) => count.model === model);
    const turns = own.reduce((sum, count) => sum + count.turns, 0);
    const passed = own.filter((count) => count.failStep === null).reduce((sum, count) => sum + count.turns, 0);
    const steps = Object.fromEntries(FAIL_STEPS.map((step) => [step, own.filter((count) => count.failStep === step).reduce((sum, count) => sum + count.turns, 0)]));
    const other = turns - passed - Object.values(steps).reduce((sum, value) => sum + value, 0);
    const shares = Object.fromEntries(FAIL_STEPS.map((step) => [step, rate(steps[step] ?? 0, turns)]));
    let reached = turns;
    const conditional: Record<string, number | null> = {};
    for (const step of FAIL_STEPS) {
      conditional[step] = rate(steps[step] ?? 0, reached);
      reached -= steps[step] ?? 0;
    }
    return { model, displayName: names.get(model) ?? model, turns, passed, steps, other, shares, conditional };
  });
}

export const FAIL_STEP_COLUMNS: readonly Column<FailStepRow>[] = [
  { key: "model", value: (row) => row.model },
  { key: "turns", value: (row) => row.turns },
  { key: "passed", value: (row) => row.passed },
  ...FAIL_STEPS.map((step): Column<FailStepRow> => ({ key: step, value: (row) => row.steps[step] ?? 0 })),
  { key: "other", value: (row) => row.other },
  ...FAIL_STEPS.map((step): Column<FailStepRow> => ({ key: `${step}_share`, value: (row) => row.shares[step] ?? null })),
  ...FAIL_STEPS.map((step): Column<FailStepRow> => ({ key: `${step}_given_reached`, value: (row) => row.conditional[step] ?? null })),
];

/** Stacked-bar points: one per model, the share of its turns failing at each step. */
export function failStepPoints(rows: readonly FailStepRow[]): ChartPoint[] {
  return rows.map((row) => ({ model: row.displayName, ...Object.fromEntries(FAIL_STEPS.map((step) => [step, row.shares[step] ?? 0])) }));
}

// -- failures by diagnostic category -------------------------------------------------------------------------------

export const FAILURE_CATEGORIES = ["format", "graph", "semantics", "consistency", "none"] as const;

/** Failed turns of a model grouped by the category of their first diagnostic (null: no diagnostic). */
export interface CategoryCount {
  model: string;
  category: string | null;
  turns: number;
}

export interface CategoryRow {
  model: string;
  displayName: string;
  failed: number;
  /** Failed turns per category of their first (most important) diagnostic; "none" when our checks found nothing. */
  categories: Record<string, number>;
}

export function failureCategories(counts: readonly CategoryCount[], models: readonly ModelInfo[]): CategoryRow[] {
  const names = new Map(models.map((model) => [model.name, model.displayName]));
  const order = [...new Set(counts.map((count) => count.model))];
  return order.map((model) => {
    const categories: Record<string, number> = Object.fromEntries(FAILURE_CATEGORIES.map((category) => [category, 0]));
    let failed = 0;
    for (const count of counts) {
      if (count.model !== model) continue;
      failed += count.turns;
      const category = count.category !== null && count.category in categories ? count.category : "none";
      categories[category] = (categories[category] ?? 0) + count.turns;
    }
    return { model, displayName: names.get(model) ?? model, failed, categories };
  });
}

export const CATEGORY_COLUMNS: readonly Column<CategoryRow>[] = [
  { key: "model", value: (row) => row.model },
  { key: "failed", value: (row) => row.failed },
  ...FAILURE_CATEGORIES.map((category): Column<CategoryRow> => ({ key: category, value: (row) => row.categories[category] ?? 0 })),
];

export function categoryPoints(rows: readonly CategoryRow[]): ChartPoint[] {
  return rows.map((row) => ({
    model: row.displayName,
    ...Object.fromEntries(FAILURE_CATEGORIES.map((category) => [category, rate(row.categories[category] ?? 0, row.failed) ?? 0])),
  }));
}

// -- per-domain rates ----------------------------------------------------------------------------------------------

export interface DomainRow {
  model: string;
  displayName: string;
  domain: string;
  passNum: number;
  passDen: number;
  passRate: number | null;
  resolveNum: number | null;
  resolveDen: number | null;
  resolveRate: number | null;
}

export function domainRates(rates: readonly RateRow[], allModels: readonly ModelInfo[]): DomainRow[] {
  const names = new Map(allModels.map((model) => [model.name, model.displayName]));
  return rates
    .filter((row) => row.scope === "domain")
    .map((row) => ({
      model: row.model,
      displayName: names.get(row.model) ?? row.model,
      domain: row.key,
      passNum: row.passNum,
      passDen: row.passDen,
      passRate: rate(row.passNum, row.passDen),
      resolveNum: row.resolveNum,
      resolveDen: row.resolveDen,
      resolveRate: rate(row.resolveNum, row.resolveDen),
    }));
}

export const DOMAIN_COLUMNS: readonly Column<DomainRow>[] = [
  { key: "model", value: (row) => row.model },
  { key: "domain", value: (row) => row.domain },
  { key: "passNum", value: (row) => row.passNum },
  { key: "passDen", value: (row) => row.passDen },
  { key: "passRate", value: (row) => row.passRate },
  { key: "resolveNum", value: (row) => row.resolveNum },
  { key: "resolveDen", value: (row) => row.resolveDen },
  { key: "resolveRate", value: (row) => row.resolveRate },
];

/** Grouped-bar points: one per domain (official order), a bar per charted model. */
export function domainPoints(rows: readonly DomainRow[], models: readonly ChartModel[], metric: "passRate" | "resolveRate"): ChartPoint[] {
  return sortDomains(rows.map((row) => row.domain)).map((domain) => {
    const point: ChartPoint = { domain };
    for (const model of models) point[model.key] = rows.find((row) => row.model === model.name && row.domain === domain)?.[metric] ?? null;
    return point;
  });
}

// -- pass vs resolve -----------------------------------------------------------------------------------------------

export interface ScatterRow {
  model: string;
  displayName: string;
  passNum: number;
  passDen: number;
  passRate: number;
  resolveNum: number;
  resolveDen: number;
  resolveRate: number;
  /** passRate − resolveRate: how much format compliance overstates solved cases. */
  gap: number;
}

/** Overall pass vs resolve per model; models without resolve data cannot be placed and are left out. */
export function passResolveScatter(rates: readonly RateRow[], allModels: readonly ModelInfo[]): ScatterRow[] {
  const names = new Map(allModels.map((model) => [model.name, model.displayName]));
  return rates.flatMap((row) => {
    if (row.scope !== "overall" || row.resolveNum === null || row.resolveDen === null || row.resolveDen === 0 || row.passDen === 0) return [];
    const passRate = row.passNum / row.passDen;
    const resolveRate = row.resolveNum / row.resolveDen;
    return [{ model: row.model, displayName: names.get(row.model) ?? row.model, passNum: row.passNum, passDen: row.passDen, passRate, resolveNum: row.resolveNum, resolveDen: row.resolveDen, resolveRate, gap: passRate - resolveRate }];
  });
}

export const SCATTER_COLUMNS: readonly Column<ScatterRow>[] = [
  { key: "model", value: (row) => row.model },
  { key: "passNum", value: (row) => row.passNum },
  { key: "passDen", value: (row) => row.passDen },
  { key: "passRate", value: (row) => row.passRate },
  { key: "resolveNum", value: (row) => row.resolveNum },
  { key: "resolveDen", value: (row) => row.resolveDen },
  { key: "resolveRate", value: (row) => row.resolveRate },
  { key: "gap", value: (row) => row.gap },
];

/**
 * Which scatter points get a name beside them: greedily from the best resolve rate down, a point is labelled when
 * no labelled point sits within `dx` across and `dy` up or down (the label would overlap); the rest are named in
 * the tooltip and the table.
 */
export function labelledPoints(points: readonly { name: string; x: number; y: number }[], dx = 0.14, dy = 0.035): Set<string> {
  const labelled: { x: number; y: number }[] = [];
  const names = new Set<string>();
  for (const point of [...points].sort((a, b) => b.y - a.y || b.x - a.x)) {
    if (labelled.some((other) => Math.abs(other.x - point.x) < dx && Math.abs(other.y - point.y) < dy)) continue;
    labelled.push(point);
    names.add(point.name);
  }
  return names;
}

/** A model name short enough for an axis (the full name is in the tooltip and the table). */
export function shortName(name: string, max = 22): string {
  return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
}
