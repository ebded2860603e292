import { describe, expect, it } from "vitest";
import { breakTie, type TieBreakCandidate } from "./tie-break";

const base: TieBreakCandidate = { id: "a", weighted_100: 80, gate_failure_count: 2, correctness: 0.7, safety: 0.9, p95_latency: 10, cost: 1 };

describe("§5.2 tie-breakers", () => {
  it("a gap of 1.0 or more is decided by the weighted score alone", () => {
    const decision = breakTie({ ...base, weighted_100: 81 }, { ...base, id: "b", gate_failure_count: 0 });
    expect(decision).toMatchObject({ winner: "a", decidedBy: "weighted score", nearEqual: false });
  });

  it("1. lower hard-gate failure count wins a near tie", () => {
    const decision = breakTie({ ...base, weighted_100: 80.9 }, { ...base, id: "b", gate_failure_count: 1 });
    expect(decision).toMatchObject({ winner: "b", decidedBy: "hard-gate failure count", nearEqual: true });
  });

  it("2. then higher objective correctness", () => {
    expect(breakTie(base, { ...base, id: "b", correctness: 0.8 })).toMatchObject({ winner: "b", decidedBy: "objective correctness" });
  });

  it("3. then higher safety/validation", () => {
    expect(breakTie({ ...base, safety: 0.95 }, { ...base, id: "b" })).toMatchObject({ winner: "a", decidedBy: "safety/validation score" });
  });

  it("4. then lower p95 latency, then cost", () => {
    expect(breakTie(base, { ...base, id: "b", p95_latency: 8 })).toMatchObject({ winner: "b", decidedBy: "p95 latency" });
    expect(breakTie({ ...base, cost: 0.5 }, { ...base, id: "b" })).toMatchObject({ winner: "a", decidedBy: "cost" });
  });

  it("skips a step whose figure is unknown and reports a tie when nothing separates the runs", () => {
    const decision = breakTie({ ...base, correctness: null }, { ...base, id: "b", correctness: 0.1 });
    expect(decision.winner).toBe("tie");
    expect(decision.steps.map((step) => step.outcome)).toEqual(["equal", "skipped", "equal", "equal", "equal"]);
    expect(decision.explanation).toMatch(/no tie-breaker separates/);
  });
});
