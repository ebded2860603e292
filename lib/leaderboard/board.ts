// The leaderboard as data: one row per model, a pass and a resolve figure per domain and overall, measured from
// counts or published, with 95% Wilson intervals and two ranks: the plain rank by the figure and the interval-aware
// "Rank (UB)" (1 + the models significantly better). Every figure keeps the counts it rests on.

import { CASES_PER_TURN, sortDomains, type RateRow, type Spread, type SpreadRow } from "../stats/rates";
import { rankWithTies, wilsonInterval } from "../stats/intervals";
import { PUBLISHED_RUNS, PUBLISHED_TURNS } from "../published/denominators";
import type { PredictedExecution } from "./predicted";

/** Table 1's name for the overall column; the measured rows call it scope "overall", key "all". */
export const AVERAGE = "Average";

export const METRICS = ["pass", "resolve"] as const;
export type MetricName = (typeof METRICS)[number];

export const SOURCES = ["measured", "published"] as const;
export type Source = (typeof SOURCES)[number];

export interface Metric {
  /** The rate as a fraction; for published figures exactly the paper's percentage / 100. */
  rate: number;
  /** Counts per run as exported: pooled counts for measured figures, the mean of three runs (may be fractional) for published ones. */
  num: number;
  den: number;
  /** The whole-number counts the interval rests on: the pooled runs (measured) or the paper's three runs together (published). */
  k: number;
  n: number;
  /** 95% Wilson interval of k / n. */
  lower: number;
  upper: number;
  /** How many runs the figure pools. */
  runs: number;
  /** Run-to-run spread when several runs are pooled. */
  spread: Spread | null;
}

export interface MetricPair {
  measured: Metric | null;
  published: Metric | null;
  /** measured − published as a fraction (so 0.05 is five percentage points); null unless both exist. */
  delta: number | null;
  /** Measured resolve only: test cases not judged yet, which leave no measured figure (shown "not judged (n)"). */
  notJudged?: number;
}

export interface RankInfo {
  /** Plain rank by the figure: 1 + the models with a higher rate (equal rates share it). Null without a figure. */
  rank: number | null;
  /** Another model has exactly the same rate (and so the same plain rank). */
  tied: boolean;
  /**
   * Rank (UB), as LMArena names it: 1 + the number of models significantly better (their 95% interval lies wholly
   * above this model's). The best rank the model could have given the uncertainty; many models can share it.
   */
  upperBound: number | null;
}

/** A row's identity: a model under one configuration (a series); published-only rows are a model alone. */
export interface ModelInfo {
  /** The series id (lib/leaderboard/configuration): the model name for official recorded runs and published figures. */
  name: string;
  displayName: string;
  family: string | null;
  access: string | null;
  /** The model's name, when the row is a series of measured runs. */
  model?: string;
  /** How the row's runs were made and judged: "official recorded run", "Zero-shot (official) · T 0.7 · max 32768 · judge: gpt-5.1 ×1". */
  configuration?: string;
  /** Who judged its figures: "recorded verdicts", "rule judge (not the official LLM judge)", "judge: gpt-5.1 ×1". */
  judge?: string;
  /** Turns its own LLM judge has not decided yet (they keep the rule judge's verdict until it does). */
  awaitingJudge?: number;
  /** Ours, not a resolve rate: its runs' dry-run executions predicted to reach the judge (absent without dry-run results). */
  predicted?: PredictedExecution;
}

export interface BoardRow extends ModelInfo {
  inMeasured: boolean;
  inPublished: boolean;
  /** Runs of the model pooled into the measured figures. */
  runs: number;
  /** Per column (domain names, then "Average"). */
  cells: Record<string, Record<MetricName, MetricPair>>;
  /** Ranks on the Average column, per source and metric. */
  ranks: Record<Source, Record<MetricName, RankInfo>>;
}

export interface Board {
  /** Domain columns in the official order, then "Average". */
  columns: string[];
  rows: BoardRow[];
  families: string[];
}

export interface PublishedFigure {
  modelName: string;
  displayName: string;
  family: string | null;
  access: string | null;
  /** A domain name or "Average". */
  domain: string;
  /** Percentages, as printed in the paper. */
  passRate: number;
  resolveRate: number;
}

