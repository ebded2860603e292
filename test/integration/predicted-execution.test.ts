// The leaderboard's "Predicted execution" from stored dry-run cases: a run dry-run whole counts, a run dry-run in part
// is named and not counted, a local execution with a model endpoint is never pooled with the mock model's, and the
// page's board, the export rows and the /api/v1 rows give the same figure.
import { beforeAll, describe, expect, it } from "vitest";
import { AVERAGE } from "@/lib/leaderboard/board";
import { PREDICTED_EXECUTION_LABEL } from "@/lib/leaderboard/predicted";
import { leaderboardRowsForApi } from "@/lib/server/api/leaderboard";
import { getExportRates, loadLeaderboard } from "@/lib/server/data/leaderboard";
import type { SessionUser } from "@/lib/server/session";
import { testDatabase } from "../support/database";
import { freshDemoDatabase, type DemoDatabase } from "../support/demo-database";

const VIEWER: SessionUser = { id: "viewer", email: "viewer@example.org", name: null, role: "viewer" };

/** Position 3 fails on every other turn, position 2's file check fails on every third: the figure counts what remains. */
function cases(responseId: string, index: number, model: string) {
  return [1, 2, 3].map((position) => ({
    responseId,
    position,
    outcome: position === 3 && index % 2 === 0 ? "failed" : "completed",
    fileCheck: position === 2 && index % 3 === 0 ? "failed" : position === 3 && index % 2 === 0 ? "none" : "passed",
    model,
  }));
}

const reachedIn = (rows: readonly { outcome: string; fileCheck: string }[]) => rows.filter((row) => row.outcome === "completed" && row.fileCheck !== "failed").length;

describe("predicted execution on the leaderboard", () => {
  const db = testDatabase();
  let demo: DemoDatabase;
  let alpha: { reached: number; executions: number; turns: number };
  let betaPassing: number;
  let gammaPassing: number;

  beforeAll(async () => {
    demo = await freshDemoDatabase(db);
    const passingOf = async (label: string) => (await db.response.findMany({ where: { runId: demo.runId(label), passResult: { valid: true } }, select: { id: true }, orderBy: { id: "asc" } })).map((row) => row.id);
    // alpha: every passing turn dry-run with the mock model, plus cases on a failing turn the figure must not count.
    const alphaIds = await passingOf("demo_alpha.json");
    const alphaRows = alphaIds.flatMap((id, index) => cases(id, index, "mock"));
    const failing = await db.response.findFirstOrThrow({ where: { runId: demo.runId("demo_alpha.json"), passResult: { valid: false } }, select: { id: true } });
    await db.dryRunCase.createMany({ data: [...alphaRows, ...cases(failing.id, 1, "mock")] });
    alpha = { reached: reachedIn(alphaRows), executions: alphaRows.length, turns: alphaIds.length };
    // beta: one passing turn of several dry-run.
    const betaIds = await passingOf("demo_beta.json");
    betaPassing = betaIds.length;
    await db.dryRunCase.createMany({ data: cases(betaIds[0]!, 1, "mock") });
    // gamma: every passing turn executed with a model endpoint (a local execution), none with the mock model.
    const gammaIds = await passingOf("demo_gamma.json");
    gammaPassing = gammaIds.length;
    await db.dryRunCase.createMany({ data: gammaIds.flatMap((id, index) => cases(id, index, "qwen3-32b")) });
  });

  it("the fixture has what the rules need: several passing turns per run, some executions failing", () => {
    expect(alpha.turns).toBeGreaterThan(2);
    expect(alpha.reached).toBeLessThan(alpha.executions);
    expect(alpha.reached).toBeGreaterThan(0);
    expect(betaPassing).toBeGreaterThan(1);
    expect(gammaPassing).toBeGreaterThan(0);
  });

  it("gives the fully dry-run row its share of executions reaching the judge, over its passing turns only", async () => {
    const { board } = await loadLeaderboard(db, VIEWER, null, { fresh: true });
    const row = board.rows.find((found) => found.model === "demo_alpha");
    expect(row?.predicted).toEqual({ reached: alpha.reached, executions: alpha.executions, turns: alpha.turns, runs: 1, partialRuns: 0, partialTurns: 0, partialPassingTurns: 0, endpointTurns: 0 });
    expect(row?.cells[AVERAGE]?.resolve.measured).not.toBeNull();
  });

  it("names a partly dry-run run without counting it, and never pools a local execution with the mock model's", async () => {
    const { board } = await loadLeaderboard(db, VIEWER, null, { fresh: true });
    expect(board.rows.find((found) => found.model === "demo_beta")?.predicted).toEqual({ reached: 0, executions: 0, turns: 0, runs: 0, partialRuns: 1, partialTurns: 1, partialPassingTurns: betaPassing, endpointTurns: 0 });
    expect(board.rows.find((found) => found.model === "demo_gamma")?.predicted).toMatchObject({ executions: 0, runs: 0, partialRuns: 0, endpointTurns: gammaPassing });
    const withoutDryRun = board.rows.filter((found) => found.inMeasured && !["demo_alpha", "demo_beta", "demo_gamma"].includes(found.model ?? ""));
    expect(withoutDryRun.length).toBeGreaterThan(0);
    for (const found of withoutDryRun) expect(found.predicted, found.name).toBeUndefined();
  });

  it("exports and answers through the API the same figure on the overall row only", async () => {
    const { rows } = await getExportRates(db, VIEWER, "measured", null);
    const overall = rows.find((row) => row.model === "demo_alpha" && row.scope === "overall");
    expect(overall?.predicted).toMatchObject({ reached: alpha.reached, executions: alpha.executions, turns: alpha.turns });
    expect(rows.filter((row) => row.scope !== "overall" && row.predicted !== undefined)).toEqual([]);

    const api = await leaderboardRowsForApi(db, VIEWER, null);
    const apiAlpha = api?.find((row) => row.model === "demo_alpha" && row.scope === "overall");
    expect(apiAlpha).toMatchObject({ predictedExecutionNum: alpha.reached, predictedExecutionDen: alpha.executions, predictedExecutionTurns: alpha.turns, predictedExecutionRuns: 1, predictedExecutionPartialRuns: 0, predictedExecutionBy: PREDICTED_EXECUTION_LABEL });
    expect(api?.find((row) => row.model === "demo_beta" && row.scope === "overall")).toMatchObject({ predictedExecutionNum: 0, predictedExecutionDen: 0, predictedExecutionPartialRuns: 1 });
    expect(api?.find((row) => row.model === "demo_alpha" && row.scope === "domain")).toMatchObject({ predictedExecutionNum: null, predictedExecutionBy: null });
  });
});
