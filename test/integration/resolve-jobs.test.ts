// Dify execution as a durable job: an imported raw-output run (rebuilt from a shared run's recorded answers) is
// executed against the loopback fake Dify with the benchmark's real case files. CaseResult rows are written with the
// run id, output files and reasons; a missing case file, a run timeout and a 429 (retried in place) behave as
// documented; apps are deleted; an import Dify refuses fails the item at step_1_5, as the official pass stage records.
// Executed without an LLM judge, cases with text outputs are not judged (no resolve rate) until a judging job answers
// them; a missing prompt or judge endpoint, or a workspace lacking a plugin, refuses the start saying why; only the
// turns the run's own pass judge passed go to Dify.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, readdir, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { turnKey } from "@/lib/benchmark/dataset";
import { modelOfSeries } from "@/lib/leaderboard/configuration";
import { taskExportRow } from "@/lib/leaderboard/tables";
import { parseRunFile, type RunRecord } from "@/lib/benchmark/runs";
import { outputGroups } from "@/lib/benchmark/turn";
import { testFiles, uploadFileName } from "@/lib/resolve/official";
import { readBenchmarkDir, type BenchmarkFiles } from "@/lib/server/benchmark-files";
import { createDifyConnection } from "@/lib/server/dify-connections/connections";
import { createEndpoint } from "@/lib/server/endpoints/endpoints";
import { getTaskMatrix, listTasks } from "@/lib/server/data/drilldown";
import { getRunPassRecords } from "@/lib/server/data/official-downloads";
import { getRunFigures } from "@/lib/server/data/runs";
import { getResolveRecordFile } from "@/lib/server/data/resolve-records";
import { getMeasuredCounts, getMeasuredRates } from "@/lib/server/data/leaderboard";
import { expandRunPaths, readImportFiles, runImport } from "@/lib/server/import/import-service";
import { afterEvaluationJudgeJob, afterRunGenerated } from "@/lib/server/evaluations/after-generation";
import { getEvaluationProgress } from "@/lib/server/evaluations/get-evaluation-progress";
import { jobQueue } from "@/lib/server/jobs/instance";
import { appMarker, difyExecutionJobId, enqueueDifyExecution, resolveJobHandler, resolveJobKind, startResolveJob, startResolveJudgeJob } from "@/lib/server/jobs/resolve-job";
import { signIn } from "@/lib/server/dify/client";
import { SqliteJobQueue } from "@/lib/server/jobs/sqlite-queue";
import { JobWorker } from "@/lib/server/jobs/worker";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";
import { difyFileOutput, fullFakeInventory, startFakeDify, type FakeDify } from "../support/fake-dify";
import { recordedAnswerText } from "../support/generation-replay";
import { fixedReply, officialReply, startOpenAIStub, type OpenAIStub } from "../support/openai-stub";

process.env.C2W_SECRETS_KEY ??= randomBytes(32).toString("base64");

const admin = { id: "admin", email: "admin@example.org", name: null, role: "admin" as const };
const researcher = { id: "researcher", email: "researcher@example.org", name: null, role: "researcher" as const };
const PASSWORD = "dify-password";

