import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregateRates, perRunRates, runSpread, type TurnOutcome } from "../stats/rates";
import { countOutcomes, ratesFromCounts, runRatesFromCounts, spreadFromCounts, summarizeCounts, validateCounts, type CellCount } from "./counts";

function unwrap<T>(result: { ok: true; value: T } | { ok: false; issues: unknown[] }): T {
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const DOMAINS = ["Research", "Document", "Enterprise", "Developer", "Education", "AIGC", "Zeta"];

/** Random benchmarks: tasks with a domain and 1–4 rounds, models with 1–3 runs, each run with or without resolve data. */
const outcomesArbitrary = fc
  .record({
    tasks: fc.array(fc.record({ domain: fc.constantFrom(...DOMAINS), rounds: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 6 }),
    runs: fc.array(fc.record({ model: fc.constantFrom("m1", "m2", "m3"), resolve: fc.boolean(), seed: fc.integer() }), { minLength: 1, maxLength: 5 }),
  })
  .chain(({ tasks, runs }) => {
    const slots = runs.flatMap((run, runIndex) =>
      tasks.flatMap((task, taskIndex) =>
        Array.from({ length: task.rounds }, (_, round) => ({ run, runId: `r${runIndex}`, task: `T${taskIndex}`, domain: task.domain, round: round + 1 })),
      ),
    );
    return fc.tuple(
      ...slots.map((slot) =>
        fc.record({ keep: fc.boolean(), passed: fc.boolean(), cases: fc.integer({ min: 0, max: 3 }) }).map(({ keep, passed, cases }): TurnOutcome | null =>
          keep
            ? {
                model: slot.run.model,
                runId: slot.runId,
                task: slot.task,
                domain: slot.domain,
                round: slot.round,
                passed,
                // A run with resolve data records cases for its passing turns; a failed turn was never tested.
                casesPassed: slot.run.resolve && passed ? cases : null,
              }
            : null,
        ),
      ),
    );
  })
  .map((outcomes) => outcomes.filter((outcome): outcome is TurnOutcome => outcome !== null));

describe("counts grouped per (run, domain, round)", () => {
  it("give the same pooled rates as the official per-turn aggregation, row for row", () => {
    fc.assert(
      fc.property(outcomesArbitrary, (outcomes) => {
        expect(unwrap(ratesFromCounts(countOutcomes(outcomes)))).toEqual(unwrap(aggregateRates(outcomes)));
      }),
      { numRuns: 300 },
    );
  });

  it("give the same per-run rates and run-to-run spread", () => {
    fc.assert(
      fc.property(outcomesArbitrary, (outcomes) => {
        const cells = countOutcomes(outcomes);
        expect(unwrap(runRatesFromCounts(cells))).toEqual(unwrap(perRunRates(outcomes)));
        expect(unwrap(spreadFromCounts(cells, ["overall", "domain", "round"]))).toEqual(unwrap(runSpread(outcomes, ["overall", "domain", "round"])));
      }),
      { numRuns: 200 },
    );
  });

  it("count every turn of a run with resolve data as three cases, also the failed ones", () => {
    const cells: CellCount[] = [
      { model: "m", runId: "r1", domain: "Research", round: 1, turns: 5, passed: 2, casesPassed: 4 },
      { model: "m", runId: "r1", domain: "AIGC", round: 2, turns: 3, passed: 0, casesPassed: 0 },
      { model: "m", runId: "r2", domain: "Research", round: 1, turns: 5, passed: 5, casesPassed: null },
    ];
    const rows = unwrap(ratesFromCounts(cells));
    const overall = rows.find((row) => row.scope === "overall")!;
    // Pass pools both runs (7 of 13); resolve only the run with resolve data: 4 of 3 × 8.
    expect([overall.passNum, overall.passDen, overall.resolveNum, overall.resolveDen]).toEqual([7, 13, 4, 24]);
    const aigc = rows.find((row) => row.key === "AIGC")!;
    expect([aigc.resolveNum, aigc.resolveDen]).toEqual([0, 9]);
  });

  it("leave resolve empty for a model whose runs carry no resolve data", () => {
    const rows = unwrap(ratesFromCounts([{ model: "raw", runId: "r", domain: "AIGC", round: 1, turns: 2, passed: 1, casesPassed: null }]));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.resolveNum !== null || row.resolveDen !== null)).toEqual([]);
  });

  it("refuse counts no set of turns can produce", () => {
    const base: CellCount = { model: "m", runId: "r", domain: "AIGC", round: 1, turns: 2, passed: 1, casesPassed: 3 };
    expect(validateCounts([base])).toEqual([]);
    const codes = (cells: CellCount[]) => validateCounts(cells).map((found) => found.code);
    expect(codes([{ ...base, passed: 3 }])).toContain("count-exceeds-total");
    expect(codes([{ ...base, casesPassed: 4 }])).toContain("cases-without-pass");
    expect(codes([{ ...base, turns: 1.5 }])).toContain("invalid-count");
    expect(codes([base, { ...base }])).toContain("duplicate-cell");
    expect(codes([base, { ...base, round: 2, model: "other" }])).toContain("inconsistent-model");
    expect(codes([base, { ...base, round: 2, casesPassed: null }])).toContain("inconsistent-resolve");
    expect(ratesFromCounts([{ ...base, passed: 3 }]).ok).toBe(false);
  });
});

describe("summarizeCounts", () => {
  it("gives the pooled rates, and the spread of every model with several runs (in any order), from one pass", () => {
    fc.assert(
      fc.property(outcomesArbitrary, (outcomes) => {
        const cells = countOutcomes(outcomes);
        const summary = unwrap(summarizeCounts(cells));
        expect(summary.rates).toEqual(unwrap(aggregateRates(outcomes)));
        const runs = new Map<string, Set<string>>();
        for (const outcome of outcomes) runs.set(outcome.model, (runs.get(outcome.model) ?? new Set()).add(outcome.runId));
        const key = (row: { model: string; scope: string; key: string }) => `${row.model}|${row.scope}|${row.key}`;
        const sorted = <T extends { model: string; scope: string; key: string }>(rows: T[]) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
        expect(sorted(summary.spreads)).toEqual(sorted(unwrap(runSpread(outcomes)).filter((row) => (runs.get(row.model)?.size ?? 0) > 1)));
      }),
      { numRuns: 200 },
    );
  });
});
