import "server-only";
// The generate job: an item is one task of one generated run; it generates the task's remaining rounds in order
// (stored rounds are history, never asked again) and commits each finished turn at once, in one transaction that
// also checks the item's lease is still ours: the Response with its tags split as an import splits them, its
// attempts, its live scoring (PassResult, Diagnostics, rule judge through the import's own code) and, when an LLM
// judge was chosen, the judge items for it. Calls go through the database call cache, so an item taken over after a
// crash replays a reply that had already arrived instead of paying for it again (agentic-opencode: each opencode run's
// outcome, in a sandbox made for the item's task and removed after it). A failed call fails its turn only: the item
// is retried by the queue's policy and the task's later rounds wait for it. Generation gets the task's instructions,
// the prompt or skill and its earlier answers; the check data (turn specs) serves the scoring of stored turns only.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { turnKey } from "@/lib/benchmark/dataset";
import { buildTurnSpecs, type TurnSpec } from "@/lib/benchmark/turn";
import type { Attempt, CallResult } from "@/lib/generation/attempts";
import { AGENTIC_TIMEOUT_MS, GENERATION_MODES, type Exchange } from "@/lib/generation/protocol";
import { passJudgeItem } from "@/lib/judge/items";
import { callCacheMaterial, type ChatParams } from "@/lib/judge/identity";
import { officialSystemPrompt } from "@/lib/judge/protocol";
import { CORE_VERSION } from "@/lib/workflow/version";
import { z } from "zod";
import { insertRows } from "../bulk-insert";
import type { Database } from "../db";
import { callCost, redactKey } from "../endpoints/endpoints";
import { afterRunGenerated } from "../evaluations/after-generation";
import { findGenerateJob } from "../evaluations/jobs-of-evaluation";
import { settleEvaluation } from "../evaluations/settle-evaluation";
import { evaluationJudgeSchema, GENERATE_JOB_KIND, type GenerationOverrides } from "../evaluations/types";
import { opencodeInstall, openOpencodeAgent, type TaskAgent } from "../generation/opencode";
import { generateTurn, type GenerationTask, type TurnRecord } from "../generation/runner";
import { sha256 } from "../hash";
import { planResponses } from "../import/import-service";
import { loadBenchmarkSource } from "../import/benchmark-source";
import { responseRows } from "../import/write-import";
import { promptFingerprint, type CallCache, type ChatClient, type ChatOutcome } from "../llm";
import { databaseCallCache } from "./db-call-cache";
import { coolDownFailure, endpointCapacity, endpointClients, type EndpointClientOptions } from "./endpoint-clients";
import { judgeJobKind, type JudgeItemPayload } from "./judge-job";
import { appendJobItems, enqueueJob, type JobKind } from "./job-kind";
import { itemUsageIncrements, jobUsageIncrements } from "./job-rows";
import { isUnfinished, NO_USAGE, type ItemUsage, type JobQueue, type QueueTx } from "./queue";
import type { ItemContext, ItemOutcome, JobHandler } from "./worker";

export { GENERATE_JOB_KIND };

const generateJobParamsSchema = z.object({
  evaluationId: z.string().min(1),
  benchmarkId: z.string().min(1),
  endpointId: z.string().min(1),
  mode: z.enum(GENERATION_MODES),
  judge: evaluationJudgeSchema,
  overrides: z.object({ temperature: z.number().optional(), maxTokens: z.number().optional() }) satisfies z.ZodType<GenerationOverrides>,
  /** The agentic skill text (SKILL.md), read when the evaluation started; "" for zero-shot. */
  skill: z.string(),
  /** agentic-opencode: the skill folder's files (relative path -> text), copied into each task's sandbox. */
  skillFiles: z.record(z.string(), z.string()).optional(),
});
export type GenerateJobParams = z.output<typeof generateJobParamsSchema>;

/** One generate item: one task of one run; it generates the task's remaining rounds in order. */
const generateItemPayloadSchema = z.object({ runId: z.string().min(1), runNumber: z.number().int().min(1), taskId: z.string().min(1), task: z.string().min(1) });
export type GenerateItemPayload = z.output<typeof generateItemPayloadSchema>;

