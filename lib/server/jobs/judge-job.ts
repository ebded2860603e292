import "server-only";
// The judge job: asks an endpoint the benchmark's pass-stage (step 1_4) or resolve-stage question for every eligible
// item of a stored run, K samples each, through the database call cache; each answered sample becomes a JudgeVerdict.
// Calls send the official parameters (temperature 0, max_tokens 8192) unless the job overrides them, never the
// endpoint's own defaults, and may take the official client's 600 s.
import { judgeCallParams, judgeParams, OFFICIAL_JUDGE_TIMEOUT_MS, type ChatParams } from "@/lib/judge/identity";
import { MAX_JUDGE_SAMPLES } from "@/lib/judge/majority";
import { passJudgeItem, reachedPassJudge, resolveJudgeItem, type TestPosition } from "@/lib/judge/items";
import { officialSystemPrompt, type JudgeStage, type JudgeTestInput } from "@/lib/judge/protocol";
import { z } from "zod";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { callCost, redactKey } from "../endpoints/endpoints";
import { inputFingerprint, judgeIdentity, judgeSample, promptFingerprint, type LlmErrorKind } from "../llm";
import type { SessionUser } from "../session";
import { databaseCallCache } from "./db-call-cache";
import { coolDownFailure, endpointCapacity, endpointClients, type EndpointClientOptions } from "./endpoint-clients";
import { afterEvaluationJudgeJob } from "../evaluations/after-generation";
import { applyOwnJudge } from "../evaluations/pass-stage-verdicts";
import { parseColumn } from "../data/json-columns";
import { jobQueue, wakeWorker } from "./instance";
import { enqueueJob, type JobKind } from "./job-kind";
import type { ItemUsage } from "./queue";
import type { JobHandler } from "./worker";

export const JUDGE_JOB_KIND = "judge";

const chatParamsSchema = z.object({ temperature: z.number().optional(), max_tokens: z.number().optional(), top_p: z.number().optional(), seed: z.number().optional() }) satisfies z.ZodType<ChatParams>;

const judgeJobFields = {
  runId: z.string().min(1),
  stage: z.enum(["pass", "resolve"]),
  samples: z.number().int().min(1),
  strict: z.boolean(),
  endpointId: z.string().min(1),
  promptFingerprint: z.string(),
  /** What every call sends: the official parameters with the request's overrides; absent (older jobs, evaluation jobs): official. */
  params: chatParamsSchema.optional(),
};

const judgeJobParamsSchema = z.union([
  /** The judge label verdicts are stored under: the endpoint's label when the job started. */
  z.object({ ...judgeJobFields, judgeLabel: z.string() }),
  // Jobs stored before the label had its own name called it `judge`.
  z.object({ ...judgeJobFields, judge: z.string() }).transform(({ judge, ...rest }) => ({ ...rest, judgeLabel: judge })),
]);
export type JudgeJobParams = z.output<typeof judgeJobParamsSchema>;

const judgeItemPayloadSchema = z.object({
  responseId: z.string().min(1),
  casePosition: z.number().int(),
  sampleIndex: z.number().int().min(0),
  messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })),
  inputMaterial: z.string(),
});
export type JudgeItemPayload = z.output<typeof judgeItemPayloadSchema>;

export const judgeJobKind: JobKind<JudgeJobParams, JudgeItemPayload> = { kind: JUDGE_JOB_KIND, paramsSchema: judgeJobParamsSchema, payloadSchema: judgeItemPayloadSchema };

export interface JudgeJobRequest {
  runId: string;
  endpointId: string;
  stage: JudgeStage;
  samples: number;
  strict: boolean;
  refresh: boolean;
  /** Overrides of the official temperature 0 and max_tokens 8192; absent or null keeps the official value. */
  temperature?: number | null;
  maxTokens?: number | null;
}

export type StartJudgeJob = { ok: true; jobId: string; items: number } | { ok: false; message: string };

const keyNodesSchema = z.array(z.string());
const testInputsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.object({ mime_type: z.string(), value: z.string() }), z.array(z.object({ mime_type: z.string(), value: z.string() }))]));

