import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adjustForSampleSize } from "./formulas";
import { gradeCase } from "./grade";
import { decidePromotion, type PromotionItem } from "./promotion";

/** A turn graded on one floored criterion (0..1) with an optional failed gate. */
function item(key: string, norm: number, options: { gateFailed?: boolean; severe?: boolean } = {}): PromotionItem {
  const result = gradeCase({
    id: key,
    gates: [{ name: "format", passed: !options.gateFailed }],
    criteria: [{ name: "resolve_ratio", formula: "clamp01", raw: norm, weight: 1, critical_floor: 0.7 }],
  });
  if (!result.ok) throw new Error("bad item");
  return { key, result: result.value, severe: options.severe ?? false };
}

const keys = Array.from({ length: 40 }, (_, index) => `T${index}`);

describe("promotion check (§10)", () => {
  it("promotes a candidate that is better on every rule, with each rule's figures", () => {
    const baseline = keys.map((key, index) => item(key, index % 2 === 0 ? 0.6 : 0.9, { gateFailed: index < 4, severe: index < 6 }));
    const candidate = keys.map((key, index) => item(key, index % 4 === 0 ? 0.6 : 0.9, { gateFailed: index < 2, severe: index < 3 }));
    const decision = decidePromotion(candidate, baseline);
    expect(decision.ok).toBe(true);
    if (!decision.ok) return;
    expect(decision.value.verdict).toBe("PROMOTE");
    expect(decision.value.sharedTurns).toBe(40);
    expect(decision.value.gates).toMatchObject({ candidateRate: 0.05, baselineRate: 0.1 });
    expect(decision.value.weighted.verdict).toBe("improved");
    expect(decision.value.weighted.interval.lower).toBeGreaterThan(0);
    expect(decision.value.rules.map((rule) => rule.holds)).toEqual([true, true, true, true]);
    expect(decision.value.rules[0]?.summary).toBe("candidate 5.0% vs baseline 10.0% (-5.0 points; allowed +2.0)");
  });

  it("holds when the gate failure rate rises beyond the threshold", () => {
    const baseline = keys.map((key) => item(key, 0.9));
    const candidate = keys.map((key, index) => item(key, 0.9, { gateFailed: index < 2 }));
    const decision = decidePromotion(candidate, baseline);
    expect(decision.ok && decision.value.verdict).toBe("HOLD");
    expect(decision.ok && decision.value.rules.map((rule) => rule.holds)).toEqual([false, true, true, true]);
    // The same rise is allowed when the threshold is raised.
    const lenient = decidePromotion(candidate, baseline, { maxGateFailureIncrease: 0.05 });
    expect(lenient.ok && lenient.value.rules[0]?.holds).toBe(true);
  });

  it("identical runs are non-inferior (interval [0, 0]) and promote", () => {
    const runs = keys.map((key) => item(key, 0.8));
    const decision = decidePromotion(runs, runs);
    expect(decision.ok && decision.value.weighted).toMatchObject({ verdict: "non-inferior", interval: { lower: 0, upper: 0, observed: 0 } });
    expect(decision.ok && decision.value.verdict).toBe("PROMOTE");
  });

  it("holds on an inferior weighted score, a floor regression and more severe failures", () => {
    const baseline = keys.map((key) => item(key, 0.9));
    const candidate = keys.map((key, index) => item(key, index % 2 === 0 ? 0.5 : 0.9, { severe: index === 0 }));
    const decision = decidePromotion(candidate, baseline);
    expect(decision.ok).toBe(true);
    if (!decision.ok) return;
    expect(decision.value.verdict).toBe("HOLD");
    expect(decision.value.weighted.verdict).toBe("inferior");
    expect(decision.value.floors[0]).toMatchObject({ criterion: "resolve_ratio", candidateMissRate: 0.5, baselineMissRate: 0, regressed: true });
    expect(decision.value.rules.map((rule) => rule.holds)).toEqual([true, false, false, false]);
  });

  it("says why rule 3 holds for a candidate below its floor, and why a regression is one", () => {
    const baseline = keys.map((key) => item(key, 0.5));
    const same = decidePromotion(baseline, baseline);
    expect(same.ok && same.value.rules[2]).toMatchObject({ holds: true });
    expect(same.ok && same.value.rules[2]!.summary).toContain("below the floor, as the baseline is too, and misses up +0.0 points (allowed +");
    const better = keys.map((key) => item(key, 0.9));
    const fell = decidePromotion(baseline, better);
    expect(fell.ok && fell.value.rules[2]).toMatchObject({ holds: false });
    expect(fell.ok && fell.value.rules[2]!.summary).toContain("regressed: the candidate fell below the floor the baseline clears");
  });

  it("compares only shared turns and lists the rest; refuses runs with nothing in common", () => {
    const decision = decidePromotion([item("A", 0.8), item("B", 0.8)], [item("B", 0.8), item("C", 0.8)]);
    expect(decision.ok && decision.value).toMatchObject({ sharedTurns: 1, candidateOnly: ["A"], baselineOnly: ["C"] });
    const none = decidePromotion([item("A", 0.8)], [item("C", 0.8)]);
    expect(none.ok ? "" : none.issues[0]?.code).toBe("no-shared-turns");
  });

  it("is deterministic for a seed", () => {
    const baseline = keys.map((key, index) => item(key, (index % 5) / 5));
    const candidate = keys.map((key, index) => item(key, ((index + 2) % 5) / 5));
    const first = decidePromotion(candidate, baseline, { seed: 7 });
    const second = decidePromotion(candidate, baseline, { seed: 7 });
    expect(first.ok && second.ok && first.value.weighted.interval).toEqual(second.ok ? second.value.weighted.interval : null);
  });

  it("rule 2 decides on the adjusted norm (§4.1): a small sample's raw drop is shrunk toward the prior", () => {
    // Three turns, raw means 85 vs 90: raw −5 points would be inferior with margin 1, adjusted it is −5·3/23.
    const baseline = ["A", "B", "C"].map((key) => item(key, 0.9));
    const candidate = ["A", "B", "C"].map((key) => item(key, 0.85));
    const decision = decidePromotion(candidate, baseline);
    expect(decision.ok).toBe(true);
    if (!decision.ok) return;
    expect(decision.value.weighted.candidateMean - decision.value.weighted.baselineMean).toBeCloseTo(-5, 9);
    expect(decision.value.weighted.interval.observed).toBeCloseTo((-5 * 3) / 23, 9);
    expect(decision.value.weighted.verdict).toBe("non-inferior");
    expect(decision.value.rules[1]?.summary).toMatch(/^adjusted weighted score 54\.57 vs 55\.22 \(§4\.1, k = 20, prior 0\.5; raw means 85\.00 vs 90\.00\)/);
  });

  it("property: rule 2's figures and verdict are those of the adjusted norms, whatever the runs", () => {
    const norms = fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(norms, norms, fc.integer({ min: 0, max: 40 }), fc.double({ min: 0, max: 5, noNaN: true }), (a, b, k, margin) => {
        const n = Math.min(a.length, b.length);
        const candidate = a.slice(0, n).map((value, index) => item(`T${index}`, value / 100));
        const baseline = b.slice(0, n).map((value, index) => item(`T${index}`, value / 100));
        const decision = decidePromotion(candidate, baseline, { priorWeight: k, nonInferiorityMargin: margin, resamples: 200 });
        if (!decision.ok) return false;
        const { weighted } = decision.value;
        const mean = (items: PromotionItem[]) => items.reduce((sum, entry) => sum + entry.result.weighted_100, 0) / n;
        const expectedCandidate = 100 * adjustForSampleSize(mean(candidate) / 100, n, 0.5, k);
        const expectedBaseline = 100 * adjustForSampleSize(mean(baseline) / 100, n, 0.5, k);
        const verdict = weighted.interval.lower > 0 ? "improved" : weighted.interval.lower >= -margin ? "non-inferior" : "inferior";
        return (
          Math.abs(weighted.candidateAdjusted - expectedCandidate) < 1e-9 &&
          Math.abs(weighted.baselineAdjusted - expectedBaseline) < 1e-9 &&
          Math.abs(weighted.interval.observed - (expectedCandidate - expectedBaseline)) < 1e-9 &&
          weighted.verdict === verdict &&
          decision.value.rules[1]!.holds === (verdict !== "inferior")
        );
      }),
      { numRuns: 200 },
    );
  });
});
