import { describe, expect, it } from "vitest";
import { publishedCells } from "../published/table1";
import { PUBLISHED_TURNS } from "../published/denominators";
import type { RateRow } from "../stats/rates";
import { AVERAGE, buildBoard, measuredMetric, publishedMetric, publishedRateRows, type PublishedFigure } from "./board";

const figures: PublishedFigure[] = publishedCells();

function rate(model: string, scope: RateRow["scope"], key: string, passNum: number, passDen: number, resolveNum: number | null, resolveDen: number | null): RateRow {
  return { model, scope, key, passNum, passDen, resolveNum, resolveDen };
}

describe("published figures", () => {
  it("imply whole three-run counts for every Table 1 figure (each rate is k of 3 × turns or 9 × turns)", () => {
    for (const figure of figures) {
      const turns = PUBLISHED_TURNS[figure.domain]!;
      for (const [percent, cases] of [
        [figure.passRate, 1],
        [figure.resolveRate, 3],
      ] as const) {
        const exact = (percent / 100) * turns * cases * 3;
        expect(Math.abs(exact - Math.round(exact))).toBeLessThan(0.05);
        const metric = publishedMetric(percent, turns, cases);
        expect(metric.k).toBe(Math.round(exact));
        expect(metric.n).toBe(turns * cases * 3);
        // The rate printed is the paper's, and k / n reproduces it to the paper's two decimals.
        expect(metric.rate).toBe(percent / 100);
        expect((100 * metric.k) / metric.n).toBeCloseTo(percent, 1);
      }
    }
  });

  it("export per-run numerators as the three-run mean over the benchmark's denominators", () => {
    const rows = publishedRateRows(figures);
    expect(rows).toHaveLength(15 * 7);
    const gpt = rows.find((row) => row.model === "gpt_5d2" && row.scope === "overall")!;
    // 67.51% of 79 turns and 47.40% of 237 cases, means of three runs: 160 / 3 and 337 / 3.
    expect(gpt).toEqual({ model: "gpt_5d2", scope: "overall", key: "all", passNum: 53.3333, passDen: 79, resolveNum: 112.3333, resolveDen: 237, passPercent: 67.51, resolvePercent: 47.4 });
    const developer = rows.find((row) => row.model === "gpt_5d1" && row.key === "Developer")!;
    expect([developer.passNum, developer.passDen, developer.resolveNum, developer.resolveDen]).toEqual([1.6667, 8, 2, 24]);
    expect(rows.filter((row) => row.scope === "round").map((row) => `${row.model} ${row.key}`)).toEqual([]);
    for (const row of rows) {
      const figure = figures.find((entry) => entry.modelName === row.model && entry.domain === (row.scope === "overall" ? AVERAGE : row.key))!;
      expect((100 * row.passNum) / row.passDen).toBeCloseTo(figure.passRate, 1);
      expect((100 * row.resolveNum!) / row.resolveDen!).toBeCloseTo(figure.resolveRate, 1);
    }
  });
});

