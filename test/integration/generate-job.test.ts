// Generation as a durable job against loopback stubs: a zero-shot evaluation replaying a shared run stores every
// turn once with its attempt and live scoring, reproducing the recorded fail steps 1_1-1_3; a failed call fails its
// turn only and the task's later rounds wait for the retry; an LLM judge gets items for the turns that reach it;
// agentic turns keep every attempt.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { turnKey } from "@/lib/benchmark/dataset";
import type { RunRecord } from "@/lib/benchmark/runs";
import { RULE_JUDGE_ID } from "@/lib/import/plan";
import { readBenchmarkDir, type BenchmarkFiles } from "@/lib/server/benchmark-files";
import { getMeasuredRates } from "@/lib/server/data/leaderboard";
import { getRunResponseFile } from "@/lib/server/data/official-downloads";
import { cancelEvaluation } from "@/lib/server/evaluations/cancel-evaluation";
import { getEvaluationProgress } from "@/lib/server/evaluations/get-evaluation-progress";
import { startEvaluation } from "@/lib/server/evaluations/start-evaluation";
import { closeFinishedGeneratedRuns, generateJobHandler, generateJobKind, SKILL_PLACEHOLDER } from "@/lib/server/jobs/generate-job";
import { JUDGE_JOB_KIND, judgeJobHandler } from "@/lib/server/jobs/judge-job";
import { jobQueue } from "@/lib/server/jobs/instance";
import { stopPgBoss } from "@/lib/server/jobs/pg-queue";
import { JobWorker } from "@/lib/server/jobs/worker";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";
import { actor, importBenchmarkOnly, stubEndpoint } from "../support/evaluation-fixtures";
import { recordedAnswerText, zeroShotReplay } from "../support/generation-replay";
import { fixedReply, startOpenAIStub, type OpenAIStub } from "../support/openai-stub";

const researcher = actor("researcher");
const recordedEarlyStep = (record: RunRecord) => (record.fail_step === "step_1_1" || record.fail_step === "step_1_2" || record.fail_step === "step_1_3" ? record.fail_step : null);