export interface MeasuredInput {
  models: readonly ModelInfo[];
  /** Pooled rate rows (ratesFromCounts). */
  rates: readonly RateRow[];
  /** Run-to-run spread rows (spreadFromCounts); overall and domain scopes are used. */
  spreads: readonly SpreadRow[];
  /** Runs per model. */
  runs: ReadonlyMap<string, number>;
}

function interval(k: number, n: number): { lower: number; upper: number } {
  const result = wilsonInterval(k, n);
  // Counts here come from the database or from the published rates and are whole and within range by construction.
  if (!result.ok || result.value === null) return { lower: Number.NaN, upper: Number.NaN };
  return { lower: result.value.lower, upper: result.value.upper };
}

/** A measured figure from pooled counts; null when nothing was counted. */
export function measuredMetric(num: number | null, den: number | null, runs: number, spread: Spread | null): Metric | null {
  if (num === null || den === null || den === 0) return null;
  return { rate: num / den, num, den, k: num, n: den, ...interval(num, den), runs, spread: spread && spread.n > 1 ? spread : null };
}

/** Rounds to 4 decimals so fractional means read cleanly in exports (53.3333 rather than 53.333333333333336). */
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * A published figure with the counts it implies. The paper's rates are means of three runs over a known number of
 * turns (cases), so rate × 3 × turns is a whole number k to rounding (true for every Table 1 figure): the
 * interval uses k of 3 × turns, and the per-run numerator is k / 3, which may be fractional.
 */
export function publishedMetric(percent: number, turns: number, casesPerTurn: number): Metric {
  const den = turns * casesPerTurn;
  const n = den * PUBLISHED_RUNS;
  const k = Math.min(n, Math.max(0, Math.round((percent / 100) * n)));
  return { rate: percent / 100, num: round4(k / PUBLISHED_RUNS), den, k, n, ...interval(k, n), runs: PUBLISHED_RUNS, spread: null };
}

/** Published figures as exported rate rows (overall and domains; the paper publishes no per-round figures). */
export function publishedRateRows(figures: readonly PublishedFigure[]): RateRow[] {
  const rows: RateRow[] = [];
  const models = [...new Set(figures.map((figure) => figure.modelName))];
  for (const model of models) {
    const own = figures.filter((figure) => figure.modelName === model);
    const average = own.find((figure) => figure.domain === AVERAGE);
    const ordered = [...(average ? [average] : []), ...sortDomains(own.filter((figure) => figure.domain !== AVERAGE).map((figure) => figure.domain)).map((domain) => own.find((figure) => figure.domain === domain)!)];
    for (const figure of ordered) {
      const turns = PUBLISHED_TURNS[figure.domain];
      if (turns === undefined) continue;
      const pass = publishedMetric(figure.passRate, turns, 1);
      const resolve = publishedMetric(figure.resolveRate, turns, CASES_PER_TURN);
      rows.push({
        model,
        scope: figure.domain === AVERAGE ? "overall" : "domain",
        key: figure.domain === AVERAGE ? "all" : figure.domain,
        passNum: pass.num,
        passDen: pass.den,
        resolveNum: resolve.num,
        resolveDen: resolve.den,
        passPercent: figure.passRate,
        resolvePercent: figure.resolveRate,
      });
    }
  }
  return rows;
}

const columnOf = (row: Pick<RateRow, "scope" | "key">): string | null => (row.scope === "overall" ? AVERAGE : row.scope === "domain" ? row.key : null);

function emptyCells(columns: readonly string[]): Record<string, Record<MetricName, MetricPair>> {
  return Object.fromEntries(
    columns.map((column) => [column, { pass: { measured: null, published: null, delta: null }, resolve: { measured: null, published: null, delta: null } }]),
  );
}

const NO_RANK: RankInfo = { rank: null, tied: false, upperBound: null };

