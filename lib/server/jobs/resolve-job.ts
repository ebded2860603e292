import "server-only";
// The "resolve" job: executes a stored run on the user's Dify 1.9 — pass step 1_5 (DSL import, publish, API key) and
// the resolve stage (upload each test case's files, blocking run, file checks, resolve judge) — one item per response,
// writing its CaseResult rows (and a step_1_5 failure on its PassResult) in the transaction that completes the item.
//
// Why one item per response, not per test case: a Dify app lives from its import to its deletion, and its three test
// cases run on it back to back, as the official stage does. Items per test case would share an app across items
// (which item imports it, which deletes it, what if one never runs), leaking apps whenever a job stops midway. Within
// an item, a 429 or 5xx from Dify's service API is retried in place (Retry-After honoured), so a passing case is not
// run again; console failures (sign-in, import) retry the whole item through the queue, before anything was run.
//
// Verdicts follow the official resolve stage (§4): no outputs, a failed run or a failed file check fails the case; a
// case whose outputs all went to the file checks passes with no judge call; otherwise the evaluation's LLM judge (or
// panel: panelVerdict, each member's sample majority and then the members', ties fail) decides. Without an LLM judge ("none" or "rule") the case keeps the
// official provisional verdict (outputs present and file checks passed: true) and its shown outputs are stored, so a
// later resolve judge job can judge it. Dify being unreachable is not the model's failure: such items retry, and only
// on their last attempt record the official outcome (api_key "Other-Error": the three cases fail).
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { TestInputValue } from "@/lib/benchmark/dataset";
import type { TurnSpec } from "@/lib/benchmark/turn";
import { MAX_JUDGE_SAMPLES, panelVerdict } from "@/lib/judge/majority";
import { resolveJudgeItem, type TestPosition } from "@/lib/judge/items";
import { officialOutputText, officialSystemPrompt, type JudgeTestInput } from "@/lib/judge/protocol";
import { importFailureRecord } from "@/lib/resolve/official";
import { buildDifyDsl, difyAppName } from "@/lib/workflow/dify-dsl";
import { toDifyYaml } from "@/lib/workflow/dify-yaml";
import { scoreResponse } from "@/lib/workflow/score";
import { assertAllowed } from "../authz";
import { isUniqueViolation } from "../errors";
import type { Database } from "../db";
import { consoleBaseOf, loadDifyConnectionConfig, serviceBaseOf, type DifyConnectionConfig } from "../dify-connections/connections";
import { isTransient, signIn, type DifyConsole, type DifyDeps, type DifyError, type DifyResult } from "../dify/client";
import { callCost, chatClientFor, loadEndpointConfig, redactKey } from "../endpoints/endpoints";
import { inputFingerprint, judgeIdentity, judgeSample, promptFingerprint } from "../llm";
import { executeCase, retryingTransient } from "../resolve/execute-case";
import type { SessionUser } from "../session";
import { databaseCallCache } from "./db-call-cache";
import { passStageVerdict, type StoredPassVerdict } from "../evaluations/pass-stage-verdicts";
import { settleEvaluationAfterJob } from "../evaluations/settle-evaluation";
import { jobQueue, wakeWorker } from "./instance";
import { DEFAULT_RETRY, type ItemUsage } from "./queue";
import type { QueueTx } from "./sqlite-queue";
import type { ItemOutcome, JobHandler } from "./worker";

export const RESOLVE_JOB_KIND = "resolve";
/** The `user` sent with uploads and runs, as the official config's user_name. */
export const RESOLVE_USER = "chat2workflow";
/** Items running at once over all resolve jobs: blocking Dify runs are heavy, and one Dify serves them all. */
export const RESOLVE_CONCURRENCY = 2;

export type ResolveJudge = { kind: "none" } | { kind: "rule" } | { kind: "llm"; endpointIds: string[]; samples: number };

export interface ResolveJobParams {
  runId: string;
  /** Set when an evaluation queued the execution: the evaluation stays running until this job finishes. */
  evaluationId?: string;
  connectionId: string;
  caseFilesDir: string;
  judge: ResolveJudge;
}

export interface ResolveItemPayload {
  responseId: string;
}

