import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkPromotion, findRunByIdOrLabel, gradeBenchmarkStandings, gradeRunFile, gradeStoredResponse, gradeStoredRun, loadRubricFile, storeRunGrades, type LoadedRubric } from "@/lib/server/grading";
import type { SessionUser } from "@/lib/server/session";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { testDatabase } from "../support/database";
import { freshDemoDatabase } from "../support/demo-database";

const viewer: SessionUser = { id: "u1", email: "viewer@example.org", name: null, role: "viewer" };
const researcher: SessionUser = { id: "u2", email: "researcher@example.org", name: null, role: "researcher" };
const rubricFile = path.resolve(__dirname, "../../rubrics/chat2workflow.yaml");

describe("grading stored runs", () => {
  const db = testDatabase();
  let rubric: LoadedRubric;
  let alphaId = "";
  let betaId = "";

  beforeAll(async () => {
    const demo = await freshDemoDatabase(db);
    const loaded = await loadRubricFile(rubricFile);
    if (!loaded.ok) throw new Error(loaded.issues.join("\n"));
    rubric = loaded.value;
    alphaId = demo.runId("demo_alpha.json");
    betaId = demo.runId("demo_beta.json");
  });

  it("grades every response of a run; a format failure is F with its gate reason", async () => {
    const graded = await gradeStoredRun(db, viewer, alphaId, rubric);
    expect(graded?.ok).toBe(true);
    if (!graded?.ok) return;
    expect(graded.value.responses).toHaveLength(15);
    const format = graded.value.responses.find((response) => response.turnKey === "GrantProposalDigest_3")!;
    expect(format.result).toMatchObject({ grade: "F", passed: false, gate_failures: ["format"] });
    expect(format.result.gates.find((gate) => gate.name === "format")?.reason).toMatch(/^step_1_1/);
  });

  it("stores one row per response and rubric version with raw, norms, formulas and reasons, replacing on re-grade", async () => {
    const graded = await gradeStoredRun(db, viewer, alphaId, rubric);
    if (!graded?.ok) throw new Error("grading failed");
    await expect(storeRunGrades(db, viewer, graded.value)).rejects.toThrow(/may not import/);
    expect(await storeRunGrades(db, researcher, graded.value)).toBe(15);
    expect(await storeRunGrades(db, researcher, graded.value)).toBe(15);
    const rows = await db.gradingResult.findMany({ where: { runId: alphaId } });
    expect(rows).toHaveLength(15);
    const row = rows[0]!;
    expect(row).toMatchObject({ rubricId: "chat2workflow", rubricVersion: 1, rubricFingerprint: rubric.fingerprint });
    const criteria = JSON.parse(row.criteria) as { name: string; formula: string; raw: unknown; norm: number | null; adjusted_norm: number | null }[];
    expect(criteria.map((criterion) => criterion.formula)).toEqual(["ratio", "binary", "lower_is_better", "lower_is_better", "lower_is_better", "lower_is_better", "lower_is_better"]);
    expect(Array.isArray(JSON.parse(row.reasons))).toBe(true);
    const response = await gradeStoredResponse(db, viewer, row.responseId, rubric);
    expect(response?.ok && response.value.result.weighted_100).toBe(row.weighted);
  });

  it("finds a run by label, and a promotion check compares two runs of one benchmark", async () => {
    expect(await findRunByIdOrLabel(db, viewer, "demo_beta.json")).toEqual({ ok: true, value: { id: betaId, label: "demo_beta.json" } });
    expect((await findRunByIdOrLabel(db, viewer, "nope")).ok).toBe(false);
    const report = await checkPromotion(db, viewer, betaId, alphaId, rubric);
    expect(report?.ok).toBe(true);
    if (!report?.ok) return;
    expect(report.value.decision.sharedTurns).toBeGreaterThan(0);
    expect(report.value.decision.rules).toHaveLength(4);
    expect(["PROMOTE", "HOLD"]).toContain(report.value.decision.verdict);
    expect(await checkPromotion(db, viewer, "nope", alphaId, rubric)).toBeNull();
  });

  it("pools grades per model for the leaderboard's grade columns, counting every response once, ordered by §5.2", async () => {
    const benchmarkId = (await db.run.findUniqueOrThrow({ where: { id: alphaId } })).benchmarkId;
    const standings = await gradeBenchmarkStandings(db, viewer, benchmarkId, rubric);
    expect(standings.ok).toBe(true);
    if (!standings.ok) return;
    const responses = await db.response.count({ where: { run: { benchmarkId } } });
    for (const rows of [standings.value.models, standings.value.runs]) {
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.reduce((sum, row) => sum + row.candidate.bundle.count, 0)).toBe(responses);
      for (const row of rows) expect(Object.values(row.candidate.bundle.grades).reduce((sum, count) => sum + count, 0)).toBe(row.candidate.bundle.count);
      // A row may sit above a better weighted mean only when a tie-breaker placed it there (gap below 1.0).
      rows.slice(1).forEach((row, index) => {
        const above = rows[index]!.candidate.weighted_100;
        if (above < row.candidate.weighted_100) expect(row.candidate.weighted_100 - above).toBeLessThan(1);
      });
    }
    expect(standings.value.runs).toHaveLength(await db.run.count({ where: { benchmarkId } }));
  });
});

describe.skipIf(!benchmarkDir)(`grading a shared run file${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("grades gpt_5d2's recorded run from its file the same way as the CLI", async () => {
    const loaded = await loadRubricFile(rubricFile);
    if (!loaded.ok) throw new Error(loaded.issues.join("\n"));
    const graded = await gradeRunFile(benchmarkDir!, path.join(benchmarkDir!, "runs", "gpt_5d2.json"), loaded.value);
    expect(graded.ok).toBe(true);
    if (!graded.ok) return;
    expect(graded.value.responses).toHaveLength(79);
    const gateFailed = graded.value.responses.filter((response) => response.result.gate_failures.length > 0);
    expect(gateFailed.length).toBeGreaterThan(0);
    expect(gateFailed.filter((response) => !(response.result.grade === "F"))).toEqual([]);
    expect(gateFailed.length).toBeGreaterThan(0);
  });
});