describe.skipIf(!benchmarkDir)(`resolve jobs against the fake Dify${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let benchmark: BenchmarkFiles;
  let dify: FakeDify;
  let judge: OpenAIStub;
  let caseFiles: string;
  let runId: string;
  let connectionId: string;
  let withFiles: RunRecord;
  let missingFile: string;
  const worker = () => new JobWorker(db, new SqliteJobQueue(db, { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 }), [resolveJobHandler({ maxAttempts: 2, serviceBackoffMs: 10, judgeClientRetries: 0 })], { pollMs: 10, maxInFlight: 1 });

  beforeAll(async () => {
    const dir = benchmarkDir as string;
    const files = await readBenchmarkDir(dir);
    if (!files.ok) throw new Error(files.issues.map((entry) => entry.message).join("\n"));
    benchmark = files.value;
    const records = benchmark.runs.find((run) => run.model === "claude_sonnet4d5")?.records ?? [];
    // One task whose valid turn uploads input files and checks output files, and one task without file checks.
    const found = records.find((record) => record.valid && benchmark.checkResolve[turnKey(record.task, record.round)] && benchmark.turns.get(turnKey(record.task, record.round))?.tests.some((test) => testFiles(test.inputs).length > 0));
    const plain = records.find((record) => record.valid && record.task !== found?.task && !benchmark.checkResolve[turnKey(record.task, record.round)]);
    if (!found || !plain) throw new Error("the shared run lacks the records this test needs");
    withFiles = found;
    const tasks = new Set([found.task, plain.task]);
    const responseFile = benchmark.queries
      .filter((task) => tasks.has(task.task))
      .map((task) => {
        const entry: Record<string, unknown> = { id: task.id, category: task.category, task: task.task };
        for (const record of records.filter((candidate) => candidate.task === task.task)) entry[`answer${record.round}`] = recordedAnswerText(record);
        return entry;
      });
    await emptyDatabase(db);
    const imported = await runImport(db, { benchmark: { kind: "directory", dir }, runs: [{ name: "replayed_model.json", content: JSON.stringify(responseFile) }], importedBy: "test" }, { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 });
    if (!imported.ok) throw new Error(imported.issues.map((entry) => entry.message).join("\n"));
    runId = (await db.run.findFirstOrThrow({ select: { id: true } })).id;

    // The case files, less the first file of the first test that uploads one: that test must fail, naming the file.
    const spec = benchmark.turns.get(turnKey(found.task, found.round));
    missingFile = spec?.tests.flatMap((test) => testFiles(test.inputs))[0]?.value ?? "";
    caseFiles = await mkdtemp(path.join(os.tmpdir(), "c2w-case-files-"));
    for (const name of await readdir(path.join(dir, "case_files"))) if (name !== missingFile) await symlink(path.resolve(dir, "case_files", name), path.join(caseFiles, name));

    dify = await startFakeDify({
      password: PASSWORD,
      run: (app) => {
        const name = String((parseYaml(app.yaml) as { app: { name: string } }).app.name);
        const checks = benchmark.checkResolve[name] ?? {};
        const outputs: Record<string, unknown> = {};
        for (const group of outputGroups(benchmark.turns.get(name)?.outputVars ?? [])) {
          for (const variable of group) outputs[variable] = checks[variable] ? difyFileOutput(checks[variable], "application/octet-stream") : `text for ${variable}`;
        }
        return outputs;
      },
    });
    judge = await startOpenAIStub(fixedReply(officialReply("The output meets the instruction.", true)));
    const connection = await createDifyConnection(db, admin, { label: "fake dify", baseUrl: dify.origin, email: "admin@example.com", keepApps: false, runTimeoutMs: 1_200_000 }, PASSWORD);
    connectionId = connection.id;
    // Shorter than the fake's delayed answer below, so one run times out.
    await db.difyConnection.update({ where: { id: connectionId }, data: { runTimeoutMs: 1_000 } });
  });
  afterAll(async () => {
    await dify?.close();
    await judge?.close();
    if (caseFiles) await rm(caseFiles, { recursive: true, force: true });
  });

  it("executes every valid turn from the evaluation's hook: case results, reasons, retries, judge verdicts, apps deleted", async () => {
    const endpoint = await createEndpoint(db, admin, { label: "stub-judge", baseUrl: judge.baseURL, model: "stub", temperature: 0.7, maxTokens: 1024, concurrency: 2, rpm: null, tpm: null, timeoutMs: 10_000, inputPricePerMTok: null, outputPricePerMTok: null }, null);
    expect(await enqueueDifyExecution(db, runId)).toBeNull(); // an imported run has no evaluation
    const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { benchmarkId: true } });
    const evaluation = await db.evaluation.create({
      data: { benchmarkId: run.benchmarkId, mode: "zero-shot", difyConnectionId: connectionId, caseFilesDir: caseFiles, judge: JSON.stringify({ kind: "llm", endpointIds: [endpoint.id], samples: 1 }) },
    });
    await db.run.update({ where: { id: runId }, data: { evaluationId: evaluation.id } });
    const responses = await db.response.findMany({ where: { runId }, select: { id: true, passResult: { select: { valid: true, officialFailStep: true } }, turn: { select: { key: true } } } });
    const valid = responses.filter((response) => response.passResult?.valid);
    // The evaluation's judge answered the pass stage as the rule judge did (its judging is not what this test is about).
    await db.judgeVerdict.createMany({
      data: responses.filter((response) => response.passResult?.officialFailStep === null).map((response) => ({ responseId: response.id, stage: "pass", casePosition: 0, judge: "stub-judge", inputFingerprint: "test", verdict: response.passResult?.valid === true })),
    });
    expect(valid.length).toBeGreaterThanOrEqual(2);

    // The first run answers too late (a timeout), the next is rate-limited once and retried after its Retry-After.
    dify.faults.set("run", [
      { status: 200, body: { data: {} }, delayMs: 2_500 },
      { status: 429, body: { code: "too_many_requests", message: "Too many requests.", status: 429 }, headers: { "retry-after": "0.05" } },
    ]);
    const enqueued = await enqueueDifyExecution(db, runId);
    expect(enqueued?.items).toBe(responses.length);
    expect((await db.evaluation.findUniqueOrThrow({ where: { id: evaluation.id } })).status).toBe("running");
    expect(await enqueueDifyExecution(db, runId)).toEqual(enqueued);
    await worker().runUntilIdle();

    const job = await db.job.findUniqueOrThrow({ where: { id: enqueued!.jobId } });
    expect(job).toMatchObject({ kind: "resolve", status: "succeeded", doneCount: responses.length, failedCount: 0 });
    // The evaluation was running while its Dify execution had work; the execution's last item closed it.
    expect(await db.evaluation.findUniqueOrThrow({ where: { id: evaluation.id } })).toMatchObject({ status: "succeeded", finishedAt: expect.any(Date) });
    const cases = await db.caseResult.findMany({ where: { response: { runId } }, include: { response: { select: { turn: { select: { key: true } } } } } });
    expect(cases).toHaveLength(3 * valid.length);
    expect(cases.filter((row) => !(row.executedAt !== null))).toEqual([]);

    const missing = cases.filter((row) => row.error?.includes("is missing from the case-files directory"));
    expect(missing.length).toBeGreaterThan(0);
    // Every reason names a file absent from the directory: the one removed here, and any the benchmark itself lacks.
    const present = new Set(await readdir(caseFiles));
    const named = missing.map((row) => /The case file "([^"]+)"/.exec(row.error ?? "")?.[1] ?? "");
    expect(named).toContain(missingFile);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !(name !== "" && !present.has(path.basename(name))))).toEqual([]);
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.filter((row) => !(!row.verdict && row.difyRunId === null))).toEqual([]);
    const timedOut = cases.filter((row) => row.error?.startsWith("The run did not finish within"));
    expect(timedOut).toHaveLength(1);
    expect(timedOut[0]?.verdict).toBe(false);
    const ran = cases.filter((row) => row.difyRunId !== null);
    expect(ran.length).toBe(cases.length - missing.length - timedOut.length);
    expect(cases.some((row) => row.error?.includes("429"))).toBe(false);
    // Every run call: the ones that produced a case, the timed-out one and the rate-limited one retried.
    expect(dify.log.filter((line) => line === "POST /v1/workflows/run")).toHaveLength(ran.length + 2);

    // Output files are recorded and checked; the judge is asked once per case that has text outputs.
    const fileCase = ran.find((row) => row.response.turn.key === turnKey(withFiles.task, withFiles.round));
    expect(fileCase).toMatchObject({ fileCheck: "pass", verdict: true });
    expect(JSON.parse(fileCase?.files ?? "[]")).not.toHaveLength(0);
    const judged = ran.filter((row) => row.outputs !== null);
    // Cases whose judge question is identical (only file inputs differ) are answered from the call cache.
    expect(judge.calls).toBeGreaterThan(0);
    expect(judge.calls + job.cachedCalls).toBe(judged.length);
    // The resolve judge is asked as the official judge is: temperature 0 and max_tokens 8192, not the endpoint's own.
    expect(judge.requests.length).toBe(judge.calls);
    for (const request of judge.requests) expect([request.body.temperature, request.body.max_tokens]).toEqual([0, 8192]);
    expect(await db.judgeVerdict.count({ where: { stage: "resolve", judge: "stub-judge", response: { runId } } })).toBe(judged.length);
    expect(judged.filter((row) => !row.verdict)).toEqual([]);

    // Uploads carry the official synthetic names, and every app created was deleted.
    const uploadNames = [...dify.files.values()].map((file) => file.name);
    expect(uploadNames.length).toBeGreaterThan(0);
    const expectedNames = new Set([...benchmark.turns.values()].filter((turn) => turn.task === withFiles.task).flatMap((turn) => turn.tests.flatMap((test) => testFiles(test.inputs).map((file) => uploadFileName(file.mime_type)))));
    expect(uploadNames.filter((name) => !/^(document|image)\.\w+$/.test(name))).toEqual([]);
    expect(uploadNames.filter((name) => !expectedNames.has(name))).toEqual([]);
    expect(dify.apps.size).toBe(valid.length);
    expect([...dify.apps.values()].length).toBeGreaterThan(0);
    expect([...dify.apps.values()].filter((app) => !(app.deleted && app.published))).toEqual([]);
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).hasResolve).toBe(true);
  });

  it("records a refused import as the official step_1_5 failure, and a researcher may start execution from a run", async () => {
    dify.faults.set("import", [{ status: 400, body: { id: "x", status: "failed", app_id: null, error: "Missing app data in YAML content" } }]);
    const started = await startResolveJob(db, researcher, { runId, connectionId, caseFilesDir: caseFiles, judge: { kind: "none" } });
    if (!started.ok) throw new Error(started.message);
    await worker().runUntilIdle();
    const failed = await db.passResult.findMany({ where: { response: { runId }, failStep: "step_1_5" }, select: { valid: true, responseId: true } });
    expect(failed).toHaveLength(1);
    expect(failed[0]?.valid).toBe(false);
    expect(await db.caseResult.count({ where: { responseId: failed[0]!.responseId } })).toBe(0);
    // Without an LLM judge, a case with text outputs is not judged: no verdict either way, its shown outputs kept.
    const unjudged = await db.caseResult.findMany({ where: { response: { runId }, outputs: { not: null } } });
    expect(unjudged.length).toBeGreaterThan(0);
    expect(unjudged.filter((row) => !(row.verdict === null && row.error?.startsWith("Not judged")))).toEqual([]);
    // The run has no resolve rate, anywhere the leaderboard counts it: "not judged (n)" instead.
    const rates = await getMeasuredRates(db, researcher, (await db.run.findUniqueOrThrow({ where: { id: runId } })).benchmarkId);
    const overall = rates.rates.find((row) => modelOfSeries(row.model) === "replayed_model" && row.scope === "overall");
    expect(overall).toMatchObject({ resolveNum: null, resolveDen: null, resolveNotJudged: unjudged.length });
    // The run's own figures (run and evaluation pages) and the task matrix say the same.
    expect((await getRunFigures(db, researcher, [runId])).get(runId)).toMatchObject({ casesNotJudged: unjudged.length });
    const waiting = await db.response.findUniqueOrThrow({ where: { id: unjudged[0]!.responseId }, select: { run: { select: { benchmarkId: true } }, turn: { select: { id: true, task: { select: { name: true } } } } } });
    const matrix = await getTaskMatrix(db, researcher, waiting.run.benchmarkId, waiting.turn.task.name, { fresh: true });
    const row = matrix?.matrix.rows.find((entry) => entry.runId === runId);
    const column = matrix?.matrix.columns.findIndex((entry) => entry.turnId === waiting.turn.id) ?? -1;
    expect(row?.cells[column]?.casesNotJudged).toBe(unjudged.filter((entry) => entry.responseId === unjudged[0]!.responseId).length);
    const task = (await listTasks(db, researcher, waiting.run.benchmarkId)).find((entry) => entry.name === waiting.turn.task.name);
    expect(task?.casesNotJudged).toBeGreaterThan(0);
    expect(taskExportRow(task!)).toMatchObject({ resolveRate: null, casesNotJudged: task?.casesNotJudged });
  });

  it("downloads the executed run as an official resolve record file, and a recorded run as the file it came from", async () => {
    const executed = await getResolveRecordFile(db, researcher, runId);
    expect(parseRunFile("resolve_eval.json", executed?.records).ok).toBe(true);
    const cases = await db.caseResult.findMany({ where: { response: { runId } }, select: { position: true, verdict: true, response: { select: { turn: { select: { key: true } } } } } });
    expect(cases.length).toBeGreaterThan(0);
    for (const entry of cases) {
      const record = executed?.records.find((candidate) => turnKey(candidate.task, candidate.round) === entry.response.turn.key);
      // A case not judged has no testN in the official file (which cannot say "not judged").
      expect(record?.[`test${entry.position as 1 | 2 | 3}`]).toBe(entry.verdict ?? undefined);
    }
    expect(executed?.records.filter((record) => record.fail_step === "step_1_5")).toHaveLength(1);

    const dir = benchmarkDir as string;
    const { files } = await readImportFiles((await expandRunPaths([path.join(dir, "runs", "claude_sonnet4d5.json")])).files, 64 * 1024 * 1024);
    const imported = await runImport(db, { benchmark: { kind: "directory", dir }, runs: files, importedBy: "test" }, { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 });
    if (!imported.ok) throw new Error(imported.issues.map((entry) => entry.message).join("\n"));
    const recordedRun = await db.run.findFirstOrThrow({ where: { origin: "recorded" }, select: { id: true } });
    expect(await startResolveJob(db, researcher, { runId: recordedRun.id, connectionId, caseFilesDir: caseFiles, judge: { kind: "none" } })).toMatchObject({ ok: false, message: expect.stringContaining("recorded resolve results") });
    const downloaded = await getResolveRecordFile(db, researcher, recordedRun.id);
    const original = benchmark.runs.find((run) => run.model === "claude_sonnet4d5")?.records ?? [];
    const shape = (record: RunRecord) => [record.task, record.round, record.valid, record.fail_step ?? null, record.test1 ?? null, record.test2 ?? null, record.test3 ?? null];
    expect(downloaded?.records.map(shape)).toEqual([...original].sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : a.round - b.round)).map(shape));
    // Every field but the app keys (credentials, never stored) comes back as recorded.
    const text = await readFile(path.join(dir, "runs", "claude_sonnet4d5.json"), "utf8");
    const withoutKeys = (records: readonly RunRecord[]) => records.map(({ api_key: _key, ...rest }) => rest);
    const sorted = (JSON.parse(text) as RunRecord[]).sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : a.round - b.round));
    expect(withoutKeys(downloaded?.records ?? [])).toEqual(withoutKeys(sorted));
  });

  it("refuses to start when Dify refuses the account; from an evaluation, fails the items without writing anything, and records Other-Error when Dify cannot be reached", async () => {
    const before = await db.caseResult.findMany({ where: { response: { runId } }, orderBy: { id: "asc" } });
    const wrong = await createDifyConnection(db, admin, { label: "wrong password", baseUrl: dify.origin, email: "admin@example.com", keepApps: false, runTimeoutMs: 60_000 }, "not the password");
    expect(await startResolveJob(db, researcher, { runId, connectionId: wrong.id, caseFilesDir: caseFiles, judge: { kind: "none" } })).toEqual({ ok: false, message: expect.stringMatching(/^Dify refused the sign-in: HTTP 401 authentication_failed/) });

    // An evaluation's hook queues the execution without asking first: its items then fail, recording nothing.
    const viaEvaluation = async (connectionId: string) => {
      const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { benchmarkId: true } });
      const evaluation = await db.evaluation.create({ data: { benchmarkId: run.benchmarkId, mode: "zero-shot", difyConnectionId: connectionId, caseFilesDir: caseFiles, judge: JSON.stringify({ kind: "none" }) } });
      await db.run.update({ where: { id: runId }, data: { evaluationId: evaluation.id } });
      const queued = await enqueueDifyExecution(db, runId);
      if (!queued) throw new Error("nothing queued");
      await worker().runUntilIdle();
      return queued.jobId;
    };
    const refusedJob = await db.job.findUniqueOrThrow({ where: { id: await viaEvaluation(wrong.id) }, include: { items: { select: { status: true, error: true } } } });
    const reachedDify = refusedJob.items.filter((item) => item.error !== null);
    expect(reachedDify.length).toBeGreaterThan(0);
    expect(reachedDify.filter((item) => !(item.status === "failed" && item.error?.startsWith("Dify refused the sign-in: HTTP 401")))).toEqual([]);
    expect(await db.caseResult.findMany({ where: { response: { runId } }, orderBy: { id: "asc" } })).toEqual(before);

    const gone = await startFakeDify();
    await gone.close();
    const unreachable = await createDifyConnection(db, admin, { label: "unreachable", baseUrl: gone.origin, email: "admin@example.com", keepApps: false, runTimeoutMs: 60_000 }, PASSWORD);
    expect(await startResolveJob(db, researcher, { runId, connectionId: unreachable.id, caseFilesDir: caseFiles, judge: { kind: "none" } })).toMatchObject({ ok: false, message: expect.stringContaining("cannot reach") });
    const job = await db.job.findUniqueOrThrow({ where: { id: await viaEvaluation(unreachable.id) }, include: { items: { select: { attempts: true, result: true } } } });
    expect(job.status).toBe("succeeded");
    // Each item that reached Dify was tried twice (the queue's maxAttempts here) before the official outcome was recorded.
    const retried = job.items.filter((item) => item.result?.includes("Other-Error"));
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.filter((item) => !(item.attempts === 2))).toEqual([]);
    const file = await getResolveRecordFile(db, researcher, runId);
    const other = file?.records.filter((record) => record.api_key === "Other-Error") ?? [];
    expect(other).toHaveLength(retried.length);
    expect(other.filter((record) => !(record.valid && record.test1 === false && record.test2 === false && record.test3 === false))).toEqual([]);
    await db.run.update({ where: { id: runId }, data: { evaluationId: null } });
  });

  it("deletes the app an interrupted attempt left in Dify before importing again, and only that app", async () => {
    const started = await startResolveJob(db, researcher, { runId, connectionId, caseFilesDir: caseFiles, judge: { kind: "none" } });
    if (!started.ok) throw new Error(started.message);
    // A worker leases every item and dies after importing each valid turn's app (its leases then expire).
    const queue = new SqliteJobQueue(db, { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 50 });
    const leased = await queue.lease(started.jobId, "crashed-worker", 100, 1);
    expect(leased).toHaveLength(started.items);
    const session = await signIn(dify.consoleBase, "admin@example.com", PASSWORD);
    if (!session.ok) throw new Error(session.error.message);
    const leftovers: string[] = [];
    const keep: string[] = [];
    for (const item of leased) {
      const response = await db.response.findUniqueOrThrow({ where: { id: resolveJobKind.payloadSchema.parse(item.payload).responseId }, select: { passResult: { select: { valid: true } }, turn: { select: { key: true } } } });
      if (!response.passResult?.valid) continue;
      const app = (description: string) => `app:\n  mode: workflow\n  name: ${response.turn.key}\n  description: ${description}\nkind: app\nversion: 0.4.0\n`;
      const leftover = await session.value.importDsl(app(appMarker(item.id)));
      const users = await session.value.importDsl(app("an app of the Dify user's own"));
      if (!leftover.ok || !users.ok) throw new Error("could not create the apps");
      leftovers.push(leftover.value.appId);
      keep.push(users.value.appId);
    }
    expect(leftovers.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await queue.recoverExpiredLeases()).toBe(started.items);
    await worker().runUntilIdle();
    expect(leftovers.filter((id) => !(dify.apps.get(id)?.deleted))).toEqual([]);
    expect(keep.length).toBeGreaterThan(0);
    expect(keep.filter((id) => !(dify.apps.get(id)?.deleted === false))).toEqual([]);
    expect((await db.job.findUniqueOrThrow({ where: { id: started.jobId } })).status).toBe("succeeded");
  });

  it("with an LLM pass judge, execution waits for the evaluation's judging and runs only the turns that judge passed", async () => {
    const passJudge = await createEndpoint(db, admin, { label: "pass-judge", baseUrl: judge.baseURL, model: "stub", temperature: 0, maxTokens: null, concurrency: 2, rpm: null, tpm: null, timeoutMs: 10_000, inputPricePerMTok: null, outputPricePerMTok: null }, null);
    const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { benchmarkId: true } });
    const evaluation = await db.evaluation.create({
      data: { benchmarkId: run.benchmarkId, mode: "zero-shot", difyConnectionId: connectionId, caseFilesDir: caseFiles, judge: JSON.stringify({ kind: "llm", endpointIds: [passJudge.id], samples: 1 }) },
    });
    // The run's own judge is the evaluation's, as startEvaluation records it on the runs it creates.
    await db.run.update({ where: { id: runId }, data: { evaluationId: evaluation.id, judge: JSON.stringify({ kind: "llm", members: ["pass-judge"], samples: 1 }) } });
    const executions = () => db.job.findMany({ where: { kind: "resolve", runId, evaluationId: evaluation.id }, select: { id: true } });

    // Generation has settled but the evaluation's pass judging still has work: nothing goes to Dify yet.
    const judging = await db.job.create({ data: { kind: "judge", runId, status: "running", evaluationId: evaluation.id, params: JSON.stringify({ runId, stage: "pass" }) } });
    await afterRunGenerated(db, runId);
    expect(await executions()).toEqual([]);

    // The judge fails one turn the rule judge had passed and the turns the rule judge failed, and passes the others.
    const valid = await db.response.findMany({ where: { runId, passResult: { valid: true, officialFailStep: null } }, select: { id: true }, orderBy: { id: "asc" } });
    expect(valid.length).toBeGreaterThanOrEqual(2);
    const rejected = valid[0]!.id;
    // An earlier execution ran it under the rule judge's verdict: those results go once its own judge fails it.
    expect(await db.caseResult.count({ where: { responseId: rejected } })).toBe(3);
    const ruleFailed = await db.response.findMany({ where: { runId, passResult: { valid: false, officialFailStep: null, failStep: "step_1_4" } }, select: { id: true } });
    await db.judgeVerdict.createMany({
      data: [...valid, ...ruleFailed].map((response) => ({ responseId: response.id, stage: "pass", casePosition: 0, judge: "pass-judge", inputFingerprint: "test", verdict: response.id !== rejected && valid.includes(response), jobId: judging.id })),
    });
    await db.job.update({ where: { id: judging.id }, data: { status: "succeeded", finishedAt: new Date() } });
    await afterEvaluationJudgeJob(db, { id: judging.id, evaluationId: judging.evaluationId });
    const [execution] = await executions();
    expect(execution).toBeDefined();
    // It gates on the run's own judge's verdicts as stored on the turns, the ones every page shows.
    expect(resolveJobKind.paramsSchema.parse(JSON.parse((await db.job.findUniqueOrThrow({ where: { id: execution!.id } })).params)).passGate).toEqual({ kind: "stored", llmJudge: true });
    expect((await db.evaluation.findUniqueOrThrow({ where: { id: evaluation.id } })).status).toBe("running");

    await worker().runUntilIdle();
    const items = await db.jobItem.findMany({ where: { jobId: execution!.id }, select: { key: true, result: true } });
    const resultOf = (responseId: string) => JSON.parse(items.find((item) => item.key === `${responseId}:resolve`)?.result ?? "null") as { skipped?: string; cases?: number } | null;
    expect(resultOf(rejected)).toEqual({ skipped: "not valid at the pass stage" });
    expect(await db.caseResult.count({ where: { responseId: rejected } })).toBe(0);
    for (const response of valid.slice(1)) expect(resultOf(response.id)?.cases).toBe(3);
    expect(await db.evaluation.findUniqueOrThrow({ where: { id: evaluation.id } })).toMatchObject({ status: "succeeded" });

    // The official files say what Dify was given: the turn the LLM judge failed (the rule judge had passed it) is a
    // step_1_4 failure in both the pass and the resolve records, and its stored verdict is the judge's.
    const keyOf = await db.response.findUniqueOrThrow({ where: { id: rejected }, select: { turn: { select: { task: { select: { name: true } }, round: true } }, passResult: { select: { valid: true, deterministicValid: true, verdictSource: true } } } });
    expect(keyOf.passResult).toMatchObject({ valid: false, deterministicValid: true, verdictSource: "judge" });
    const find = <T extends { task: string; round: number }>(records: readonly T[] | undefined) => records?.find((record) => record.task === keyOf.turn.task.name && record.round === keyOf.turn.round);
    const passRecords = await getRunPassRecords(db, researcher, runId);
    const resolveRecords = await getResolveRecordFile(db, researcher, runId);
    expect(find(passRecords?.data)).toMatchObject({ valid: false, fail_step: "step_1_4" });
    expect(find(resolveRecords?.records)).toMatchObject({ valid: false, fail_step: "step_1_4" });
    expect(find(resolveRecords?.records)?.test1).toBeUndefined();
    // The evaluation's grid shows the same verdict.
    const progress = await getEvaluationProgress(db, researcher, evaluation.id);
    const cell = progress?.runs[0]?.tasks.find((row) => row.task === keyOf.turn.task.name)?.cells.find((entry) => entry.round === keyOf.turn.round);
    expect(cell).toMatchObject({ state: "failed", failStep: "step_1_4", responseId: rejected });
    const refusedByDify = await db.passResult.count({ where: { responseId: { in: valid.slice(1).map((response) => response.id) }, failStep: "step_1_5" } });
    expect(passRecords?.data.filter((record) => record.valid)).toHaveLength(valid.length - 1 - refusedByDify);

    // A turn reaching step 1_4 that the run's own LLM judge has not decided keeps the rule judge's verdict: no execution
    // starts on it, whatever LLM judge a researcher picks.
    const undecided = ruleFailed[0] ?? valid[1]!;
    const stored = await db.passResult.findUniqueOrThrow({ where: { responseId: undecided.id }, select: { verdictSource: true } });
    await db.passResult.update({ where: { responseId: undecided.id }, data: { verdictSource: "deterministic" } });
    await db.run.update({ where: { id: runId }, data: { evaluationId: null } });
    expect(await startResolveJob(db, researcher, { runId, connectionId, caseFilesDir: caseFiles, judge: { kind: "none" }, passJudgeEndpointId: passJudge.id })).toEqual({
      ok: false,
      message: "The run's own judge (judge: pass-judge ×1) has not judged 1 turn(s) that reach step 1_4; judge them first, so the rule judge never decides what goes to Dify.",
    });
    await db.passResult.update({ where: { responseId: undecided.id }, data: { verdictSource: stored.verdictSource } });
  });

  it("queues one Dify execution per evaluation run, however many hooks ask at the same instant", async () => {
    const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { benchmarkId: true } });
    const evaluation = await db.evaluation.create({ data: { benchmarkId: run.benchmarkId, mode: "zero-shot", difyConnectionId: connectionId, caseFilesDir: caseFiles } });
    await db.run.update({ where: { id: runId }, data: { evaluationId: evaluation.id } });
    const before = await db.job.count({ where: { kind: "resolve", runId } });
    const asked = await Promise.all(Array.from({ length: 4 }, () => enqueueDifyExecution(db, runId)));
    const jobIds = new Set(asked.map((entry) => entry?.jobId));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((entry) => !(entry !== null))).toEqual([]);
    expect([...jobIds]).toEqual([difyExecutionJobId(evaluation.id, runId)]);
    expect(await db.job.count({ where: { kind: "resolve", runId } })).toBe(before + 1);
    // Finished, it is still the evaluation run's execution: asking again queues nothing new.
    await jobQueue(db).cancel(difyExecutionJobId(evaluation.id, runId));
    expect((await enqueueDifyExecution(db, runId))?.jobId).toBe(difyExecutionJobId(evaluation.id, runId));
    expect(await db.job.count({ where: { kind: "resolve", runId } })).toBe(before + 1);
  });

  /**
   * Earlier tests' LLM pass judges are not the run's own any more: back to a run no LLM judge has seen, its turns
   * decided by steps 1_1–1_3 and the rule judge again.
   */
  const forgetPassJudges = async () => {
    await db.judgeVerdict.deleteMany({ where: { stage: "pass", response: { runId }, judge: { notIn: ["recorded", "rule"] } } });
    await db.run.update({ where: { id: runId }, data: { judge: null } });
    const judged = await db.passResult.findMany({ where: { response: { runId }, verdictSource: "judge" }, select: { id: true, deterministicValid: true } });
    for (const result of judged) await db.passResult.update({ where: { id: result.id }, data: { valid: result.deterministicValid, failStep: result.deterministicValid ? null : "step_1_4", verdictSource: "deterministic" } });
  };
  const stubEndpoint = (label: string) =>
    createEndpoint(db, admin, { label, baseUrl: judge.baseURL, model: "stub", temperature: 0, maxTokens: null, concurrency: 2, rpm: null, tpm: null, timeoutMs: 10_000, inputPricePerMTok: null, outputPricePerMTok: null }, null);

  it("judges later the cases an execution left not judged; only then has the run a resolve rate, and a missing prompt or endpoint refuses the start", async () => {
    await db.run.update({ where: { id: runId }, data: { evaluationId: null } });
    await forgetPassJudges();
    const executed = await startResolveJob(db, researcher, { runId, connectionId, caseFilesDir: caseFiles, judge: { kind: "none" } });
    if (!executed.ok) throw new Error(executed.message);
    await worker().runUntilIdle();
    const waiting = await db.caseResult.count({ where: { response: { runId }, verdict: null } });
    expect(waiting).toBeGreaterThan(0);
    const benchmarkId = (await db.run.findUniqueOrThrow({ where: { id: runId } })).benchmarkId;
    const overall = async () => (await getMeasuredCounts(db, researcher, benchmarkId)).cells.filter((cell) => cell.runId === runId).reduce((sum, cell) => sum + (cell.casesNotJudged ?? 0), 0);
    expect(await overall()).toBe(waiting);

    // No silent fallback: a deleted endpoint, or a benchmark without the resolve prompt, refuses with a sentence.
    const deleted = await stubEndpoint("deleted-judge");
    await db.modelEndpoint.delete({ where: { id: deleted.id } });
    expect(await startResolveJudgeJob(db, researcher, { runId, endpointIds: [deleted.id] })).toEqual({ ok: false, message: "A resolve judge endpoint no longer exists; choose the judge again." });
    const later = await stubEndpoint("later-judge");
    const prompt = await db.benchmarkPrompt.findUniqueOrThrow({ where: { benchmarkId_name: { benchmarkId, name: "evaluation_resolve_system" } } });
    await db.benchmarkPrompt.delete({ where: { id: prompt.id } });
    const noPrompt = { ok: false, message: expect.stringContaining("has no evaluation_resolve_system prompt") };
    expect(await startResolveJudgeJob(db, researcher, { runId, endpointIds: [later.id] })).toEqual(noPrompt);
    expect(await startResolveJob(db, researcher, { runId, connectionId, caseFilesDir: caseFiles, judge: { kind: "llm", endpointIds: [later.id], samples: 1 } })).toEqual(noPrompt);
    await db.benchmarkPrompt.create({ data: prompt });

    // From the command line: the judging job is queued and run to its end in that process.
    const { stderr } = await promisify(execFile)("npx", ["tsx", "--conditions=react-server", "scripts/resolve.ts", "judge", "--run", runId, "--judge", "later-judge", "--database", testDatabaseUrl()], {
      cwd: path.resolve(__dirname, "../.."),
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    expect(stderr).toContain(`resolve judge: ${waiting} case(s) of`);
    expect(stderr).toContain(`${waiting} judged, 0 still not judged`);
    expect(await db.caseResult.count({ where: { response: { runId }, verdict: null } })).toBe(0);
    expect(await db.judgeVerdict.count({ where: { stage: "resolve", judge: "later-judge", response: { runId } } })).toBe(waiting);
    expect(await overall()).toBe(0);
    const rates = await getMeasuredRates(db, researcher, benchmarkId);
    const row = rates.rates.find((entry) => modelOfSeries(entry.model) === "replayed_model" && entry.scope === "overall");
    expect(row?.resolveNum).toBeGreaterThan(0);
    expect(row).not.toHaveProperty("resolveNotJudged");
    expect(await startResolveJudgeJob(db, researcher, { runId, endpointIds: [later.id] })).toEqual({ ok: false, message: "No test case of this run is waiting for the resolve judge." });
  });

  it("refuses to execute on a workspace lacking a plugin the workflows need, and an evaluation's items fail saying which", async () => {
    const full = fullFakeInventory();
    const lacking = await startFakeDify({ password: PASSWORD, inventory: { ...full, plugins: full.plugins.filter((plugin) => plugin !== "langgenius/tongyi") } });
    try {
      const connection = await createDifyConnection(db, admin, { label: "no tongyi", baseUrl: lacking.origin, email: "admin@example.com", keepApps: false, runTimeoutMs: 60_000 }, PASSWORD);
      const refused = await startResolveJob(db, researcher, { runId, connectionId: connection.id, caseFilesDir: caseFiles, judge: { kind: "none" } });
      expect(refused).toEqual({ ok: false, message: expect.stringMatching(/^The Dify workspace lacks what the workflows need: plugin langgenius\/tongyi — not installed/) });
      expect(lacking.log.filter((line) => line.includes("/apps/imports"))).toEqual([]);

      const before = await db.caseResult.findMany({ where: { response: { runId } }, orderBy: { id: "asc" } });
      const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { benchmarkId: true } });
      const evaluation = await db.evaluation.create({ data: { benchmarkId: run.benchmarkId, mode: "zero-shot", difyConnectionId: connection.id, caseFilesDir: caseFiles, judge: JSON.stringify({ kind: "none" }) } });
      await db.run.update({ where: { id: runId }, data: { evaluationId: evaluation.id } });
      const queued = await enqueueDifyExecution(db, runId);
      await worker().runUntilIdle();
      const items = await db.jobItem.findMany({ where: { jobId: queued!.jobId, error: { not: null } }, select: { status: true, error: true } });
      expect(items.length).toBeGreaterThan(0);
      expect(items.filter((item) => !(item.status === "failed" && item.error?.includes("plugin langgenius/tongyi — not installed")))).toEqual([]);
      expect(lacking.log.filter((line) => line.includes("/apps/imports"))).toEqual([]);
      expect(await db.caseResult.findMany({ where: { response: { runId } }, orderBy: { id: "asc" } })).toEqual(before);
    } finally {
      await db.run.update({ where: { id: runId }, data: { evaluationId: null } });
      await lacking.close();
    }
  });

  it("sends an imported run's turns to Dify only when its LLM pass judge passed them, never by the rule judge", async () => {
    await forgetPassJudges();
    const valid = await db.response.findMany({ where: { runId, passResult: { officialFailStep: null, valid: true } }, select: { id: true }, orderBy: { id: "asc" } });
    expect(valid.length).toBeGreaterThanOrEqual(2);
    const rejected = valid[0]!.id;
    const first = await stubEndpoint("first-pass-judge");
    const second = await stubEndpoint("second-pass-judge");
    // Both judge every turn that reaches step 1_4: they fail the ones the rule judge failed; the first also fails one it passed.
    const ruleFailed = await db.response.findMany({ where: { runId, passResult: { valid: false, officialFailStep: null, failStep: "step_1_4" } }, select: { id: true } });
    for (const label of ["first-pass-judge", "second-pass-judge"]) {
      await db.judgeVerdict.createMany({ data: [...valid, ...ruleFailed].map((response) => ({ responseId: response.id, stage: "pass", casePosition: 0, judge: label, inputFingerprint: "test", verdict: valid.includes(response) && (label === "second-pass-judge" || response.id !== rejected) })) });
    }
    // A judge that has not answered every turn reaching step 1_4 cannot decide: the rule judge would speak for the rest.
    const partial = await stubEndpoint("partial-pass-judge");
    await db.judgeVerdict.create({ data: { responseId: rejected, stage: "pass", casePosition: 0, judge: "partial-pass-judge", inputFingerprint: "test", verdict: true } });
    expect(await startResolveJob(db, researcher, { runId, connectionId, caseFilesDir: caseFiles, judge: { kind: "none" }, passJudgeEndpointId: partial.id })).toEqual({
      ok: false,
      message: expect.stringMatching(/^The LLM judge partial-pass-judge has not judged \d+ turn\(s\) that reach step 1_4; judge them first/),
    });
    await db.judgeVerdict.deleteMany({ where: { judge: "partial-pass-judge" } });
    await db.modelEndpoint.delete({ where: { id: partial.id } });
    // Two LLM judges answered the pass stage: the execution must say which decides.
    expect(await startResolveJob(db, researcher, { runId, connectionId, caseFilesDir: caseFiles, judge: { kind: "none" } })).toEqual({ ok: false, message: expect.stringContaining("was judged by first-pass-judge, second-pass-judge; choose which judge") });
    const started = await startResolveJob(db, researcher, { runId, connectionId, caseFilesDir: caseFiles, judge: { kind: "none" }, passJudgeEndpointId: first.id });
    if (!started.ok) throw new Error(started.message);
    await worker().runUntilIdle();
    const items = await db.jobItem.findMany({ where: { jobId: started.jobId }, select: { key: true, result: true } });
    const resultOf = (responseId: string) => JSON.parse(items.find((item) => item.key === `${responseId}:resolve`)?.result ?? "null") as { skipped?: string; cases?: number } | null;
    expect(resultOf(rejected)).toEqual({ skipped: "not valid at the pass stage" });
    expect((await db.passResult.findUniqueOrThrow({ where: { responseId: rejected } })).valid).toBe(true);
    expect(valid.slice(1).some((response) => resultOf(response.id)?.cases === 3)).toBe(true);
    await db.judgeVerdict.deleteMany({ where: { judge: { in: ["first-pass-judge", "second-pass-judge"] } } });
    await db.modelEndpoint.deleteMany({ where: { id: { in: [first.id, second.id] } } });
  });
});