export const generateJobKind: JobKind<GenerateJobParams, GenerateItemPayload> = { kind: GENERATE_JOB_KIND, paramsSchema: generateJobParamsSchema, payloadSchema: generateItemPayloadSchema };

const TX_OPTIONS = { maxWait: 30_000, timeout: 30_000 } as const;
/** A zero-shot call may write up to 32768 tokens: it gets 10 minutes, as `npm run generate` gives it by default. */
export const ZERO_SHOT_TIMEOUT_MS = 600_000;
const MAX_CACHED_CONTEXTS = 8;
/** What an attempt's stored message says instead of repeating the skill text it carried. */
export const SKILL_PLACEHOLDER = "[SKILL.md]";

/** One model call of a turn, in call order (attempt i of an agentic turn is call i). */
interface CallLog {
  cached: boolean;
  requests: number;
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
}

interface BenchmarkContext {
  tasks: Map<string, { task: GenerationTask; turnIds: Map<number, string> }>;
  turnSpecs: Map<string, TurnSpec>;
  builderPrompt: string;
  passPrompt: { system: string; fingerprint: string } | null;
  judges: { id: string; label: string }[];
  modelName: string;
}

/** The turn cannot be stored: the lease moved to another worker, or the run was cancelled meanwhile. */
class TurnNotStored extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** The chat parameters a generated call sends: only the evaluation's overrides (the protocol adds its own defaults). */
export function chatParams(overrides: GenerationOverrides): ChatParams {
  return { ...(overrides.temperature !== undefined ? { temperature: overrides.temperature } : {}), ...(overrides.maxTokens !== undefined ? { max_tokens: overrides.maxTokens } : {}) };
}

/**
 * The client a turn calls through: each call is looked up in the call cache first, under the call's content
 * address plus the run and the call's number within the turn (so the runs of an evaluation, and the identical
 * attempts of an agentic turn, are distinct samples), and a reply is stored the moment it arrives.
 */
function cachingClient(inner: ChatClient, cache: CallCache, scope: string, refresh: boolean, log: CallLog[]): ChatClient {
  let callIndex = 0;
  return {
    endpoint: inner.endpoint,
    model: inner.model,
    params: inner.params,
    concurrency: inner.concurrency,
    usage: () => inner.usage(),
    async complete(messages, options = {}): Promise<ChatOutcome> {
      const params = { ...inner.params, ...(options.params ?? {}) };
      const key = sha256(`${callCacheMaterial({ endpoint: inner.endpoint, model: inner.model, params, messages, sample: 0 })}\n${scope}:${callIndex++}`);
      const hit = refresh ? null : await cache.get(key);
      if (hit) {
        log.push({ cached: true, requests: 0, latencyMs: 0, inputTokens: hit.usage?.promptTokens ?? 0, outputTokens: hit.usage?.completionTokens ?? 0 });
        return { ok: true, content: hit.content, usage: hit.usage, finishReason: null, attempts: 0, latencyMs: 0 };
      }
      const outcome = await inner.complete(messages, options);
      const usage = outcome.ok ? outcome.usage : null;
      log.push({ cached: false, requests: outcome.attempts, latencyMs: outcome.latencyMs, inputTokens: usage?.promptTokens ?? 0, outputTokens: usage?.completionTokens ?? 0 });
      if (outcome.ok) await cache.put(key, { content: outcome.content, usage: outcome.usage, storedAt: new Date().toISOString() });
      return outcome;
    },
  };
}

/**
 * The task's agent with each run looked up in the call cache first (keyed like a call: endpoint, model, the agent's
 * version and the message, plus the run and the run's number within the turn); a finished run (an answer or a
 * timeout) is stored the moment it ends.
 */
