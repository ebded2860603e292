import "server-only";
// The "resolve" job, in two stages. "execute": a stored run on the user's Dify — pass step 1_5 (DSL import, publish,
// API key) and the resolve stage (resolveTurn, the implementation the resolve CLI shares) — one item per response,
// writing its CaseResult rows (and a step_1_5 failure on its PassResult) in the transaction that completes the item.
// "judge": the resolve judge asked, later, about the cases an execution left not judged, one item per response.
//
// Why one item per response, not per test case: a Dify app lives from its import to its deletion, and its three test
// cases run on it back to back, as the official stage does. Items per test case would share an app across items
// (which item imports it, which deletes it, what if one never runs), leaking apps whenever a job stops midway. Within
// an item, a 429 or 5xx from Dify's service API is retried in place (Retry-After honoured), so a passing case is not
// run again; console failures (sign-in, import) retry the whole item through the queue, before anything was run.
//
// Verdicts follow the official resolve stage (§4): no outputs, a failed run or a failed file check fails the case; a
// case whose outputs all went to the file checks passes with no judge call; otherwise the chosen LLM judge (or panel:
// panelVerdict, each member's sample majority, then the members' majority, ties failing) decides, and without one — no judge chosen, or no
// answer — the case is not judged (verdict null): neither resolved nor failed, until a "judge" job answers it. A
// missing resolve prompt or judge endpoint refuses the start (and fails items) with a sentence, never judging less.
// Only turns the run's own pass judge passed reach Dify (pass-gate), and an item whose DSL needs something the Dify
// workspace lacks fails saying what. Dify being unreachable is not the model's failure: such items retry, and only
// on their last attempt record the official outcome (api_key "Other-Error": the three cases fail).
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { TestInputValue } from "@/lib/benchmark/dataset";
import type { TurnSpec } from "@/lib/benchmark/turn";
import { MAX_JUDGE_SAMPLES } from "@/lib/judge/majority";
import type { TestPosition } from "@/lib/judge/items";
import { officialSystemPrompt } from "@/lib/judge/protocol";
import { mergeRequirements, readiness, readinessProblem, requirementsOfDsl } from "@/lib/resolve/dify-requirements";
import { importFailureRecord } from "@/lib/resolve/official";
import type { DifyDsl } from "@/lib/workflow/dify-dsl";
import { z } from "zod";
import { assertAllowed } from "../authz";
import { isUniqueViolation } from "../errors";
import type { Database } from "../db";
import { consoleBaseOf, loadDifyConnectionConfig, serviceBaseOf, type DifyConnectionConfig } from "../dify-connections/connections";
import { isTransient, signIn, type DifyConsole, type DifyDeps, type DifyError, type DifyInventory, type DifyResult } from "../dify/client";
import { retryingTransient } from "../resolve/execute-case";
import { panelFromEndpoints, type JudgeSampleRow, type JudgeUsage, type ResolveJudgePanel } from "../resolve/judge-panel";
import { evaluationPassGate, passGateOfRun, turnsGateHasNotJudged, turnsPassingGate, type PassGate } from "../resolve/pass-gate";
import { judgeStoredCase, resolveTurn, turnDsl, type ConsoleSessions, type ExecutedCase, type TurnToResolve } from "../resolve/resolve-turn";
import type { SessionUser } from "../session";
import { parseColumn, readTurnVariables } from "../data/json-columns";
import { databaseCallCache } from "./db-call-cache";
import { settleEvaluationAfterJob } from "../evaluations/settle-evaluation";
import { jobQueue, wakeWorker } from "./instance";
import { enqueueJob, type JobKind } from "./job-kind";
import { addUsage, DEFAULT_RETRY, NO_USAGE, UNFINISHED_JOB_STATUSES, type ItemUsage, type QueueTx } from "./queue";
import type { ItemOutcome, JobHandler } from "./worker";

export const RESOLVE_JOB_KIND = "resolve";
/** The `user` sent with uploads and runs, as the official config's user_name. */
export const RESOLVE_USER = "chat2workflow";
/** Items running at once over all resolve jobs: blocking Dify runs are heavy, and one Dify serves them all. */
export const RESOLVE_CONCURRENCY = 2;
const RESOLVE_PROMPT = "evaluation_resolve_system";

const resolveJudgeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("rule") }),
  z.object({ kind: z.literal("llm"), endpointIds: z.array(z.string()).min(1), samples: z.number().int().min(1) }),
]);
export type ResolveJudge = z.output<typeof resolveJudgeSchema>;

const passGateSchema = z.union([z.object({ kind: z.literal("stored"), llmJudge: z.boolean().optional() }), z.object({ kind: z.literal("llm"), endpointIds: z.array(z.string()) })]) satisfies z.ZodType<PassGate>;

const resolveJobParamsSchema = z.object({
  runId: z.string().min(1),
  /** "execute" (default, also for jobs queued before stages existed) or "judge" (cases left not judged). */
  stage: z.enum(["execute", "judge"]).optional(),
  /** Set when an evaluation queued the execution (the Job's evaluationId says so too). */
  evaluationId: z.string().optional(),
  /** Execute only. */
  connectionId: z.string().optional(),
  caseFilesDir: z.string().optional(),
  judge: resolveJudgeSchema,
  /** Which turns go to Dify (see pass-gate); jobs queued before it existed use the evaluation's LLM judge or the stored verdict. */
  passGate: passGateSchema.optional(),
});
export type ResolveJobParams = z.output<typeof resolveJobParamsSchema>;

const resolveItemPayloadSchema = z.object({ responseId: z.string().min(1) });
export type ResolveItemPayload = z.output<typeof resolveItemPayloadSchema>;

export const resolveJobKind: JobKind<ResolveJobParams, ResolveItemPayload> = { kind: RESOLVE_JOB_KIND, paramsSchema: resolveJobParamsSchema, payloadSchema: resolveItemPayloadSchema };

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

const gateOf = (params: ResolveJobParams): PassGate => params.passGate ?? (params.evaluationId && params.judge.kind === "llm" ? { kind: "llm", endpointIds: params.judge.endpointIds } : { kind: "stored" });

/** Why an LLM resolve judge cannot be used as chosen (its prompt or an endpoint is gone), or null. */
async function judgeProblem(db: Database, runId: string, judge: ResolveJudge): Promise<string | null> {
  if (judge.kind !== "llm") return null;
  const run = await db.run.findUnique({ where: { id: runId }, select: { benchmarkId: true } });
  if (!run) return "No such run.";
  const prompt = await db.benchmarkPrompt.findUnique({ where: { benchmarkId_name: { benchmarkId: run.benchmarkId, name: RESOLVE_PROMPT } }, select: { name: true } });
  if (!prompt) return `The run's benchmark has no ${RESOLVE_PROMPT} prompt, so the resolve judge cannot be asked; import the benchmark with its prompts folder.`;
  const found = await db.modelEndpoint.count({ where: { id: { in: judge.endpointIds } } });
  if (found !== new Set(judge.endpointIds).size) return "A resolve judge endpoint no longer exists; choose the judge again.";
  return null;
}

async function createResolveJob(db: Database, params: ResolveJobParams, createdBy: string | null, responseIds: readonly string[], id?: string): Promise<{ jobId: string; items: number } | null> {
  if (responseIds.length === 0) return null;
  const stage = params.stage ?? "execute";
  const jobId = await enqueueJob(jobQueue(db), resolveJobKind, {
    ...(id ? { id } : {}),
    params,
    createdBy,
    runId: params.runId,
    evaluationId: params.evaluationId ?? null,
    items: responseIds.map((responseId) => ({ key: stage === "judge" ? `${responseId}:resolve-judge` : `${responseId}:resolve`, payload: { responseId } })),
  });
  wakeWorker();
  return { jobId, items: responseIds.length };
}

const allResponses = async (db: Database, runId: string) => (await db.response.findMany({ where: { runId }, select: { id: true }, orderBy: { id: "asc" } })).map((response) => response.id);

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
 * execution already queued, running or finished. Its items refuse, saying why, when the judge cannot be used.
 */
