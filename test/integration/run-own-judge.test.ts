// One verdict per run, by its own judge. An evaluation generates GPT-5.2's recorded answers again (a loopback replay,
// not a model) and judges them with an LLM judge that replays the recorded judge's replies: the evaluation page, the
// leaderboard, the run page, the exports and the official download must all show that judge's 55 passing turns, not
// the rule judge's 59 (74.68 %) that the leaderboard used to show for the same answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "@/lib/benchmark/runs";
import { parseJudgeChoice } from "@/lib/judge/choice";
import { readBenchmarkDir, type BenchmarkFiles } from "@/lib/server/benchmark-files";
import { getModelOverview, getModelTurns, getPairTurns, getTaskMatrix } from "@/lib/server/data/drilldown";
import { getExportRates, getMeasuredRates, loadLeaderboard } from "@/lib/server/data/leaderboard";
import { getRunFigures } from "@/lib/server/data/runs";
import { getRunPassRecords } from "@/lib/server/data/official-downloads";
import { listRunResponses } from "@/lib/server/data/responses";
import { getEvaluationProgress } from "@/lib/server/evaluations/get-evaluation-progress";
import { startEvaluation } from "@/lib/server/evaluations/start-evaluation";
import { generateJobHandler } from "@/lib/server/jobs/generate-job";
import { jobQueue } from "@/lib/server/jobs/instance";
import { judgeJobHandler } from "@/lib/server/jobs/judge-job";
import { stopPgBoss } from "@/lib/server/jobs/pg-queue";
import { JobWorker } from "@/lib/server/jobs/worker";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";
import { actor, importBenchmarkOnly, stubEndpoint } from "../support/evaluation-fixtures";
import { zeroShotReplay } from "../support/generation-replay";
import { generationStubHandler } from "../support/generation-stub";
import { replay, replayTable, startOpenAIStub, type OpenAIStub } from "../support/openai-stub";

const viewer = actor("viewer");

