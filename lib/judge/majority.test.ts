import { describe, expect, it } from "vitest";
import { majorityVerdict } from "./majority";

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