export async function enqueueDifyExecution(db: Database, runId: string): Promise<{ jobId: string; items: number } | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { evaluation: { select: { id: true, difyConnectionId: true, caseFilesDir: true, judge: true, createdBy: true } } } });
  const evaluation = run?.evaluation;
  if (!evaluation?.difyConnectionId || !evaluation.caseFilesDir) return null;
  const id = difyExecutionJobId(evaluation.id, runId);
  const existing = () => db.job.findFirst({ where: { kind: RESOLVE_JOB_KIND, runId, OR: [{ id }, { status: { in: [...UNFINISHED_JOB_STATUSES] } }] }, select: { id: true, itemCount: true } });
  const queued = await existing();
  if (queued) return { jobId: queued.id, items: queued.itemCount };
  const judge = parseResolveJudge(evaluation.judge);
  try {
    return await createResolveJob(
      db,
      { runId, stage: "execute", evaluationId: evaluation.id, connectionId: evaluation.difyConnectionId, caseFilesDir: evaluation.caseFilesDir, judge, passGate: await evaluationPassGate(db, runId) },
      evaluation.createdBy,
      await allResponses(db, runId),
      id,
    );
  } catch (error) {
    // Another hook queued it between our look and our write.
    if (!isUniqueViolation(error)) throw error;
    const winner = await existing();
    if (!winner) throw error;
    return { jobId: winner.id, items: winner.itemCount };
  }
}

export type StartResolveJob = { ok: true; jobId: string; items: number } | { ok: false; message: string };

export interface StartResolveRequest {
  runId: string;
  connectionId: string;
  caseFilesDir: string;
  judge: ResolveJudge;
  /** Which LLM pass judge gates the turns, when the run has several. */
  passJudgeEndpointId?: string | null;
}

/**
 * Starts Dify execution of an imported or generated run (researchers): refused, with one sentence, when the run's own
 * pass judge cannot be determined, the resolve judge cannot be used, the case files are not there, Dify refuses the
 * account, or its workspace lacks what the turns' workflows need.
 */
export async function startResolveJob(db: Database, actor: SessionUser, request: StartResolveRequest, deps: DifyDeps = {}): Promise<StartResolveJob> {
  assertAllowed(actor, "runJobs");
  const run = await db.run.findUnique({ where: { id: request.runId }, select: { origin: true } });
  if (!run) return { ok: false, message: "No such run." };
  // A recorded run's test results are the official record; executing it again would replace them.
  if (run.origin === "recorded") return { ok: false, message: "This run carries its recorded resolve results; only imported or generated runs are executed." };
  const config = await loadDifyConnectionConfig(db, request.connectionId);
  if (!config) return { ok: false, message: "No such Dify connection." };
  const directory = await stat(request.caseFilesDir).catch(() => null);
  if (!directory?.isDirectory()) return { ok: false, message: `The case-files directory ${request.caseFilesDir} does not exist on the server.` };
  const problem = await judgeProblem(db, request.runId, request.judge);
  if (problem) return { ok: false, message: problem };
  const gate = await passGateOfRun(db, request.runId, request.passJudgeEndpointId);
  if (!gate.ok) return gate;
  const responses = await loadTurns(db, { runId: request.runId });
  if (responses.length === 0) return { ok: false, message: "That run has no responses to execute." };
  const unjudged = await turnsGateHasNotJudged(db, gate.gate, responses);
  if (unjudged.length > 0) return { ok: false, message: `${gate.describe[0]!.toUpperCase()}${gate.describe.slice(1)} has not judged ${unjudged.length} turn(s) that reach step 1_4; judge them first, so the rule judge never decides what goes to Dify.` };
  const passing = await turnsPassingGate(db, gate.gate, responses);
  const dsls = responses.flatMap((response) => {
    const dsl = passing.get(response.id) ? turnDsl(turnOf(response)) : null;
    return dsl ? [dsl] : [];
  });
  if (dsls.length > 0) {
    const session = await signIn(consoleBaseOf(config.baseUrl), config.email, config.password, deps);
    if (!session.ok) {
      const why = session.error.message.split(config.password).join("[redacted]");
      return { ok: false, message: session.error.kind === "http" ? `Dify refused the sign-in: ${why}` : `Cannot sign in to Dify: ${why}` };
    }
    const inventory = await session.value.inventory(INVENTORY_MODEL_TYPES);
    if (inventory.ok) {
      const lacking = readinessProblem(readiness(mergeRequirements(dsls.map(requirementsOfDsl)), inventory.value));
      if (lacking) return { ok: false, message: lacking };
    }
  }
  const created = await createResolveJob(db, { runId: request.runId, stage: "execute", connectionId: request.connectionId, caseFilesDir: path.resolve(request.caseFilesDir), judge: request.judge, passGate: gate.gate }, actor.id, responses.map((response) => response.id));
  return created ? { ok: true, ...created } : { ok: false, message: "That run has no responses to execute." };
}

