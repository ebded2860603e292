import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { adjustForSampleSize, FORMULA_IDS, normalize, type FormulaId } from "./formulas";

function value(formula: FormulaId, raw: unknown, params = {}): number {
  const result = normalize(formula, raw, params);
  if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join("; "));
  return result.value;
}

describe("formula registry", () => {
  it("binary passes 0 and 1 through and refuses anything else", () => {
    expect(value("binary", 0)).toBe(0);
    expect(value("binary", 1)).toBe(1);
    const bad = normalize("binary", 0.5);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0]?.path).toEqual(["raw"]);
  });

  it("likert 1..5 maps 1→0, 3→0.5, 5→1 and refuses 0 or 6", () => {
    expect([1, 2, 3, 4, 5].map((raw) => value("likert_1_5", raw))).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(normalize("likert_1_5", 0).ok).toBe(false);
    expect(normalize("likert_1_5", 6).ok).toBe(false);
  });

  it("likert −2..2 maps −2→0, 0→0.5, 2→1", () => {
    expect([-2, -1, 0, 1, 2].map((raw) => value("likert_neg2_2", raw))).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(normalize("likert_neg2_2", 3).ok).toBe(false);
  });

  it("pairwise counts a tie as half a win", () => {
    expect(value("pairwise", { wins: 3, losses: 1, ties: 2 })).toBeCloseTo(4 / 6, 12);
    expect(value("pairwise", { wins: 0, losses: 0, ties: 5 })).toBe(0.5);
    const empty = normalize("pairwise", { wins: 0, losses: 0, ties: 0 });
    expect(empty.ok).toBe(false);
    const negative = normalize("pairwise", { wins: -1, losses: 0, ties: 1 });
    expect(negative.ok ? [] : negative.issues.map((issue) => issue.path)).toEqual([["raw", "wins"]]);
  });

  it("lower_is_better reproduces the guide's worked example: 12 s against SLO 8 s / 30 s gives 0.818", () => {
    expect(value("lower_is_better", 12, { slo_good: 8, slo_bad: 30 })).toBeCloseTo(0.818, 3);
    expect(value("lower_is_better", 12, { slo_good: 8, slo_bad: 30 })).toBeCloseTo(18 / 22, 12);
  });

  it("lower_is_better clamps beyond the SLOs and needs slo_bad > slo_good", () => {
    expect(value("lower_is_better", 2, { slo_good: 8, slo_bad: 30 })).toBe(1);
    expect(value("lower_is_better", 45, { slo_good: 8, slo_bad: 30 })).toBe(0);
    const missing = normalize("lower_is_better", 5, {});
    expect(missing.ok ? [] : missing.issues.map((issue) => issue.path)).toEqual([["params", "slo_good"], ["params", "slo_bad"]]);
    expect(normalize("lower_is_better", 5, { slo_good: 30, slo_bad: 8 }).ok).toBe(false);
  });

  it("clamp01 keeps 0..1 metrics and clamps outliers", () => {
    expect(value("clamp01", 0.42)).toBe(0.42);
    expect(value("clamp01", 1.3)).toBe(1);
    expect(value("clamp01", -0.2)).toBe(0);
    expect(normalize("clamp01", Number.NaN).ok).toBe(false);
  });

  it("ratio is passed/total and refuses passed > total or total 0", () => {
    expect(value("ratio", { passed: 2, total: 3 })).toBeCloseTo(2 / 3, 12);
    expect(normalize("ratio", { passed: 4, total: 3 }).ok).toBe(false);
    expect(normalize("ratio", { passed: 0, total: 0 }).ok).toBe(false);
  });

  it("every formula's output stays in 0..1 for any raw value it accepts (property)", () => {
    const raws = fc.oneof(
      fc.double({ noNaN: false }),
      fc.integer({ min: -5, max: 10 }),
      fc.record({ wins: fc.nat(50), losses: fc.nat(50), ties: fc.nat(50) }),
      fc.record({ passed: fc.nat(10), total: fc.nat(10) }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...FORMULA_IDS), raws, fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: 0.001, max: 100, noNaN: true }), (formula, raw, good, gap) => {
        const result = normalize(formula, raw, { slo_good: good, slo_bad: good + gap });
        if (!result.ok) return true;
        return result.value >= 0 && result.value <= 1;
      }),
    );
  });
});

describe("small-sample adjustment", () => {
  it("pulls a single sample strongly toward the prior 0.5 with k = 20", () => {
    expect(adjustForSampleSize(1, 1)).toBeCloseTo(11 / 21, 12);
    expect(adjustForSampleSize(0, 1)).toBeCloseTo(10 / 21, 12);
  });

  it("approaches the norm as n grows and gives the prior at n = 0", () => {
    expect(adjustForSampleSize(0.9, 0)).toBe(0.5);
    expect(adjustForSampleSize(0.9, 180)).toBeCloseTo((180 * 0.9 + 10) / 200, 12);
    expect(adjustForSampleSize(0.8, 20, 0.2, 5)).toBeCloseTo((16 + 1) / 25, 12);
  });

  it("stays between norm and prior (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.nat(10_000), (norm, n) => {
        const adjusted = adjustForSampleSize(norm, n);
        return adjusted >= Math.min(norm, 0.5) - 1e-12 && adjusted <= Math.max(norm, 0.5) + 1e-12;
      }),
    );
  });
});
