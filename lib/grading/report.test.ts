import { describe, expect, it } from "vitest";
import { gradeCase, type GradeResult } from "./grade";
import { failureKeys, reportBundle } from "./report";

function graded(id: string, score: number, gates: { name: string; passed: boolean | null; reason?: string }[] = [], floor?: number): GradeResult {
  const result = gradeCase({ id, gates, criteria: [{ name: "quality", formula: "clamp01", raw: score / 100, weight: 1, ...(floor !== undefined ? { critical_floor: floor } : {}) }] });
  if (!result.ok) throw new Error("bad case");
  return result.value;
}

describe("minimum reporting bundle", () => {
  const results = [
    graded("a", 95, [{ name: "format", passed: true }, { name: "graph", passed: true }]),
    graded("b", 85, [{ name: "format", passed: true }, { name: "graph", passed: false, reason: "step_1_2 — forward-reference: node 3 used before defined" }]),
    graded("c", 65, [{ name: "format", passed: false, reason: "step_1_1" }, { name: "graph", passed: null }]),
    graded("d", 75, [{ name: "format", passed: true }, { name: "graph", passed: true }], 0.8),
  ];
  const bundle = reportBundle(results);

  it("gives pass rate, weighted mean and sample standard deviation", () => {
    expect(bundle.count).toBe(4);
    expect(bundle.passed).toBe(1);
    expect(bundle.passRate).toBe(0.25);
    expect(bundle.weightedMean).toBe(80);
    expect(bundle.weightedSd).toBeCloseTo(Math.sqrt((225 + 25 + 225 + 25) / 3), 12);
    expect(bundle.grades).toEqual({ A: 1, B: 0, C: 0, D: 1, F: 2 });
  });

  it("counts hard-gate failures by gate over all responses, with how many reached the gate", () => {
    expect(bundle.gateFailureRates).toEqual([
      { gate: "format", failed: 1, evaluated: 4, rate: 0.25 },
      { gate: "graph", failed: 1, evaluated: 3, rate: 0.25 },
    ]);
  });

  it("bins each criterion's norms on 0..1 and counts floor misses", () => {
    const [quality] = bundle.criteria;
    expect(quality?.bins.map((bin) => bin.count)).toEqual([0, 0, 0, 2, 2]);
    expect(quality?.floorFailures).toBe(1);
    expect(quality?.mean).toBeCloseTo(0.8, 12);
  });

  it("groups top failure reasons by gate and diagnostic code", () => {
    expect(failureKeys(results[1]!)).toEqual(["gate graph: forward-reference"]);
    expect(bundle.topFailureReasons).toEqual([
      { reason: "floor missed: quality", count: 1 },
      { reason: "gate format", count: 1 },
      { reason: "gate graph: forward-reference", count: 1 },
    ]);
  });

  it("has null figures, not NaN, for an empty run", () => {
    expect(reportBundle([])).toMatchObject({ count: 0, passRate: null, weightedMean: null, weightedSd: null, gateFailureRates: [], criteria: [] });
  });
});
