import { describe, expect, it } from "vitest";
import { gradeCases, parseGradeCases } from "./cases";

const good = {
  id: "t1",
  hard_gates: { schema_contract_valid: true },
  criteria: [
    { name: "correctness", formula: "likert_1_5", raw: 5, weight: 0.5, critical_floor: 0.7 },
    { name: "latency", formula: "lower_is_better", raw: 12, weight: 0.25, params: { slo_good: 8, slo_bad: 30 } },
    { name: "preference", formula: "pairwise", raw: { wins: 3, losses: 1, ties: 0 }, weight: 0.25 },
  ],
};

describe("grade --input contract", () => {
  it("grades a valid list into the contract's result shape", () => {
    const parsed = parseGradeCases([good, { ...good, id: "t2", hard_gates: { schema_contract_valid: false }, sample_count: 4 }]);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const graded = gradeCases(parsed.value);
    expect(graded.ok).toBe(true);
    if (!graded.ok) return;
    const [first, second] = graded.value.results;
    expect(Object.keys(first ?? {})).toEqual(["id", "passed", "grade", "weighted_100", "gate_failures", "floor_failures", "criteria", "reasons"]);
    expect(first).toMatchObject({ id: "t1", passed: true, grade: "B", weighted_100: 89.2, gate_failures: [], floor_failures: [] });
    expect(first?.criteria.map((c) => c.name)).toEqual(["correctness", "latency", "preference"]);
    expect(first?.criteria[1]?.norm).toBeCloseTo(0.818, 3);
    expect(second).toMatchObject({ id: "t2", passed: false, grade: "F", weighted_100: 89.2, gate_failures: ["schema_contract_valid"] });
    expect(second?.criteria[0]?.adjusted_norm).toBeCloseTo((4 * 1 + 20 * 0.5) / 24, 12);
  });

  it("names the case index, id and field of bad input", () => {
    const parsed = parseGradeCases([good, { ...good, id: "broken", criteria: [{ ...good.criteria[0], formula: "likert_1_7" }] }, { ...good, id: "t3", hard_gates: { x: "yes" } }]);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const messages = parsed.issues.map((issue) => issue.message);
    expect(messages[0]).toMatch(/^case 1 \(id "broken"\): field criteria\[0\]\.formula: /);
    expect(messages[1]).toMatch(/^case 2 \(id "t3"\): field hard_gates\.x: /);
  });

  it("reports a formula parameter problem with its case and field", () => {
    const parsed = parseGradeCases([{ ...good, criteria: [{ name: "latency", formula: "lower_is_better", raw: 3, weight: 1 }] }]);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const graded = gradeCases(parsed.value);
    expect(graded.ok ? [] : graded.issues.map((issue) => issue.message)).toEqual([
      'case 0 (id "t1"): field criteria[0].params.slo_good: criterion "latency": lower_is_better needs a finite params.slo_good',
      'case 0 (id "t1"): field criteria[0].params.slo_bad: criterion "latency": lower_is_better needs a finite params.slo_bad',
    ]);
  });

  it("refuses a non-list, duplicate ids and an empty criteria list", () => {
    expect(parseGradeCases({ cases: [] }).ok).toBe(false);
    const duplicate = parseGradeCases([good, good]);
    expect(duplicate.ok ? [] : duplicate.issues.map((issue) => issue.message)).toEqual(['case 1 (id "t1"): field id: repeats case 0']);
    expect(parseGradeCases([{ ...good, criteria: [] }]).ok).toBe(false);
  });
});