/** Responses with cases executed here whose text outputs no judge has answered. */
async function responsesNotJudged(db: Database, runId: string): Promise<{ responses: string[]; cases: number }> {
  const rows = await db.caseResult.findMany({ where: { response: { runId }, verdict: null, outputs: { not: null } }, select: { responseId: true } });
  return { responses: [...new Set(rows.map((row) => row.responseId))].sort(), cases: rows.length };
}

export type StartResolveJudging = { ok: true; jobId: string; items: number; cases: number } | { ok: false; message: string };

/** Judges the cases of a run an execution left not judged, with an LLM judge or panel (researchers). */
export async function startResolveJudgeJob(db: Database, actor: SessionUser, request: { runId: string; endpointIds: string[]; samples?: number }): Promise<StartResolveJudging> {
  assertAllowed(actor, "runJobs");
  const samples = request.samples ?? 1;
  if (!Number.isInteger(samples) || samples < 1 || samples > MAX_JUDGE_SAMPLES) return { ok: false, message: `Samples must be a whole number from 1 to ${MAX_JUDGE_SAMPLES}.` };
  if (request.endpointIds.length === 0) return { ok: false, message: "Choose a resolve judge endpoint." };
  const judge: ResolveJudge = { kind: "llm", endpointIds: [...new Set(request.endpointIds)], samples };
  const problem = await judgeProblem(db, request.runId, judge);
  if (problem) return { ok: false, message: problem };
  const pending = await responsesNotJudged(db, request.runId);
  if (pending.cases === 0) return { ok: false, message: "No test case of this run is waiting for the resolve judge." };
  const created = await createResolveJob(db, { runId: request.runId, stage: "judge", judge }, actor.id, pending.responses);
  return created ? { ok: true, ...created, cases: pending.cases } : { ok: false, message: "No test case of this run is waiting for the resolve judge." };
}

/** The description of the apps an item creates: how a retry recognises the apps an interrupted attempt left. */
export const appMarker = (itemId: string) => `chat2workflow resolve item ${itemId}`;

export interface ResolveHandlerOptions {
  deps?: DifyDeps;
  /** Leases an item may take (the queue's policy): the last one records the official outcome of a Dify failure. */
  maxAttempts?: number;
  /** Tries of one upload or run call on 429/5xx, and the backoff base when no Retry-After came. */
  serviceTries?: number;
  serviceBackoffMs?: number;
  judgeClientRetries?: number;
  /** How long a workspace's installed plugins and models are trusted before they are listed again. */
  inventoryTtlMs?: number;
}

const INVENTORY_MODEL_TYPES = ["llm", "tts"];

const toItemUsage = (usage: JudgeUsage): ItemUsage => ({ ...usage, latencyMs: null });

const fileSchema = z.object({ mime_type: z.string(), value: z.string() });
const testInputsSchema = z.record(z.string(), z.union([z.string(), z.number(), fileSchema, z.array(fileSchema)])) satisfies z.ZodType<Record<string, TestInputValue>>;
const fileChecksSchema = z.record(z.string(), z.string());

const describe = (error: DifyError) => `${error.step}: ${error.message}`;

const TURN_SELECT = {
  id: true,
  nodeSelection: true,
  designPrinciple: true,
  workflow: true,
  passResult: { select: { valid: true, failStep: true, officialFailStep: true, verdictSource: true } },
  run: { select: { benchmarkId: true, model: { select: { name: true } } } },
  turn: { select: { round: true, taskId: true, inputVars: true, outputVars: true, keyNodes: true, fileChecks: true, task: { select: { name: true } }, testCases: { orderBy: { position: "asc" as const }, select: { position: true, inputs: true, groundTruth: true } } } },
} as const;

type StoredTurn = NonNullable<Awaited<ReturnType<typeof loadTurn>>>;

export const loadTurn = (db: Database, responseId: string) => db.response.findUnique({ where: { id: responseId }, select: TURN_SELECT });
const loadTurns = (db: Database, where: { runId: string }) => db.response.findMany({ where, select: TURN_SELECT, orderBy: { id: "asc" } });

