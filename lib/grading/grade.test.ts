import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { bandOf, gradeCase, GRADES, type CriterionInput, type GradeInput, type GradeResult } from "./grade";

function grade(input: Partial<GradeInput> & Pick<GradeInput, "criteria">): GradeResult {
  const result = gradeCase({ id: "case", gates: [], ...input });
  if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join("; "));
  return result.value;
}

/** One clamp01 criterion whose norm is exactly score/100, so the weighted score is that score. */
function scoreOf(score: number, extra: Partial<CriterionInput> = {}): CriterionInput {
  return { name: "quality", formula: "clamp01", raw: score / 100, weight: 1, ...extra };
}

describe("bands", () => {
  it.each([
    [100, "A"], [90, "A"], [89.99, "B"], [80, "B"], [79.99, "C"], [70, "C"], [69.99, "D"], [60, "D"], [59.99, "F"], [0, "F"],
  ])("%s is %s", (score, expected) => {
    expect(bandOf(score)).toBe(expected);
    expect(grade({ criteria: [scoreOf(score)] }).grade).toBe(expected);
  });
});

describe("§5.1 grading algorithm", () => {
  it("aggregates weights to 0–100 with two decimals", () => {
    const result = grade({
      criteria: [
        { name: "correctness", formula: "likert_1_5", raw: 4, weight: 0.35 },
        { name: "latency", formula: "lower_is_better", raw: 12, weight: 0.1, params: { slo_good: 8, slo_bad: 30 } },
        { name: "tests", formula: "ratio", raw: { passed: 2, total: 3 }, weight: 0.55 },
      ],
    });
    const expected = (0.35 * 0.75 + 0.1 * (18 / 22) + 0.55 * (2 / 3)) / 1.0;
    expect(result.weighted_0_1).toBeCloseTo(expected, 12);
    expect(result.weighted_100).toBe(Math.round(expected * 10000) / 100);
    expect(result.weighted_100).toBe(71.1);
  });

  it("a failed hard gate forces F and passed=false but keeps the weighted score", () => {
    const result = grade({ gates: [{ name: "format", passed: true }, { name: "graph", passed: false, reason: "conversion failed" }], criteria: [scoreOf(95)] });
    expect(result.grade).toBe("F");
    expect(result.band_grade).toBe("A");
    expect(result.passed).toBe(false);
    expect(result.weighted_100).toBe(95);
    expect(result.gate_failures).toEqual(["graph"]);
    expect(result.reasons).toContain("hard_gate_failure: graph (conversion failed)");
    expect(result.explanation).toMatch(/^F: release-blocking/);
  });

  it("a gate not reached (null) is not a failure", () => {
    const result = grade({ gates: [{ name: "judge", passed: null, reason: "not reached" }], criteria: [scoreOf(85)] });
    expect(result.gate_failures).toEqual([]);
    expect(result.grade).toBe("B");
    expect(result.passed).toBe(true);
  });

  it("a missed critical floor caps the grade at D and fails the pass", () => {
    const result = grade({
      criteria: [
        { name: "correctness", formula: "clamp01", raw: 0.6, weight: 1, critical_floor: 0.7 },
        { name: "docs", formula: "clamp01", raw: 1, weight: 9 },
      ],
    });
    expect(result.weighted_100).toBe(96);
    expect(result.band_grade).toBe("A");
    expect(result.grade).toBe("D");
    expect(result.passed).toBe(false);
    expect(result.floor_failures).toEqual(["correctness"]);
    expect(result.reasons).toContain("critical_floor_missed: correctness (0.6 < 0.7)");
    expect(result.explanation).toMatch(/^D: grade capped/);
  });

  it("the floor cap never raises a grade: an F band with a floor miss stays F", () => {
    const result = grade({ criteria: [{ name: "correctness", formula: "clamp01", raw: 0.3, weight: 1, critical_floor: 0.7 }] });
    expect(result.grade).toBe("F");
    expect(result.passed).toBe(false);
  });

  it("a norm exactly at the floor does not miss it", () => {
    const result = grade({ criteria: [{ name: "correctness", formula: "clamp01", raw: 0.7, weight: 1, critical_floor: 0.7 }] });
    expect(result.floor_failures).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.grade).toBe("C");
  });

  it("passes at the threshold and fails just below it; the threshold is configurable", () => {
    expect(grade({ criteria: [scoreOf(70)] }).passed).toBe(true);
    const below = grade({ criteria: [scoreOf(69.99)] });
    expect(below.passed).toBe(false);
    expect(below.reasons).toContain("below_pass_threshold: 69.99 < 70");
    expect(grade({ criteria: [scoreOf(85)], pass_threshold: 90 }).passed).toBe(false);
    expect(grade({ criteria: [scoreOf(65)], pass_threshold: 60 }).passed).toBe(true);
  });

  it("stores the small-sample adjustment beside the norm using sample_count", () => {
    const single = grade({ criteria: [scoreOf(100)] });
    expect(single.criteria[0]?.norm).toBe(1);
    expect(single.criteria[0]?.adjusted_norm).toBeCloseTo(11 / 21, 12);
    const many = grade({ criteria: [scoreOf(100)], sample_count: 80 });
    expect(many.criteria[0]?.adjusted_norm).toBeCloseTo(90 / 100, 12);
  });

  it("leaves not-applicable criteria out of the weights and says why", () => {
    const result = grade({
      criteria: [scoreOf(80), { name: "latency", formula: "lower_is_better", raw: null, weight: 1, notApplicable: "the run records no latency" }],
    });
    expect(result.weighted_100).toBe(80);
    expect(result.criteria[1]?.applicable).toBe(false);
    expect(result.reasons).toContain("not_applicable: latency (the run records no latency)");
    expect(result.explanation).toContain("latency — the run records no latency");
  });

  it("names the criterion index and field of a bad raw value", () => {
    const result = gradeCase({ id: "x", gates: [], criteria: [scoreOf(50), { name: "latency", formula: "lower_is_better", raw: 3, weight: 1 }] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toEqual([["criteria", 1, "params", "slo_good"], ["criteria", 1, "params", "slo_bad"]]);
  });

  it("refuses a floor off the normalised scale, duplicate names and an all-zero weight", () => {
    expect(gradeCase({ id: "x", gates: [], criteria: [scoreOf(50, { critical_floor: 3 })] }).ok).toBe(false);
    expect(gradeCase({ id: "x", gates: [], criteria: [scoreOf(50), scoreOf(60)] }).ok).toBe(false);
    expect(gradeCase({ id: "x", gates: [], criteria: [scoreOf(50, { weight: 0 })] }).ok).toBe(false);
  });

  it("explains each band from the §5.2 checklist", () => {
    expect(grade({ criteria: [scoreOf(95, { critical_floor: 0.7 })] }).explanation).toMatch(/^A: all hard gates pass, every critical floor is cleared by at least 0.1/);
    expect(grade({ criteria: [scoreOf(85)] }).explanation).toMatch(/^B: .*80–89.99/);
    expect(grade({ criteria: [scoreOf(75, { critical_floor: 0.7 })] }).explanation).toMatch(/^C: .*near the boundary for quality \(0.75 vs 0.7\)/);
    expect(grade({ criteria: [scoreOf(65)] }).explanation).toMatch(/^D: .*material quality gaps/);
    expect(grade({ criteria: [scoreOf(40)] }).explanation).toMatch(/^F: all hard gates pass, but the weighted score 40 is below 60/);
  });

  it("grade is monotone in the weighted score when gates and floors pass (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (x, y) => {
        const [low, high] = x <= y ? [x, y] : [y, x];
        const gLow = grade({ gates: [{ name: "g", passed: true }], criteria: [{ name: "q", formula: "clamp01", raw: low, weight: 1, critical_floor: 0 }] });
        const gHigh = grade({ gates: [{ name: "g", passed: true }], criteria: [{ name: "q", formula: "clamp01", raw: high, weight: 1, critical_floor: 0 }] });
        return GRADES.indexOf(gHigh.grade) <= GRADES.indexOf(gLow.grade) && (!gLow.passed || gHigh.passed);
      }),
    );
  });

  it("weighted score stays in 0..100 and norms in 0..1 for mixed criteria (property)", () => {
    const criterion = fc.oneof(
      fc.integer({ min: 1, max: 5 }).map((raw) => ({ formula: "likert_1_5" as const, raw })),
      fc.double({ min: -10, max: 10, noNaN: true }).map((raw) => ({ formula: "clamp01" as const, raw })),
      fc.double({ min: 0, max: 100, noNaN: true }).map((raw) => ({ formula: "lower_is_better" as const, raw, params: { slo_good: 8, slo_bad: 30 } })),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(criterion, fc.double({ min: 0.01, max: 5, noNaN: true })), { minLength: 1, maxLength: 6 }), (list) => {
        const result = grade({ criteria: list.map(([c, weight], index) => ({ name: `c${index}`, weight, ...c })) });
        const outside = (value: number, max: number) => value < 0 || value > max;
        expect(outside(result.weighted_100, 100), `weighted ${result.weighted_100}`).toBe(false);
        expect(result.criteria.filter((c) => c.norm === null || outside(c.norm, 1)).map((c) => c.norm)).toEqual([]);
      }),
    );
  });
});