function cachingAgent(inner: TaskAgent, config: { baseUrl: string; model: string }, cache: CallCache, scope: string, refresh: boolean, log: CallLog[]): Pick<TaskAgent, "run"> {
  let callIndex = 0;
  return {
    async run(message, signal) {
      const material = callCacheMaterial({ endpoint: config.baseUrl, model: config.model, params: {}, messages: [{ role: "user", content: `${inner.version}\n${message}` }], sample: 0 });
      const key = sha256(`${material}\n${scope}:${callIndex++}`);
      const hit = refresh ? null : await cache.get(key);
      if (hit) {
        log.push({ cached: true, requests: 0, latencyMs: 0, inputTokens: 0, outputTokens: 0 });
        return JSON.parse(hit.content) as CallResult;
      }
      const result = await inner.run(message, signal);
      log.push({ cached: false, requests: 1, latencyMs: result.agentRun?.durationMs ?? 0, inputTokens: 0, outputTokens: 0 });
      if (result.kind !== "error") await cache.put(key, { content: JSON.stringify(result), usage: null, storedAt: new Date().toISOString() });
      return result;
    },
  };
}

/** Usage of a turn's calls; tokens and cost count paid calls only (a replayed reply costs nothing). */
function turnUsage(calls: readonly CallLog[], price: (input: number, output: number) => number | null): ItemUsage {
  const paid = calls.filter((call) => !call.cached);
  const inputTokens = paid.reduce((sum, call) => sum + call.inputTokens, 0);
  const outputTokens = paid.reduce((sum, call) => sum + call.outputTokens, 0);
  return {
    calls: paid.reduce((sum, call) => sum + call.requests, 0),
    cachedCalls: calls.length - paid.length,
    inputTokens,
    outputTokens,
    latencyMs: Math.round(calls.reduce((sum, call) => sum + call.latencyMs, 0)),
    cost: paid.length > 0 ? price(inputTokens, outputTokens) : null,
  };
}

async function loadContext(db: Database, params: GenerateJobParams): Promise<BenchmarkContext | string> {
  const source = await loadBenchmarkSource(db, params.benchmarkId);
  if (!source) return "The evaluation's benchmark was deleted.";
  const tasks = await db.task.findMany({
    where: { benchmarkId: params.benchmarkId },
    select: { name: true, externalId: true, domain: { select: { name: true } }, turns: { orderBy: { round: "asc" }, select: { id: true, round: true, instruction: true } } },
  });
  const builderPrompt = source.prompts.find((prompt) => prompt.name === "builder_prompt")?.text;
  if (params.mode === "zero-shot" && builderPrompt === undefined) return "The benchmark has no builder_prompt prompt.";
  const passText = source.prompts.find((prompt) => prompt.name === "evaluation_pass_system")?.text;
  const judges =
    params.judge.kind === "llm" ? await db.modelEndpoint.findMany({ where: { id: { in: params.judge.endpointIds } }, select: { id: true, label: true } }) : [];
  const evaluationRun = await db.run.findFirst({ where: { evaluationId: params.evaluationId }, select: { model: { select: { name: true } } } });
  return {
    tasks: new Map(
      tasks.map((task) => [
        task.name,
        {
          task: { id: task.externalId, category: task.domain.name, task: task.name, queries: task.turns.map((turn) => turn.instruction) },
          turnIds: new Map(task.turns.map((turn) => [turn.round, turn.id])),
        },
      ]),
    ),
    turnSpecs: buildTurnSpecs(source.checkPass, source.checkResolve),
    builderPrompt: builderPrompt ?? "",
    passPrompt: passText === undefined ? null : { system: officialSystemPrompt(passText), fingerprint: promptFingerprint(passText) },
    judges,
    modelName: evaluationRun?.model.name ?? "model",
  };
}