/** The questions of one stage for a stored run, with the official messages, one per eligible response or case. */
export async function judgeQuestionsForRun(
  db: Database,
  runId: string,
  stage: JudgeStage,
): Promise<{ ok: true; systemPromptText: string; questions: Omit<JudgeItemPayload, "sampleIndex">[] } | { ok: false; message: string }> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true, benchmarkId: true, model: { select: { name: true } } } });
  if (!run) return { ok: false, message: "No such run." };
  const promptName = `evaluation_${stage}_system`;
  const prompt = await db.benchmarkPrompt.findUnique({ where: { benchmarkId_name: { benchmarkId: run.benchmarkId, name: promptName } } });
  if (!prompt) return { ok: false, message: `The run's benchmark has no ${promptName} prompt; import the benchmark with its prompts folder.` };
  const systemPrompt = officialSystemPrompt(prompt.text);
  const responses = await db.response.findMany({
    where: { runId },
    orderBy: [{ turn: { task: { externalId: "asc" } } }, { turn: { round: "asc" } }],
    select: {
      id: true,
      nodeSelection: true,
      designPrinciple: true,
      workflow: true,
      passResult: { select: { recordedValid: true, recordedFailStep: true, officialFailStep: true } },
      caseResults: { where: { outputs: { not: null } }, orderBy: { position: "asc" }, select: { position: true, outputs: true, verdict: true } },
      turn: { select: { round: true, keyNodes: true, taskId: true, task: { select: { name: true } }, testCases: { select: { position: true, inputs: true, groundTruth: true } } } },
    },
  });
  const model = run.model.name;
  const questions: Omit<JudgeItemPayload, "sampleIndex">[] = [];
  if (stage === "pass") {
    for (const response of responses) {
      const result = response.passResult;
      if (!result) continue;
      // Recorded runs say how far each turn got; raw output uses our reproduction of steps 1_1–1_3.
      const reached =
        result.recordedValid !== null
          ? reachedPassJudge({ valid: result.recordedValid, fail_step: (result.recordedFailStep ?? undefined) as Parameters<typeof reachedPassJudge>[0]["fail_step"] })
          : result.officialFailStep === null;
      if (!reached || response.nodeSelection === null || response.designPrinciple === null || response.workflow === null) continue;
      const item = passJudgeItem(
        {
          model,
          task: response.turn.task.name,
          round: response.turn.round,
          nodeSelection: response.nodeSelection,
          designPrinciple: response.designPrinciple,
          workflow: response.workflow,
          keyNodes: parseColumn(response.turn.keyNodes, keyNodesSchema, []),
          recorded: result.recordedValid === null ? null : result.recordedFailStep !== "step_1_4",
        },
        systemPrompt,
      );
      questions.push({ responseId: response.id, casePosition: 0, messages: item.messages, inputMaterial: item.inputMaterial });
    }
  } else {
    const taskIds = [...new Set(responses.map((response) => response.turn.taskId))];
    const turns = await db.turn.findMany({ where: { taskId: { in: taskIds } }, orderBy: { round: "asc" }, select: { taskId: true, instruction: true } });
    const queries = new Map<string, string[]>();
    for (const turn of turns) queries.set(turn.taskId, [...(queries.get(turn.taskId) ?? []), turn.instruction]);
    for (const response of responses) {
      const taskQueries = queries.get(response.turn.taskId) ?? [];
      for (const caseResult of response.caseResults) {
        const test = response.turn.testCases.find((candidate) => candidate.position === caseResult.position);
        if (!test || caseResult.outputs === null || taskQueries.length < response.turn.round) continue;
        const item = resolveJudgeItem(
          {
            model,
            task: response.turn.task.name,
            round: response.turn.round,
            test: caseResult.position as TestPosition,
            queries: taskQueries,
            inputs: parseColumn<Record<string, JudgeTestInput>>(test.inputs, testInputsSchema, {}),
            outputs: caseResult.outputs,
            groundTruth: test.groundTruth,
            recorded: caseResult.verdict,
          },
          systemPrompt,
        );
        questions.push({ responseId: response.id, casePosition: caseResult.position, messages: item.messages, inputMaterial: item.inputMaterial });
      }
    }
  }
  return { ok: true, systemPromptText: prompt.text, questions };
}

/** Enqueues a judge job over a stored run: one item per question and sample. */
export async function startJudgeJob(db: Database, actor: SessionUser, request: JudgeJobRequest): Promise<StartJudgeJob> {
  assertAllowed(actor, "runJobs");
  if (!Number.isInteger(request.samples) || request.samples < 1 || request.samples > MAX_JUDGE_SAMPLES) {
    return { ok: false, message: `Samples must be a whole number from 1 to ${MAX_JUDGE_SAMPLES}.` };
  }
  const endpoint = await db.modelEndpoint.findUnique({ where: { id: request.endpointId }, select: { id: true, label: true } });
  if (!endpoint) return { ok: false, message: "No such endpoint." };
  const built = await judgeQuestionsForRun(db, request.runId, request.stage);
  if (!built.ok) return built;
  if (built.questions.length === 0) {
    return {
      ok: false,
      message:
        request.stage === "pass"
          ? "No response of this run reached the step 1_4 judge."
          : "No test case of this run has stored outputs to judge (raw generation output has none until it is executed).",
    };
  }
  const params: JudgeJobParams = {
    runId: request.runId,
    stage: request.stage,
    samples: request.samples,
    strict: request.strict,
    endpointId: endpoint.id,
    judgeLabel: endpoint.label,
    promptFingerprint: promptFingerprint(built.systemPromptText),
    params: judgeParams({ temperature: request.temperature, maxTokens: request.maxTokens }),
  };
  const items = built.questions.flatMap((question) =>
    Array.from({ length: request.samples }, (_, sampleIndex) => ({
      key: `${question.responseId}:${request.stage}:${question.casePosition}:s${sampleIndex}`,
      payload: { ...question, sampleIndex },
    })),
  );
  const jobId = await enqueueJob(jobQueue(db), judgeJobKind, {
    params,
    createdBy: actor.id,
    refresh: request.refresh,
    runId: request.runId,
    endpointId: endpoint.id,
    items,
  });
  wakeWorker();
  return { ok: true, jobId, items: items.length };
}

