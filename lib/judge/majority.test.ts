import { describe, expect, it } from "vitest";
import { majorityVerdict, panelVerdict, sampleMajority } from "./majority";

describe("majorityVerdict", () => {
  it("takes the majority of answered samples and ignores missing ones", () => {
    expect(majorityVerdict([true, true, false])).toEqual({ verdict: true, pass: 2, fail: 1, missing: 0, tie: false });
    expect(majorityVerdict([false, null, false, true])).toEqual({ verdict: false, pass: 1, fail: 2, missing: 1, tie: false });
  });

  it("resolves ties to fail by default, or as asked", () => {
    expect(majorityVerdict([true, false])).toMatchObject({ verdict: false, tie: true });
    expect(majorityVerdict([true, false], "pass").verdict).toBe(true);
    expect(majorityVerdict([true, false, null], "undecided")).toMatchObject({ verdict: null, tie: true, missing: 1 });
  });

  it("has no verdict when no sample answered", () => {
    expect(majorityVerdict([null, null])).toEqual({ verdict: null, pass: 0, fail: 0, missing: 2, tie: false });
    expect(majorityVerdict([]).verdict).toBeNull();
  });
});

describe("sampleMajority", () => {
  it("passes with more passes than fails and fails a tie whatever the order", () => {
    expect(sampleMajority([true, false, true])).toBe(true);
    expect(sampleMajority([false, false, true])).toBe(false);
    expect(sampleMajority([true, false])).toBe(false);
    expect(sampleMajority([false, true])).toBe(false);
    expect(sampleMajority([true, null])).toBe(true);
    expect(sampleMajority([])).toBeNull();
  });
});

describe("panelVerdict", () => {
  it("decides the 3-member example that pooling all samples decided the other way", () => {
    // Member a passes 3 of 3; b and c each pass 1 of 3. Pooled, 5 of 9 samples pass; by member, 1 of 3 members passes.
    const samples = new Map<string, boolean[]>([
      ["a", [true, true, true]],
      ["b", [false, true, false]],
      ["c", [false, false, true]],
    ]);
    expect(majorityVerdict([...samples.values()].flat()).verdict).toBe(true);
    expect(panelVerdict(["a", "b", "c"], samples)).toBe(false);
    // The member order does not matter.
    expect(panelVerdict(["c", "a", "b"], samples)).toBe(false);
  });

  it("takes each member's sample majority, then the majority over members", () => {
    const samples = new Map<string, boolean[]>([
      ["a", [true, true, false]],
      ["b", [false]],
      ["c", [true, false]], // a tie: fail
      ["d", [true]],
    ]);
    expect(panelVerdict(["a", "b", "d"], samples)).toBe(true);
    expect(panelVerdict(["a", "b", "c"], samples)).toBe(false);
    expect(panelVerdict(["a", "b"], samples)).toBe(false);
    expect(panelVerdict(["d"], samples)).toBe(true);
  });

  it("has no verdict when a member has not answered", () => {
    const samples = new Map<string, (boolean | null)[]>([
      ["a", [true]],
      ["b", [null, null]],
    ]);
    expect(panelVerdict(["a", "missing"], samples)).toBeNull();
    expect(panelVerdict(["a", "b"], samples)).toBeNull();
    expect(panelVerdict([], samples)).toBeNull();
  });
});
