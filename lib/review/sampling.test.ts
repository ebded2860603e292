import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sampleCandidates, seedNumber } from "./sampling";

function candidates(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    model: `m${index % 3}`,
    runLabel: "run",
    turnKey: `Task_${index}`,
    stage: "pass" as const,
    casePosition: 0,
    judge: index % 2 ? "rule" : "recorded",
    responseId: `r${index}`,
  }));
}

const ids = (items: { responseId: string; judge: string }[]) => items.map((item) => `${item.responseId}/${item.judge}`);

describe("deterministic sampling", () => {
  const pool = candidates(35);

  it("draws the same items in the same order for the same seed, whatever order the rows came in", () => {
    const first = sampleCandidates(pool, 10, "42");
    const shuffled = [...pool].reverse();
    expect(ids(sampleCandidates(shuffled, 10, "42"))).toEqual(ids(first));
    expect(first).toHaveLength(10);
    expect(new Set(ids(first)).size).toBe(10);
  });

  it("draws a different sample for a different seed", () => {
    expect(ids(sampleCandidates(pool, 10, "42"))).not.toEqual(ids(sampleCandidates(pool, 10, "43")));
  });

  it("extends a smaller sample when the size grows with the same seed", () => {
    const small = sampleCandidates(pool, 5, "seed");
    const large = sampleCandidates(pool, 12, "seed");
    expect(ids(large.slice(0, 5))).toEqual(ids(small));
  });

  it("returns every candidate once when asked for more than there are, and nothing for size 0", () => {
    expect(sampleCandidates(pool, 100, "1")).toHaveLength(35);
    expect(new Set(ids(sampleCandidates(pool, 100, "1"))).size).toBe(35);
    expect(sampleCandidates(pool, 0, "1")).toEqual([]);
    expect(sampleCandidates([], 5, "1")).toEqual([]);
  });

  it("hashes seeds to 32-bit numbers, distinguishing near-identical text", () => {
    expect(seedNumber("1")).not.toBe(seedNumber("2"));
    expect(seedNumber("")).toBe(0x811c9dc5);
    expect(Number.isInteger(seedNumber("any text"))).toBe(true);
  });

  it("never repeats or invents an item (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 80 }), fc.string(), (count, size, seed) => {
        const items = candidates(count);
        const drawn = ids(sampleCandidates(items, size, seed));
        expect(drawn).toHaveLength(Math.min(size, count));
        expect(new Set(drawn).size).toBe(drawn.length);
        const known = new Set(ids(items));
        expect(drawn.filter((id) => !known.has(id))).toEqual([]);
      }),
    );
  });
});
