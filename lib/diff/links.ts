// The one place that writes links to the diff pages and reads their query strings, so every page links alike.

import { trimmedParam } from "../search-params";

export const DIFF_ROUTES = { turns: "/diff/turns", models: "/diff/models", responses: "/diff/responses" } as const;

export interface TurnDiffTarget {
  runId: string;
  /** Task name (query.json `task`); the page picks the first task with two rounds when missing. */
  task?: string | null;
  /** The later round (the page compares round − 1 with it); the page picks round 2 when missing. */
  round?: number | null;
}

export interface ModelDiffTarget {
  /** A Turn id, or its key `<Task>_<round>` (resolved in run `a`'s benchmark). */
  turn: string;
  /** Run ids: `a` is drawn on the left (the "before" side), `b` on the right. */
  a: string;
  b?: string | null;
}

function query(path: string, params: readonly (readonly [string, string | number | null | undefined])[]): string {
  const search = new URLSearchParams();
  for (const [key, value] of params) if (value !== null && value !== undefined && value !== "") search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

export function turnDiffHref(target: TurnDiffTarget): string {
  return query(DIFF_ROUTES.turns, [
    ["run", target.runId],
    ["task", target.task],
    ["round", target.round],
  ]);
}

export function modelDiffHref(target: ModelDiffTarget): string {
  return query(DIFF_ROUTES.models, [
    ["turn", target.turn],
    ["a", target.a],
    ["b", target.b],
  ]);
}

export function responseDiffHref(a: string, b: string): string {
  return query(DIFF_ROUTES.responses, [
    ["a", a],
    ["b", b],
  ]);
}

/** Next.js `searchParams`: a value may be missing, one string, or repeated. */
export type SearchParams = Readonly<Record<string, string | string[] | undefined>>;

const single = trimmedParam;

/** A positive integer, or null; "2.5", "0", "-1" and "2x" are not rounds. */
export function readRound(text: string | null): number | null {
  if (text === null || !/^[1-9][0-9]{0,5}$/.test(text)) return null;
  return Number(text);
}

export interface TurnDiffQuery {
  runId: string | null;
  task: string | null;
  /** The later round as written; `roundInvalid` is set when a value was given that is not a positive integer. */
  round: number | null;
  roundInvalid: boolean;
}

export function readTurnDiffQuery(params: SearchParams): TurnDiffQuery {
  const roundText = single(params, "round");
  const round = readRound(roundText);
  return { runId: single(params, "run"), task: single(params, "task"), round, roundInvalid: roundText !== null && round === null };
}

export interface ModelDiffQuery {
  turn: string | null;
  a: string | null;
  b: string | null;
}

export function readModelDiffQuery(params: SearchParams): ModelDiffQuery {
  return { turn: single(params, "turn"), a: single(params, "a"), b: single(params, "b") };
}

export function readResponseDiffQuery(params: SearchParams): { a: string | null; b: string | null } {
  return { a: single(params, "a"), b: single(params, "b") };
}