describe.skipIf(!benchmarkDir)(`generate jobs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let files: BenchmarkFiles;
  let stub: OpenAIStub;
  let benchmarkId: string;
  // The queue the test database selects (pg-boss on PostgreSQL), so judge items appended mid-job are leased there too.
  const queue = () => jobQueue(db, testDatabaseUrl(), { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 40 });
  const worker = () => new JobWorker(db, queue(), [generateJobHandler({ clientRetries: 0, clientBackoffBaseMs: 5 })], { pollMs: 20, leaseMs: 10_000 });
  const builderPrompt = () => files.prompts.find((prompt) => prompt.name === "builder_prompt")?.text ?? "";
  const recorded = (model: string) => files.runs.find((run) => run.model === model)?.records ?? [];

  beforeAll(async () => {
    const read = await readBenchmarkDir(benchmarkDir as string);
    if (!read.ok) throw new Error(read.issues.map((entry) => entry.message).join("\n"));
    files = read.value;
    stub = await startOpenAIStub(() => ({ kind: "error", status: 500 }));
    await emptyDatabase(db);
    benchmarkId = await importBenchmarkOnly(db, benchmarkDir as string);
  });
  afterAll(async () => {
    await stub?.close();
    await stopPgBoss();
  });
  beforeEach(async () => {
    await db.job.deleteMany();
    await db.evaluation.deleteMany();
    await db.run.deleteMany();
    await db.llmCallCache.deleteMany();
    await db.modelEndpoint.deleteMany();
  });

  it("zero-shot: every turn stored once, scored live, reproducing the recorded fail steps 1_1-1_3; the run completes", async () => {
    const records = recorded("claude_sonnet4d5");
    expect(records).toHaveLength(79);
    const replay = zeroShotReplay(builderPrompt(), files.queries, records);
    stub.setHandler(replay.handler);
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "rule" } });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const callsBefore = stub.calls;
    await worker().runUntilIdle();
    expect(replay.violations).toEqual([]);
    expect(stub.calls - callsBefore).toBe(79);

    const runId = started.runIds[0] as string;
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: "complete", responseCount: 79 });
    expect((await db.evaluation.findUniqueOrThrow({ where: { id: started.evaluationId } })).status).toBe("succeeded");
    const responses = await db.response.findMany({ where: { runId }, include: { passResult: true, attempts: true, turn: { select: { key: true } }, judgeVerdicts: true } });
    expect(responses).toHaveLength(79);
    const byKey = new Map(responses.map((response) => [response.turn.key, response]));
    const mismatches: string[] = [];
    for (const record of records) {
      const response = byKey.get(turnKey(record.task, record.round));
      if (response?.passResult?.officialFailStep !== recordedEarlyStep(record)) mismatches.push(`${record.task}_${record.round}: ${response?.passResult?.officialFailStep} vs ${record.fail_step ?? "valid"}`);
    }
    expect(mismatches).toEqual([]);
    for (const response of responses) {
      expect(response.generatedAt).not.toBeNull();
      expect(response.rawText).not.toContain("</think>");
      expect(response.attempts.map((attempt) => attempt.outcome)).toEqual(["answered"]);
      expect(response.attempts[0]?.raw).toContain("</think>");
      // The rule judge's verdict is stored for exactly the turns that reach step 1_4.
      expect(response.judgeVerdicts.filter((verdict) => verdict.judge === RULE_JUDGE_ID)).toHaveLength(response.passResult?.officialFailStep === null ? 1 : 0);
    }
    const job = await db.job.findUniqueOrThrow({ where: { id: started.jobId } });
    expect(job).toMatchObject({ status: "succeeded", doneCount: 27, failedCount: 0, calls: 79 });

    const progress = await getEvaluationProgress(db, actor("viewer"), started.evaluationId);
    const valid = responses.filter((response) => response.passResult?.valid).length;
    expect(progress?.counts).toEqual({ turns: 79, pending: 0, running: 0, passed: valid, failed: 79 - valid, error: 0 });
    expect(progress?.runs[0]?.tasks.map((task) => task.task)).toEqual(files.queries.map((task) => task.task));
    const firstFailed = progress?.runs[0]?.tasks.flatMap((task) => task.cells).find((cell) => cell.state === "failed");
    expect(firstFailed?.failStep).toMatch(/^step_1_[1-4]$/);
    expect(progress?.usage.calls).toBe(79);
    expect(progress?.usage.inputTokens).toBe(job.inputTokens);

    // The run downloads as the official response file: every answer as replayed, without its <think> block.
    const file = await getRunResponseFile(db, actor("viewer"), runId);
    expect(file?.data.map((item) => item.task)).toEqual(files.queries.map((task) => task.task));
    const downloaded = new Map((file?.data ?? []).flatMap((item) => Object.entries(item).filter(([key]) => key.startsWith("answer")).map(([key, answer]) => [`${item.task}_${key.slice(6)}`, answer])));
    expect(downloaded.size).toBe(79);
    expect(records.filter((record) => downloaded.get(turnKey(record.task, record.round)) !== recordedAnswerText(record))).toEqual([]);

    // The generated run is on the leaderboard like an imported one: its overall pass rate over its 79 turns.
    const rates = await getMeasuredRates(db, actor("viewer"), benchmarkId);
    const series = rates.counts.models.find((info) => info.model === "replay-stub_model_v1");
    expect(series?.configuration).toBe("Zero-shot (official) · T 0.7 · max 32768 · rule judge (not the official LLM judge)");
    expect(rates.rates.find((row) => row.model === series?.name && row.scope === "overall")).toMatchObject({ passNum: valid, passDen: 79 });
  });

  it("progress: cells are pending, running while leased, and show the error of a failed call", async () => {
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "none" }, runCount: 2 });
    if (!started.ok) throw new Error(started.message);
    const before = await getEvaluationProgress(db, actor("viewer"), started.evaluationId);
    expect(before?.runs).toHaveLength(2);
    expect(before?.counts).toEqual({ turns: 158, pending: 158, running: 0, passed: 0, failed: 0, error: 0 });
    const [lease] = await queue().lease(started.jobId, "test-worker", 1, 60_000);
    expect(lease).toBeDefined();
    if (!lease) return;
    const leased = generateJobKind.payloadSchema.parse(lease.payload);
    const leasedTask = leased.task;
    const running = await getEvaluationProgress(db, actor("viewer"), started.evaluationId);
    const row = running?.runs.flatMap((run) => run.tasks.map((task) => ({ run: run.runId, ...task }))).find((task) => task.task === leasedTask && task.run === leased.runId);
    expect(row?.cells.map((cell) => cell.state).slice(0, 2)).toEqual(["running", "pending"]);
    expect(await queue().fail(lease, { message: `${leasedTask}_1: server-error (HTTP 503): busy`, retryable: true })).toBe("retry");
    const failed = await getEvaluationProgress(db, actor("viewer"), started.evaluationId);
    expect(failed?.counts.error).toBe(1);
    const errorCell = failed?.runs.flatMap((run) => run.tasks.flatMap((task) => task.cells)).find((cell) => cell.state === "error");
    expect(errorCell).toMatchObject({ round: 1, error: `${leasedTask}_1: server-error (HTTP 503): busy` });
  });

  it("a failed call fails its turn only; later rounds wait for the retry, which resumes without asking stored rounds again", async () => {
    const records = recorded("gpt_5d2");
    const replay = zeroShotReplay(builderPrompt(), files.queries, records);
    const asked: string[] = [];
    let failed = false;
    stub.setHandler((request) => {
      const last = request.messages.at(-1)?.content ?? "";
      // Round 2 of the first task with three or more rounds fails once with a 400-free server error.
      const target = files.queries.find((task) => task.queries.length >= 3);
      if (!failed && target && last === target.queries[1]) {
        failed = true;
        return { kind: "error", status: 503 };
      }
      asked.push(last);
      return replay.handler(request);
    });
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "none" } });
    if (!started.ok) throw new Error(started.message);
    await worker().runUntilIdle();
    expect(failed).toBe(true);
    expect(replay.violations).toEqual([]);
    // Every query was answered exactly once: the retry did not ask round 1 again.
    expect(asked).toHaveLength(79);
    const items = await db.jobItem.findMany({ where: { jobId: started.jobId } });
    const retried = items.filter((item) => item.attempts > 1);
    expect(retried).toHaveLength(1);
    expect(retried[0]?.status).toBe("done");
    expect(await db.response.count({ where: { runId: started.runIds[0] } })).toBe(79);
    expect((await db.run.findUniqueOrThrow({ where: { id: started.runIds[0] } })).status).toBe("complete");
  });

  it("the runs of one evaluation are distinct samples: none replays another's cached replies", async () => {
    let counter = 0;
    stub.setHandler(() => ({ kind: "reply", content: `<node_selection>start, end</node_selection><design_principle>reply ${++counter}</design_principle><workflow>{}</workflow>` }));
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "none" }, runCount: 2 });
    if (!started.ok) throw new Error(started.message);
    const before = stub.calls;
    await worker().runUntilIdle();
    expect(stub.calls - before).toBe(158);
    const texts = await db.response.findMany({ where: { runId: { in: started.runIds } }, select: { runId: true, turnId: true, rawText: true } });
    expect(texts).toHaveLength(158);
    const byTurn = new Map<string, Set<string | null>>();
    for (const text of texts) byTurn.set(text.turnId, (byTurn.get(text.turnId) ?? new Set()).add(text.rawText));
    expect([...byTurn.values()].filter((answers) => answers.size !== 2)).toEqual([]);
  });

  it("a run whose worker died before closing it is closed when a worker starts", async () => {
    stub.setHandler(fixedReply("<node_selection>start, end</node_selection><design_principle>x</design_principle><workflow>{}</workflow>"));
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "none" } });
    if (!started.ok) throw new Error(started.message);
    // The worker records every item but "dies" before closing the run.
    const { settled: _dropped, ...withoutSettling } = generateJobHandler();
    await new JobWorker(db, queue(), [withoutSettling], { pollMs: 20 }).runUntilIdle();
    expect((await db.job.findUniqueOrThrow({ where: { id: started.jobId } })).status).toBe("succeeded");
    expect((await db.run.findUniqueOrThrow({ where: { id: started.runIds[0] } })).status).toBe("in-progress");
    expect(await closeFinishedGeneratedRuns(db)).toBe(1);
    expect(await db.run.findUniqueOrThrow({ where: { id: started.runIds[0] } })).toMatchObject({ status: "complete", responseCount: 79 });
    expect((await db.evaluation.findUniqueOrThrow({ where: { id: started.evaluationId } })).status).toBe("succeeded");
    expect(await closeFinishedGeneratedRuns(db)).toBe(0);
  });

  it("with an LLM judge, each turn that reaches step 1_4 gets judge items on the run's judge job, and a worker judges them", async () => {
    const records = recorded("claude_sonnet4d5");
    const replay = zeroShotReplay(builderPrompt(), files.queries, records);
    const PASS = "<reason>The nodes match.</reason>\n<result>\ntrue\n</result>";
    stub.setHandler((request) => ((request.messages.at(-1)?.content ?? "").includes("gt_nodes:") ? { kind: "reply", content: PASS } : replay.handler(request)));
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const judgeId = await stubEndpoint(db, stub.baseURL, { label: "judge-stub" });
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "llm", endpointIds: [judgeId], samples: 2 } });
    if (!started.ok) throw new Error(started.message);
    // Only the generate handler runs first: the judge items stay queued for a judge worker.
    await worker().runUntilIdle();
    const reached = await db.passResult.count({ where: { response: { runId: started.runIds[0] }, officialFailStep: null } });
    expect(reached).toBeGreaterThan(0);
    const judgeJobs = await db.job.findMany({ where: { kind: JUDGE_JOB_KIND, runId: started.runIds[0] }, include: { items: true } });
    expect(judgeJobs).toHaveLength(1);
    expect(judgeJobs[0]).toMatchObject({ endpointId: judgeId, itemCount: reached * 2, status: "queued" });
    expect(judgeJobs[0]?.items).toHaveLength(reached * 2);
    // Generated but not yet judged: the evaluation is not finished while its judge job has work.
    expect(await db.run.findUniqueOrThrow({ where: { id: started.runIds[0] } })).toMatchObject({ status: "complete" });
    expect((await db.evaluation.findUniqueOrThrow({ where: { id: started.evaluationId } })).status).toBe("running");

    await new JobWorker(db, queue(), [judgeJobHandler({ clientRetries: 0 })], { pollMs: 20 }).runUntilIdle();
    expect(replay.violations).toEqual([]);
    expect((await db.job.findUniqueOrThrow({ where: { id: judgeJobs[0]!.id } })).status).toBe("succeeded");
    // The judge job's last item closes the evaluation.
    expect(await db.evaluation.findUniqueOrThrow({ where: { id: started.evaluationId } })).toMatchObject({ status: "succeeded", finishedAt: expect.any(Date) });
    expect(await db.judgeVerdict.count({ where: { judge: "judge-stub", response: { runId: started.runIds[0] } } })).toBe(reached * 2);
  });

  it("a turn that fails for good fails its run and the evaluation; the other tasks are stored", async () => {
    const records = recorded("gpt_5d2");
    const replay = zeroShotReplay(builderPrompt(), files.queries, records);
    const target = files.queries[0]!;
    // A 400 is not retried: the first task's round 1 fails for good, its later rounds are never asked.
    stub.setHandler((request) => (request.messages.at(-1)?.content === target.queries[0] ? { kind: "error", status: 400, message: "bad request" } : replay.handler(request)));
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "rule" } });
    if (!started.ok) throw new Error(started.message);
    await worker().runUntilIdle();
    expect(await db.run.findUniqueOrThrow({ where: { id: started.runIds[0] } })).toMatchObject({ status: "failed", responseCount: 79 - target.queries.length });
    expect((await db.evaluation.findUniqueOrThrow({ where: { id: started.evaluationId } })).status).toBe("failed");
    const failedItems = await db.jobItem.findMany({ where: { jobId: started.jobId, status: "failed" } });
    expect(failedItems.map((item) => item.key)).toEqual([`${started.runIds[0]}:${target.task}`]);
    expect(failedItems[0]?.error).toContain(`${target.task}_1: client-error (HTTP 400)`);
    const progress = await getEvaluationProgress(db, actor("viewer"), started.evaluationId);
    const row = progress?.runs[0]?.tasks.find((task) => task.task === target.task);
    expect(row?.cells.map((cell) => cell.state)).toEqual(["error", ...target.queries.slice(1).map(() => "pending")]);
  });

  it("cancelling mid-generation stops the job; stored turns stay and the run is cancelled", async () => {
    stub.setHandler(fixedReply("<node_selection>start, end</node_selection><design_principle>x</design_principle><workflow>{}</workflow>", 150));
    const endpointId = await stubEndpoint(db, stub.baseURL, { concurrency: 2 });
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "none" } });
    if (!started.ok) throw new Error(started.message);
    const running = worker();
    running.start();
    const runId = started.runIds[0] as string;
    const deadline = Date.now() + 30_000;
    while ((await db.response.count({ where: { runId } })) < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await cancelEvaluation(db, researcher, started.evaluationId)).toEqual({ ok: true });
    await running.stop();
    const stored = await db.response.count({ where: { runId } });
    expect(stored).toBeGreaterThanOrEqual(3);
    expect(stored).toBeLessThan(79);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await db.response.count({ where: { runId } })).toBe(stored);
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("cancelled");
    expect((await db.evaluation.findUniqueOrThrow({ where: { id: started.evaluationId } })).status).toBe("cancelled");
    expect((await db.job.findUniqueOrThrow({ where: { id: started.jobId } })).status).toBe("cancelled");
  });

  it.each(["agentic", "feedback"] as const)("%s: each turn keeps its attempts in order, with the skill text replaced by a placeholder", async (mode) => {
    const records = recorded("claude_sonnet4d5");
    const answers = new Map(records.map((record) => [turnKey(record.task, record.round), record]));
    const attemptsPerTurn = new Map<string, number>();
    const sentParams = new Set<string>();
    stub.setHandler((request) => {
      sentParams.add(JSON.stringify({ temperature: request.body.temperature, max_tokens: request.body.max_tokens }));
      const message = request.messages.at(-1)?.content ?? "";
      const task = files.queries.find((candidate) => candidate.queries.some((query) => message.includes(query)));
      const round = task ? Math.max(...task.queries.map((query, index) => (message.includes(query) ? index + 1 : 0))) : 0;
      const key = task ? turnKey(task.task, round) : "unknown";
      const count = (attemptsPerTurn.get(key) ?? 0) + 1;
      attemptsPerTurn.set(key, count);
      // The first attempt of every turn comes back without the tags; the second is the recorded answer.
      const record = answers.get(key);
      if (count === 1 || !record) return { kind: "reply", content: "I would start with a Start node." };
      return { kind: "reply", content: `<node_selection>${record.node_selection ?? ""}</node_selection><design_principle>${record.design_principle ?? ""}</design_principle><workflow>${record.workflow ?? "{}"}</workflow>` };
    });
    const endpointId = await stubEndpoint(db, stub.baseURL);
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode, judge: { kind: "rule" }, params: { maxTokens: 2000 } });
    if (!started.ok) throw new Error(started.message);
    await worker().runUntilIdle();
    const responses = await db.response.findMany({ where: { runId: started.runIds[0] }, include: { attempts: { orderBy: { index: "asc" } }, turn: { select: { key: true } } } });
    expect(responses).toHaveLength(79);
    for (const response of responses) {
      const made = attemptsPerTurn.get(response.turn.key) ?? 0;
      expect(made).toBeGreaterThanOrEqual(2);
      expect(made).toBeLessThanOrEqual(5);
      expect(response.attempts.map((attempt) => attempt.index)).toEqual(Array.from({ length: made }, (_, index) => index + 1));
      expect(response.attempts[0]?.outcome).toBe("no-tags");
      expect(response.attempts[0]?.message).toContain(SKILL_PLACEHOLDER);
      // Error feedback tells attempt 2 what was wrong with attempt 1; the official baseline repeats the same prompt.
      if (mode === "feedback") expect(response.attempts[1]?.message).toContain("- missing-tags: the previous attempt had no <workflow>...</workflow> section.");
      else expect(response.attempts[1]?.message).toBe(response.attempts[0]?.message);
      expect(response.accepted).not.toBeNull();
    }
    expect((await db.run.findUniqueOrThrow({ where: { id: started.runIds[0] } })).status).toBe("complete");
    // Agentic calls send only the evaluation's overrides, never the endpoint's judge defaults (temperature 0).
    expect([...sentParams]).toEqual([JSON.stringify({ max_tokens: 2000 })]);
  });
});
