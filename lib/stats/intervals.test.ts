import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankWithTies, wilsonInterval, Z_95, type Interval, type RankedItem } from "./intervals";

function interval(k: number, n: number, z?: number): Interval | null {
  const result = wilsonInterval(k, n, z === undefined ? {} : { z });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

function ranked(items: { id: string; k: number; n: number }[], z?: number): RankedItem[] {
  const result = rankWithTies(items, z === undefined ? {} : { z });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

describe("wilsonInterval", () => {
  it("matches the formula worked by hand for 8 of 10 with z = 2", () => {
    // Bounds = (k + z²/2 ± z·√(k(n−k)/n + z²/4)) / (n + z²) = (8 + 2 ± 2·√(1.6 + 1)) / 14 = (10 ± 3.22490) / 14.
    const result = interval(8, 10, 2);
    expect(result?.estimate).toBe(0.8);
    expect(result?.lower).toBeCloseTo((10 - 2 * Math.sqrt(2.6)) / 14, 14); // 0.483935
    expect(result?.upper).toBeCloseTo((10 + 2 * Math.sqrt(2.6)) / 14, 14); // 0.944636
  });

  it("is exactly 0 at k = 0 and exactly 1 at k = n", () => {
    // k = 0, z = 2: lower 0; upper = (0 + 2 + 2·√(0 + 1)) / 14 = 4/14 = 2/7.
    expect(interval(0, 10, 2)).toEqual({ estimate: 0, lower: 0, upper: expect.closeTo(2 / 7, 15) });
    // k = n mirrors it: lower = 1 − 2/7 = 5/7, upper exactly 1.
    expect(interval(10, 10, 2)).toEqual({ estimate: 1, lower: expect.closeTo(5 / 7, 15), upper: 1 });
    expect(interval(79, 79)?.upper).toBe(1);
    expect(interval(0, 237)?.lower).toBe(0);
  });

  it("uses the 95% quantile 1.959964 by default", () => {
    expect(interval(8, 10)).toEqual(interval(8, 10, Z_95));
    expect(interval(8, 10)?.lower).toBeCloseTo(0.49016, 5);
    expect(interval(8, 10)?.upper).toBeCloseTo(0.94332, 5);
  });

  it("keeps full precision for a tiny rate, where the textbook difference cancels", () => {
    // The bounds are the roots of (n + z²)p² − (2k + z²)p + k²/n, so lower · upper = k² / (n (n + z²)).
    const result = interval(1, 1_000_000);
    const product = 1 / (1_000_000 * (1_000_000 + Z_95 * Z_95));
    expect(Math.abs((result?.lower ?? 0) * (result?.upper ?? 0) - product)).toBeLessThan(product * 1e-12);
  });

  it("returns null for n = 0 and refuses impossible counts as issues", () => {
    expect(wilsonInterval(0, 0)).toEqual({ ok: true, value: null });
    const tooMany = wilsonInterval(5, 4);
    expect(tooMany.ok || tooMany.issues.map((found) => found.code)).toEqual(["count-exceeds-total"]);
    const fractional = wilsonInterval(1.5, 4);
    expect(fractional.ok || fractional.issues.map((found) => found.code)).toEqual(["invalid-count"]);
    const negative = wilsonInterval(-1, 4);
    expect(negative.ok || negative.issues.map((found) => found.code)).toEqual(["invalid-count"]);
    const badZ = wilsonInterval(1, 4, { z: 0 });
    expect(badZ.ok || badZ.issues.map((found) => found.code)).toEqual(["invalid-z"]);
  });

  it("always contains k/n, stays within [0, 1] and widens with z (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n))),
        fc.double({ min: 0.1, max: 4, noNaN: true }),
        ([k, n], z) => {
          const narrow = interval(k, n, z);
          const wide = interval(k, n, z * 1.5);
          if (narrow === null || wide === null) throw new Error("n > 0 must give an interval");
          expect([narrow.lower, narrow.upper].filter((bound) => bound < 0 || bound > 1)).toEqual([]);
          expect(narrow.lower).toBeLessThanOrEqual(k / n);
          expect(narrow.upper).toBeGreaterThanOrEqual(k / n);
          expect(wide.lower).toBeLessThanOrEqual(narrow.lower);
          expect(wide.upper).toBeGreaterThanOrEqual(narrow.upper);
        },
      ),
    );
  });
});

