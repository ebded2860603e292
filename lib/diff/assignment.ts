// Maximum-weight bipartite matching over a small dense score matrix (Hungarian algorithm, O(n²·m)).
// Deterministic; pairs whose score is null (not allowed) are never returned, so any row or column may stay unmatched.

export interface Assignment {
  row: number;
  column: number;
  score: number;
}

/**
 * The set of allowed (row, column) pairs, each row and column used at most once, with the largest total score.
 * Scores must be positive where allowed; `null` forbids a pair.
 */
export function maxWeightAssignment(scores: readonly (readonly (number | null)[])[]): Assignment[] {
  const rows = scores.length;
  const columns = rows === 0 ? 0 : Math.max(...scores.map((row) => row.length));
  if (rows === 0 || columns === 0) return [];
  const transpose = rows > columns;
  const n = transpose ? columns : rows;
  const m = transpose ? rows : columns;
  const weight = (i: number, j: number): number | null => {
    const value = transpose ? scores[j]?.[i] : scores[i]?.[j];
    return value === undefined || value === null || !(value > 0) ? null : value;
  };
  let top = 0;
  for (let i = 0; i < n; i += 1) for (let j = 0; j < m; j += 1) top = Math.max(top, weight(i, j) ?? 0);
  // Minimise top - weight; a forbidden pair weighs 0, i.e. no better than leaving both unmatched.
  const cost = (i: number, j: number): number => top - (weight(i, j) ?? 0);

  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1);
  const way = new Int32Array(m + 1);
  for (let i = 1; i <= n; i += 1) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(m + 1).fill(Number.POSITIVE_INFINITY);
    const used = new Uint8Array(m + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0] as number;
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= m; j += 1) {
        if (used[j]) continue;
        const current = cost(i0 - 1, j - 1) - (u[i0] as number) - (v[j] as number);
        if (current < (minv[j] as number)) {
          minv[j] = current;
          way[j] = j0;
        }
        if ((minv[j] as number) < delta) {
          delta = minv[j] as number;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j += 1) {
        if (used[j]) {
          u[p[j] as number] = (u[p[j] as number] as number) + delta;
          v[j] = (v[j] as number) - delta;
        } else {
          minv[j] = (minv[j] as number) - delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0] as number;
      p[j0] = p[j1] as number;
      j0 = j1;
    } while (j0 !== 0);
  }

  const out: Assignment[] = [];
  for (let j = 1; j <= m; j += 1) {
    const i = p[j] as number;
    if (i === 0) continue;
    const score = weight(i - 1, j - 1);
    if (score === null) continue;
    out.push(transpose ? { row: j - 1, column: i - 1, score } : { row: i - 1, column: j - 1, score });
  }
  return out.sort((a, b) => a.row - b.row);
}
