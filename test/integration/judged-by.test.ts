// "Judged by": the leaderboard's figures re-decided from JudgeVerdict rows. The recorded choice gives today's
// figures; the rule judge gives the deterministic verdicts; an LLM judge's rows (several samples) change the
// figures by majority; runs the judge has not judged are reported as such and left out, never counted as zero.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { parseJudgeChoice, RECORDED_CHOICE, type JudgeChoice } from "@/lib/judge/choice";
import { seedDemoData } from "@/lib/server/demo-data";
import { seedPublishedResults } from "@/lib/server/published";
import { getMeasuredCounts, getFailureCounts, loadLeaderboard, selectBenchmark } from "@/lib/server/data/leaderboard";
import { modelOfSeries } from "@/lib/leaderboard/configuration";
import { getModelTurns, getPairTurns, getTaskMatrix, listTasks } from "@/lib/server/data/drilldown";
import { drilldownJudge } from "@/lib/server/data/judged-by";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase } from "../support/database";

const VIEWER: SessionUser = { id: "viewer", email: "viewer@example.org", name: null, role: "viewer" };
const STUB = "stub-judge";

function choice(raw: string): JudgeChoice {
  const parsed = parseJudgeChoice(raw);
  if (!parsed.ok) throw new Error(parsed.issues.join("; "));
  return parsed.value;
}

/** A model's counts over its series (rows are a model under one configuration). */
function totals(cells: { model: string; turns: number; passed: number; casesPassed: number | null }[], model: string) {
  const own = cells.filter((cell) => modelOfSeries(cell.model) === model);
  return {
    turns: own.reduce((sum, cell) => sum + cell.turns, 0),
    passed: own.reduce((sum, cell) => sum + cell.passed, 0),
    cases: own.some((cell) => cell.casesPassed === null) ? null : own.reduce((sum, cell) => sum + (cell.casesPassed ?? 0), 0),
  };
}