describe("buildBoard", () => {
  const measured = {
    models: [
      { name: "gpt_5d2", displayName: "GPT-5.2", family: "GPT", access: "closed" },
      { name: "local_model", displayName: "Local", family: null, access: null },
    ],
    rates: [
      rate("gpt_5d2", "overall", "all", 55, 79, 121, 237),
      rate("gpt_5d2", "domain", "Research", 12, 15, 29, 45),
      rate("gpt_5d2", "round", "1", 21, 27, 52, 81),
      rate("local_model", "overall", "all", 5, 6, null, null),
      rate("local_model", "domain", "AIGC", 5, 6, null, null),
    ],
    spreads: [],
    runs: new Map([
      ["gpt_5d2", 1],
      ["local_model", 1],
    ]),
  };
  const board = buildBoard(measured, figures);

  it("has the domain columns in the official order, then Average", () => {
    expect(board.columns).toEqual(["Research", "Document", "Enterprise", "Developer", "Education", "AIGC", "Average"]);
  });

  it("joins measured and published figures by model name and gives their difference", () => {
    const gpt = board.rows.find((row) => row.name === "gpt_5d2")!;
    expect(gpt.inMeasured && gpt.inPublished).toBe(true);
    const average = gpt.cells[AVERAGE]!;
    expect(average.pass.measured).toMatchObject({ num: 55, den: 79, k: 55, n: 79 });
    expect(average.pass.published?.rate).toBeCloseTo(0.6751, 6);
    expect(average.pass.delta).toBeCloseTo(55 / 79 - 0.6751, 10);
    expect(average.resolve.measured!.lower).toBeLessThan(121 / 237);
    expect(average.resolve.measured!.upper).toBeGreaterThan(121 / 237);
  });

  it("keeps models without runs (published only) and without resolve data (raw output)", () => {
    const gemini = board.rows.find((row) => row.name === "gemini3_propreview")!;
    expect(gemini.inMeasured).toBe(false);
    expect(gemini.cells[AVERAGE]!.pass.measured).toBeNull();
    const local = board.rows.find((row) => row.name === "local_model")!;
    expect(local.inPublished).toBe(false);
    expect(local.cells[AVERAGE]!.resolve.measured).toBeNull();
    expect(local.ranks.measured.resolve.rank).toBeNull();
    expect(local.ranks.measured.pass.rank).not.toBeNull();
  });

  it("ranks published models plainly by rate, and by Rank (UB) where the intervals overlap", () => {
    const ranks = new Map(board.rows.filter((row) => row.inPublished).map((row) => [row.name, row.ranks.published.resolve]));
    // Gemini's 60.20% interval lies above every other model's, so it ranks alone; the Qwen-3-8B interval is below all.
    expect(ranks.get("gemini3_propreview")).toEqual({ rank: 1, tied: false, upperBound: 1 });
    expect(ranks.get("qwen3_8B")!.rank).toBe(15);
    expect(ranks.get("qwen3_8B")!.upperBound).toBeGreaterThan(1);
    // Plain ranks are distinct where the rates differ; Rank (UB) is shared where the intervals overlap.
    expect(ranks.get("gpt_5d2")!.rank).not.toBe(ranks.get("claude_sonnet4d5")!.rank);
    expect(ranks.get("gpt_5d2")!.upperBound).toBe(ranks.get("claude_sonnet4d5")!.upperBound);
    for (const info of ranks.values()) expect(info.upperBound!).toBeLessThanOrEqual(info.rank!);
  });

  it("matches a hand-computed case: a small run's 25% can have Rank (UB) 1 while its plain rank is last", () => {
    // Wilson 95%: A 60/100 → [50.2%, 69.1%]; B and D 30/100 → [21.9%, 39.6%]; C 1/4 → [4.6%, 69.9%].
    const models = ["A", "B", "C", "D"].map((name) => ({ name, displayName: name, family: null, access: null }));
    const counts: Record<string, [number, number]> = { A: [60, 100], B: [30, 100], C: [1, 4], D: [30, 100] };
    const rates = Object.entries(counts).map(([model, [num, den]]) => rate(model, "overall", "all", num, den, null, null));
    const small = buildBoard({ models, rates, spreads: [], runs: new Map(models.map((m) => [m.name, 1])) }, null);
    const rank = (name: string) => small.rows.find((row) => row.name === name)!.ranks.measured.pass;
    expect(rank("A")).toEqual({ rank: 1, tied: false, upperBound: 1 });
    expect(rank("B")).toEqual({ rank: 2, tied: true, upperBound: 2 });
    expect(rank("D")).toEqual({ rank: 2, tied: true, upperBound: 2 });
    expect(rank("C")).toEqual({ rank: 4, tied: false, upperBound: 1 });
  });

  it("lists the families once, sorted", () => {
    expect(board.families).toEqual(["Claude", "DeepSeek", "Gemini", "GLM", "GPT", "Kimi", "Qwen"]);
  });

  it("shows run spread only when several runs are pooled", () => {
    expect(measuredMetric(1, 2, 1, { n: 1, min: 0.5, max: 0.5, mean: 0.5, sd: null })!.spread).toBeNull();
    expect(measuredMetric(3, 4, 2, { n: 2, min: 0.5, max: 1, mean: 0.75, sd: 0.35 })!.spread?.n).toBe(2);
    expect(measuredMetric(0, 0, 1, null)).toBeNull();
  });
});
