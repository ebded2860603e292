import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxWeightAssignment } from "./assignment";

/** The best total over every way to pair rows with distinct columns (or leave them out), by exhaustive search. */
function bruteForceBest(scores: (number | null)[][]): number {
  const columns = Math.max(0, ...scores.map((row) => row.length));
  const search = (row: number, used: Set<number>): number => {
    if (row === scores.length) return 0;
    let best = search(row + 1, used);
    for (let column = 0; column < columns; column += 1) {
      const score = scores[row]?.[column];
      if (score === null || score === undefined || used.has(column)) continue;
      used.add(column);
      best = Math.max(best, score + search(row + 1, used));
      used.delete(column);
    }
    return best;
  };
  return search(0, new Set());
}

const matrix = fc
  .tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }))
  .chain(([rows, columns]) =>
    fc.array(fc.array(fc.option(fc.double({ min: 0.01, max: 2, noNaN: true }), { nil: null }), { minLength: columns, maxLength: columns }), { minLength: rows, maxLength: rows }),
  );

describe("maxWeightAssignment", () => {
  it("finds the optimal total, uses each row and column once and never a forbidden pair", () => {
    fc.assert(
      fc.property(matrix, (scores) => {
        const pairs = maxWeightAssignment(scores);
        expect(new Set(pairs.map((p) => p.row)).size).toBe(pairs.length);
        expect(new Set(pairs.map((p) => p.column)).size).toBe(pairs.length);
        for (const pair of pairs) expect(scores[pair.row]?.[pair.column]).toBe(pair.score);
        const total = pairs.reduce((sum, pair) => sum + pair.score, 0);
        expect(total).toBeCloseTo(bruteForceBest(scores), 9);
      }),
      { numRuns: 500 },
    );
  });

  it("prefers the higher-scoring crossing over the diagonal", () => {
    expect(
      maxWeightAssignment([
        [0.5, 0.9],
        [0.9, 0.5],
      ]),
    ).toEqual([
      { row: 0, column: 1, score: 0.9 },
      { row: 1, column: 0, score: 0.9 },
    ]);
  });
});