/** The evaluation's judge JSON ({"kind":"none"|"rule"} or {"kind":"llm","endpointIds":[...],"samples":N}). */
export function parseResolveJudge(text: string | null | undefined): ResolveJudge {
  try {
    const value = JSON.parse(text ?? "") as { kind?: unknown; endpointIds?: unknown; samples?: unknown };
    if (value.kind === "llm" && Array.isArray(value.endpointIds) && value.endpointIds.every((id) => typeof id === "string") && value.endpointIds.length > 0) {
      const samples = typeof value.samples === "number" && Number.isInteger(value.samples) && value.samples > 0 ? Math.min(value.samples, MAX_JUDGE_SAMPLES) : 1;
      return { kind: "llm", endpointIds: value.endpointIds as string[], samples };
    }
    return value.kind === "rule" ? { kind: "rule" } : { kind: "none" };
  } catch {
    return { kind: "none" };
  }
}

/** Whether a turn passed the pass stage as its run's own judge decided it (stored on PassResult: see applyOwnJudge). */
function passedPassStage(response: StoredPassVerdict): boolean {
  return passStageVerdict(response).valid;
}

async function createResolveJob(db: Database, params: ResolveJobParams, createdBy: string | null, id?: string): Promise<{ jobId: string; items: number } | null> {
  const responses = await db.response.findMany({ where: { runId: params.runId }, select: { id: true }, orderBy: { id: "asc" } });
  if (responses.length === 0) return null;
  const jobId = await jobQueue(db).enqueue({
    ...(id ? { id } : {}),
    kind: RESOLVE_JOB_KIND,
    params,
    createdBy,
    runId: params.runId,
    items: responses.map((response) => ({ key: `${response.id}:resolve`, payload: { responseId: response.id } satisfies ResolveItemPayload })),
  });
  wakeWorker();
  return { jobId, items: responses.length };
}

/**
 * The id of an evaluation run's Dify execution job: fixed, so that hooks settling at the same instant (the last
 * generate item, the judge jobs of a panel) queue one execution between them. Letters, digits and hyphens, as pg-boss
 * queue names (which carry the job id) allow.
 */
export function difyExecutionJobId(evaluationId: string, runId: string): string {
  return `dify-execution-${createHash("sha256").update(`${evaluationId}\0${runId}`).digest("hex").slice(0, 32)}`;
}

/**
 * Enqueues Dify execution of a generated run whose evaluation names a Dify connection and a case-files directory:
 * the hook the generation job calls once a run is generated. Null when there is nothing to execute. Queued once per
 * evaluation run: a later call (a generation job resumed after a restart, a second judge job settling) returns the
 * execution already queued, running or finished.
 */
export async function enqueueDifyExecution(db: Database, runId: string): Promise<{ jobId: string; items: number } | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { evaluation: { select: { id: true, difyConnectionId: true, caseFilesDir: true, judge: true, createdBy: true } } } });
  const evaluation = run?.evaluation;
  if (!evaluation?.difyConnectionId || !evaluation.caseFilesDir) return null;
  const id = difyExecutionJobId(evaluation.id, runId);
  const existing = () => db.job.findFirst({ where: { kind: RESOLVE_JOB_KIND, runId, OR: [{ id }, { status: { in: ["queued", "running", "paused"] } }] }, select: { id: true, itemCount: true } });
  const queued = await existing();
  if (queued) return { jobId: queued.id, items: queued.itemCount };
  try {
    return await createResolveJob(db, { runId, evaluationId: evaluation.id, connectionId: evaluation.difyConnectionId, caseFilesDir: evaluation.caseFilesDir, judge: parseResolveJudge(evaluation.judge) }, evaluation.createdBy, id);
  } catch (error) {
    // Another hook queued it between our look and our write.
    if (!isUniqueViolation(error)) throw error;
    const winner = await existing();
    if (!winner) throw error;
    return { jobId: winner.id, items: winner.itemCount };
  }
}

export type StartResolveJob = { ok: true; jobId: string; items: number } | { ok: false; message: string };

