// What the command palette finds: models, tasks, runs and responses matching a typed query, each with the page it
// opens, ranked (exact, then prefix, then word prefix, then substring; shorter names first). Pure.

export type SearchKind = "model" | "task" | "run" | "response";

export interface SearchResult {
  kind: SearchKind;
  /** What the palette shows. */
  title: string;
  /** A second line: family, benchmark, run of a response… */
  detail: string;
  href: string;
}

export const SEARCH_KIND_LABELS: Readonly<Record<SearchKind, string>> = { model: "Model", task: "Task", run: "Run", response: "Response" };

/** Queries shorter than this return nothing (every name would match). */
export const MIN_QUERY_LENGTH = 2;
export const MAX_QUERY_LENGTH = 100;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** 0 exact, 1 prefix, 2 word prefix, 3 substring, null no match (case-insensitive, over any of the texts). */
export function matchRank(query: string, texts: readonly string[]): number | null {
  const needle = query.trim().toLowerCase();
  if (!needle) return null;
  const wordStart = new RegExp(`[\\s_\\-./]${escapeRegExp(needle)}`);
  let best: number | null = null;
  for (const text of texts) {
    const hay = text.toLowerCase();
    const rank = hay === needle ? 0 : hay.startsWith(needle) ? 1 : wordStart.test(hay) ? 2 : hay.includes(needle) ? 3 : null;
    if (rank !== null && (best === null || rank < best)) best = rank;
  }
  return best;
}

/** The `limit` best matches of `candidates`, searched over `texts(candidate)`. */
export function rankMatches<T>(query: string, candidates: readonly T[], texts: (candidate: T) => readonly string[], limit: number): T[] {
  return candidates
    .map((candidate, order) => ({ candidate, order, rank: matchRank(query, texts(candidate)), length: Math.min(...texts(candidate).map((text) => text.length)) }))
    .filter((entry): entry is typeof entry & { rank: number } => entry.rank !== null)
    .sort((a, b) => a.rank - b.rank || a.length - b.length || a.order - b.order)
    .slice(0, limit)
    .map((entry) => entry.candidate);
}
