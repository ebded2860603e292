import { describe, expect, it } from "vitest";
import { compareSides, pairwiseAgreement, sideVerdicts, type VerdictRow } from "./compare";

const rows: VerdictRow[] = [
  // item 1: x passes 2:1, y passes, z fails
  { item: "1", judge: "x", verdict: true },
  { item: "1", judge: "x", verdict: true },
  { item: "1", judge: "x", verdict: false },
  { item: "1", judge: "y", verdict: true },
  { item: "1", judge: "z", verdict: false },
  // item 2: x fails, y fails, z fails
  { item: "2", judge: "x", verdict: false },
  { item: "2", judge: "y", verdict: false },
  { item: "2", judge: "z", verdict: false },
  // item 3: x 1:1 tie (fail), y passes, z passes
  { item: "3", judge: "x", verdict: true },
  { item: "3", judge: "x", verdict: false },
  { item: "3", judge: "y", verdict: true },
  { item: "3", judge: "z", verdict: true },
  // item 4: only y
  { item: "4", judge: "y", verdict: true },
];

describe("sideVerdicts", () => {
  it("takes each judge's sample majority (ties fail)", () => {
    expect([...sideVerdicts(rows, ["x"])]).toEqual([["1", true], ["2", false], ["3", false]]);
  });
  it("decides a panel by majority over members and only where every member judged", () => {
    // item 1: x pass, y pass, z fail → pass; item 3: x fail, y pass, z pass → pass; item 4: x, z missing.
    expect([...sideVerdicts(rows, ["x", "y", "z"])]).toEqual([["1", true], ["2", false], ["3", true]]);
  });
});

describe("compareSides", () => {
  it("gives agreement, kappa, confusion and disagreements on shared items (hand-computed)", () => {
    const x = sideVerdicts(rows, ["x"]);
    const y = sideVerdicts(rows, ["y"]);
    const result = compareSides(x, y);
    // Shared 1, 2, 3: x = T, F, F; y = T, F, T → a=1 (TT), b=0, c=1 (x F, y T), d=1.
    expect(result.n).toBe(3);
    expect(result.agreement).toMatchObject({ num: 2, den: 3 });
    // κ = 2(ad − bc) / ((a+b)(b+d) + (a+c)(c+d)) = 2(1 − 0) / (1·1 + 2·2) = 0.4
    expect(result.kappa.kappa).toBeCloseTo(0.4, 12);
    expect(result.confusion).toEqual({ passPass: ["1"], passFail: [], failPass: ["3"], failFail: ["2"] });
    expect(result.disagreements).toEqual([{ item: "3", a: false, b: true }]);
    expect([result.onlyA, result.onlyB]).toEqual([0, 1]);
  });
  it("lists every judged pair with shared items", () => {
    const pairs = pairwiseAgreement(rows, ["x", "y", "z"]);
    expect(pairs.map((pair) => [pair.a, pair.b, pair.n, pair.agreement.num])).toEqual([
      ["x", "y", 3, 2],
      ["x", "z", 3, 1], // x = T, F, F; z = F, F, T: only item 2 agrees
      ["y", "z", 3, 2],
    ]);
  });
});
