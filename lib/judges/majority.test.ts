import { describe, expect, it } from "vitest";
import { panelMajority, sampleMajority } from "./majority";

describe("sampleMajority", () => {
  it("passes with more passes than fails and fails otherwise", () => {
    expect(sampleMajority([true])).toBe(true);
    expect(sampleMajority([false])).toBe(false);
    expect(sampleMajority([true, false, true])).toBe(true);
    expect(sampleMajority([false, false, true])).toBe(false);
  });
  it("fails a tie whatever the sample order", () => {
    expect(sampleMajority([true, false])).toBe(false);
    expect(sampleMajority([false, true])).toBe(false);
    expect(sampleMajority([true, true, false, false])).toBe(false);
  });
  it("has no verdict without samples", () => {
    expect(sampleMajority([])).toBeNull();
  });
});

describe("panelMajority", () => {
  const samples = new Map<string, boolean[]>([
    ["a", [true, true, false]], // majority pass
    ["b", [false]], // fail
    ["c", [true, false]], // tie: fail
    ["d", [true]],
  ]);
  it("takes each member's sample majority, then the majority over members", () => {
    expect(panelMajority(["a", "b", "d"], samples)).toBe(true); // pass, fail, pass
    expect(panelMajority(["a", "b", "c"], samples)).toBe(false); // pass, fail, fail
  });
  it("fails an even panel split evenly", () => {
    expect(panelMajority(["a", "b"], samples)).toBe(false);
  });
  it("has no verdict when a member has not judged the item", () => {
    expect(panelMajority(["a", "missing"], samples)).toBeNull();
    expect(panelMajority([], samples)).toBeNull();
  });
});
