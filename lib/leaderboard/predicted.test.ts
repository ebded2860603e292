import { describe, expect, it } from "vitest";
import { buildBoard } from "./board";
import { render } from "./export";
import { boardViewColumns } from "./tables";
import { decodeBoard, encodeBoard } from "./wire";
import { describePredictedCoverage, formatPredictedExecution, predictedExecutionBySeries, type DryRunGroup } from "./predicted";

const runs = [
  { id: "a1", series: "alpha" },
  { id: "a2", series: "alpha" },
  { id: "a3", series: "alpha" },
  { id: "b1", series: "beta" },
  { id: "c1", series: "gamma" },
  { id: "d1", series: "delta" },
];

const groups: DryRunGroup[] = [
  // a1, a2: every passing turn dry-run with the mock model; a3: 2 of 5 passing turns.
  { runId: "a1", model: null, turns: 4, executions: 0, reached: 0 },
  { runId: "a1", model: "mock", turns: 4, executions: 12, reached: 9 },
  { runId: "a2", model: null, turns: 2, executions: 0, reached: 0 },
  { runId: "a2", model: "mock", turns: 2, executions: 6, reached: 6 },
  { runId: "a3", model: null, turns: 5, executions: 0, reached: 0 },
  { runId: "a3", model: "mock", turns: 2, executions: 6, reached: 0 },
  // b1: dry-run whole, but with a model endpoint: a local execution, never in the mock model's figure.
  { runId: "b1", model: null, turns: 3, executions: 0, reached: 0 },
  { runId: "b1", model: "qwen3-32b", turns: 3, executions: 9, reached: 9 },
  // c1: partly dry-run only.
  { runId: "c1", model: null, turns: 10, executions: 0, reached: 0 },
  { runId: "c1", model: "mock", turns: 1, executions: 3, reached: 3 },
];

describe("predictedExecutionBySeries", () => {
  const figures = predictedExecutionBySeries(runs, groups);

  it("pools the fully dry-run runs of a row and names, without counting, the partly dry-run one", () => {
    expect(figures.get("alpha")).toEqual({ reached: 15, executions: 18, turns: 6, runs: 2, partialRuns: 1, partialTurns: 2, partialPassingTurns: 5, endpointTurns: 0 });
    expect(formatPredictedExecution(figures.get("alpha")!)).toBe("83.3% (n = 18)");
    expect(describePredictedCoverage(figures.get("alpha")!)).toEqual(["6 passing turns of 2 fully dry-run runs", "1 run partly dry-run (2 of 5 passing turns), not counted"]);
  });

  it("never pools executions with a model endpoint into the mock model's figure", () => {
    const beta = figures.get("beta")!;
    expect(beta).toMatchObject({ reached: 0, executions: 0, runs: 0, endpointTurns: 3 });
    expect(formatPredictedExecution(beta)).toBeNull();
    expect(describePredictedCoverage(beta)).toEqual(["3 turns executed with a model endpoint (local execution), not pooled"]);
  });

  it("gives a row whose runs are only partly dry-run no figure, and a row without dry-run results no entry", () => {
    expect(figures.get("gamma")).toMatchObject({ executions: 0, runs: 0, partialRuns: 1, partialTurns: 1, partialPassingTurns: 10 });
    expect(formatPredictedExecution(figures.get("gamma")!)).toBeNull();
    expect(figures.has("delta")).toBe(false);
    expect([...figures.keys()].sort()).toEqual(["alpha", "beta", "gamma"]);
  });

  it("ignores groups of runs the rows do not pool (e.g. runs a chosen judge has not judged)", () => {
    expect(predictedExecutionBySeries([{ id: "a2", series: "alpha" }], groups).get("alpha")).toMatchObject({ reached: 6, executions: 6, turns: 2, runs: 1, partialRuns: 0 });
  });
});

describe("the predicted execution on the page's board", () => {
  const predicted = { reached: 15, executions: 18, turns: 6, runs: 2, partialRuns: 1, partialTurns: 2, partialPassingTurns: 5, endpointTurns: 0 };
  const board = buildBoard(
    {
      models: [{ name: "m", displayName: "M", family: null, access: null, predicted }, { name: "n", displayName: "N", family: null, access: null }],
      rates: ["m", "n"].map((model) => ({ model, scope: "overall" as const, key: "all", passNum: 1, passDen: 2, resolveNum: 3, resolveDen: 6 })),
      spreads: [],
      runs: new Map([["m", 2], ["n", 1]]),
    },
    null,
  );

  it("travels to the browser with its row and comes back unchanged", () => {
    expect(decodeBoard(encodeBoard(board)).rows.map((row) => row.predicted)).toEqual([predicted, undefined]);
  });

  it("ends the downloaded view when the page shows the column, and only then", () => {
    const state = { source: "measured" as const, rankBy: "resolve" as const };
    const shown = JSON.parse(render(boardViewColumns(board.columns, state, true), board.rows, "json")) as Record<string, unknown>[];
    expect(shown.map((row) => [row.predictedExecutionNum, row.predictedExecutionDen, row.predictedExecutionTurns])).toEqual([[15, 18, 6], [null, null, null]]);
    const hidden = JSON.parse(render(boardViewColumns(board.columns, state), board.rows, "json")) as Record<string, unknown>[];
    expect(Object.keys(hidden[0]!).filter((key) => key.startsWith("predicted"))).toEqual([]);
  });
});
