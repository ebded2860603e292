import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bootstrapDifference,
  bootstrapMeanDifference,
  comparePaired,
  discordantItems,
  exactMcNemarTest,
  mcnemarTest,
  mulberry32,
  pairedCounts,
  pairItems,
  type BootstrapInterval,
  type McNemarResult,
  type PairedItem,
} from "./paired";
import { chiSquareSurvival } from "./special";

function mcnemar(b: number, c: number, exactBelow?: number): McNemarResult {
  const result = mcnemarTest(b, c, exactBelow === undefined ? {} : { exactBelow });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

function bootstrap(pairs: PairedItem[], options: Parameters<typeof bootstrapDifference>[1] = {}): BootstrapInterval | null {
  const result = bootstrapDifference(pairs, options);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

/** Builds items of each kind: both pass, only A, only B, both fail. */
function items(bothPass: number, aOnly: number, bOnly: number, bothFail: number): PairedItem[] {
  const kinds: [number, boolean, boolean][] = [
    [bothPass, true, true],
    [aOnly, true, false],
    [bOnly, false, true],
    [bothFail, false, false],
  ];
  return kinds.flatMap(([count, a, b], kind) => Array.from({ length: count }, (_, i) => ({ id: `k${kind}-${i}`, a, b })));
}

/** 2·Σ_{i ≤ m} C(n, i) / 2ⁿ in exact integer arithmetic, as an independent reference for the exact test. */
function exactTwoSided(m: number, n: number): number {
  let coefficient = 1n;
  let sum = 1n;
  for (let i = 0; i < m; i += 1) {
    coefficient = (coefficient * BigInt(n - i)) / BigInt(i + 1);
    sum += coefficient;
  }
  const scaled = (2n * sum * 2n ** 64n) / 2n ** BigInt(n);
  return Math.min(1, Number(scaled) / 2 ** 64);
}

describe("pairItems", () => {
  it("joins by id and reports the items only one model has", () => {
    const result = pairItems(
      [
        { id: "t1", passed: true },
        { id: "t2", passed: false },
        { id: "t3", passed: true },
      ],
      [
        { id: "t2", passed: true },
        { id: "t3", passed: true },
        { id: "t4", passed: false },
      ],
    );
    expect(result).toEqual({
      ok: true,
      value: {
        pairs: [
          { id: "t2", a: false, b: true },
          { id: "t3", a: true, b: true },
        ],
        onlyA: ["t1"],
        onlyB: ["t4"],
      },
    });
  });

  it("refuses duplicate ids and says on which side", () => {
    const result = pairItems(
      [
        { id: "t1", passed: true },
        { id: "t1", passed: false },
      ],
      [],
    );
    expect(result.ok || result.issues).toEqual([expect.objectContaining({ code: "duplicate-id", path: ["a", 1, "id"] })]);
  });
});

describe("discordantItems and pairedCounts", () => {
  it("lists exactly the items one model passes and counts each kind", () => {
    const pairs: PairedItem[] = [
      { id: "x", a: true, b: false },
      { id: "y", a: false, b: true },
      { id: "z", a: true, b: true },
      { id: "w", a: false, b: false },
      { id: "v", a: true, b: false },
    ];
    expect(discordantItems(pairs)).toEqual({ aOnly: ["x", "v"], bOnly: ["y"] });
    expect(pairedCounts(pairs)).toEqual({ n: 5, bothPass: 1, aOnly: 2, bOnly: 1, bothFail: 1 });
  });
});

describe("mcnemarTest", () => {
  it("uses the exact binomial test for few discordant items", () => {
    // b = 2, c = 8, n = 10: P(X ≤ 2) = (C(10,0) + C(10,1) + C(10,2)) / 2¹⁰ = (1 + 10 + 45) / 1024 = 56/1024;
    // two-sided = 2 · 56/1024 = 0.109375.
    expect(mcnemar(2, 8)).toEqual({ b: 2, c: 8, method: "exact-binomial", statistic: 2, pValue: 0.109375 });
    // b = 0, c = 5: 2 · 1/32 = 0.0625.
    expect(mcnemar(0, 5).pValue).toBe(0.0625);
  });

  it("caps the doubled tail at 1 when b = c, and gives p = 1 with no discordant items", () => {
    // b = c = 3: 2 · (1 + 6 + 15 + 20)/64 = 1.3125, which counts the middle term twice → 1.
    expect(mcnemar(3, 3).pValue).toBe(1);
    expect(mcnemar(0, 0)).toEqual({ b: 0, c: 0, method: "exact-binomial", statistic: 0, pValue: 1 });
  });

  it("switches to the continuity-corrected chi-square at b + c ≥ 25", () => {
    // b = 30, c = 12: (|30 − 12| − 1)² / 42 = 289/42 = 6.8810, between the 1-df critical values 6.635 (p = .01)
    // and 7.879 (p = .005); p = erfc(√(6.8810 / 2)) ≈ 0.0087119.
    const result = mcnemar(30, 12);
    expect(result.method).toBe("chi-square-continuity");
    expect(result.statistic).toBeCloseTo(289 / 42, 14);
    expect(result.pValue).toBeCloseTo(0.0087119, 7);
    expect(result.pValue).toBe(chiSquareSurvival(289 / 42, 1));
    // The edge of the switch: 24 discordant items stay exact, 25 do not.
    expect(mcnemar(12, 12).method).toBe("exact-binomial");
    expect(mcnemar(12, 13).method).toBe("chi-square-continuity");
  });

  it("floors the continuity correction at zero: b = c gives statistic 0 and p = 1", () => {
    expect(mcnemar(20, 20)).toMatchObject({ method: "chi-square-continuity", statistic: 0, pValue: 1 });
  });

  it("computes exact tails for large n that match exact integer arithmetic", () => {
    // n = 60 uses integer coefficients, n = 250 the log-scaled ratio sum.
    expect(Math.abs(mcnemar(10, 50, 61).pValue - exactTwoSided(10, 60))).toBeLessThan(1e-12 * exactTwoSided(10, 60));
    expect(mcnemar(10, 50, 61).pValue).toBeCloseTo(1.6163814566e-7, 16);
    const large = mcnemar(100, 150, 1000);
    expect(large.method).toBe("exact-binomial");
    expect(Math.abs(large.pValue - exactTwoSided(100, 250))).toBeLessThan(1e-10 * exactTwoSided(100, 250));
    // The chi-square approximation is close to the exact value at this size: both ≈ 0.0019.
    expect(mcnemar(100, 150).pValue).toBeCloseTo(large.pValue, 3);
  });

  it("refuses non-count input", () => {
    const result = mcnemarTest(-1, 2.5);
    expect(result.ok || result.issues.map((found) => found.code)).toEqual(["invalid-count"]);
  });
});

describe("exactMcNemarTest", () => {
  const exact = (b: number, c: number): McNemarResult => {
    const result = exactMcNemarTest(b, c);
    if (!result.ok) throw new Error(result.issues.map((found) => found.message).join("; "));
    return result.value;
  };

  it("gives the hand-computed two-sided binomial tails", () => {
    // b = 1, c = 4: P(X ≤ 1 | n = 5) = (1 + 5) / 32, doubled = 12/32.
    expect(exactMcNemarTest(1, 4)).toEqual({ ok: true, value: { b: 1, c: 4, method: "exact-binomial", statistic: 1, pValue: 0.375 } });
    // b = 0, c = 6: 2 · 1/64.
    expect(exact(0, 6)).toMatchObject({ pValue: 2 / 64 });
    // b = 3, c = 1 is symmetric to b = 1, c = 3: 2 · (1 + 4) / 16 = 10/16.
    expect(exact(3, 1)).toMatchObject({ statistic: 1, pValue: 0.625 });
    // b = c = 2: the doubled tail 2 · 11/16 exceeds 1 and is capped.
    expect(exact(2, 2)).toMatchObject({ pValue: 1 });
  });

  it("stays exact where the default switches to chi-square", () => {
    // b = 0, c = 30: exactly 2 / 2³⁰, whereas mcnemarTest would use the chi-square approximation.
    expect(exact(0, 30)).toMatchObject({ method: "exact-binomial", pValue: 2 / 2 ** 30 });
    expect(mcnemar(0, 30).method).toBe("chi-square-continuity");
    expect(exactMcNemarTest(-1, 3).ok).toBe(false);
  });
});

describe("mulberry32", () => {
  it("is deterministic per seed, stays in [0, 1) and is roughly uniform", () => {
    const first = mulberry32(42);
    const second = mulberry32(42);
    const draws = Array.from({ length: 10_000 }, () => first());
    expect(Array.from({ length: 10_000 }, () => second())).toEqual(draws);
    expect(draws.filter((u) => !(u >= 0 && u < 1))).toEqual([]);
    // Mean of 10 000 uniforms: 0.5 with standard error √(1/12 / 10 000) ≈ 0.0029.
    expect(Math.abs(draws.reduce((sum, u) => sum + u, 0) / draws.length - 0.5)).toBeLessThan(0.015);
    expect(mulberry32(43)()).not.toBe(mulberry32(42)());
  });
});

describe("bootstrapDifference", () => {
  it("centres on the observed difference and has about the normal-theory width for a large sample", () => {
    // 400 items: 60 only A, 20 only B, 320 concordant → observed d = (60 − 20)/400 = 0.1.
    // Per-item contribution x ∈ {+1, −1, 0}: Var = E[x²] − d² = 80/400 − 0.01 = 0.19; SE = √(0.19/400) = 0.021794;
    // a 95% interval is about 0.1 ± 1.96 · 0.021794 = [0.0573, 0.1427].
    const result = bootstrap(items(150, 60, 20, 170));
    expect(result?.observed).toBeCloseTo(0.1, 15);
    expect(result?.lower).toBeCloseTo(0.0573, 2);
    expect(result?.upper).toBeCloseTo(0.1427, 2);
    expect(result).toMatchObject({ n: 400, resamples: 2000, confidence: 0.95, seed: 1 });
  });

  it("is reproducible for a seed and changes with it", () => {
    const pairs = items(5, 4, 2, 9);
    expect(bootstrap(pairs, { seed: 7 })).toEqual(bootstrap(pairs, { seed: 7 }));
    expect(bootstrap(pairs, { seed: 7 })).not.toEqual(bootstrap(pairs, { seed: 8 }));
  });

  it("collapses to the observed value when every item is the same kind", () => {
    // Every resample of 6 "only A" items has difference 6/6 = 1.
    expect(bootstrap(items(0, 6, 0, 0), { resamples: 50 })).toMatchObject({ observed: 1, lower: 1, upper: 1 });
    expect(bootstrap(items(3, 0, 0, 4), { resamples: 50 })).toMatchObject({ observed: 0, lower: 0, upper: 0 });
  });

  it("narrows with lower confidence", () => {
    const pairs = items(30, 12, 6, 40);
    const wide = bootstrap(pairs, { confidence: 0.99 });
    const narrow = bootstrap(pairs, { confidence: 0.8 });
    expect((narrow?.upper ?? 0) - (narrow?.lower ?? 0)).toBeLessThan((wide?.upper ?? 0) - (wide?.lower ?? 0));
  });

  it("returns null without items and refuses bad options", () => {
    expect(bootstrapDifference([])).toEqual({ ok: true, value: null });
    const result = bootstrapDifference(items(1, 1, 1, 1), { resamples: 0, confidence: 1, seed: 0.5 });
    expect(result.ok || result.issues.map((found) => found.code)).toEqual(["invalid-resamples", "invalid-confidence", "invalid-seed"]);
  });

  it("contains the observed difference for a large sample and stays within [−1, 1] (property)", () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(80), fc.nat(80), fc.nat(80), fc.nat(80)).filter(([p, a, b, f]) => p + a + b + f >= 100),
        fc.integer({ min: 0, max: 2 ** 31 }),
        ([p, a, b, f], seed) => {
          const result = bootstrap(items(p, a, b, f), { resamples: 400, seed });
          if (result === null) throw new Error("items were given");
          expect(result.lower).toBeGreaterThanOrEqual(-1);
          expect(result.upper).toBeLessThanOrEqual(1);
          expect(result.lower).toBeLessThanOrEqual(result.observed);
          expect(result.upper).toBeGreaterThanOrEqual(result.observed);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("comparePaired", () => {
  it("puts rates, their difference, the test and the discordant items together", () => {
    // 10 items: 3 both pass, 4 only A, 1 only B, 2 both fail.
    // rate A = (3 + 4)/10 = 0.7, rate B = (3 + 1)/10 = 0.4, difference = (4 − 1)/10 = 0.3;
    // McNemar exact with b = 4, c = 1: 2 · (C(5,0) + C(5,1))/32 = 2 · 6/32 = 0.375.
    const result = comparePaired(items(3, 4, 1, 2), { resamples: 200 });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.value.rateA).toEqual({ num: 7, den: 10, rate: 0.7 });
    expect(result.value.rateB).toEqual({ num: 4, den: 10, rate: 0.4 });
    expect(result.value.difference).toBeCloseTo(0.3, 15);
    expect(result.value.mcnemar).toMatchObject({ b: 4, c: 1, pValue: 0.375 });
    expect(result.value.discordant).toEqual({ aOnly: ["k1-0", "k1-1", "k1-2", "k1-3"], bOnly: ["k2-0"] });
    expect(result.value.bootstrap?.resamples).toBe(200);
  });

  it("handles no items: null difference and interval, p = 1", () => {
    const result = comparePaired([]);
    expect(result.ok && result.value).toMatchObject({ difference: null, bootstrap: null, mcnemar: { pValue: 1 }, rateA: { rate: null } });
  });

  it("passes option issues through and refuses duplicate ids", () => {
    const bad = comparePaired(items(1, 0, 0, 0), { resamples: -1 });
    expect(bad.ok || bad.issues.map((found) => found.code)).toEqual(["invalid-resamples"]);
    const duplicate = comparePaired([
      { id: "a", a: true, b: true },
      { id: "a", a: false, b: true },
    ]);
    expect(duplicate.ok || duplicate.issues.map((found) => found.code)).toEqual(["duplicate-id"]);
  });
});

describe("bootstrapMeanDifference", () => {
  it("brackets the observed mean difference and is reproducible for a seed", () => {
    const differences = Array.from({ length: 50 }, (_, index) => (index % 5) - 1);
    const first = bootstrapMeanDifference(differences, { seed: 3 });
    const second = bootstrapMeanDifference(differences, { seed: 3 });
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok || !first.value) return;
    expect(first.value.observed).toBeCloseTo(1, 12);
    expect(first.value.lower).toBeLessThan(1);
    expect(first.value.upper).toBeGreaterThan(1);
    expect(second.value).toEqual(first.value);
  });

  it("gives null without items and refuses non-finite differences", () => {
    expect(bootstrapMeanDifference([])).toEqual({ ok: true, value: null });
    expect(bootstrapMeanDifference([1, Number.NaN]).ok).toBe(false);
  });
});