describe("figures as judged by a chosen judge", () => {
  const db = testDatabase();
  let benchmarkId = "";
  let alphaRunId = "";
  /** Expected stub-judge figures for demo_alpha, computed from the rows the test writes. */
  let expectedPassed = 0;
  let expectedCases = 0;

  beforeAll(async () => {
    await emptyDatabase(db);
    await seedPublishedResults(db);
    expect((await seedDemoData(db)).ok).toBe(true);
    benchmarkId = (await selectBenchmark(db, VIEWER, null)).benchmark!.id;
    const alpha = await db.run.findFirstOrThrow({ where: { benchmarkId, model: { name: "demo_alpha" } } });
    alphaRunId = alpha.id;

    // The stub judge decides every demo_alpha turn that reaches step 1_4 with three samples; every third turn is
    // split 1 pass : 2 fails (majority fail), the rest 2 passes : 1 fail (majority pass).
    const responses = await db.response.findMany({
      where: { runId: alpha.id },
      orderBy: { id: "asc" },
      include: { passResult: true, caseResults: true, judgeVerdicts: { where: { judge: "recorded", stage: "resolve" } } },
    });
    const rows: Parameters<typeof db.judgeVerdict.createMany>[0]["data"] = [];
    responses.forEach((response, index) => {
      const pass = response.passResult!;
      if (pass.officialFailStep !== null || pass.recordedFailStep === "step_1_5") return;
      const samples = index % 3 === 0 ? [true, false, false] : [true, true, false];
      samples.forEach((verdict, sampleIndex) =>
        rows.push({ id: randomUUID(), responseId: response.id, stage: "pass", casePosition: 0, judge: STUB, inputFingerprint: "test", verdict, sampleIndex, judgeIdentity: JSON.stringify({ model: STUB }), wellFormed: true }),
      );
      const passed = index % 3 !== 0;
      if (passed) expectedPassed += 1;
      // Resolve: the stub fails case 1 wherever the recorded judge was called on it, and passes the others.
      const called = new Set(response.judgeVerdicts.map((verdict) => verdict.casePosition));
      for (const position of called) {
        rows.push({ id: randomUUID(), responseId: response.id, stage: "resolve", casePosition: position, judge: STUB, inputFingerprint: "test", verdict: position !== 1, sampleIndex: 0, wellFormed: true });
      }
      if (passed) {
        for (const testCase of response.caseResults) expectedCases += called.has(testCase.position) ? (testCase.position !== 1 ? 1 : 0) : testCase.verdict ? 1 : 0;
      }
    });
    await db.judgeVerdict.createMany({ data: rows });
  });

  it("gives today's figures for the recorded choice", async () => {
    const today = await getMeasuredCounts(db, VIEWER, benchmarkId);
    const recorded = await getMeasuredCounts(db, VIEWER, benchmarkId, RECORDED_CHOICE);
    expect(recorded).toEqual(today);
    expect(totals(today.cells, "demo_alpha")).toEqual({ turns: 15, passed: 12, cases: 31 });
    const board = await loadLeaderboard(db, VIEWER, null, { judge: choice("recorded") });
    expect(board.judging).toBeNull();
    expect(board.board.rows.find((row) => row.name === "demo_alpha")!.cells.Average!.pass.measured).toMatchObject({ num: 12, den: 15 });
  });

  it("gives the deterministic verdicts for the rule judge, with resolve not judged", async () => {
    const rule = await getMeasuredCounts(db, VIEWER, benchmarkId, choice("rule"));
    const runs = await db.run.findMany({ where: { benchmarkId }, include: { model: true } });
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      const deterministic = await db.passResult.count({ where: { deterministicValid: true, response: { runId: run.id } } });
      expect(totals(rule.cells, run.model.name).passed, run.model.name).toBe(deterministic);
      const entry = rule.judging!.find((item) => item.runId === run.id)!;
      expect(entry.pass).toBe("judged");
      // The rule judge never judges the resolve stage: no resolve figure, not a zero.
      expect(entry.resolve).toBe(run.hasResolve ? "not-judged" : null);
    }
    expect(rule.cells.length).toBeGreaterThan(0);
    expect(rule.cells.filter((cell) => !(cell.casesPassed === null))).toEqual([]);
  });

  it("re-decides a run from an LLM judge's rows by majority over samples, and leaves unjudged runs out", async () => {
    const stub = await getMeasuredCounts(db, VIEWER, benchmarkId, choice(STUB));
    expect(totals(stub.cells, "demo_alpha")).toEqual({ turns: 15, passed: expectedPassed, cases: expectedCases });
    expect(expectedPassed).not.toBe(12);
    expect(stub.judging!.find((entry) => entry.runId === alphaRunId)).toMatchObject({ pass: "judged", resolve: "judged", casesMissing: 0 });
    const others = stub.judging!.filter((entry) => entry.runId !== alphaRunId);
    expect(others.length).toBe(3);
    expect(others.filter((entry) => !(entry.pass === "not-judged"))).toEqual([]);
    expect(stub.cells.length).toBeGreaterThan(0);
    expect(stub.cells.filter((cell) => !(cell.model === "demo_alpha"))).toEqual([]);
    expect(stub.models.map((model) => model.name)).toEqual(["demo_alpha"]);

    const board = await loadLeaderboard(db, VIEWER, null, { judge: choice(STUB) });
    const rows = board.board.rows.filter((row) => row.inMeasured);
    expect(rows.map((row) => row.name)).toEqual(["demo_alpha"]);
    expect(rows[0]!.cells.Average!.pass.measured).toMatchObject({ num: expectedPassed, den: 15 });
    expect(rows[0]!.cells.Average!.resolve.measured).toMatchObject({ num: expectedCases, den: 45 });
    expect(board.judging!.filter((entry) => entry.pass === "not-judged").map((entry) => entry.model).sort()).toEqual(["demo_beta", "demo_delta", "demo_gamma"]);
  });

  it("decides a panel by majority of its members and needs every member's verdict", async () => {
    // rule + recorded + stub on demo_alpha: recorded rows are missing where the recorded run failed earlier than
    // step 1_4, so only a complete panel counts.
    const panel = await getMeasuredCounts(db, VIEWER, benchmarkId, choice("panel:rule,stub-judge"));
    const entry = panel.judging!.find((item) => item.runId === alphaRunId)!;
    expect(entry.pass).toBe("judged");
    // Two members: a pass needs both (a 1:1 split is a tie, and ties fail).
    const responses = await db.response.findMany({ where: { runId: alphaRunId }, include: { judgeVerdicts: { where: { stage: "pass", judge: { in: ["rule", STUB] } } } } });
    let both = 0;
    for (const response of responses) {
      const rule = response.judgeVerdicts.find((verdict) => verdict.judge === "rule")?.verdict;
      const stubVotes = response.judgeVerdicts.filter((verdict) => verdict.judge === STUB).map((verdict) => verdict.verdict);
      const stubPass = stubVotes.filter(Boolean).length * 2 > stubVotes.length;
      if (rule === true && stubVotes.length > 0 && stubPass) both += 1;
    }
    expect(totals(panel.cells, "demo_alpha").passed).toBe(both);
    expect(panel.judging!.filter((item) => item.runId !== alphaRunId).length).toBeGreaterThan(0);
    expect(panel.judging!.filter((item) => item.runId !== alphaRunId).filter((item) => !(item.pass !== "judged"))).toEqual([]);
  });

  it("gives drill-downs that add up to the judged figures, over the judged runs only", async () => {
    const under = (await drilldownJudge(db, VIEWER, benchmarkId, choice(STUB)))!;
    expect([...under.judge.runs.keys()]).toEqual([alphaRunId]);
    const turns = await getModelTurns(db, VIEWER, benchmarkId, "demo_alpha", {}, under.judge);
    expect(turns).toHaveLength(15);
    expect(turns.filter((turn) => turn.valid)).toHaveLength(expectedPassed);
    expect(turns.flatMap((turn) => turn.cases).filter((state) => state === "pass")).toHaveLength(expectedCases);
    // A turn the stub fails at step 1_4 says so.
    expect(turns.some((turn) => !turn.valid && turn.failStep === "step_1_4")).toBe(true);
    expect(await getModelTurns(db, VIEWER, benchmarkId, "demo_gamma", {}, under.judge)).toEqual([]);

    const pairs = await getPairTurns(db, VIEWER, alphaRunId, under.judge);
    expect(pairs.filter((turn) => turn.passed)).toHaveLength(expectedPassed);
    expect(pairs.flatMap((turn) => turn.cases ?? []).filter(Boolean)).toHaveLength(expectedCases);

    const tasks = await listTasks(db, VIEWER, benchmarkId, under.judge);
    expect(tasks.reduce((sum, task) => sum + task.responses, 0)).toBe(15);
    expect(tasks.reduce((sum, task) => sum + task.passed, 0)).toBe(expectedPassed);
    expect(tasks.reduce((sum, task) => sum + task.casesPassed, 0)).toBe(expectedCases);

    const matrix = await getTaskMatrix(db, VIEWER, benchmarkId, "ReceiptBatcher", {}, under.judge);
    expect(matrix!.matrix.rows.map((row) => row.model)).toEqual(["demo_alpha"]);

    const judgedRuns = (await getMeasuredCounts(db, VIEWER, benchmarkId, choice(STUB))).runs;
    expect(judgedRuns.map((run) => run.id)).toEqual([alphaRunId]);
    const failures = await getFailureCounts(db, VIEWER, judgedRuns, choice(STUB));
    const passedTurns = failures.steps.filter((step) => step.failStep === null).reduce((sum, step) => sum + step.turns, 0);
    expect(passedTurns).toBe(expectedPassed);
    expect(failures.steps.reduce((sum, step) => sum + step.turns, 0)).toBe(15);
    expect(failures.categories.reduce((sum, category) => sum + category.turns, 0)).toBe(15 - expectedPassed);
  });

  it("caches each choice separately", async () => {
    const recorded = await loadLeaderboard(db, VIEWER, null);
    const stub = await loadLeaderboard(db, VIEWER, null, { judge: choice(STUB) });
    const again = await loadLeaderboard(db, VIEWER, null);
    expect(again.wire).toEqual(recorded.wire);
    expect(stub.wire).not.toEqual(recorded.wire);
  });
});

describe("the e2e stub judge on the demo benchmark", () => {
  const db = testDatabase();

  it("gives demo_alpha the figures the Playwright journey expects", async () => {
    await emptyDatabase(db);
    await seedPublishedResults(db);
    expect((await seedDemoData(db)).ok).toBe(true);
    const { seedStubJudge, STUB_JUDGE } = await import("../support/stub-judge-seed");
    const seeded = await seedStubJudge(db, "Chat2Workflow demo", "demo_alpha");
    expect(seeded.passRows).toBeGreaterThan(0);
    const board = await loadLeaderboard(db, VIEWER, "Chat2Workflow demo", { judge: choice(STUB_JUDGE) });
    const alpha = board.board.rows.find((row) => row.name === "demo_alpha")!;
    // e2e/judges.spec.ts relies on these (53.33% and 42.22%; the recorded verdicts give 12 of 15 and 31 of 45).
    expect(alpha.cells.Average!.pass.measured).toMatchObject({ num: 8, den: 15 });
    expect(alpha.cells.Average!.resolve.measured).toMatchObject({ num: 19, den: 45 });
    expect(board.judging!.filter((run) => run.pass === "not-judged")).toHaveLength(3);
  });
});