/** A stored response as the turn resolveTurn works on (queries added by the caller when a judge needs them). */
export function turnOf(response: StoredTurn, queries: readonly string[] = []): TurnToResolve {
  const turn = response.turn;
  const spec: TurnSpec = {
    task: turn.task.name,
    round: turn.round,
    ...readTurnVariables(turn),
    tests: turn.testCases.map((test) => ({ inputs: parseColumn(test.inputs, testInputsSchema, {}), groundTruth: test.groundTruth })) as TurnSpec["tests"],
    fileChecks: parseColumn(turn.fileChecks, fileChecksSchema, {}),
  };
  return { modelName: response.run.model.name, spec, response: { nodeSelection: response.nodeSelection, designPrinciple: response.designPrinciple, workflow: response.workflow }, queries };
}

/** The resolve judge's panel for a run's benchmark: the prompt, the task's queries, one client per endpoint. */
async function judgeContext(db: Database, judge: ResolveJudge, benchmarkId: string, taskId: string, options: { refresh: boolean; clientRetries: number | undefined }): Promise<{ ok: true; panel: ResolveJudgePanel | null; queries: string[] } | { ok: false; message: string }> {
  const turns = await db.turn.findMany({ where: { taskId }, orderBy: { round: "asc" }, select: { instruction: true } });
  const queries = turns.map((turn) => turn.instruction);
  if (judge.kind !== "llm") return { ok: true, panel: null, queries };
  const prompt = await db.benchmarkPrompt.findUnique({ where: { benchmarkId_name: { benchmarkId, name: RESOLVE_PROMPT } } });
  if (!prompt) return { ok: false, message: `The run's benchmark has no ${RESOLVE_PROMPT} prompt, so the resolve judge cannot be asked.` };
  const built = await panelFromEndpoints(db, judge, { systemPrompt: officialSystemPrompt(prompt.text), fileText: prompt.text }, { cache: databaseCallCache(db), refresh: options.refresh, ...(options.clientRetries !== undefined ? { clientRetries: options.clientRetries } : {}) });
  return built.ok ? { ok: true, panel: built.panel, queries } : built;
}

const caseRowOf = (entry: ExecutedCase) => ({
  position: entry.position,
  verdict: entry.verdict,
  outputs: entry.outputs,
  fileCheck: entry.fileCheck,
  files: entry.files.length > 0 ? JSON.stringify(entry.files) : null,
  error: entry.error,
  difyRunId: entry.difyRunId,
  elapsedMs: entry.elapsedMs,
});

const verdictRowOf = (sample: JudgeSampleRow & { casePosition: number }, jobId: string) => ({ stage: "resolve", jobId, ...sample });

