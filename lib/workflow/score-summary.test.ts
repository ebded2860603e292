// The score summary's single pass gives what counting each group with filters over the rows gives.
import { describe, expect, it } from "vitest";
import type { OfficialStep } from "./diagnostics";
import { SUMMARY_STEPS, summarizeScores, type Rate, type SummaryRow } from "./score-summary";

/** The summary counted group by group with filters, the plain way. */
function summaryByFilters(rows: readonly SummaryRow[]) {
  const rateOf = (list: readonly SummaryRow[]): Rate => {
    const withRecord = list.filter((row) => row.recorded);
    return {
      passed: list.filter((row) => row.score.passed).length,
      repaired: list.filter((row) => row.score.repaired.passed).length,
      recorded: withRecord.length === list.length && list.length > 0 ? withRecord.filter((row) => row.recorded?.valid).length : null,
      n: list.length,
    };
  };
  const distinct = <K>(key: (row: SummaryRow) => K): K[] => [...new Set(rows.map(key))];
  const stepCounts = (list: readonly SummaryRow[]) => {
    const counts: Record<string, number> = Object.fromEntries(SUMMARY_STEPS.map((step) => [step, 0]));
    for (const row of list) if (row.score.failStep) counts[row.score.failStep] = (counts[row.score.failStep] ?? 0) + 1;
    return counts;
  };
  const topCodes = (list: readonly SummaryRow[], limit: number) => {
    const codes = [...new Set(list.flatMap((row) => row.score.diagnostics.map((d) => d.code)))];
    return codes
      .map((code) => ({
        code,
        category: list.flatMap((row) => row.score.diagnostics).find((d) => d.code === code)?.category,
        responses: list.filter((row) => row.score.diagnostics.some((d) => d.code === code)).length,
        occurrences: list.flatMap((row) => row.score.diagnostics).filter((d) => d.code === code).length,
      }))
      .sort((a, b) => b.responses - a.responses || b.occurrences - a.occurrences)
      .slice(0, limit);
  };
  const known = ["Research", "Document", "Enterprise", "Developer", "Education", "AIGC"];
  const domains = [...known, ...distinct((row) => row.domain).filter((d) => !known.includes(d))].filter((d) => rows.some((row) => row.domain === d));
  return {
    overall: rateOf(rows),
    byDomain: domains.map((domain) => ({ domain, ...rateOf(rows.filter((row) => row.domain === domain)) })),
    byRound: distinct((row) => row.round)
      .sort((a, b) => a - b)
      .map((round) => ({ round, reported: round <= 3, ...rateOf(rows.filter((row) => row.round === round)) })),
    failSteps: stepCounts(rows),
    repairedFailSteps: Object.fromEntries(SUMMARY_STEPS.map((step) => [step, rows.filter((row) => row.score.repaired.failStep === step).length])),
    topCodes: topCodes(rows, 15),
    byModel: distinct((row) => row.model).map((model) => {
      const list = rows.filter((row) => row.model === model);
      return { model, ...rateOf(list), failSteps: stepCounts(list), topCodes: topCodes(list, 3).map((c) => c.code) };
    }),
  };
}

/** A small deterministic generator, so a failure reproduces. */
function generator(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

function randomRows(seed: number, count: number): SummaryRow[] {
  const pick = generator(seed);
  const steps: (OfficialStep | null)[] = [null, null, "step_1_1", "step_1_2", "step_1_3", "step_1_4"];
  const domains = ["Research", "AIGC", "Other", "Document", "Zeta"];
  const codes = ["a", "b", "c", "d", "e", "f", "g"];
  return Array.from({ length: count }, () => {
    const failStep = steps[pick(steps.length)] ?? null;
    const repairedStep = failStep && pick(2) ? failStep : null;
    return {
      model: `m${pick(4)}`,
      round: 1 + pick(5),
      domain: domains[pick(domains.length)] as string,
      recorded: seed % 3 === 0 || pick(8) > 0 ? { valid: pick(2) === 0 } : null,
      score: {
        passed: failStep === null,
        failStep,
        diagnostics: Array.from({ length: pick(6) }, () => {
          const code = codes[pick(codes.length)] as string;
          return { code, category: `category of ${code}` };
        }),
        repaired: { passed: repairedStep === null, failStep: repairedStep },
      },
    };
  });
}

describe("summarizeScores", () => {
  it("equals the summary counted group by group, key order included", () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const rows = randomRows(seed, seed * 7);
      expect(JSON.stringify(summarizeScores(rows))).toBe(JSON.stringify(summaryByFilters(rows)));
    }
  });

  it("gives no recorded rate without rows, and none unless every row has a record", () => {
    expect(summarizeScores([]).overall).toEqual({ passed: 0, repaired: 0, recorded: null, n: 0 });
    const rows = randomRows(4, 20);
    rows[0] = { ...(rows[0] as SummaryRow), recorded: null };
    expect(summarizeScores(rows).overall.recorded).toBeNull();
  });

  it("counts a code once per response in responses and every time in occurrences", () => {
    const row = (codes: string[]): SummaryRow => ({
      model: "m",
      round: 1,
      domain: "AIGC",
      recorded: null,
      score: { passed: false, failStep: "step_1_2", diagnostics: codes.map((code) => ({ code, category: "c" })), repaired: { passed: false, failStep: "step_1_2" } },
    });
    expect(summarizeScores([row(["x", "x", "y"]), row(["x"])]).topCodes).toEqual([
      { code: "x", category: "c", responses: 2, occurrences: 3 },
      { code: "y", category: "c", responses: 1, occurrences: 1 },
    ]);
  });
});