/** A pass judge job an evaluation queued for its run: its verdicts make the run's own figures. */
export function ownJudgeJob(job: { evaluationId: string | null; params: Pick<JudgeJobParams, "stage"> }): boolean {
  return job.params.stage === "pass" && job.evaluationId !== null;
}

/** Worth another try later: the endpoint was busy, down or slow, or the lease was lost mid-call. */
export const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(["rate-limited", "server-error", "timeout", "connection", "malformed-response", "cancelled"]);

export type JudgeHandlerOptions = EndpointClientOptions;

/** Judge clients per endpoint: the official parameters and timeout in place of the endpoint's defaults. */
export function judgeEndpointClients(options: JudgeHandlerOptions = {}) {
  return endpointClients(options, { params: judgeParams(), timeoutMs: OFFICIAL_JUDGE_TIMEOUT_MS });
}

/** The worker's handler for judge items. Clients are shared per endpoint so its concurrency and rate limits hold. */
export function judgeJobHandler(options: JudgeHandlerOptions = {}): JobHandler<JudgeJobParams, JudgeItemPayload> {
  const clientFor = judgeEndpointClients(options);

  return {
    ...judgeJobKind,
    capacity: (db, job) => endpointCapacity(db, job, JUDGE_JOB_KIND),
    settled: ({ db, job }) => afterEvaluationJudgeJob(db, job),
    async run({ db, job, item, signal }) {
      const params = job.params;
      const payload = item.payload;
      const entry = await clientFor(db, params.endpointId);
      if (!entry) return { ok: false, failure: { message: "The endpoint was deleted.", retryable: false } };
      const coolingDown = coolDownFailure(entry);
      if (coolingDown) return { ok: false, failure: coolingDown };
      const callParams = judgeCallParams(params.params);
      const sample = await judgeSample({ messages: payload.messages }, payload.sampleIndex, {
        client: entry.client,
        strict: params.strict,
        cache: databaseCallCache(db),
        refresh: job.refresh,
        signal,
        params: callParams,
      });
      const inputTokens = sample.usage?.promptTokens ?? 0;
      const outputTokens = sample.usage?.completionTokens ?? 0;
      const usage: ItemUsage = {
        calls: sample.calls,
        cachedCalls: sample.cached ? 1 : 0,
        inputTokens,
        outputTokens,
        latencyMs: Math.round(sample.latencyMs),
        cost: callCost(entry.config, inputTokens, outputTokens),
      };
      if (sample.error || sample.verdict === null || sample.raw === null) {
        const error = sample.error;
        const message = error ? `${error.kind}${error.status ? ` (HTTP ${error.status})` : ""}: ${error.message}` : "no verdict";
        const coolDown = entry.coolDownUntil - Date.now();
        return {
          ok: false,
          failure: {
            message: redactKey(message, entry.config.apiKey),
            retryable: error !== null && RETRYABLE.has(error.kind),
            retryAfterMs: coolDown > 0 ? coolDown : null,
            usage,
          },
        };
      }
      const verdict = sample.verdict;
      const raw = sample.raw;
      const row = {
        verdict,
        reason: sample.reason,
        rawOutput: raw,
        wellFormed: sample.wellFormed,
        latencyMs: usage.latencyMs,
        tokens: sample.usage ? inputTokens + outputTokens : null,
        promptFingerprint: params.promptFingerprint,
        inputFingerprint: inputFingerprint(payload),
        judgeIdentity: judgeIdentity(entry.client, params.promptFingerprint, params.strict, callParams),
        jobId: job.id,
      };
      return {
        ok: true,
        result: { verdict, wellFormed: sample.wellFormed, cached: sample.cached },
        usage,
        commit: async (tx) => {
          await tx.judgeVerdict.upsert({
            where: {
              responseId_stage_casePosition_judge_sampleIndex: {
                responseId: payload.responseId,
                stage: params.stage,
                casePosition: payload.casePosition,
                judge: params.judgeLabel,
                sampleIndex: payload.sampleIndex,
              },
            },
            create: { responseId: payload.responseId, stage: params.stage, casePosition: payload.casePosition, judge: params.judgeLabel, sampleIndex: payload.sampleIndex, ...row },
            update: row,
          });
          // The evaluation's own pass judge: the turn's verdict is decided once every member has all its samples.
          if (ownJudgeJob(job)) await applyOwnJudge(tx, params.runId, { responseIds: [payload.responseId], wait: "every-sample" });
        },
      };
    },
  };
}