/** The worker's handler for resolve items. Sessions and workspace inventories are shared per connection. */
export function resolveJobHandler(options: ResolveHandlerOptions = {}): JobHandler<ResolveJobParams, ResolveItemPayload> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_RETRY.maxAttempts;
  const serviceTries = options.serviceTries ?? 4;
  const serviceBackoffMs = options.serviceBackoffMs ?? 2_000;
  const inventoryTtlMs = options.inventoryTtlMs ?? 5 * 60_000;
  const sessions = new Map<string, { updatedAt: number; console: DifyConsole }>();
  const inventories = new Map<string, { updatedAt: number; at: number; inventory: DifyInventory }>();

  function sessionsFor(config: DifyConnectionConfig, deps: DifyDeps): ConsoleSessions {
    const signInFresh = async () => {
      const session = await signIn(consoleBaseOf(config.baseUrl), config.email, config.password, deps);
      if (session.ok) sessions.set(config.id, { updatedAt: config.updatedAt.getTime(), console: session.value });
      return session;
    };
    return {
      current: async () => {
        const cached = sessions.get(config.id);
        return cached && cached.updatedAt === config.updatedAt.getTime() ? { ok: true, value: cached.console } : signInFresh();
      },
      renew: signInFresh,
    };
  }

  /** What the DSL needs and the workspace lacks; null when ready, or when the workspace cannot be listed (noted). */
  async function readinessOf(config: DifyConnectionConfig, session: DifyResult<DifyConsole>, dsl: DifyDsl, notes: string[]): Promise<string | null> {
    let cached = inventories.get(config.id);
    if (!cached || cached.updatedAt !== config.updatedAt.getTime() || Date.now() - cached.at > inventoryTtlMs) {
      if (!session.ok) return null;
      const listed = await session.value.inventory(INVENTORY_MODEL_TYPES);
      if (!listed.ok) {
        notes.push(`the workspace's plugins and models could not be listed (${listed.error.message}); not checked`);
        return null;
      }
      cached = { updatedAt: config.updatedAt.getTime(), at: Date.now(), inventory: listed.value };
      inventories.set(config.id, cached);
    }
    return readinessProblem(readiness(requirementsOfDsl(dsl), cached.inventory));
  }

  return {
    ...resolveJobKind,
    capacity() {
      return Promise.resolve({ filter: { kind: RESOLVE_JOB_KIND }, limit: RESOLVE_CONCURRENCY });
    },
    settled: ({ db, job }) => settleEvaluationAfterJob(db, job),
    async run({ db, job, item, signal }): Promise<ItemOutcome> {
      const params = job.params;
      const { responseId } = item.payload;
      const response = await loadTurn(db, responseId);
      if (!response) return { ok: true, result: { skipped: "the response was deleted" }, usage: NO_USAGE };
      const cancelled: ItemOutcome = { ok: false, failure: { message: "cancelled", retryable: true, refund: true } };
      const context = await judgeContext(db, params.judge, response.run.benchmarkId, response.turn.taskId, { refresh: job.refresh, clientRetries: options.judgeClientRetries });
      if (!context.ok) return { ok: false, failure: { message: context.message, retryable: false } };
      const turn = turnOf(response, context.queries);

      if (params.stage === "judge") {
        if (!context.panel) return { ok: false, failure: { message: "A judging job needs an LLM resolve judge.", retryable: false } };
        const waiting = await db.caseResult.findMany({ where: { responseId, verdict: null, outputs: { not: null } }, orderBy: { position: "asc" }, select: { id: true, position: true, outputs: true } });
        let usage = NO_USAGE;
        const decided: { id: string; verdict: boolean | null; error: string | null }[] = [];
        const samples: (JudgeSampleRow & { casePosition: number })[] = [];
        for (const entry of waiting) {
          if (signal.aborted) return cancelled;
          const judged = await judgeStoredCase(context.panel, turn, entry.position as TestPosition, entry.outputs ?? "", signal);
          usage = addUsage(usage, toItemUsage(judged.usage));
          decided.push({ id: entry.id, verdict: judged.verdict, error: judged.error });
          samples.push(...judged.samples.map((sample) => ({ ...sample, casePosition: entry.position })));
        }
        const members = context.panel.members.map((member) => member.label);
        return {
          ok: true,
          result: { judged: decided.filter((entry) => entry.verdict !== null).length, notJudged: decided.filter((entry) => entry.verdict === null).length },
          usage,
          commit: async (tx) => {
            for (const entry of decided) await tx.caseResult.update({ where: { id: entry.id }, data: { verdict: entry.verdict, error: entry.error } });
            const positions = [...new Set(samples.map((sample) => sample.casePosition))];
            if (positions.length > 0) await tx.judgeVerdict.deleteMany({ where: { responseId, stage: "resolve", casePosition: { in: positions }, judge: { in: members } } });
            for (const sample of samples) await tx.judgeVerdict.create({ data: { responseId, ...verdictRowOf(sample, job.id) } });
          },
        };
      }

      const lastAttempt = item.attempt >= maxAttempts;
      const deps: DifyDeps = { ...options.deps, signal };
      const done = (result: Record<string, unknown>, write: (tx: QueueTx) => Promise<void>, usage: ItemUsage = NO_USAGE): ItemOutcome => ({
        ok: true,
        result,
        usage,
        commit: async (tx) => {
          await write(tx);
          const open = await tx.jobItem.count({ where: { jobId: job.id, status: { in: ["pending", "leased"] } } });
          if (open === 0) await tx.run.update({ where: { id: params.runId }, data: { hasResolve: true } });
        },
      });
      // Only turns the run's own pass judge passed reach Dify; the official resolve rate counts the others as 3 failures.
      const gate = gateOf(params);
      if ((await turnsGateHasNotJudged(db, gate, [response])).length > 0) return { ok: false, failure: { message: "The run's LLM pass judge has not judged this turn, so it is not sent to Dify on the rule judge's word.", retryable: false } };
      // A turn the gate fails has no test results: any an earlier execution stored under another verdict go.
      if (!(await turnsPassingGate(db, gate, [response])).get(response.id)) return done({ skipped: "not valid at the pass stage" }, async (tx) => void (await tx.caseResult.deleteMany({ where: { responseId } })));

      const positions = response.turn.testCases.map((test) => test.position);
      const writeCases = (rows: ReturnType<typeof caseRowOf>[], samples: (JudgeSampleRow & { casePosition: number })[] = [], judgeLabels: string[] = []) => async (tx: QueueTx) => {
        const executedAt = new Date();
        await tx.caseResult.deleteMany({ where: { responseId } });
        for (const row of rows) await tx.caseResult.create({ data: { responseId, executedAt, ...row } });
        if (judgeLabels.length > 0) await tx.judgeVerdict.deleteMany({ where: { responseId, stage: "resolve", judge: { in: judgeLabels } } });
        for (const sample of samples) await tx.judgeVerdict.create({ data: { responseId, ...verdictRowOf(sample, job.id) } });
      };
      const allFail = (error: string) => positions.map((position) => caseRowOf({ position, verdict: false, outputs: null, fileCheck: null, files: [], error, difyRunId: null, elapsedMs: null, judgeReason: null }));

      if (!params.connectionId || !params.caseFilesDir) return { ok: false, failure: { message: "The execution names no Dify connection or case-files directory.", retryable: false } };
      const config = await loadDifyConnectionConfig(db, params.connectionId);
      if (!config) return { ok: false, failure: { message: "The Dify connection was deleted.", retryable: false } };
      const sessionSource = sessionsFor(config, deps);
      const notes: string[] = [];
      const resolution = await resolveTurn(
        { ...turn, appDescription: appMarker(item.id), removeLeftovers: item.attempt > 1 && !config.keepApps },
        {
          sessions: sessionSource,
          serviceBase: serviceBaseOf(config.baseUrl),
          caseFilesDir: params.caseFilesDir,
          user: RESOLVE_USER,
          runTimeoutMs: config.runTimeoutMs,
          keepApps: config.keepApps,
          deps,
          call: retryingTransient({ tries: serviceTries, backoffMs: serviceBackoffMs, signal }),
          judge: context.panel,
          checkReady: async (dsl) => readinessOf(config, await sessionSource.current(), dsl, notes),
          signal,
        },
      );
      switch (resolution.kind) {
        case "cancelled":
          return cancelled;
        case "no-dsl":
          return done({ cases: "failed", reason: "no Dify DSL" }, writeCases(allFail("The workflow does not convert to a Dify DSL.")));
        case "not-ready":
          // Nothing was imported: what the workspace lacks is a setting to fix, not the model's failure.
          return { ok: false, failure: { message: resolution.message, retryable: false } };
        case "setup-failed": {
          const error = resolution.error;
          if (error.kind === "cancelled") return cancelled;
          // Wrong credentials are a setting to fix, not the model's failure: nothing is recorded.
          if (error.step === "sign-in" && error.kind === "http" && error.status !== null && error.status < 500 && error.status !== 429) return { ok: false, failure: { message: `Dify refused the sign-in: ${error.message}`, retryable: false } };
          if (error.kind === "redirect") return { ok: false, failure: { message: error.message, retryable: false } };
          // A Dify failure before any case ran: retried while attempts remain, then recorded as the official stage does.
          if ((isTransient(error) || error.kind === "timeout") && !lastAttempt) return { ok: false, failure: { message: describe(error), retryable: true, retryAfterMs: error.retryAfterMs } };
          const outcome = error.step === "import" || error.step === "confirm" ? importFailureRecord({ step: error.step, status: error.status }) : "Other-Error";
          if (outcome === "step_1_5") {
            return done({ failStep: "step_1_5", reason: describe(error) }, async (tx) => {
              await tx.passResult.update({ where: { responseId }, data: { valid: false, failStep: "step_1_5" } });
              await tx.caseResult.deleteMany({ where: { responseId } });
            });
          }
          return done({ apiKey: "Other-Error", reason: describe(error) }, writeCases(allFail(`Dify ${error.step} failed (${error.message}).`)));
        }
        case "executed": {
          const rows = resolution.cases.map(caseRowOf);
          const result = {
            cases: rows.length,
            passed: rows.filter((row) => row.verdict === true).length,
            notJudged: rows.filter((row) => row.verdict === null).length,
            notes: [...notes, ...resolution.notes],
          };
          return done(result, writeCases(rows, resolution.samples, context.panel?.members.map((member) => member.label) ?? []), toItemUsage(resolution.usage));
        }
      }
    },
  };
}
