import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cohenKappaFromCounts, compareJudges, fleissKappa, reviewAgreement, type JudgeReview, type ReviewItem } from "./agreement";

function review(items: ReviewItem[]): JudgeReview {
  const result = reviewAgreement(items);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const T = true;
const F = false;

// i1 judge pass, annotators unanimous pass           → strict agree
// i2 judge pass, annotators 2 pass / 1 fail          → majority pass, not strict
// i3 judge fail, annotators unanimous fail           → strict agree
// i4 judge fail, annotators unanimous pass           → unanimous against the judge
// i5 judge pass, annotators 1 / 1                    → tie
// i6 judge fail, one annotator, fail                 → strict agree, no inter-annotator information
const SAMPLE: ReviewItem[] = [
  { id: "i1", judge: T, votes: [T, T, T] },
  { id: "i2", judge: T, votes: [T, T, F] },
  { id: "i3", judge: F, votes: [F, F, F] },
  { id: "i4", judge: F, votes: [T, T, T] },
  { id: "i5", judge: T, votes: [T, F] },
  { id: "i6", judge: F, votes: [F] },
];

describe("reviewAgreement", () => {
  const result = review(SAMPLE);

  it("computes strict-unanimity agreement over all items and over unanimous items", () => {
    // Strict: i1, i3, i6 of 6 → 3/6. Unanimous annotators: i1, i3, i4, i6; of those i1, i3, i6 agree → 3/4.
    expect(result.strict).toEqual({ num: 3, den: 6, rate: 0.5 });
    expect(result.strictAmongUnanimous).toEqual({ num: 3, den: 4, rate: 0.75 });
  });

  it("pools every vote for raw agreement", () => {
    // Votes equal to the judge: 3 + 2 + 3 + 0 + 1 + 1 = 10 of 3 + 3 + 3 + 3 + 2 + 1 = 15.
    expect(result.raw).toEqual({ num: 10, den: 15, rate: 10 / 15 });
  });

  it("reports each item's majority, with ties as ties", () => {
    expect(result.items.map((item) => [item.id, item.majority, item.unanimous, item.strictAgree])).toEqual([
      ["i1", T, T, T],
      ["i2", T, F, F],
      ["i3", F, T, T],
      ["i4", T, T, F],
      ["i5", "tie", F, F],
      ["i6", F, T, T],
    ]);
    expect(result.ties).toEqual(["i5"]);
  });

  it("builds the judge × majority matrix with item ids, ties left out, and Cohen's kappa from it", () => {
    expect(result.confusion).toEqual({ passPass: ["i1", "i2"], passFail: [], failPass: ["i4"], failFail: ["i3", "i6"] });
    // a = 2, b = 0, c = 1, d = 2, n = 5: pₒ = 4/5; pₑ = (2·3 + 3·2)/25 = 12/25;
    // κ = (0.8 − 0.48)/(1 − 0.48) = 0.32/0.52 = 8/13 = 2(ad − bc)/((a+b)(b+d) + (a+c)(c+d)) = 8/(4 + 9).
    expect(result.judgeVsMajority).toEqual({ kappa: 8 / 13, observed: 0.8, expected: 12 / 25, n: 5 });
  });

  it("computes Fleiss' kappa over items with two or more votes, generalised to unequal rater counts", () => {
    // Included i1..i5 (i6 has one vote). Pᵢ = Σ nᵢⱼ(nᵢⱼ − 1)/(nᵢ(nᵢ − 1)): i1 6/6, i2 2/6, i3 6/6, i4 6/6, i5 0/2.
    // P̄ = (1 + 1/3 + 1 + 1 + 0)/5 = 2/3. Pass share p = 9/14, q = 5/14: Pₑ = (81 + 25)/196 = 53/98, 1 − Pₑ = 45/98.
    // κ = (2/3 − 53/98)/(45/98) = (37/294)·(98/45) = 37/135.
    expect(result.annotators.excluded).toEqual(["i6"]);
    expect(result.annotators.items).toBe(5);
    expect(result.annotators.fixedRaters).toBe(false);
    expect(result.annotators.result.kappa).toBeCloseTo(37 / 135, 15);
    expect(result.annotators.result.observed).toBeCloseTo(2 / 3, 15);
    expect(result.annotators.result.expected).toBeCloseTo(53 / 98, 15);
  });

  it("lists the items where any annotator disagrees with the judge", () => {
    expect(result.disagreements.map((item) => [item.id, item.yes, item.no])).toEqual([
      ["i2", 2, 1],
      ["i4", 3, 0],
      ["i5", 1, 1],
    ]);
  });

  it("gives null rates and kappas for zero items", () => {
    const empty = review([]);
    expect(empty.strict).toEqual({ num: 0, den: 0, rate: null });
    expect(empty.strictAmongUnanimous.rate).toBeNull();
    expect(empty.raw.rate).toBeNull();
    expect(empty.judgeVsMajority).toEqual({ kappa: null, reason: "no-items", observed: null, expected: null, n: 0 });
    expect(empty.annotators.result).toMatchObject({ kappa: null, reason: "no-items" });
    expect(empty.disagreements).toEqual([]);
  });

  it("gives kappa 1 when everyone agrees on both verdicts", () => {
    const all = review([
      { id: "a", judge: T, votes: [T, T, T] },
      { id: "b", judge: F, votes: [F, F, F] },
    ]);
    expect(all.strict.rate).toBe(1);
    expect(all.raw.rate).toBe(1);
    // a = 1, d = 1: 2(1 − 0)/(1·1 + 1·1) = 1. Fleiss: P̄ = 1, p = q = 1/2, κ = (1 − 1/2)/(1/2) = 1.
    expect(all.judgeVsMajority.kappa).toBe(1);
    expect(all.annotators.result.kappa).toBe(1);
    expect(all.disagreements).toEqual([]);
  });

  it("returns null kappas with a reason, not NaN, when there is no variance", () => {
    // Every verdict is "pass": pₑ = 1, so (pₒ − pₑ)/(1 − pₑ) would be 0/0.
    const same = review([
      { id: "a", judge: T, votes: [T, T, T] },
      { id: "b", judge: T, votes: [T, T, T] },
    ]);
    expect(same.strict.rate).toBe(1);
    expect(same.judgeVsMajority).toEqual({ kappa: null, reason: "no-variance", observed: 1, expected: 1, n: 2 });
    expect(same.annotators.result).toMatchObject({ kappa: null, reason: "no-variance", observed: 1, expected: 1 });
  });

  it("handles a single item", () => {
    // Agreeing: judge and majority both "pass" → pₑ = 1 → undefined.
    expect(review([{ id: "x", judge: T, votes: [T, T, T] }]).judgeVsMajority).toMatchObject({ kappa: null, reason: "no-variance" });
    // Disagreeing: b = 1 alone → pₒ = 0, pₑ = (1·0 + 0·1)/1 = 0 → κ = 0; strict agreement 0/1.
    const against = review([{ id: "x", judge: T, votes: [F, F, F] }]);
    expect(against.judgeVsMajority).toEqual({ kappa: 0, observed: 0, expected: 0, n: 1 });
    expect(against.strict).toEqual({ num: 0, den: 1, rate: 0 });
    expect(against.disagreements.map((item) => item.id)).toEqual(["x"]);
  });

  it("refuses items without votes and duplicate ids", () => {
    const noVotes = reviewAgreement([{ id: "a", judge: T, votes: [] }]);
    expect(noVotes.ok || noVotes.issues.map((found) => [found.code, found.path])).toEqual([["invalid-review-item", [0, "votes"]]]);
    const duplicate = reviewAgreement([
      { id: "a", judge: T, votes: [T] },
      { id: "a", judge: F, votes: [F] },
    ]);
    expect(duplicate.ok || duplicate.issues.map((found) => found.code)).toEqual(["duplicate-id"]);
  });
});

describe("fleissKappa", () => {
  it("is Fleiss' statistic for a fixed number of raters (worked by hand)", () => {
    // Three raters, votes pass counts 3, 2, 0, 1: Pᵢ = 1, 1/3, 1, 1/3 → P̄ = 2/3; p = 6/12 → Pₑ = 1/2;
    // κ = (2/3 − 1/2)/(1/2) = 1/3.
    const result = fleissKappa([
      { id: "a", votes: [T, T, T] },
      { id: "b", votes: [T, T, F] },
      { id: "c", votes: [F, F, F] },
      { id: "d", votes: [T, F, F] },
    ]);
    expect(result.fixedRaters).toBe(true);
    expect(result.result.kappa).toBeCloseTo(1 / 3, 15);
  });

  it("says why it is undefined when no item has two raters", () => {
    expect(fleissKappa([{ id: "a", votes: [T] }]).result).toMatchObject({ kappa: null, reason: "too-few-raters" });
  });

  it("never exceeds 1 (property)", () => {
    const item = fc.array(fc.boolean(), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 30 }), (votes) => {
        const { result } = fleissKappa(votes.map((v, index) => ({ id: String(index), votes: v })));
        if (result.kappa !== null) expect(result.kappa).toBeLessThanOrEqual(1 + 1e-12);
        else expect(["no-items", "no-variance", "too-few-raters"]).toContain(result.reason);
      }),
    );
  });
});

