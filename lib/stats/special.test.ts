import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chiSquareSurvival, erfc, lnGamma, regularizedGammaP, regularizedGammaQ } from "./special";

/** |actual − expected| ≤ tolerance · |expected|: p-values span many orders of magnitude, so compare relatively. */
function expectRelative(actual: number, expected: number, tolerance = 1e-12): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.abs(expected));
}

describe("lnGamma", () => {
  it("matches factorials: Γ(n) = (n − 1)!", () => {
    expect(Math.abs(lnGamma(1))).toBeLessThan(1e-14); // ln 0! = ln 1 = 0
    expect(Math.abs(lnGamma(2))).toBeLessThan(1e-14);
    expectRelative(lnGamma(5), Math.log(24)); // 4! = 24
    expectRelative(lnGamma(11), Math.log(3628800)); // 10! = 3 628 800 (exercises the unshifted branch)
    expectRelative(lnGamma(21), Math.log(2432902008176640000)); // 20!
  });

  it("matches Γ(1/2) = √π and Γ(3/2) = √π / 2", () => {
    expectRelative(lnGamma(0.5), 0.5 * Math.log(Math.PI));
    expectRelative(lnGamma(1.5), 0.5 * Math.log(Math.PI) - Math.LN2);
  });

  it("is NaN outside its domain", () => {
    expect(lnGamma(0)).toBeNaN();
    expect(lnGamma(-1)).toBeNaN();
  });
});

describe("regularized incomplete gamma", () => {
  it("Q(1, x) = e^(−x), on both sides of the series / continued-fraction switch at x = a + 1 = 2", () => {
    for (const x of [0.01, 0.5, 1.9, 2, 2.1, 7, 40]) expectRelative(regularizedGammaQ(1, x), Math.exp(-x), 1e-13);
  });

  it("P + Q = 1 and the endpoints are exact", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 50, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true }), (a, x) => {
        expect(Math.abs(regularizedGammaP(a, x) + regularizedGammaQ(a, x) - 1)).toBeLessThan(1e-12);
      }),
    );
    expect(regularizedGammaP(2, 0)).toBe(0);
    expect(regularizedGammaQ(2, 0)).toBe(1);
    expect(regularizedGammaQ(2, Infinity)).toBe(0);
  });

  it("Q(2, x) = (1 + x) e^(−x)", () => {
    for (const x of [0.3, 2.5, 3, 12]) expectRelative(regularizedGammaQ(2, x), (1 + x) * Math.exp(-x), 1e-13);
  });
});

describe("erfc", () => {
  it("matches tabulated values", () => {
    expect(erfc(0)).toBe(1);
    expectRelative(erfc(0.5), 0.4795001221869535);
    expectRelative(erfc(1), 0.15729920705028513);
    expectRelative(erfc(2), 0.004677734981047266);
    expectRelative(erfc(3), 2.209049699858544e-5);
    expectRelative(erfc(5), 1.5374597944280349e-12, 1e-11);
  });

  it("is reflected about 0: erfc(−x) = 2 − erfc(x)", () => {
    expectRelative(erfc(-1), 2 - 0.15729920705028513);
  });
});

describe("chiSquareSurvival", () => {
  it("gives the textbook critical values for 1 df: 3.8415 → 0.05, 6.6349 → 0.01, 10.8276 → 0.001", () => {
    expectRelative(chiSquareSurvival(3.841458820694124, 1), 0.05, 1e-12);
    expectRelative(chiSquareSurvival(6.634896601021214, 1), 0.01, 1e-12);
    expectRelative(chiSquareSurvival(10.827566170662733, 1), 0.001, 1e-12);
  });

  it("with 1 df equals erfc(√(x/2)), and with 2 df equals e^(−x/2)", () => {
    for (const x of [0.01, 1, 2.25, 50]) {
      expectRelative(chiSquareSurvival(x, 1), erfc(Math.sqrt(x / 2)), 1e-13);
      expectRelative(chiSquareSurvival(x, 2), Math.exp(-x / 2), 1e-13);
    }
  });

  it("is 1 at or below zero", () => {
    expect(chiSquareSurvival(0, 1)).toBe(1);
    expect(chiSquareSurvival(-3, 1)).toBe(1);
  });
});