function attemptRows(record: TurnRecord, responseId: string, query: string, calls: readonly CallLog[], skill: string) {
  const timing = (index: number) => {
    const call = calls[index];
    return { latencyMs: call ? Math.round(call.latencyMs) : null, inputTokens: call ? call.inputTokens : null, outputTokens: call ? call.outputTokens : null };
  };
  if (record.mode === "zero-shot") {
    return [
      {
        responseId,
        index: 1,
        message: query,
        raw: record.raw ?? record.answer ?? "",
        outcome: "answered",
        candidate: record.answer ?? null,
        repairs: "[]",
        issues: "[]",
        diagnostics: "[]",
        ...timing(0),
      },
    ];
  }
  return (record.attempts ?? []).map((attempt: Attempt, position) => ({
    responseId,
    index: attempt.index,
    message: skill ? attempt.message.split(skill).join(SKILL_PLACEHOLDER) : attempt.message,
    raw: attempt.raw,
    outcome: attempt.outcome,
    candidate: attempt.candidate,
    repairs: JSON.stringify(attempt.repairs),
    issues: JSON.stringify(attempt.issues),
    diagnostics: JSON.stringify(attempt.diagnostics),
    agentRun: attempt.agentRun ? JSON.stringify(attempt.agentRun) : null,
    ...timing(position),
  }));
}

/** Adds the pass-stage judge items of a new response to the run's judge job for this judge (made on first use). */
async function appendJudgeItems(
  tx: QueueTx,
  queue: JobQueue<QueueTx>,
  input: { evaluationId: string; runId: string; responseId: string; judge: { id: string; label: string }; samples: number; createdBy: string | null; payload: Omit<JudgeItemPayload, "sampleIndex">; promptFingerprint: string },
): Promise<void> {
  const job = await tx.job.findFirst({
    where: { kind: judgeJobKind.kind, runId: input.runId, endpointId: input.judge.id, status: { not: "cancelled" }, evaluationId: input.evaluationId },
    select: { id: true },
  });
  const items = Array.from({ length: input.samples }, (_, sampleIndex) => ({
    key: `${input.responseId}:pass:0:s${sampleIndex}`,
    payload: { ...input.payload, sampleIndex },
  }));
  if (job) {
    await appendJobItems(queue, tx, judgeJobKind, job.id, items);
    return;
  }
  const params = { runId: input.runId, stage: "pass" as const, samples: input.samples, strict: false, endpointId: input.judge.id, judgeLabel: input.judge.label, promptFingerprint: input.promptFingerprint };
  // Owned by whoever started the evaluation, so they (and admins) see and steer it (job-access.ts).
  const createdBy = input.createdBy ?? (await tx.evaluation.findUnique({ where: { id: input.evaluationId }, select: { createdBy: true } }))?.createdBy ?? null;
  await enqueueJob(queue, judgeJobKind, { params, createdBy, runId: input.runId, endpointId: input.judge.id, evaluationId: input.evaluationId, items }, tx);
}

/**
 * Closes a run whose generate items have all settled: "complete", or "failed" when a task's turn failed for good
 * ("cancelled" runs stay so); then the evaluation once none of its runs is in progress. Returns whether this call
 * closed the run (exactly one caller does).
 */
export async function settleGeneratedRun(db: Database, jobId: string, runId: string): Promise<boolean> {
  const prefix = `${runId}:`;
  const open = await db.jobItem.count({ where: { jobId, key: { startsWith: prefix }, status: { in: ["pending", "leased"] } } });
  if (open > 0) return false;
  const failed = await db.jobItem.count({ where: { jobId, key: { startsWith: prefix }, status: "failed" } });
  const cancelled = await db.jobItem.count({ where: { jobId, key: { startsWith: prefix }, status: "cancelled" } });
  const responseCount = await db.response.count({ where: { runId } });
  const status = failed > 0 ? "failed" : cancelled > 0 ? "cancelled" : "complete";
  const closed = await db.run.updateMany({ where: { id: runId, status: "in-progress" }, data: { status, responseCount } });
  if (closed.count === 0) return false;
  const run = await db.run.findUnique({ where: { id: runId }, select: { evaluationId: true } });
  if (status !== "cancelled") await afterRunGenerated(db, runId);
  if (run?.evaluationId) await settleEvaluation(db, run.evaluationId);
  return true;
}