/** Starts Dify execution of any stored run (researchers), with a connection, a case-files directory and a judge. */
export async function startResolveJob(db: Database, actor: SessionUser, request: { runId: string; connectionId: string; caseFilesDir: string; judge: ResolveJudge }): Promise<StartResolveJob> {
  assertAllowed(actor, "runJobs");
  const run = await db.run.findUnique({ where: { id: request.runId }, select: { origin: true } });
  if (!run) return { ok: false, message: "No such run." };
  // A recorded run's test results are the official record; executing it again would replace them.
  if (run.origin === "recorded") return { ok: false, message: "This run carries its recorded resolve results; only imported or generated runs are executed." };
  const connection = await db.difyConnection.findUnique({ where: { id: request.connectionId }, select: { id: true } });
  if (!connection) return { ok: false, message: "No such Dify connection." };
  const directory = await stat(request.caseFilesDir).catch(() => null);
  if (!directory?.isDirectory()) return { ok: false, message: `The case-files directory ${request.caseFilesDir} does not exist on the server.` };
  if (request.judge.kind === "llm") {
    const found = await db.modelEndpoint.count({ where: { id: { in: request.judge.endpointIds } } });
    if (found !== new Set(request.judge.endpointIds).size) return { ok: false, message: "A judge endpoint no longer exists." };
  }
  const created = await createResolveJob(db, { ...request, caseFilesDir: path.resolve(request.caseFilesDir) }, actor.id);
  return created ? { ok: true, ...created } : { ok: false, message: "That run has no responses to execute." };
}

/** The description of the apps an item creates: how a retry recognises the apps an interrupted attempt left. */
export const appMarker = (itemId: string) => `chat2workflow resolve item ${itemId}`;

/** One CaseResult row as the item writes it. */
interface CaseRow {
  position: number;
  verdict: boolean;
  outputs: string | null;
  fileCheck: "pass" | "fail" | null;
  files: string | null;
  error: string | null;
  difyRunId: string | null;
  elapsedMs: number | null;
}

interface VerdictRow {
  casePosition: number;
  judge: string;
  sampleIndex: number;
  verdict: boolean;
  reason: string | null;
  rawOutput: string;
  wellFormed: boolean | null;
  latencyMs: number | null;
  tokens: number | null;
  promptFingerprint: string;
  inputFingerprint: string;
  judgeIdentity: string;
}

export interface ResolveHandlerOptions {
  deps?: DifyDeps;
  /** Leases an item may take (the queue's policy): the last one records the official outcome of a Dify failure. */
  maxAttempts?: number;
  /** Tries of one upload or run call on 429/5xx, and the backoff base when no Retry-After came. */
  serviceTries?: number;
  serviceBackoffMs?: number;
  judgeClientRetries?: number;
}

const emptyUsage = (): ItemUsage => ({ calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, latencyMs: null, cost: null });

function parseJson<T>(text: string | null, fallback: T): T {
  try {
    return text === null ? fallback : (JSON.parse(text) as T);
  } catch {
    return fallback;
  }
}

const describe = (error: DifyError) => `${error.step}: ${error.message}`;

