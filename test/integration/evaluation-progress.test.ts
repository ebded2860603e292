// The evaluation pages' read models on a real database: the grid and usage contract the live page renders (the
// evaluation service's progress) as turns arrive, the list's cost per evaluation, the attempt timeline of a generated turn, and the "in progress" marks of its runs on the
// leaderboard and the task matrix.
import { beforeAll, describe, expect, it } from "vitest";
import { CORE_VERSION } from "@/lib/workflow/version";
import { getTaskMatrix } from "@/lib/server/data/drilldown";
import { getEvaluationProgress } from "@/lib/server/evaluations/get-evaluation-progress";
import { listGenerationAttempts } from "@/lib/server/data/generation-attempts";
import { loadLeaderboard } from "@/lib/server/data/leaderboard";
import { listRunResponses } from "@/lib/server/data/responses";
import { getEvaluation } from "@/lib/server/evaluations/get-evaluation";
import { startEvaluation } from "@/lib/server/evaluations/start-evaluation";
import { evaluationCosts } from "@/lib/server/evaluations/list-evaluations";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase } from "../support/database";
import { actor, importBenchmarkOnly, stubEndpoint } from "../support/evaluation-fixtures";

describe.skipIf(!benchmarkDir)(`evaluation progress${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  const viewer = actor("viewer");
  let benchmarkId: string;
  let evaluationId: string;
  let jobId: string;
  let runIds: string[];
  let firstTask: { id: string; name: string; roundCount: number };
  let secondTask: { name: string };

  async function storeTurn(runId: string, task: string, round: number, valid: boolean, failStep: string | null): Promise<string> {
    const turn = await db.turn.findFirstOrThrow({ where: { benchmarkId, round, task: { name: task } }, select: { id: true } });
    const response = await db.response.create({ data: { runId, turnId: turn.id, rawText: "answer", generatedAt: new Date(), generationMs: 1200, accepted: valid } });
    await db.passResult.create({
      data: { responseId: response.id, valid, failStep, verdictSource: "deterministic", officialFailStep: failStep, deterministicValid: valid, coreVersion: CORE_VERSION },
    });
    return response.id;
  }

  beforeAll(async () => {
    await emptyDatabase(db);
    benchmarkId = await importBenchmarkOnly(db, benchmarkDir as string);
    const endpointId = await stubEndpoint(db, "http://127.0.0.1:9/v1");
    const started = await startEvaluation(db, actor("researcher"), { benchmarkId, endpointId, mode: "agentic", judge: { kind: "rule" }, runCount: 2 });
    if (!started.ok) throw new Error(started.message);
    ({ evaluationId, jobId, runIds } = started);
    const tasks = await db.task.findMany({ where: { benchmarkId }, orderBy: { externalId: "asc" }, select: { id: true, name: true, roundCount: true } });
    firstTask = tasks.find((task) => task.roundCount >= 3)!;
    secondTask = tasks.find((task) => task.name !== firstTask.name)!;
  });

  it("starts with every cell pending, then fills as turns arrive, marking the leased task's next round running and a failed item in error", async () => {
    const empty = await getEvaluationProgress(db, viewer, evaluationId);
    expect(empty).not.toBeNull();
    const turnCount = await db.turn.count({ where: { benchmarkId } });
    expect(empty!.runs).toHaveLength(2);
    expect(empty!.counts).toEqual({ turns: 2 * turnCount, pending: 2 * turnCount, running: 0, passed: 0, failed: 0, error: 0 });
    expect(empty!.status).toBe("running");

    const [run1] = runIds as [string, string];
    const passed = await storeTurn(run1, firstTask.name, 1, true, null);
    const failed = await storeTurn(run1, firstTask.name, 2, false, "step_1_2");
    await db.jobItem.update({ where: { jobId_key: { jobId, key: `${run1}:${firstTask.name}` } }, data: { status: "leased" } });
    await db.jobItem.update({ where: { jobId_key: { jobId, key: `${run1}:${secondTask.name}` } }, data: { status: "failed", error: "HTTP 500 from the endpoint" } });
    await db.job.update({ where: { id: jobId }, data: { calls: 7, inputTokens: 1000, outputTokens: 250, cost: 0.002 } });

    const progress = await getEvaluationProgress(db, viewer, evaluationId);
    const run = progress!.runs.find((candidate) => candidate.runId === run1)!;
    const row = run.tasks.find((candidate) => candidate.task === firstTask.name)!;
    expect(row.cells.slice(0, 3).map((cell) => [cell.state, cell.responseId, cell.failStep])).toEqual([
      ["passed", passed, null],
      ["failed", failed, "step_1_2"],
      ["running", null, null],
    ]);
    const errored = run.tasks.find((candidate) => candidate.task === secondTask.name)!;
    expect(errored.cells[0]).toMatchObject({ state: "error", error: "HTTP 500 from the endpoint" });
    expect(run.counts).toMatchObject({ passed: 1, failed: 1, running: 1, error: 1 });
    expect(progress!.counts.pending).toBe(2 * turnCount - 4);
    expect(progress!.usage).toEqual({ calls: 7, cachedCalls: 0, inputTokens: 1000, outputTokens: 250, cost: 0.002 });

    const view = await getEvaluation(db, viewer, evaluationId);
    expect((await evaluationCosts(db, viewer, [view!])).get(evaluationId)).toBeCloseTo(0.002, 6);
    expect(await getEvaluationProgress(db, viewer, "no-such-evaluation")).toBeNull();
  });

  it("reads a generated turn's attempts in order with their repairs and issues; imported turns have none", async () => {
    const [, run2] = runIds as [string, string];
    const responseId = await storeTurn(run2, firstTask.name, 1, true, null);
    const raw = '<node_selection>start</node_selection>\n<design_principle>x</design_principle>\n<workflow>```json\n{"nodes_info": [], "edges": []}\n```</workflow>';
    const repaired = '<node_selection>start</node_selection>\n<design_principle>x</design_principle>\n<workflow>\n{"nodes_info": [], "edges": []}\n</workflow>';
    await db.generationAttempt.createMany({
      data: [
        { responseId, index: 2, message: "try again", raw, outcome: "accepted", candidate: repaired, repairs: JSON.stringify([{ code: "strip-code-fence", before: raw, after: repaired }]), latencyMs: 900 },
        { responseId, index: 1, message: "build", raw: "no tags", outcome: "no-tags", issues: JSON.stringify([{ code: "MISSING_JSON", message: "no workflow" }]), latencyMs: 1500 },
      ],
    });
    const attempts = await listGenerationAttempts(db, viewer, responseId);
    expect(attempts.map((attempt) => [attempt.index, attempt.outcome, attempt.latencyMs])).toEqual([
      [1, "no-tags", 1500],
      [2, "accepted", 900],
    ]);
    expect(attempts[0]!.issues).toEqual([{ code: "MISSING_JSON", message: "no workflow" }]);
    expect(attempts[1]!.repairs.map((repair) => repair.code)).toEqual(["strip-code-fence"]);
    expect(attempts[1]!.diff?.deleted).toBeGreaterThan(0);
    const other = await storeTurn(run2, secondTask.name, 1, false, "step_1_1");
    expect(await listGenerationAttempts(db, viewer, other)).toEqual([]);
  });

  it("marks the evaluation's runs in progress on the leaderboard, the run page and the task matrix", async () => {
    const board = await loadLeaderboard(db, viewer, benchmarkId, { fresh: true });
    // The evaluation's two runs are one configuration (agentic, rule judge): one row, marked in progress.
    const rows = board.board.rows.filter((row) => row.model === "replay-stub_model_v1");
    expect(rows.map((row) => [row.runs, row.configuration])).toEqual([[2, "Agentic, no agent framework (ours) · T server default · max server default · rule judge (not the official LLM judge)"]]);
    expect(board.inProgressModels).toEqual([rows[0]!.name]);
    const runPage = await listRunResponses(db, viewer, runIds[0]!);
    expect(runPage!.run).toMatchObject({ status: "in-progress", evaluationId, generationMode: "agentic" });
    const matrix = await getTaskMatrix(db, viewer, benchmarkId, firstTask.name, { fresh: true });
    expect(matrix!.inProgressRuns.sort()).toEqual([...runIds].sort());

    await db.run.updateMany({ where: { evaluationId }, data: { status: "complete" } });
    expect((await loadLeaderboard(db, viewer, benchmarkId, { fresh: true })).inProgressModels).toEqual([]);
    expect((await getTaskMatrix(db, viewer, benchmarkId, firstTask.name, { fresh: true }))!.inProgressRuns).toEqual([]);
  });
});