describe.skipIf(!benchmarkDir)(`a generated run's figures come from its evaluation's judge${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let files: BenchmarkFiles;
  let generator: OpenAIStub;
  let judge: OpenAIStub;
  let records: readonly RunRecord[];
  let evaluationId: string;
  let runId: string;
  let benchmarkId: string;

  beforeAll(async () => {
    const read = await readBenchmarkDir(benchmarkDir as string);
    if (!read.ok) throw new Error(read.issues.map((entry) => entry.message).join("\n"));
    files = read.value;
    records = files.runs.find((run) => run.model === "gpt_5d2")?.records ?? [];
    expect(records).toHaveLength(79);
    const builder = files.prompts.find((prompt) => prompt.name === "builder_prompt")?.text ?? "";
    generator = await startOpenAIStub(zeroShotReplay(builder, files.queries, records).handler, { record: false });
    const gpt = files.runs.filter((run) => run.model === "gpt_5d2");
    judge = await startOpenAIStub(replay(replayTable(gpt, files.turns, new Map(files.queries.map((task) => [task.task, task.queries])))), { record: false });

    await emptyDatabase(db);
    benchmarkId = await importBenchmarkOnly(db, benchmarkDir as string);
    const endpointId = await stubEndpoint(db, generator.baseURL);
    const judgeId = await stubEndpoint(db, judge.baseURL, { label: "recorded-judge-replay" });
    const started = await startEvaluation(db, actor("researcher"), { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "llm", endpointIds: [judgeId], samples: 1 } });
    if (!started.ok) throw new Error(started.message);
    evaluationId = started.evaluationId;
    runId = started.runIds[0] as string;
    const queue = jobQueue(db, testDatabaseUrl(), { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 40 });
    await new JobWorker(db, queue, [generateJobHandler({ clientRetries: 0 }), judgeJobHandler({ clientRetries: 0 })], { pollMs: 20, leaseMs: 10_000 }).runUntilIdle();
  });
  afterAll(async () => {
    await generator?.close();
    await judge?.close();
    await stopPgBoss();
  });

  it("every reader shows the evaluation judge's pass count for the run", async () => {
    // The recorded judge passed every turn the recorded run calls valid (and any Dify later refused: none here).
    const judgePassed = records.filter((record) => record.valid || record.fail_step === "step_1_5").length;
    expect(judgePassed).toBe(55);
    const ruleJudge = await db.passResult.count({ where: { response: { runId }, deterministicValid: true } });
    expect(ruleJudge).toBe(59);

    const progress = await getEvaluationProgress(db, viewer, evaluationId);
    expect(progress?.status).toBe("succeeded");
    expect(progress?.counts).toMatchObject({ turns: 79, passed: judgePassed });

    const { rates } = await getMeasuredRates(db, viewer, benchmarkId);
    const overall = rates.filter((row) => row.model.startsWith("replay-stub_model_v1") && row.scope === "overall");
    expect(overall).toHaveLength(1);
    expect(overall[0]).toMatchObject({ passNum: judgePassed, passDen: 79 });

    const page = await listRunResponses(db, viewer, runId);
    expect(page?.responses.filter((row) => row.valid)).toHaveLength(judgePassed);

    const download = await getRunPassRecords(db, viewer, runId);
    expect(download?.data.filter((record) => record.valid)).toHaveLength(judgePassed);
  });

  it("says which judge made the figures, and the run page, its leaderboard row, the model page, the task matrix and the comparison agree", async () => {
    const figures = (await getRunFigures(db, viewer, [runId])).get(runId);
    expect(figures).toMatchObject({ turns: 79, passed: 55, casesPassed: null, judge: "judge: recorded-judge-replay ×1", awaitingJudge: 0, configuration: "Zero-shot (official) · T 0.7 · max 32768 · judge: recorded-judge-replay ×1" });
    const progress = await getEvaluationProgress(db, viewer, evaluationId);
    expect(progress?.runs[0]?.figures).toEqual(figures);

    const board = await loadLeaderboard(db, viewer, benchmarkId, { fresh: true });
    const row = board.board.rows.find((entry) => entry.name === figures?.series);
    expect(row).toMatchObject({ model: "replay-stub_model_v1", configuration: figures?.configuration, judge: "judge: recorded-judge-replay ×1", runs: 1 });
    expect(row?.cells.Average?.pass.measured).toMatchObject({ num: 55, den: 79 });
    expect(row?.cells.Average?.resolve.measured).toBeNull();

    const exported = await getExportRates(db, viewer, "measured", benchmarkId);
    expect(exported.rows.find((entry) => entry.model === "replay-stub_model_v1" && entry.scope === "overall")).toMatchObject({ passNum: 55, configuration: figures?.configuration, judge: "judge: recorded-judge-replay ×1" });

    const overview = await getModelOverview(db, viewer, benchmarkId, figures!.series);
    expect(overview?.chosen?.runs.map((run) => run.id)).toEqual([runId]);
    const turns = await getModelTurns(db, viewer, benchmarkId, "replay-stub_model_v1", { runIds: [runId] });
    expect(turns.filter((turn) => turn.valid)).toHaveLength(55);
    const pair = await getPairTurns(db, viewer, runId);
    expect(pair.filter((turn) => turn.passed)).toHaveLength(55);
    let matrixPassed = 0;
    for (const task of files.queries) {
      const matrix = await getTaskMatrix(db, viewer, benchmarkId, task.task, { fresh: true });
      const own = matrix?.matrix.rows.find((entry) => entry.runId === runId);
      expect(own?.judge).toBe("judge: recorded-judge-replay ×1");
      matrixPassed += own?.passed ?? 0;
    }
    expect(matrixPassed).toBe(55);
  });

  it("an agentic run of the same model is a row of its own, beside the zero-shot one", async () => {
    const agentic = await startOpenAIStub(generationStubHandler(), { record: false });
    try {
      const endpointId = await stubEndpoint(db, agentic.baseURL, { model: "replay-stub/model:v1" });
      const started = await startEvaluation(db, actor("researcher"), { benchmarkId, endpointId, mode: "agentic", judge: { kind: "rule" } });
      if (!started.ok) throw new Error(started.message);
      const queue = jobQueue(db, testDatabaseUrl(), { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 40 });
      await new JobWorker(db, queue, [generateJobHandler({ clientRetries: 0 })], { pollMs: 20, leaseMs: 10_000 }).runUntilIdle();
      const board = await loadLeaderboard(db, viewer, benchmarkId, { fresh: true });
      const rows = board.board.rows.filter((entry) => entry.model === "replay-stub_model_v1");
      expect(rows.map((entry) => entry.configuration).sort()).toEqual([
        "Agentic, no agent framework (ours) · T server default · max server default · rule judge (not the official LLM judge)",
        "Zero-shot (official) · T 0.7 · max 32768 · judge: recorded-judge-replay ×1",
      ]);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((entry) => !(entry.runs === 1))).toEqual([]);
      const zeroShot = rows.find((entry) => entry.configuration?.startsWith("Zero-shot (official)"));
      expect(zeroShot?.cells.Average?.pass.measured).toMatchObject({ num: 55, den: 79 });
      const agenticRun = started.runIds[0] as string;
      const agenticFigures = (await getRunFigures(db, viewer, [agenticRun])).get(agenticRun);
      const agenticRow = rows.find((entry) => entry.configuration?.startsWith("Agentic, no agent framework (ours)"));
      expect(agenticRow?.cells.Average?.pass.measured).toMatchObject({ num: agenticFigures?.passed, den: 79 });
      expect(agenticFigures?.judge).toBe("rule judge (not the official LLM judge)");
    } finally {
      await agentic.close();
    }
  });

  it("re-viewed under the rule judge, the same run shows the rule judge's 59", async () => {
    const rule = parseJudgeChoice("rule");
    if (!rule.ok) throw new Error("rule parses");
    const { rates } = await getMeasuredRates(db, viewer, benchmarkId, rule.value);
    const overall = rates.filter((row) => row.model.startsWith("replay-stub_model_v1") && row.scope === "overall" && row.passDen === 79);
    const series = (await getRunFigures(db, viewer, [runId])).get(runId)?.series;
    const zeroShot = overall.find((row) => row.model === series);
    expect(zeroShot).toMatchObject({ passNum: 59, passDen: 79 });
  });
});