/** The worker's handler for resolve items. Sessions are shared per connection (re-signed-in when it changes). */
export function resolveJobHandler(options: ResolveHandlerOptions = {}): JobHandler {
  const maxAttempts = options.maxAttempts ?? DEFAULT_RETRY.maxAttempts;
  const serviceTries = options.serviceTries ?? 4;
  const serviceBackoffMs = options.serviceBackoffMs ?? 2_000;
  const sessions = new Map<string, { updatedAt: number; console: DifyConsole }>();

  async function consoleFor(config: DifyConnectionConfig, deps: DifyDeps, fresh: boolean): Promise<DifyResult<DifyConsole>> {
    const cached = sessions.get(config.id);
    if (!fresh && cached && cached.updatedAt === config.updatedAt.getTime()) return { ok: true, value: cached.console };
    const session = await signIn(consoleBaseOf(config.baseUrl), config.email, config.password, deps);
    if (session.ok) sessions.set(config.id, { updatedAt: config.updatedAt.getTime(), console: session.value });
    return session;
  }

  return {
    kind: RESOLVE_JOB_KIND,
    capacity() {
      return Promise.resolve({ filter: { kind: RESOLVE_JOB_KIND }, limit: RESOLVE_CONCURRENCY });
    },
    settled: ({ db, job }) => settleEvaluationAfterJob(db, job),
    async run({ db, job, item, signal }): Promise<ItemOutcome> {
      const params = job.params as ResolveJobParams;
      const { responseId } = item.payload as ResolveItemPayload;
      const lastAttempt = item.attempt >= maxAttempts;
      const deps: DifyDeps = { ...options.deps, signal };
      const response = await db.response.findUnique({
        where: { id: responseId },
        select: {
          id: true,
          runId: true,
          nodeSelection: true,
          designPrinciple: true,
          workflow: true,
          passResult: { select: { valid: true, failStep: true, officialFailStep: true } },
          run: { select: { benchmarkId: true, model: { select: { name: true } } } },
          turn: { select: { key: true, round: true, taskId: true, inputVars: true, outputVars: true, keyNodes: true, fileChecks: true, task: { select: { name: true } }, testCases: { orderBy: { position: "asc" }, select: { position: true, inputs: true, groundTruth: true } } } },
        },
      });
      if (!response) return { ok: true, result: { skipped: "the response was deleted" }, usage: emptyUsage() };
      const done = (result: Record<string, unknown>, write: (tx: QueueTx) => Promise<void>, usage: ItemUsage = emptyUsage()): ItemOutcome => ({
        ok: true,
        result,
        usage,
        commit: async (tx) => {
          await write(tx);
          const open = await tx.jobItem.count({ where: { jobId: job.id, status: { in: ["pending", "leased"] } } });
          if (open === 0) await tx.run.update({ where: { id: params.runId }, data: { hasResolve: true } });
        },
      });
      // Only items that passed steps 1_1–1_4 reach Dify; the official resolve rate counts the others as 3 failures.
      if (!passedPassStage(response)) return done({ skipped: "not valid at the pass stage" }, async () => undefined);

      const turn = response.turn;
      const spec: TurnSpec = {
        task: turn.task.name,
        round: turn.round,
        inputVars: parseJson<string[]>(turn.inputVars, []),
        outputVars: parseJson<string[] | string[][]>(turn.outputVars, []),
        keyNodes: parseJson<string[]>(turn.keyNodes, []),
        tests: turn.testCases.map((test) => ({ inputs: parseJson<Record<string, TestInputValue>>(test.inputs, {}), groundTruth: test.groundTruth })) as TurnSpec["tests"],
        fileChecks: parseJson<Record<string, string>>(turn.fileChecks, {}),
      };
      const positions = turn.testCases.map((test) => test.position);
      const writeCases = (rows: CaseRow[], verdicts: VerdictRow[] = [], judgeLabelsUsed: string[] = []) => async (tx: QueueTx) => {
        const executedAt = new Date();
        await tx.caseResult.deleteMany({ where: { responseId } });
        for (const row of rows) await tx.caseResult.create({ data: { responseId, executedAt, ...row } });
        if (judgeLabelsUsed.length > 0) await tx.judgeVerdict.deleteMany({ where: { responseId, stage: "resolve", judge: { in: judgeLabelsUsed } } });
        for (const verdict of verdicts) await tx.judgeVerdict.create({ data: { responseId, stage: "resolve", jobId: job.id, ...verdict } });
      };
      const allFail = (error: string): CaseRow[] => positions.map((position) => ({ position, verdict: false, outputs: null, fileCheck: null, files: null, error, difyRunId: null, elapsedMs: null }));

      const conversion = scoreResponse({ nodeSelection: response.nodeSelection, designPrinciple: response.designPrinciple, workflow: response.workflow }, spec).conversion;
      if (!conversion) return done({ cases: "failed", reason: "no Dify DSL" }, writeCases(allFail("The workflow does not convert to a Dify DSL.")));

      const config = await loadDifyConnectionConfig(db, params.connectionId);
      if (!config) return { ok: false, failure: { message: "The Dify connection was deleted.", retryable: false } };
      /** A Dify failure before any case ran: retried while attempts remain, then recorded as the official stage does. */
      const consoleFailure = (error: DifyError, record: () => ItemOutcome): ItemOutcome => {
        if (error.kind === "cancelled") return { ok: false, failure: { message: "cancelled", retryable: true, refund: true } };
        const transient = isTransient(error) || error.kind === "timeout";
        if (transient && !lastAttempt) return { ok: false, failure: { message: describe(error), retryable: true, retryAfterMs: error.retryAfterMs } };
        return record();
      };

      let session = await consoleFor(config, deps, false);
      if (!session.ok) {
        const error = session.error;
        // Wrong credentials are a setting to fix, not the model's failure: nothing is recorded.
        if (error.kind === "http" && error.status !== null && error.status < 500 && error.status !== 429) return { ok: false, failure: { message: `Dify refused the sign-in: ${error.message}`, retryable: false } };
        return consoleFailure(error, () => done({ apiKey: "Other-Error", reason: describe(error) }, writeCases(allFail(`Dify sign-in failed (${error.message}).`))));
      }
      const appName = difyAppName(spec.task, spec.round);
      const dsl = buildDifyDsl(conversion, appName);
      // The description marks the app as this item's, so a later attempt can delete what a crashed one left behind.
      const marker = appMarker(item.id);
      dsl.app.description = marker;
      if (item.attempt > 1 && !config.keepApps) {
        const listed = await session.value.listApps(appName);
        for (const leftover of listed.ok ? listed.value.filter((app) => app.description === marker) : []) await session.value.deleteApp(leftover.id);
      }
      const yaml = toDifyYaml(dsl);
      let imported = await session.value.importDsl(yaml);
      if (!imported.ok && imported.error.status === 401) {
        // The shared session expired and could not be refreshed: sign in again once.
        session = await consoleFor(config, deps, true);
        if (session.ok) imported = await session.value.importDsl(yaml);
      }
      if (!imported.ok) {
        const error = imported.error;
        return consoleFailure(error, () => {
          const outcome = importFailureRecord({ step: error.step === "confirm" ? "confirm" : "import", status: error.status });
          if (outcome === "step_1_5") {
            return done({ failStep: "step_1_5", reason: describe(error) }, async (tx) => {
              await tx.passResult.update({ where: { responseId }, data: { valid: false, failStep: "step_1_5" } });
              await tx.caseResult.deleteMany({ where: { responseId } });
            });
          }
          return done({ apiKey: "Other-Error", reason: describe(error) }, writeCases(allFail(`Dify ${error.step} failed (${error.message}).`)));
        });
      }
      if (!session.ok) return { ok: false, failure: { message: "lost the Dify session", retryable: true } };
      const dify = session.value;
      const appId = imported.value.appId;
      const notes: string[] = [];
      try {
        const published = await dify.publish(appId);
        const apiKey = published.ok ? await dify.createApiKey(appId) : published;
        if (!apiKey.ok) {
          const error = apiKey.error;
          return consoleFailure(error, () => done({ apiKey: "Other-Error", reason: describe(error) }, writeCases(allFail(`Dify ${error.step} failed (${error.message}).`))));
        }
        const usage = emptyUsage();
        const rows: CaseRow[] = [];
        const verdicts: VerdictRow[] = [];
        const judge = params.judge.kind === "llm" ? await judgeContext(db, params.judge, response.run.benchmarkId, turn.taskId, options.judgeClientRetries) : null;
        for (const test of turn.testCases) {
          if (signal.aborted) return { ok: false, failure: { message: "cancelled", retryable: true, refund: true } };
          const position = test.position as TestPosition;
          const inputs = parseJson<Record<string, TestInputValue>>(test.inputs, {});
          const row: CaseRow = { position, verdict: false, outputs: null, fileCheck: null, files: null, error: null, difyRunId: null, elapsedMs: null };
          rows.push(row);
          const execution = await executeCase(inputs, spec.fileChecks, {
            serviceBase: serviceBaseOf(config.baseUrl),
            apiKey: apiKey.value,
            caseFilesDir: params.caseFilesDir,
            user: RESOLVE_USER,
            timeoutMs: config.runTimeoutMs,
            deps,
            call: retryingTransient({ tries: serviceTries, backoffMs: serviceBackoffMs, signal }),
          });
          if (execution.kind === "missing-file") {
            row.error = execution.message;
            continue;
          }
          notes.push(...execution.notes.map((text) => `test${position}: ${text}`));
          row.elapsedMs = execution.elapsedMs;
          if (execution.kind === "run-failed") {
            if (execution.error.kind === "cancelled") return { ok: false, failure: { message: "cancelled", retryable: true, refund: true } };
            row.error = execution.error.kind === "timeout" ? `The run did not finish within ${Math.round(config.runTimeoutMs / 60_000)} min (the connection's timeout).` : `The run failed (${execution.error.message}).`;
            continue;
          }
          row.difyRunId = execution.runId;
          row.files = execution.files.length > 0 ? JSON.stringify(execution.files) : null;
          row.fileCheck = execution.fileCheck;
          if (execution.failure) {
            row.error = execution.failure;
            continue;
          }
          const shown = execution.shown;
          // Every output went to the file checks: the official stage passes the case without asking the judge.
          row.verdict = true;
          if (Object.keys(shown).length === 0) continue;
          row.outputs = officialOutputText(shown);
          if (!judge) continue;
          const question = resolveJudgeItem(
            { model: response.run.model.name, task: spec.task, round: spec.round, test: position, queries: judge.queries, inputs: inputs as Record<string, JudgeTestInput>, outputs: row.outputs, groundTruth: test.groundTruth, recorded: null },
            judge.systemPrompt,
          );
          const votes = new Map<string, (boolean | null)[]>();
          const errors: string[] = [];
          for (const panelist of judge.panel) {
            for (let sampleIndex = 0; sampleIndex < judge.samples; sampleIndex += 1) {
              const sample = await judgeSample({ messages: question.messages }, sampleIndex, { client: panelist.client, strict: false, cache: databaseCallCache(db), refresh: job.refresh, signal });
              const inputTokens = sample.usage?.promptTokens ?? 0;
              const outputTokens = sample.usage?.completionTokens ?? 0;
              usage.calls += sample.calls;
              usage.cachedCalls += sample.cached ? 1 : 0;
              usage.inputTokens += inputTokens;
              usage.outputTokens += outputTokens;
              const cost = callCost(panelist.config, inputTokens, outputTokens);
              if (cost !== null) usage.cost = (usage.cost ?? 0) + cost;
              votes.set(panelist.label, [...(votes.get(panelist.label) ?? []), sample.verdict]);
              if (sample.verdict === null || sample.raw === null) {
                errors.push(redactKey(sample.error ? `${panelist.label}: ${sample.error.kind}: ${sample.error.message}` : `${panelist.label}: no verdict`, panelist.config.apiKey));
                continue;
              }
              verdicts.push({
                casePosition: position,
                judge: panelist.label,
                sampleIndex,
                verdict: sample.verdict,
                reason: sample.reason,
                rawOutput: sample.raw,
                wellFormed: sample.wellFormed,
                latencyMs: Math.round(sample.latencyMs),
                tokens: sample.usage ? inputTokens + outputTokens : null,
                promptFingerprint: judge.promptFingerprint,
                inputFingerprint: inputFingerprint(question),
                judgeIdentity: judgeIdentity(panelist.client, judge.promptFingerprint, false),
              });
            }
          }
          const majority = panelVerdict(judge.panel.map((panelist) => panelist.label), votes);
          row.verdict = majority === true;
          if (majority === null) row.error = `The judge gave no verdict (${errors.join("; ") || "no reply"}).`;
        }
        const passed = rows.filter((row) => row.verdict).length;
        return done({ cases: rows.length, passed, notes }, writeCases(rows, verdicts, judge?.panel.map((panelist) => panelist.label) ?? []), usage);
      } finally {
        if (!config.keepApps) {
          const deleted = await dify.deleteApp(appId);
          if (!deleted.ok) notes.push(`could not delete app ${appId} (${deleted.error.message})`);
        }
      }
    },
  };
}

/** The resolve judge's prompt, the task's queries and one client per panel endpoint. */
async function judgeContext(db: Database, judge: Extract<ResolveJudge, { kind: "llm" }>, benchmarkId: string, taskId: string, clientRetries: number | undefined) {
  const prompt = await db.benchmarkPrompt.findUnique({ where: { benchmarkId_name: { benchmarkId, name: "evaluation_resolve_system" } } });
  if (!prompt) return null;
  const turns = await db.turn.findMany({ where: { taskId }, orderBy: { round: "asc" }, select: { instruction: true } });
  const panel = [];
  for (const endpointId of judge.endpointIds) {
    const config = await loadEndpointConfig(db, endpointId);
    if (config) panel.push({ label: config.label, config, client: chatClientFor(config, clientRetries !== undefined ? { maxRetries: clientRetries } : {}) });
  }
  if (panel.length === 0) return null;
  return { systemPrompt: officialSystemPrompt(prompt.text), promptFingerprint: promptFingerprint(prompt.text), queries: turns.map((turn) => turn.instruction), panel, samples: judge.samples };
}