describe("§5.2 placement checks for an A", () => {
  const floored = (norm: number): CriterionInput[] => [
    { name: "correctness", formula: "clamp01", raw: norm, weight: 1, critical_floor: 0.7 },
    { name: "docs", formula: "clamp01", raw: 1, weight: 9 },
  ];

  it("an A needs every floor cleared by 0.10: 0.75 against 0.70 lands in B with the check named", () => {
    const result = grade({ criteria: floored(0.75) });
    expect(result.band_grade).toBe("A");
    expect(result.grade).toBe("B");
    expect(result.passed).toBe(true);
    expect(result.reasons).toContain("a_withheld_floor_margin: correctness 0.75 < floor 0.7 + 0.1");
    expect(result.placement.find((check) => check.check === "floor_margin")?.holds).toBe(false);
    expect(result.explanation).toMatch(/^B: the weighted score 97.5 is in 90–100, but §5.2 withholds an A: floors not cleared by 0.1/);
  });

  it("a floor cleared by the margin keeps the A", () => {
    const result = grade({ criteria: floored(0.8) });
    expect(result.grade).toBe("A");
    expect(result.placement.map((check) => check.holds)).toEqual([true, null]);
  });

  it("judge disagreement above its limit withholds an A; within it the A stands", () => {
    const split = grade({ criteria: [scoreOf(95)], judge_disagreement: { value: 1 / 3, limit: 0.1, detail: "2 of 3 samples say pass" } });
    expect(split.grade).toBe("B");
    expect(split.reasons).toContain("a_withheld_judge_disagreement: 2 of 3 samples say pass: disagreement 0.33 > 0.1");
    const unanimous = grade({ criteria: [scoreOf(95)], judge_disagreement: { value: 0, limit: 0.1, detail: "3 of 3 samples say pass" } });
    expect(unanimous.grade).toBe("A");
  });

  it("the checks never lift or lower any grade but A (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (norm, disagreement) => {
        const result = grade({ criteria: floored(norm), judge_disagreement: { value: disagreement, limit: 0.1, detail: "samples" } });
        if (result.band_grade !== "A" || result.floor_failures.length > 0) return result.grade === (result.floor_failures.length > 0 ? (result.band_grade === "F" ? "F" : "D") : result.band_grade);
        return result.grade === (norm >= 0.8 - 1e-12 && disagreement <= 0.1 + 1e-12 ? "A" : "B");
      }),
    );
  });
});