function rankRows(rows: BoardRow[], source: Source, metric: MetricName): void {
  const items = rows.flatMap((row) => {
    const figure = row.cells[AVERAGE]?.[metric][source];
    return figure ? [{ id: row.name, k: figure.k, n: figure.n }] : [];
  });
  const ranked = rankWithTies(items);
  if (!ranked.ok) return;
  const byId = new Map(ranked.value.map((item) => [item.id, item]));
  const rates = rows.flatMap((row) => {
    const figure = row.cells[AVERAGE]?.[metric][source];
    return figure && figure.n > 0 ? [figure.rate] : [];
  });
  for (const row of rows) {
    const item = byId.get(row.name);
    const figure = row.cells[AVERAGE]?.[metric][source];
    if (!item || item.rank === null || !figure) {
      row.ranks[source][metric] = NO_RANK;
      continue;
    }
    const higher = rates.filter((rate) => rate > figure.rate).length;
    const same = rates.filter((rate) => rate === figure.rate).length;
    row.ranks[source][metric] = { rank: 1 + higher, tied: same > 1, upperBound: item.rank };
  }
}

/**
 * Joins measured and published figures by model name (the run file's base name, which Table 1 rows also carry),
 * computes the differences and ranks. Models appear in measured order, then published-only models in paper order.
 */
export function buildBoard(measured: MeasuredInput | null, published: readonly PublishedFigure[] | null): Board {
  const domains = new Set<string>();
  for (const row of measured?.rates ?? []) if (row.scope === "domain") domains.add(row.key);
  for (const figure of published ?? []) if (figure.domain !== AVERAGE) domains.add(figure.domain);
  const columns = [...sortDomains(domains), AVERAGE];

  const rows = new Map<string, BoardRow>();
  const rowFor = (info: ModelInfo): BoardRow => {
    let row = rows.get(info.name);
    if (row === undefined) {
      row = {
        ...info,
        inMeasured: false,
        inPublished: false,
        runs: 0,
        cells: emptyCells(columns),
        ranks: { measured: { pass: NO_RANK, resolve: NO_RANK }, published: { pass: NO_RANK, resolve: NO_RANK } },
      };
      rows.set(info.name, row);
    }
    return row;
  };

  if (measured) {
    const info = new Map(measured.models.map((model) => [model.name, model]));
    const spreads = new Map(measured.spreads.map((spread) => [`${spread.model}\u0000${spread.scope}\u0000${spread.key}`, spread]));
    for (const rate of measured.rates) {
      const column = columnOf(rate);
      if (column === null) continue;
      const row = rowFor(info.get(rate.model) ?? { name: rate.model, displayName: rate.model, family: null, access: null });
      row.inMeasured = true;
      row.runs = measured.runs.get(rate.model) ?? 1;
      const spread = spreads.get(`${rate.model}\u0000${rate.scope}\u0000${rate.key}`);
      const cell = row.cells[column]!;
      cell.pass.measured = measuredMetric(rate.passNum, rate.passDen, row.runs, spread?.pass ?? null);
      cell.resolve.measured = measuredMetric(rate.resolveNum, rate.resolveDen, row.runs, spread?.resolve ?? null);
      if (rate.resolveNotJudged) cell.resolve.notJudged = rate.resolveNotJudged;
    }
  }

  for (const figure of published ?? []) {
    const turns = PUBLISHED_TURNS[figure.domain];
    if (turns === undefined) continue;
    const existing = rows.get(figure.modelName);
    const row = existing ?? rowFor({ name: figure.modelName, displayName: figure.displayName, family: figure.family, access: figure.access });
    // The paper knows a model's family and access even when the imported run's model row does not.
    row.family ??= figure.family;
    row.access ??= figure.access;
    row.inPublished = true;
    const cell = row.cells[figure.domain];
    if (!cell) continue;
    cell.pass.published = publishedMetric(figure.passRate, turns, 1);
    cell.resolve.published = publishedMetric(figure.resolveRate, turns, CASES_PER_TURN);
  }

  const list = [...rows.values()];
  for (const row of list) {
    for (const cell of Object.values(row.cells)) {
      for (const metric of METRICS) {
        const pair = cell[metric];
        pair.delta = pair.measured && pair.published ? pair.measured.rate - pair.published.rate : null;
      }
    }
  }
  for (const source of SOURCES) for (const metric of METRICS) rankRows(list.filter((row) => (source === "measured" ? row.inMeasured : row.inPublished)), source, metric);

  const families = [...new Set(list.map((row) => row.family).filter((family): family is string => family !== null))].sort((a, b) =>
    a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0,
  );
  return { columns, rows: list, families };
}
