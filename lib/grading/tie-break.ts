// The §5.2 tie-breakers: when two runs' weighted scores differ by less than 1.0, decide by gate failures, objective
// correctness, safety/validation, then p95 latency and cost. Pure; missing figures skip a step and say so.

export const NEAR_EQUAL_DIFFERENCE = 1.0;

/** The tie-breakers a rubric criterion can feed (`tie_break:` in the YAML); gate failures come from the gates. */
export const TIE_BREAK_ROLES = ["correctness", "safety", "latency", "cost"] as const;
export type TieBreakRole = (typeof TIE_BREAK_ROLES)[number];

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

const RULES: readonly { rule: string; pick: (c: TieBreakCandidate) => number | null | undefined; better: Direction; phrase: string }[] = [
  { rule: "hard-gate failure count", pick: (c) => c.gate_failure_count, better: "lower", phrase: "fewer hard-gate failures" },
  { rule: "objective correctness", pick: (c) => c.correctness, better: "higher", phrase: "higher objective correctness" },
  { rule: "safety/validation score", pick: (c) => c.safety, better: "higher", phrase: "higher safety/validation score" },
  { rule: "p95 latency", pick: (c) => c.p95_latency, better: "lower", phrase: "lower p95 latency" },
  { rule: "cost", pick: (c) => c.cost, better: "lower", phrase: "lower cost" },
];

/** "ordered by fewer hard-gate failures": the deciding rule as a reader sees it beside a row. */
export function orderedByPhrase(decidedBy: string): string {
  if (decidedBy === "weighted score") return "ordered by weighted score";
  if (decidedBy === "none") return "tied: no tie-breaker separates them";
  return `ordered by ${RULES.find((rule) => rule.rule === decidedBy)?.phrase ?? decidedBy}`;
}

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

export interface OrderedCandidate<T extends TieBreakCandidate> {
  candidate: T;
  /** 1-based position; rows no tie-breaker separates share the position of the first. */
  position: number;
  /** How this row was placed against the row above (null for the first row). */
  versusAbove: TieBreakDecision | null;
}

/**
 * Orders candidates best first: weighted score, with §5.2's tie-breakers between neighbours within 1.0 point. Near
 * ties are not transitive, so neighbours are swapped pass by pass (at most n passes) until no tie-breaker objects.
 */
export function orderByGrade<T extends TieBreakCandidate>(candidates: readonly T[]): OrderedCandidate<T>[] {
  const list = [...candidates].sort((a, b) => b.weighted_100 - a.weighted_100 || a.id.localeCompare(b.id));
  for (let pass = 0; pass < list.length; pass += 1) {
    let swapped = false;
    for (let index = 0; index + 1 < list.length; index += 1) {
      if (breakTie(list[index]!, list[index + 1]!).winner === "b") {
        [list[index], list[index + 1]] = [list[index + 1]!, list[index]!];
        swapped = true;
      }
    }
    if (!swapped) break;
  }
  const ordered: OrderedCandidate<T>[] = [];
  list.forEach((candidate, index) => {
    const versusAbove = index === 0 ? null : breakTie(list[index - 1]!, candidate);
    const position = versusAbove?.winner === "tie" ? ordered[index - 1]!.position : index + 1;
    ordered.push({ candidate, position, versusAbove });
  });
  return ordered;
}
