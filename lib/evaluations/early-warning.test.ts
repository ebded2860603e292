import { describe, expect, it } from "vitest";
import { earlyWarnings, EARLY_TURNS, finalStatusText, type StoredTurn } from "./early-warning";

const turn = (index: number, overrides: Partial<StoredTurn> = {}): StoredTurn => ({
  responseId: `r${index}`,
  task: `Task${index}`,
  round: 1,
  valid: false,
  failStep: "step_1_1",
  noTags: true,
  ...overrides,
});

describe("earlyWarnings", () => {
  it("says nothing before the first turns are in", () => {
    expect(earlyWarnings([turn(1), turn(2)], { count: 0, first: null })).toEqual([]);
  });

  it("warns when none of the first turns has tags, naming three turns to look at", () => {
    const warnings = earlyWarnings(Array.from({ length: EARLY_TURNS + 2 }, (_, index) => turn(index)), { count: 0, first: null });
    expect(warnings.map((warning) => warning.kind)).toEqual(["no-tags"]);
    expect(warnings[0]!.examples).toEqual([
      { responseId: "r0", label: "Task0 round 1" },
      { responseId: "r1", label: "Task1 round 1" },
      { responseId: "r2", label: "Task2 round 1" },
    ]);
  });

  it("warns when the first turns all fail at one later step, and not when one of them passes or steps differ", () => {
    const atThree = Array.from({ length: EARLY_TURNS }, (_, index) => turn(index, { failStep: "step_1_3", noTags: false }));
    expect(earlyWarnings(atThree, { count: 0, first: null })).toMatchObject([{ kind: "one-step", message: expect.stringContaining("step 1.3") }]);
    expect(earlyWarnings([...atThree.slice(0, 4), turn(9, { valid: true, failStep: null, noTags: false })], { count: 0, first: null })).toEqual([]);
    expect(earlyWarnings([...atThree.slice(0, 4), turn(9, { failStep: "step_1_2", noTags: false })], { count: 0, first: null })).toEqual([]);
  });

  it("warns about failing calls once they are as many as the turns looked at", () => {
    expect(earlyWarnings([], { count: 1, first: "connection: refused" })).toMatchObject([{ kind: "errors", message: "1 call failed, e.g. connection: refused." }]);
    expect(earlyWarnings(Array.from({ length: 8 }, (_, index) => turn(index, { valid: true, failStep: null, noTags: false })), { count: 2, first: null })).toEqual([]);
  });
});

describe("finalStatusText", () => {
  it("tells a finished evaluation whose every turn failed at step 1.1 without tags from a success", () => {
    const failed = Array.from({ length: 79 }, (_, index) => turn(index));
    expect(finalStatusText("succeeded", failed)).toEqual({ text: "Finished: all 79 stored turns failed at step 1.1 (tags and JSON): no reply had the tagged sections.", tone: "bad" });
    expect(finalStatusText("succeeded", [turn(1, { valid: true, failStep: null }), turn(2)])).toEqual({ text: "Finished: 1 of 2 stored turns pass.", tone: "good" });
    expect(finalStatusText("cancelled", failed.slice(0, 6))).toMatchObject({ text: "Cancelled: all 6 stored turns failed at step 1.1 (tags and JSON): no reply had the tagged sections.", tone: "bad" });
    expect(finalStatusText("running", failed)).toBeNull();
  });
});