/**
 * Closes generated runs left "in-progress" although their generate job has finished: a worker that died between
 * recording an item's outcome and closing its run (workers run this when they start). Returns how many it closed.
 */
export async function closeFinishedGeneratedRuns(db: Database): Promise<number> {
  const open = await db.run.findMany({ where: { status: "in-progress", origin: "generated", evaluationId: { not: null } }, select: { id: true, evaluationId: true } });
  let closed = 0;
  for (const run of open) {
    const job = run.evaluationId ? await findGenerateJob(db, run.evaluationId) : null;
    if (!job || isUnfinished(job.status)) continue;
    if (await settleGeneratedRun(db, job.id, run.id)) closed += 1;
  }
  return closed;
}

export type GenerateHandlerOptions = EndpointClientOptions;

export function generateJobHandler(options: GenerateHandlerOptions = {}): JobHandler<GenerateJobParams, GenerateItemPayload> {
  // Generation sends only its protocol's parameters (zero-shot: temperature 0.7 and max_tokens 32768 unless the
  // evaluation overrides them; agentic: only the overrides) and waits as its protocol does, not as the endpoint's
  // judge defaults say.
  const zeroShotClients = endpointClients(options, { params: {}, timeoutMs: ZERO_SHOT_TIMEOUT_MS });
  const agenticClients = endpointClients(options, { params: {}, timeoutMs: AGENTIC_TIMEOUT_MS });
  const contexts = new Map<string, Promise<BenchmarkContext | string>>();
  const contextFor = (db: Database, jobId: string, params: GenerateJobParams) => {
    let context = contexts.get(jobId);
    if (!context) {
      context = loadContext(db, params);
      contexts.set(jobId, context);
      // A long-lived worker sees many jobs: keep the few most recent benchmarks' contexts.
      while (contexts.size > MAX_CACHED_CONTEXTS) contexts.delete(contexts.keys().next().value as string);
      context.catch(() => contexts.delete(jobId));
    }
    return context;
  };

  return {
    ...generateJobKind,
    capacity: (db, job) => endpointCapacity(db, job, GENERATE_JOB_KIND),
    async run({ db, job, item, queue, signal }) {
      const params = job.params;
      const payload = item.payload;
      const context = await contextFor(db, job.id, params);
      if (typeof context === "string") return { ok: false, failure: { message: context, retryable: false } };
      const entry = await (params.mode === "zero-shot" ? zeroShotClients : agenticClients)(db, params.endpointId);
      if (!entry) return { ok: false, failure: { message: "The model endpoint was deleted.", retryable: false } };
      const coolingDown = coolDownFailure(entry);
      if (coolingDown) return { ok: false, failure: coolingDown };
      const taskEntry = context.tasks.get(payload.task);
      if (!taskEntry) return { ok: false, failure: { message: `${payload.task} is not a task of the benchmark.`, retryable: false } };
      const run = await db.run.findUnique({ where: { id: payload.runId }, select: { status: true } });
      if (!run || run.status !== "in-progress") return { ok: false, failure: { message: "The run is no longer in progress.", retryable: false } };

      const { task, turnIds } = taskEntry;
      let agent: TaskAgent | null = null;
      let workDir: string | null = null;
      if (params.mode === "agentic-opencode") {
        const install = opencodeInstall();
        if (!install.ok) return { ok: false, failure: { message: `agentic-opencode cannot run: ${install.reason}`, retryable: false } };
        workDir = await mkdtemp(path.join(os.tmpdir(), "c2w-opencode-"));
        agent = await openOpencodeAgent({
          install,
          workDir,
          task: task.task,
          skillFiles: params.skillFiles ?? { "SKILL.md": params.skill },
          baseURL: entry.config.baseUrl,
          apiKey: entry.config.apiKey,
          model: entry.config.model,
        });
      }
      try {
        return await generateTask({ db, job, item, queue, signal, params, payload, context, entry, task, turnIds, agent });
      } finally {
        await agent?.close();
        if (workDir) await rm(workDir, { recursive: true, force: true });
      }
    },
    async settled({ db, job, item }) {
      await settleGeneratedRun(db, job.id, item.payload.runId);
    },
  };
}