describe("rankWithTies", () => {
  it("ties items whose intervals overlap and counts the items clearly above (z = 2, worked by hand)", () => {
    // With z = 2 and n = 20 the bounds are (k + 2 ± 2·√(k(20−k)/20 + 1)) / 24:
    //   A, E 18/20: (20 ± 2√2.8)/24 = [0.6939, 0.9728]
    //   B    10/20: (12 ± 2√6)/24   = [0.2959, 0.7041]  overlaps A (0.6939 ≤ 0.7041)      → rank 1
    //   C     4/20: (6 ± 2√4.2)/24  = [0.0792, 0.4208]  A and E lie above (0.6939 > 0.4208),
    //                                                 B overlaps it (0.2959 ≤ 0.4208)      → rank 1 + 2 = 3
    //   D     0/0: no interval                                                            → unranked, last
    const result = ranked(
      [
        { id: "C", k: 4, n: 20 },
        { id: "D", k: 0, n: 0 },
        { id: "E", k: 18, n: 20 },
        { id: "B", k: 10, n: 20 },
        { id: "A", k: 18, n: 20 },
      ],
      2,
    );
    expect(result.map((item) => [item.id, item.rank])).toEqual([
      ["A", 1],
      ["E", 1],
      ["B", 1],
      ["C", 3],
      ["D", null],
    ]);
    expect(result.find((item) => item.id === "C")?.above).toEqual(["A", "E"]);
    expect(result.find((item) => item.id === "D")?.interval).toBeNull();
  });

  it("lets a wide interval share the top rank when no item is clearly above it", () => {
    // z = 2. X 900/1000: (902 ± 2√91)/1004 = [0.8794, 0.9174]; Y 850/1000: (852 ± 2√128.5)/1004 = [0.8260, 0.8712];
    // W 4/5: (6 ± 2√1.8)/9 = [0.3685, 0.9648]. X is clearly above Y (0.8794 > 0.8712) → Y rank 2; nothing
    // is clearly above W → rank 1, although its estimate (0.8) is below Y's (0.85).
    const result = ranked(
      [
        { id: "Y", k: 850, n: 1000 },
        { id: "W", k: 4, n: 5 },
        { id: "X", k: 900, n: 1000 },
      ],
      2,
    );
    expect(result.map((item) => [item.id, item.rank])).toEqual([
      ["X", 1],
      ["W", 1],
      ["Y", 2],
    ]);
  });

  it("returns nothing for no items and refuses duplicate ids", () => {
    expect(rankWithTies([])).toEqual({ ok: true, value: [] });
    const duplicate = rankWithTies([
      { id: "a", k: 1, n: 2 },
      { id: "a", k: 1, n: 3 },
    ]);
    expect(duplicate.ok || duplicate.issues.map((found) => found.code)).toEqual(["duplicate-id"]);
  });

  it("ranks a clearly better item strictly higher, and only ties overlapping items (property)", () => {
    const item = fc.integer({ min: 1, max: 300 }).chain((n) => fc.record({ k: fc.integer({ min: 0, max: n }), n: fc.constant(n) }));
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 12 }), (counts) => {
        const result = ranked(counts.map((count, index) => ({ id: `m${index}`, ...count })));
        for (const i of result) {
          for (const j of result) {
            if (i.interval === null || j.interval === null || i.rank === null || j.rank === null) continue;
            if (j.interval.lower > i.interval.upper) expect(j.rank).toBeLessThan(i.rank);
            if (i.rank === j.rank) expect(j.interval.lower <= i.interval.upper && i.interval.lower <= j.interval.upper).toBe(true);
          }
        }
      }),
    );
  });
});
