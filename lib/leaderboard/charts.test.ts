import { describe, expect, it } from "vitest";
import type { RateRow } from "../stats/rates";
import {
  categoryPoints,
  chooseChartModels,
  degradation,
  domainPoints,
  domainRates,
  failStepDistribution,
  failureCategories,
  intervalKey,
  labelledPoints,
  passResolveScatter,
  shortName,
} from "./charts";

const row = (model: string, scope: RateRow["scope"], key: string, passNum: number, passDen: number, resolveNum: number | null, resolveDen: number | null): RateRow => ({
  model,
  scope,
  key,
  passNum,
  passDen,
  resolveNum,
  resolveDen,
});

const rates: RateRow[] = [
  row("a", "overall", "all", 6, 10, 12, 30),
  row("a", "domain", "AIGC", 2, 4, 3, 12),
  row("a", "domain", "Research", 4, 6, 9, 18),
  row("a", "round", "1", 3, 4, 8, 12),
  row("a", "round", "2", 2, 3, 3, 9),
  row("a", "round", "3", 1, 2, 1, 6),
  row("a", "round", "4", 0, 1, 0, 3),
  row("raw", "overall", "all", 8, 10, null, null),
  row("raw", "round", "1", 4, 4, null, null),
];
const models = [
  { name: "a", displayName: "Model A", family: null, access: null },
  { name: "raw", displayName: "Raw", family: null, access: null },
];

describe("degradation across rounds", () => {
  const chosen = chooseChartModels(rates, models, []);
  const result = degradation(rates, chosen, models, [
    { round: 1, turns: 4 },
    { round: 2, turns: 3 },
    { round: 3, turns: 2 },
    { round: 4, turns: 1 },
  ]);

  it("charts rounds 1–3 with their denominators and notes round 4", () => {
    expect(result.charted.map((entry) => entry.round)).toEqual([1, 2, 3]);
    expect(result.omitted).toEqual([{ round: 4, turns: 1 }]);
    expect(result.pass.map((point) => point.label)).toEqual(["Round 1 (4 turns)", "Round 2 (3 turns)", "Round 3 (2 turns)"]);
  });

  it("plots each model's rate per round, null where it has none", () => {
    const a = chosen.find((model) => model.name === "a")!.key;
    const raw = chosen.find((model) => model.name === "raw")!.key;
    expect(result.pass.map((point) => point[a])).toEqual([3 / 4, 2 / 3, 1 / 2]);
    expect(result.resolve.map((point) => point[a])).toEqual([8 / 12, 3 / 9, 1 / 6]);
    expect(result.pass.map((point) => point[raw])).toEqual([1, null, null]);
    expect(result.resolve[0]![raw]).toBeNull();
  });

  it("keeps round 4 in the table, flagged as not charted", () => {
    expect(result.table.filter((entry) => entry.model === "a").map((entry) => [entry.round, entry.charted])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
    ]);
  });
});

describe("chart model choice", () => {
  it("takes the requested models, else all when few, else the best by resolve rate", () => {
    expect(chooseChartModels(rates, models, ["raw"]).map((model) => model.name)).toEqual(["raw"]);
    expect(chooseChartModels(rates, models, ["unknown"]).map((model) => model.name)).toEqual(["a", "raw"]);
    expect(chooseChartModels(rates, models, [], 1).map((model) => model.name)).toEqual(["a"]);
    expect(chooseChartModels(rates, models, []).map((model) => model.key)).toEqual(["m0", "m1"]);
  });
});

describe("fail steps and categories", () => {
  const steps = failStepDistribution(
    [
      { model: "a", failStep: null, turns: 5 },
      { model: "a", failStep: "step_1_1", turns: 1 },
      { model: "a", failStep: "step_1_2", turns: 2 },
      { model: "a", failStep: "step_1_4", turns: 1 },
      { model: "a", failStep: "unknown", turns: 1 },
    ],
    models,
  );

  it("counts failures per step, their share of all turns and the chance to fail once a step is reached", () => {
    const a = steps[0]!;
    expect([a.turns, a.passed, a.other]).toEqual([10, 5, 1]);
    expect(a.steps).toEqual({ step_1_1: 1, step_1_2: 2, step_1_3: 0, step_1_4: 1 });
    expect(a.shares.step_1_2).toBe(0.2);
    // 10 turns reach step_1_1 (1 fails), 9 reach step_1_2 (2 fail), 7 reach step_1_3, 7 reach step_1_4 (1 fails).
    expect(a.conditional).toEqual({ step_1_1: 0.1, step_1_2: 2 / 9, step_1_3: 0, step_1_4: 1 / 7 });
  });

  it("groups failed turns by their first diagnostic's category, with none for turns our checks found nothing in", () => {
    const categories = failureCategories(
      [
        { model: "a", category: "format", turns: 2 },
        { model: "a", category: null, turns: 1 },
        { model: "a", category: "consistency", turns: 2 },
      ],
      models,
    );
    expect(categories[0]).toMatchObject({ failed: 5, categories: { format: 2, graph: 0, semantics: 0, consistency: 2, none: 1 } });
    expect(categoryPoints(categories)[0]).toMatchObject({ model: "Model A", format: 0.4, none: 0.2 });
  });
});

describe("domains and pass against resolve", () => {
  it("lists domain bars in the official order", () => {
    const rows = domainRates(rates, models);
    const chosen = chooseChartModels(rates, models, ["a"]);
    expect(domainPoints(rows, chosen, "passRate")).toEqual([
      { domain: "Research", m0: 4 / 6 },
      { domain: "AIGC", m0: 0.5 },
    ]);
  });

  it("places only models with resolve data", () => {
    const scatter = passResolveScatter(rates, models);
    expect(scatter).toHaveLength(1);
    expect(scatter[0]).toMatchObject({ model: "a", passRate: 0.6, resolveRate: 0.4 });
    expect(scatter[0]!.gap).toBeCloseTo(0.2, 12);
  });
});

describe("chart readability helpers", () => {
  it("adds each rate's 95% Wilson interval beside it for error bars", () => {
    const rates = [{ model: "a", scope: "round" as const, key: "1", passNum: 5, passDen: 10, resolveNum: null, resolveDen: null }];
    const result = degradation(rates, [{ name: "a", displayName: "A", key: "m0" }], [{ name: "a", displayName: "A", family: null, access: null }], [{ round: 1, turns: 10 }]);
    const point = result.pass[0]!;
    expect(point.m0).toBe(0.5);
    // Wilson 5/10: [23.7%, 76.3%] → 0.263 below and above the estimate.
    const [below, above] = point[intervalKey("m0")] as [number, number];
    expect(below).toBeCloseTo(0.2634, 3);
    expect(above).toBeCloseTo(0.2634, 3);
    expect(result.resolve[0]![intervalKey("m0")]).toBeUndefined();
  });

  it("labels only scatter points whose names would not overlap", () => {
    const names = labelledPoints([
      { name: "top", x: 0.7, y: 0.55 },
      { name: "close", x: 0.72, y: 0.54 },
      { name: "far", x: 0.3, y: 0.54 },
    ]);
    expect([...names].sort()).toEqual(["far", "top"]);
  });

  it("shortens long names for axes", () => {
    expect(shortName("Qwen-3-Coder-480B-A35B-Instruct")).toBe("Qwen-3-Coder-480B-A35…");
    expect(shortName("GPT-5.2")).toBe("GPT-5.2");
  });
});