describe("cohenKappaFromCounts", () => {
  it("equals (pₒ − pₑ)/(1 − pₑ), lies in [−1, 1], and is null exactly when pₑ = 1 (property)", () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(50), fc.nat(50), fc.nat(50), (a, b, c, d) => {
        const result = cohenKappaFromCounts(a, b, c, d);
        const n = a + b + c + d;
        if (result.kappa === null) {
          expect(n === 0 || (a + b) * (b + d) + (a + c) * (c + d) === 0).toBe(true);
          return;
        }
        const po = (a + d) / n;
        const pe = ((a + b) * (a + c) + (c + d) * (b + d)) / (n * n);
        expect(result.kappa).toBeCloseTo((po - pe) / (1 - pe), 10);
        expect(result.kappa).toBeLessThanOrEqual(1);
        expect(result.kappa).toBeGreaterThanOrEqual(-1);
      }),
    );
  });
});

describe("compareJudges", () => {
  it("computes raw agreement, Cohen's kappa and the confusion matrix of two judges", () => {
    // a (both pass) = p1, p5, p7; b = p2; c = p6; d = p3, p4, p8. Agreement 6/8.
    // pₑ = (4·4 + 4·4)/64 = 1/2 → κ = (3/4 − 1/2)/(1/2) = 1/2 = 2(9 − 1)/(4·4 + 4·4).
    const result = compareJudges([
      { id: "p1", a: T, b: T },
      { id: "p2", a: T, b: F },
      { id: "p3", a: F, b: F },
      { id: "p4", a: F, b: F },
      { id: "p5", a: T, b: T },
      { id: "p6", a: F, b: T },
      { id: "p7", a: T, b: T },
      { id: "p8", a: F, b: F },
    ]);
    expect(result).toEqual({
      ok: true,
      value: {
        agreement: { num: 6, den: 8, rate: 0.75 },
        kappa: { kappa: 0.5, observed: 0.75, expected: 0.5, n: 8 },
        confusion: { passPass: ["p1", "p5", "p7"], passFail: ["p2"], failPass: ["p6"], failFail: ["p3", "p4", "p8"] },
      },
    });
  });

  it("gives kappa 0, not a negative or undefined value, when constant judges always disagree", () => {
    // a = d = 0, b = 2: pₒ = 0 and pₑ = (2·0 + 0·2)/4 = 0 → κ = 0; chance alone predicts no agreement either.
    const result = compareJudges([
      { id: "x", a: T, b: F },
      { id: "y", a: T, b: F },
    ]);
    expect(result.ok && result.value.kappa).toEqual({ kappa: 0, observed: 0, expected: 0, n: 2 });
  });

  it("handles zero items and refuses duplicate ids", () => {
    const empty = compareJudges([]);
    expect(empty.ok && empty.value).toEqual({
      agreement: { num: 0, den: 0, rate: null },
      kappa: { kappa: null, reason: "no-items", observed: null, expected: null, n: 0 },
      confusion: { passPass: [], passFail: [], failPass: [], failFail: [] },
    });
    const duplicate = compareJudges([
      { id: "x", a: T, b: T },
      { id: "x", a: T, b: T },
    ]);
    expect(duplicate.ok || duplicate.issues.map((found) => found.code)).toEqual(["duplicate-id"]);
  });
});
