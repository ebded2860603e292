import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PUBLISHED_TABLE1 } from "../published/table1";
import { countOutcomes, summarizeCounts } from "./counts";
import { buildBoard, type PublishedFigure } from "./board";
import { decodeBoard, encodeBoard } from "./wire";
import type { TurnOutcome } from "../stats/rates";

const figures: PublishedFigure[] = PUBLISHED_TABLE1.flatMap((model) =>
  Object.entries(model.rates).map(([domain, [passRate, resolveRate]]) => ({ modelName: model.name, displayName: model.displayName, family: model.family, access: model.access, domain, passRate, resolveRate })),
);

const DOMAINS = ["Research", "Document", "Enterprise", "Developer", "Education", "AIGC"];

describe("the board's wire format", () => {
  it("decodes to exactly the board it encodes: measured (with run spread), published, ranks and differences", () => {
    const outcome = fc.record({
      model: fc.constantFrom("gpt_5d2", "glm_4d7", "local"),
      run: fc.integer({ min: 0, max: 2 }),
      task: fc.integer({ min: 0, max: 5 }),
      round: fc.integer({ min: 1, max: 3 }),
      passed: fc.boolean(),
      cases: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(outcome, { selector: (entry) => `${entry.model}|${entry.run}|${entry.task}|${entry.round}`, minLength: 1, maxLength: 60 }), (entries) => {
        const outcomes: TurnOutcome[] = entries.map((entry) => ({
          model: entry.model,
          runId: `${entry.model}-${entry.run}`,
          task: `T${entry.task}`,
          domain: DOMAINS[entry.task]!,
          round: entry.round,
          passed: entry.passed,
          casesPassed: entry.model === "local" ? null : entry.passed ? entry.cases : null,
        }));
        const cells = countOutcomes(outcomes);
        const summary = summarizeCounts(cells);
        if (!summary.ok) throw new Error("bad counts");
        const runs = new Map<string, number>();
        for (const runId of new Set(cells.map((cell) => cell.runId))) runs.set(runId.split("-")[0]!, (runs.get(runId.split("-")[0]!) ?? 0) + 1);
        // "local" is a measured series of its own configuration; the others carry the official recorded run's.
        const models = [...runs.keys()].map((name) => ({
          name,
          displayName: name.toUpperCase(),
          family: null,
          access: null,
          model: name,
          configuration: name === "local" ? "zero-shot · T 0.7 · max 32768 · judge: j ×1" : "official recorded run",
          judge: name === "local" ? "judge: j ×1" : "recorded verdicts",
          awaitingJudge: name === "local" ? 2 : 0,
        }));
        const board = buildBoard({ models, rates: summary.value.rates, spreads: summary.value.spreads, runs }, figures);
        const decoded = decodeBoard(JSON.parse(JSON.stringify(encodeBoard(board))));
        // Spreads travel to six decimals; everything else is exact.
        const spreadValues: number[][] = [[], []];
        const withoutSpreads = (value: typeof board, into: number[]) =>
          JSON.parse(
            JSON.stringify(value, (key, entry: unknown) => {
              if (key !== "spread" || !entry || typeof entry !== "object") return entry;
              const spread = entry as Record<string, number | null>;
              for (const name of ["mean", "sd", "min", "max"]) into.push(spread[name] ?? 0);
              return { n: spread.n };
            }),
          ) as unknown;
        expect(withoutSpreads(decoded, spreadValues[1]!)).toEqual(withoutSpreads(board, spreadValues[0]!));
        expect(spreadValues[1]).toHaveLength(spreadValues[0]!.length);
        spreadValues[1]!.forEach((value, index) => expect(Math.abs(value - spreadValues[0]![index]!)).toBeLessThanOrEqual(5e-7));
      }),
      { numRuns: 100 },
    );
  });
});

describe("not-judged resolve cases on the board", () => {
  const cell = (runId: string, casesNotJudged: number) => ({ model: "local", runId, domain: "Research", round: 1, turns: 2, passed: 2, casesPassed: 3, casesNotJudged });

  it("leave the measured resolve figure empty, unranked, and say how many, through the wire", () => {
    const summary = summarizeCounts([cell("local-a", 2), cell("local-b", 0)]);
    if (!summary.ok) throw new Error("bad counts");
    const overall = summary.value.rates.find((row) => row.scope === "overall");
    expect(overall).toMatchObject({ passNum: 4, passDen: 4, resolveNum: null, resolveDen: null, resolveNotJudged: 2 });
    const models = [{ name: "local", displayName: "Local", family: null, access: null }];
    const board = buildBoard({ models, rates: summary.value.rates, spreads: summary.value.spreads, runs: new Map([["local", 2]]) }, []);
    const row = board.rows.find((entry) => entry.name === "local");
    expect(row?.cells.Average?.resolve).toMatchObject({ measured: null, notJudged: 2 });
    expect(row?.ranks.measured.resolve.rank).toBeNull();
    expect(row?.ranks.measured.pass.rank).toBe(1);
    expect(decodeBoard(JSON.parse(JSON.stringify(encodeBoard(board))))).toEqual(board);
    // Judged, the same counts give a rate again.
    const judged = summarizeCounts([cell("local-a", 0), cell("local-b", 0)]);
    if (!judged.ok) throw new Error("bad counts");
    expect(judged.value.rates.find((entry) => entry.scope === "overall")).toMatchObject({ resolveNum: 6, resolveDen: 12 });
    expect(judged.value.rates.find((entry) => entry.scope === "overall")).not.toHaveProperty("resolveNotJudged");
  });
});