interface TaskInput {
  db: Database;
  job: ItemContext<GenerateJobParams, GenerateItemPayload>["job"];
  item: ItemContext<GenerateJobParams, GenerateItemPayload>["item"];
  queue: JobQueue<QueueTx>;
  signal: AbortSignal;
  params: GenerateJobParams;
  payload: GenerateItemPayload;
  context: BenchmarkContext;
  entry: NonNullable<Awaited<ReturnType<ReturnType<typeof endpointClients>>>>;
  task: GenerationTask;
  turnIds: Map<number, string>;
  agent: TaskAgent | null;
}

/** Generates the task's remaining rounds in order, storing each as it finishes. */
async function generateTask(input: TaskInput): Promise<ItemOutcome> {
  const { db, job, item, queue, signal, params, payload, context, entry, task, turnIds } = input;
  const stored = await db.response.findMany({ where: { runId: payload.runId, turnId: { in: [...turnIds.values()] } }, select: { turnId: true, rawText: true } });
  const storedByTurn = new Map(stored.map((response) => [response.turnId, response.rawText ?? ""]));
  const cache = databaseCallCache(db);
  const price = (input: number, output: number) => callCost(entry.config, input, output);
  const history: Exchange[] = [];
  let generated = 0;
  let latencyMs = 0;
  for (let round = 1; round <= task.queries.length; round++) {
    const query = task.queries[round - 1] as string;
    const turnId = turnIds.get(round);
    if (!turnId) return { ok: false, failure: { message: `${turnKey(task.task, round)} has no turn row.`, retryable: false } };
    const existing = storedByTurn.get(turnId);
    if (existing !== undefined) {
      history.push({ query, answer: existing });
      continue;
    }
    if (signal.aborted) return { ok: false, failure: { message: "The job was stopped or the lease was lost.", retryable: true } };
    const calls: CallLog[] = [];
    const scope = `generate:${params.evaluationId}:${payload.runNumber}:${turnKey(task.task, round)}`;
    const client = cachingClient(entry.client, cache, scope, job.refresh, calls);
    const agent = input.agent ? cachingAgent(input.agent, entry.config, cache, scope, job.refresh, calls) : undefined;
    const record = await generateTurn(
      { client, mode: params.mode, builderPrompt: context.builderPrompt, skill: params.skill, params: chatParams(params.overrides), signal, ...(agent ? { agent } : {}) },
      task,
      round,
      history,
    );
    const usage = turnUsage(calls, price);
    latencyMs += usage.latencyMs ?? 0;
    if (!record.ok || record.answer === undefined) {
      const message = redactKey(`${turnKey(task.task, round)}: ${record.error ?? "no answer"}`, entry.config.apiKey);
      const coolDown = entry.coolDownUntil - Date.now();
      return { ok: false, failure: { message, retryable: !/^client-error/.test(record.error ?? ""), retryAfterMs: coolDown > 0 ? coolDown : null, usage } };
    }
    const spec = context.turnSpecs.get(turnKey(task.task, round));
    if (!spec) return { ok: false, failure: { message: `${turnKey(task.task, round)} has no turn specification.`, retryable: false } };
    try {
      await storeTurn(db, queue, { job, params, payload, item, context, record, spec, turnId, query, calls, usage });
    } catch (error) {
      if (error instanceof TurnNotStored) return { ok: false, failure: { message: error.message, retryable: error.retryable, usage } };
      throw error;
    }
    generated += 1;
    history.push({ query, answer: record.answer });
  }
  return { ok: true, result: { generated, kept: stored.length }, usage: { ...NO_USAGE, latencyMs } };
}

interface StoreTurnInput {
  job: { id: string };
  params: GenerateJobParams;
  payload: GenerateItemPayload;
  item: { id: string; leaseOwner: string };
  context: BenchmarkContext;
  record: TurnRecord;
  spec: TurnSpec;
  turnId: string;
  query: string;
  calls: readonly CallLog[];
  usage: ItemUsage;
}

