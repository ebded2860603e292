import { describe, expect, it } from "vitest";
import { gradeCase, type GradeResult } from "./grade";
import { orderStandings, standingOf, tieBreakCriteria, type OrderedStanding } from "./standings";

const ROLES = { correctness: "resolve_ratio", safety: "validation", latency: "latency", cost: "tokens" } as const;

interface Turn {
  quality: number;
  gateFailed?: boolean;
  correctness?: number;
  safety?: number;
  latency?: number;
  tokens?: number;
}

/** One graded turn: `quality` alone carries weight, the tie-break criteria have weight 0 so scores stay equal. */
function turn(id: string, options: Turn): GradeResult {
  const graded = gradeCase({
    id,
    gates: [{ name: "format", passed: !options.gateFailed }],
    criteria: [
      { name: "quality", formula: "clamp01", raw: options.quality, weight: 1 },
      { name: "resolve_ratio", formula: "clamp01", raw: options.correctness ?? 0.5, weight: 0 },
      { name: "validation", formula: "clamp01", raw: options.safety ?? 0.5, weight: 0 },
      { name: "latency", formula: "lower_is_better", raw: options.latency ?? 1000, weight: 0, params: { slo_good: 0, slo_bad: 10000 } },
      { name: "tokens", formula: "lower_is_better", raw: options.tokens ?? 100, weight: 0, params: { slo_good: 0, slo_bad: 1000 } },
    ],
  });
  if (!graded.ok) throw new Error(graded.issues.map((found) => found.message).join("; "));
  return graded.value;
}

function leaderboard(models: Record<string, Turn[]>): OrderedStanding[] {
  return orderStandings(Object.entries(models).map(([model, turns]) => standingOf(model, model, 1, turns.map((entry, index) => turn(`${model}-${index}`, entry)), ROLES)));
}

const order = (rows: OrderedStanding[]) => rows.map((row) => row.candidate.id);

describe("leaderboard order by grade with the §5.2 tie-breakers", () => {
  it("orders by weighted mean when rows are 1.0 point or more apart, and names no tie-breaker", () => {
    const rows = leaderboard({ low: [{ quality: 0.8 }], high: [{ quality: 0.9, gateFailed: true }] });
    expect(order(rows)).toEqual(["high", "low"]);
    expect(rows[1]!.decidingRule).toBeNull();
    expect(rows[1]!.versusAbove?.decidedBy).toBe("weighted score");
  });

  it("1. fewer hard-gate failures wins a near tie", () => {
    const rows = leaderboard({ gated: [{ quality: 0.805, gateFailed: true }, { quality: 0.805 }], clean: [{ quality: 0.8 }, { quality: 0.8 }] });
    expect(order(rows)).toEqual(["clean", "gated"]);
    expect(rows[1]!.decidingRule).toBe("ordered by fewer hard-gate failures");
    expect(rows[1]!.candidate.gate_failure_count).toBe(1);
  });

  it("2. then higher objective correctness (the rubric's correctness criterion)", () => {
    const rows = leaderboard({ weak: [{ quality: 0.805, correctness: 0.4 }], strong: [{ quality: 0.8, correctness: 0.9 }] });
    expect(order(rows)).toEqual(["strong", "weak"]);
    expect(rows[1]!.decidingRule).toBe("ordered by higher objective correctness");
  });

  it("3. then higher safety/validation score", () => {
    const rows = leaderboard({ unsafe: [{ quality: 0.805, safety: 0.6 }], safe: [{ quality: 0.8, safety: 0.95 }] });
    expect(order(rows)).toEqual(["safe", "unsafe"]);
    expect(rows[1]!.decidingRule).toBe("ordered by higher safety/validation score");
  });

  it("4a. then lower p95 latency, read from the raw latencies", () => {
    const slowTail = Array.from({ length: 20 }, (_, index) => ({ quality: 0.805, latency: index >= 18 ? 9000 : 500 }));
    const steady = Array.from({ length: 20 }, () => ({ quality: 0.8, latency: 1500 }));
    const rows = leaderboard({ slowTail, steady });
    expect(order(rows)).toEqual(["steady", "slowTail"]);
    expect(rows[1]!.decidingRule).toBe("ordered by lower p95 latency");
    expect(rows.map((row) => row.candidate.p95_latency)).toEqual([1500, 9000]);
  });

  it("4b. then lower cost", () => {
    const rows = leaderboard({ costly: [{ quality: 0.805, tokens: 900 }], cheap: [{ quality: 0.8, tokens: 200 }] });
    expect(order(rows)).toEqual(["cheap", "costly"]);
    expect(rows[1]!.decidingRule).toBe("ordered by lower cost");
  });

  it("rows nothing separates share a position and say they are tied", () => {
    const rows = leaderboard({ b: [{ quality: 0.8 }], a: [{ quality: 0.8 }], c: [{ quality: 0.5 }] });
    expect(order(rows)).toEqual(["a", "b", "c"]);
    expect(rows.map((row) => row.position)).toEqual([1, 1, 3]);
    expect(rows[1]!.decidingRule).toBe("tied: no tie-breaker separates them");
  });

  it("reads the tie-break criteria from the rubric's tie_break fields", () => {
    const criteria = [
      { name: "resolve_ratio", tie_break: "correctness" as const },
      { name: "diagnostics_severity", tie_break: "safety" as const },
      { name: "judge_verdict" },
    ];
    expect(tieBreakCriteria({ criteria: criteria as never })).toEqual({ correctness: "resolve_ratio", safety: "diagnostics_severity" });
  });
});
