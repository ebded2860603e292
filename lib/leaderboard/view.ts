// The leaderboard's view state (source, sort, filters, benchmark) as URL search parameters, and the filter and
// sort it implies. Unknown or malformed parameters fall back to defaults; serializing omits defaults (short URLs).

import { firstParam as param, type SearchParamsInput } from "../search-params";
import { AVERAGE, METRICS, type BoardRow, type MetricName, type MetricPair, type Source } from "./board";

export const VIEW_SOURCES = ["measured", "published", "both"] as const;
export type ViewSource = (typeof VIEW_SOURCES)[number];

/** In side-by-side mode, which number a column sorts on. */
export const SORT_VALUES = ["measured", "published", "delta"] as const;
export type SortValue = (typeof SORT_VALUES)[number];

export const ACCESS_FILTERS = ["all", "open", "closed"] as const;
export type AccessFilter = (typeof ACCESS_FILTERS)[number];

export interface BoardState {
  source: ViewSource;
  /** "rank", "model", or "<column>.<metric>" such as "Average.resolve". */
  sort: string;
  dir: "asc" | "desc";
  by: SortValue;
  rankBy: MetricName;
  access: AccessFilter;
  /** "" for every family. */
  family: string;
  q: string;
  /** Benchmark name or id; "" for the default. */
  benchmark: string;
  /** Whose verdicts decide the figures (lib/judge/choice); "" for the recorded ones. */
  judge: string;
}

export const DEFAULT_STATE: BoardState = {
  source: "measured",
  sort: "rank",
  dir: "asc",
  by: "measured",
  rankBy: "resolve",
  access: "all",
  family: "",
  q: "",
  benchmark: "",
  judge: "",
};

/** Search parameters as Next passes them to pages, or a URLSearchParams (read with lib/search-params). */
export type ParamsInput = SearchParamsInput;
export { param };

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T {
  return value !== undefined && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

const SORT_PATTERN = /^(rank|model|[^.]{1,60}\.(pass|resolve))$/;

export function parseBoardState(input: ParamsInput): BoardState {
  const sort = param(input, "sort");
  return {
    source: oneOf(param(input, "source"), VIEW_SOURCES, DEFAULT_STATE.source),
    sort: sort !== undefined && SORT_PATTERN.test(sort) ? sort : DEFAULT_STATE.sort,
    dir: oneOf(param(input, "dir"), ["asc", "desc"] as const, DEFAULT_STATE.dir),
    by: oneOf(param(input, "by"), SORT_VALUES, DEFAULT_STATE.by),
    rankBy: oneOf(param(input, "rank"), METRICS, DEFAULT_STATE.rankBy),
    access: oneOf(param(input, "access"), ACCESS_FILTERS, DEFAULT_STATE.access),
    family: (param(input, "family") ?? "").slice(0, 100),
    q: (param(input, "q") ?? "").slice(0, 100),
    benchmark: (param(input, "benchmark") ?? "").slice(0, 200),
    judge: (param(input, "judge") ?? "").slice(0, 2000),
  };
}

const PARAM_NAMES: Record<keyof BoardState, string> = {
  source: "source",
  sort: "sort",
  dir: "dir",
  by: "by",
  rankBy: "rank",
  access: "access",
  family: "family",
  q: "q",
  benchmark: "benchmark",
  judge: "judge",
};

export function serializeBoardState(state: BoardState): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(PARAM_NAMES) as (keyof BoardState)[]) {
    if (state[key] !== DEFAULT_STATE[key]) params.set(PARAM_NAMES[key], state[key]);
  }
  return params;
}

/** The query string for a state ("" or "?…"). */
export function boardQuery(state: BoardState): string {
  const text = serializeBoardState(state).toString();
  return text ? `?${text}` : "";
}

/** A direction for a new sort column: names A→Z and ranks 1→n first, rates best first. */
export function defaultDirection(sort: string): "asc" | "desc" {
  return sort === "rank" || sort === "model" ? "asc" : "desc";
}

/** The state after activating a column header: the same column flips direction, another starts at its default. */
export function toggleSort(state: BoardState, sort: string): BoardState {
  if (state.sort === sort) return { ...state, dir: state.dir === "asc" ? "desc" : "asc" };
  return { ...state, sort, dir: defaultDirection(sort) };
}

/** The source whose ranks and figures lead: published in published mode, measured otherwise. */
export function primarySource(source: ViewSource): Source {
  return source === "published" ? "published" : "measured";
}

export function visibleInSource(row: BoardRow, source: ViewSource): boolean {
  return source === "measured" ? row.inMeasured : source === "published" ? row.inPublished : row.inMeasured || row.inPublished;
}

const normalize = (text: string) => text.toLowerCase().replace(/[\s_\-.]+/g, "");

export function filterRows(rows: readonly BoardRow[], state: BoardState): BoardRow[] {
  const query = normalize(state.q);
  return rows.filter(
    (row) =>
      visibleInSource(row, state.source) &&
      (state.access === "all" || row.access === state.access) &&
      (state.family === "" || row.family === state.family) &&
      (query === "" || normalize(row.displayName).includes(query) || normalize(row.name).includes(query) || normalize(row.family ?? "").includes(query) || normalize(row.configuration ?? "").includes(query)),
  );
}

/** The number a column shows and sorts on for the state's source (and, side by side, its `by`). */
export function pairValue(pair: MetricPair, state: Pick<BoardState, "source" | "by">): number | null {
  if (state.source === "both") return state.by === "delta" ? pair.delta : (pair[state.by]?.rate ?? null);
  return pair[state.source]?.rate ?? null;
}

const compareText = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Sorts rows; rows without a value (no rank, no figure) always come last, whatever the direction. */
export function sortRows(rows: readonly BoardRow[], state: BoardState): BoardRow[] {
  const sign = state.dir === "asc" ? 1 : -1;
  const source = primarySource(state.source);
  const rankValue = (row: BoardRow) => row.ranks[source][state.rankBy].rank;
  const averageValue = (row: BoardRow) => row.cells[AVERAGE]?.[state.rankBy][source]?.rate ?? null;
  let value: (row: BoardRow) => number | null;
  if (state.sort === "rank") value = rankValue;
  else if (state.sort === "model") value = () => 0;
  else {
    const [column, metric] = state.sort.split(".") as [string, MetricName];
    value = (row) => {
      const pair = row.cells[column]?.[metric];
      return pair ? pairValue(pair, state) : null;
    };
  }
  return [...rows].sort((x, y) => {
    if (state.sort === "model") return sign * compareText(x.displayName, y.displayName) || compareText(x.name, y.name);
    const vx = value(x);
    const vy = value(y);
    if (vx === null || vy === null) {
      if (vx !== vy) return vx === null ? 1 : -1;
    } else if (vx !== vy) return sign * (vx - vy);
    // Ties (and equal ranks) break on the Average figure, best first, then the name: a stable, readable order.
    const ax = averageValue(x) ?? -1;
    const ay = averageValue(y) ?? -1;
    if (ax !== ay) return ay - ax;
    return compareText(x.displayName, y.displayName);
  });
}

export function applyView(rows: readonly BoardRow[], state: BoardState): BoardRow[] {
  return sortRows(filterRows(rows, state), state);
}

/** The aria-sort value of a column header for the state. */
export function ariaSort(state: BoardState, sort: string): "ascending" | "descending" | "none" {
  if (state.sort !== sort) return "none";
  return state.dir === "asc" ? "ascending" : "descending";
}

/** A dynamic route segment as Next passes it (still percent-encoded) back to text; null when malformed. */
export function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
