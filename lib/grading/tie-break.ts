// The §5.2 tie-breakers: when two runs' weighted scores differ by less than 1.0, decide by gate failures, objective
// correctness, safety/validation, then p95 latency and cost. Pure; missing figures skip a step and say so.

export const NEAR_EQUAL_DIFFERENCE = 1.0;

export interface TieBreakCandidate {
  id: string;
  weighted_100: number;
  gate_failure_count: number;
  /** Objective correctness on 0..1 (e.g. the resolve ratio). */
  correctness?: number | null;
  /** Safety/validation score on 0..1. */
  safety?: number | null;
  p95_latency?: number | null;
  cost?: number | null;
}

export interface TieBreakStep {
  rule: string;
  a: number | null;
  b: number | null;
  outcome: "a" | "b" | "equal" | "skipped";
  note: string;
}

export interface TieBreakDecision {
  winner: "a" | "b" | "tie";
  /** The rule that decided, or "none" when every step was equal or skipped. */
  decidedBy: string;
  nearEqual: boolean;
  steps: TieBreakStep[];
  explanation: string;
}

type Direction = "lower" | "higher";

const RULES: readonly { rule: string; pick: (c: TieBreakCandidate) => number | null | undefined; better: Direction }[] = [
  { rule: "hard-gate failure count", pick: (c) => c.gate_failure_count, better: "lower" },
  { rule: "objective correctness", pick: (c) => c.correctness, better: "higher" },
  { rule: "safety/validation score", pick: (c) => c.safety, better: "higher" },
  { rule: "p95 latency", pick: (c) => c.p95_latency, better: "lower" },
  { rule: "cost", pick: (c) => c.cost, better: "lower" },
];

/** Which of two runs ranks higher. Outside the near-equal window the weighted score decides alone. */
export function breakTie(a: TieBreakCandidate, b: TieBreakCandidate): TieBreakDecision {
  const difference = a.weighted_100 - b.weighted_100;
  if (Math.abs(difference) >= NEAR_EQUAL_DIFFERENCE) {
    const winner = difference > 0 ? "a" : "b";
    const name = winner === "a" ? a.id : b.id;
    return {
      winner,
      decidedBy: "weighted score",
      nearEqual: false,
      steps: [],
      explanation: `${name} ranks higher on weighted score (${a.weighted_100} vs ${b.weighted_100}; a gap of ${Math.abs(difference).toFixed(2)} is not a near-tie).`,
    };
  }
  const steps: TieBreakStep[] = [];
  for (const { rule, pick, better } of RULES) {
    const valueA = pick(a);
    const valueB = pick(b);
    if (valueA === null || valueA === undefined || valueB === null || valueB === undefined) {
      steps.push({ rule, a: valueA ?? null, b: valueB ?? null, outcome: "skipped", note: `${rule}: not known for both runs, skipped` });
      continue;
    }
    if (valueA === valueB) {
      steps.push({ rule, a: valueA, b: valueB, outcome: "equal", note: `${rule}: equal (${valueA})` });
      continue;
    }
    const aBetter = better === "lower" ? valueA < valueB : valueA > valueB;
    const winner = aBetter ? "a" : "b";
    steps.push({ rule, a: valueA, b: valueB, outcome: winner, note: `${rule}: ${better} is better (${valueA} vs ${valueB})` });
    return {
      winner,
      decidedBy: rule,
      nearEqual: true,
      steps,
      explanation: `Weighted scores are within ${NEAR_EQUAL_DIFFERENCE} (${a.weighted_100} vs ${b.weighted_100}); ${winner === "a" ? a.id : b.id} wins on ${rule} (${valueA} vs ${valueB}, ${better} is better).`,
    };
  }
  return {
    winner: "tie",
    decidedBy: "none",
    nearEqual: true,
    steps,
    explanation: `Weighted scores are within ${NEAR_EQUAL_DIFFERENCE} (${a.weighted_100} vs ${b.weighted_100}) and no tie-breaker separates the runs.`,
  };
}