/** Stores one finished turn with its attempts, scoring and judge items, only while the item's lease is ours. */
async function storeTurn(db: Database, queue: JobQueue<QueueTx>, input: StoreTurnInput): Promise<void> {
  const { params, payload, record, spec, turnId, usage } = input;
  const answer = record.answer as string;
  const now = new Date();
  // Scored on an analysis worker within its time budget, as imports are (lib/server/analysis/pool.ts).
  const [plan] = (await planResponses([{ kind: "plan-generated", task: spec.task, round: spec.round, raw: answer, turn: spec }], () => undefined)) as [Awaited<ReturnType<typeof planResponses>>[number]];
  const rows = responseRows(payload.runId, new Map([[plan.turnKey, turnId]]), [plan], now);
  const responseRow = rows.responses[0]!;
  const responseId = responseRow.id;
  const passRow = rows.passResults[0]!;
  passRow.coreVersion = CORE_VERSION;
  const attempts = attemptRows(record, responseId, input.query, input.calls, params.skill);
  const reachedJudge = plan.pass.officialFailStep === null && plan.nodeSelection !== null && plan.designPrinciple !== null && plan.workflow !== null;
  const judgePayload =
    params.judge.kind === "llm" && reachedJudge && input.context.passPrompt
      ? (() => {
          const question = passJudgeItem(
            {
              model: input.context.modelName,
              task: spec.task,
              round: spec.round,
              nodeSelection: plan.nodeSelection as string,
              designPrinciple: plan.designPrinciple as string,
              workflow: plan.workflow as string,
              keyNodes: spec.keyNodes,
              recorded: null,
            },
            input.context.passPrompt.system,
          );
          return { responseId, casePosition: 0, messages: question.messages, inputMaterial: question.inputMaterial };
        })()
      : null;

  await db.$transaction(async (tx) => {
    const held = await tx.jobItem.count({ where: { id: input.item.id, leaseOwner: input.item.leaseOwner, status: "leased" } });
    if (held === 0) throw new TurnNotStored("The item's lease was lost before the turn was stored; another worker carries on.", true);
    const run = await tx.run.findUnique({ where: { id: payload.runId }, select: { status: true } });
    if (run?.status !== "in-progress") throw new TurnNotStored("The run is no longer in progress.", false);
    // The unique (runId, turnId) makes a second copy impossible; this check keeps the first one quietly.
    const present = await tx.response.findUnique({ where: { runId_turnId: { runId: payload.runId, turnId } }, select: { id: true } });
    if (present) return;
    await insertRows(tx, "Response", [{ ...responseRow, generatedAt: now, generationMs: record.latencyMs, accepted: record.mode === "zero-shot" ? null : (record.accepted ?? null) }]);
    await insertRows(tx, "PassResult", rows.passResults);
    await insertRows(tx, "Diagnostic", rows.diagnostics);
    await insertRows(tx, "JudgeVerdict", rows.judges);
    await tx.generationAttempt.createMany({ data: attempts });
    await tx.run.update({ where: { id: payload.runId }, data: { responseCount: { increment: 1 } } });
    // The turn's usage lands with the turn, so the evaluation's cost so far is right while the item still runs.
    await tx.jobItem.update({ where: { id: input.item.id }, data: itemUsageIncrements(usage) });
    await tx.job.update({ where: { id: input.job.id }, data: jobUsageIncrements(usage) });
    if (judgePayload && params.judge.kind === "llm" && input.context.passPrompt) {
      for (const judge of input.context.judges) {
        await appendJudgeItems(tx, queue, {
          evaluationId: params.evaluationId,
          runId: payload.runId,
          responseId,
          judge,
          samples: params.judge.samples ?? 1,
          createdBy: null,
          payload: judgePayload,
          promptFingerprint: input.context.passPrompt.fingerprint,
        });
      }
    }
  }, TX_OPTIONS);
}
