import { describe, expect, it } from "vitest";
import { changeShortcut, isScrubberKey, scrubberStops, stepChange, stepRound } from "./navigation";

describe("scrubberStops", () => {
  it("lists every round of the task, which ones the run answered and which can be compared with the one before", () => {
    const stops = scrubberStops(3, [1, 2, 3], 2);
    expect(stops.map((s) => [s.round, s.answered, s.comparable, s.current])).toEqual([
      [1, true, false, false],
      [2, true, true, true],
      [3, true, true, false],
    ]);
    expect(stops[0]!.label).toMatch(/first turn/);
    expect(stops[2]!.label).toBe("Round 3 (round 2 → 3)");
  });

  it("marks unanswered rounds, and a round after a gap as not comparable", () => {
    const stops = scrubberStops(4, [1, 3, 4], 4);
    expect(stops.map((s) => s.answered)).toEqual([true, false, true, true]);
    expect(stops.map((s) => s.comparable)).toEqual([false, false, false, true]);
    expect(stops[1]!.label).toMatch(/not answered/);
  });

  it("includes answered rounds beyond the task's round count", () => {
    expect(scrubberStops(2, [1, 2, 3], null).map((s) => s.round)).toEqual([1, 2, 3]);
    expect(scrubberStops(0, [], null)).toEqual([]);
  });
});

describe("stepRound", () => {
  const stops = scrubberStops(5, [1, 2, 4, 5], 2);
  it("moves to the next or previous answered round, skipping unanswered ones", () => {
    expect(stepRound(stops, 2, "ArrowRight")).toBe(4);
    expect(stepRound(stops, 4, "ArrowLeft")).toBe(2);
    expect(stepRound(stops, 2, "ArrowDown")).toBe(4);
    expect(stepRound(stops, 2, "ArrowUp")).toBe(1);
  });

  it("stops at the ends and jumps with Home and End", () => {
    expect(stepRound(stops, 5, "ArrowRight")).toBeNull();
    expect(stepRound(stops, 1, "ArrowLeft")).toBeNull();
    expect(stepRound(stops, 4, "Home")).toBe(1);
    expect(stepRound(stops, 1, "End")).toBe(5);
    expect(stepRound(stops, null, "ArrowRight")).toBe(1);
    expect(stepRound([], 1, "End")).toBeNull();
  });

  it("knows its keys", () => {
    for (const key of ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]) expect(isScrubberKey(key), key).toBe(true);
    expect(isScrubberKey("Enter")).toBe(false);
  });
});

describe("stepChange and changeShortcut", () => {
  it("starts at the first (next) or last (previous) change and clamps at the ends", () => {
    expect(stepChange(5, null, 1)).toBe(0);
    expect(stepChange(5, null, -1)).toBe(4);
    expect(stepChange(5, 2, 1)).toBe(3);
    expect(stepChange(5, 4, 1)).toBe(4);
    expect(stepChange(5, 0, -1)).toBe(0);
    expect(stepChange(0, null, 1)).toBeNull();
  });

  it("maps n / j to next and p / k to previous, nothing else", () => {
    expect(changeShortcut("n")).toBe(1);
    expect(changeShortcut("j")).toBe(1);
    expect(changeShortcut("p")).toBe(-1);
    expect(changeShortcut("k")).toBe(-1);
    expect(changeShortcut("N")).toBeNull();
    expect(changeShortcut("ArrowDown")).toBeNull();
  });
});
