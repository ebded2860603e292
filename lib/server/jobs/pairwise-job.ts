import "server-only";
// The pairwise job: compares two stored runs turn by turn with a judge or panel (one job per member endpoint), each
// comparison asked in both orders with the first drawn from the comparison's recorded seed; every asking, its reason
// and the outcome are stored on the comparison's item (PairwiseItem) when the job item completes.
import { randomInt } from "node:crypto";
import { z } from "zod";
import { DEFAULT_LENGTH_THRESHOLD, firstShownFor, judgeItem, longerOf, type InconsistencyPolicy } from "@/lib/grading/pairwise";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { callCost, redactKey } from "../endpoints/endpoints";
import { askWithClient, pairwiseItems, type PairwiseJudgeRef } from "../pairwise";
import type { SessionUser } from "../session";
import { coolDownFailure, endpointCapacity, endpointClients, type EndpointClientOptions } from "./endpoint-clients";
import { jobQueue, wakeWorker } from "./instance";
import { enqueueJob, type JobKind } from "./job-kind";
import type { JobHandler } from "./worker";

export const PAIRWISE_JOB_KIND = "pairwise";
export const MAX_PAIRWISE_SAMPLES = 5;
export const MAX_PAIRWISE_JUDGES = 5;

const pairwiseJobFields = { comparisonId: z.string().min(1), endpointId: z.string().min(1), policy: z.enum(["tie", "rerun"]) satisfies z.ZodType<InconsistencyPolicy> };

const pairwiseJobParamsSchema = z.union([
  /** The judge endpoint's label, as the comparison's items name it. */
  z.object({ ...pairwiseJobFields, judgeLabel: z.string() }),
  // Jobs stored before the label had its own name called it `judge`.
  z.object({ ...pairwiseJobFields, judge: z.string() }).transform(({ judge, ...rest }) => ({ ...rest, judgeLabel: judge })),
]);
export type PairwiseJobParams = z.output<typeof pairwiseJobParamsSchema>;

const pairwiseItemPayloadSchema = z.object({ pairwiseItemId: z.string().min(1) });
export type PairwiseItemPayload = z.output<typeof pairwiseItemPayloadSchema>;

export const pairwiseJobKind: JobKind<PairwiseJobParams, PairwiseItemPayload> = { kind: PAIRWISE_JOB_KIND, paramsSchema: pairwiseJobParamsSchema, payloadSchema: pairwiseItemPayloadSchema };

export interface PairwiseJobRequest {
  candidateRunId: string;
  baselineRunId: string;
  endpointIds: readonly string[];
  samples: number;
  policy: InconsistencyPolicy;
  /** Reuse a recorded seed to reproduce a comparison's orders; a fresh one is drawn (and recorded) otherwise. */
  seed?: number | null;
  lengthThreshold?: number | null;
}

export type StartPairwiseJob = { ok: true; comparisonId: string; jobIds: string[]; items: number } | { ok: false; message: string };

/** Creates the comparison with one item per shared turn × judge × sample, then one job per judge endpoint. */
export async function startPairwiseJob(db: Database, actor: SessionUser, request: PairwiseJobRequest): Promise<StartPairwiseJob> {
  assertAllowed(actor, "runJobs");
  if (request.candidateRunId === request.baselineRunId) return { ok: false, message: "Choose two different runs." };
  if (!Number.isInteger(request.samples) || request.samples < 1 || request.samples > MAX_PAIRWISE_SAMPLES) return { ok: false, message: `Samples must be a whole number from 1 to ${MAX_PAIRWISE_SAMPLES}.` };
  const endpointIds = [...new Set(request.endpointIds)];
  if (endpointIds.length === 0 || endpointIds.length > MAX_PAIRWISE_JUDGES) return { ok: false, message: `Choose from 1 to ${MAX_PAIRWISE_JUDGES} judge endpoints.` };
  const seed = request.seed ?? randomInt(0, 2 ** 31 - 1);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 2 ** 31 - 1) return { ok: false, message: "The seed must be a whole number from 0 to 2147483647." };
  const lengthThreshold = request.lengthThreshold ?? DEFAULT_LENGTH_THRESHOLD;
  if (!(lengthThreshold >= 0.5 && lengthThreshold <= 1)) return { ok: false, message: "The length threshold must lie in 0.5..1." };
  const runs = await db.run.findMany({ where: { id: { in: [request.candidateRunId, request.baselineRunId] } }, select: { id: true, benchmarkId: true } });
  if (runs.length !== 2) return { ok: false, message: "No such run." };
  if (runs[0]!.benchmarkId !== runs[1]!.benchmarkId) return { ok: false, message: "The two runs belong to different benchmarks." };
  const endpoints = await db.modelEndpoint.findMany({ where: { id: { in: endpointIds } }, select: { id: true, label: true, model: true } });
  if (endpoints.length !== endpointIds.length) return { ok: false, message: "No such endpoint." };
  const judges: PairwiseJudgeRef[] = endpointIds.map((id) => {
    const endpoint = endpoints.find((entry) => entry.id === id)!;
    return { endpointId: endpoint.id, label: endpoint.label, model: endpoint.model };
  });
  const turns = await pairwiseItems(db, actor, request.candidateRunId, request.baselineRunId);
  if (turns.length === 0) return { ok: false, message: "The runs share no turn." };

  const rows = judges.flatMap((judge) =>
    turns.flatMap((turn) =>
      Array.from({ length: request.samples }, (_, sampleIndex) => {
        const key = `${turn.key}:${judge.label}:s${sampleIndex}`;
        return {
          key,
          turnKey: turn.key,
          judge: judge.label,
          sampleIndex,
          firstShown: firstShownFor(seed, key),
          candidateAnswer: turn.candidate,
          baselineAnswer: turn.baseline,
          longer: longerOf(turn.candidate, turn.baseline),
        };
      }),
    ),
  );
  const comparison = await db.pairwiseComparison.create({
    data: {
      candidateRunId: request.candidateRunId,
      baselineRunId: request.baselineRunId,
      judges: JSON.stringify(judges),
      samples: request.samples,
      policy: request.policy,
      orderSeed: seed,
      lengthThreshold,
      createdBy: actor.id,
    },
    select: { id: true },
  });
  await db.pairwiseItem.createMany({ data: rows.map((row) => ({ ...row, comparisonId: comparison.id })) });
  const stored = await db.pairwiseItem.findMany({ where: { comparisonId: comparison.id }, select: { id: true, key: true, judge: true } });
  const jobIds: string[] = [];
  for (const judge of judges) {
    const params: PairwiseJobParams = { comparisonId: comparison.id, endpointId: judge.endpointId, judgeLabel: judge.label, policy: request.policy };
    jobIds.push(
      await enqueueJob(jobQueue(db), pairwiseJobKind, {
        params,
        createdBy: actor.id,
        runId: request.candidateRunId,
        endpointId: judge.endpointId,
        items: stored.filter((item) => item.judge === judge.label).map((item) => ({ key: item.key, payload: { pairwiseItemId: item.id } })),
      }),
    );
  }
  await db.pairwiseComparison.update({ where: { id: comparison.id }, data: { jobIds: JSON.stringify(jobIds) } });
  wakeWorker();
  return { ok: true, comparisonId: comparison.id, jobIds, items: rows.length };
}

/** Every instruction of the turn's task up to the turn's round: the conversation the judge reads (§8, rounds ≥ 2). */
async function conversationOf(db: Database, comparisonId: string, turnKey: string): Promise<string[]> {
  const comparison = await db.pairwiseComparison.findUnique({ where: { id: comparisonId }, select: { candidateRun: { select: { benchmarkId: true } } } });
  if (!comparison) return [];
  const turn = await db.turn.findUnique({ where: { benchmarkId_key: { benchmarkId: comparison.candidateRun.benchmarkId, key: turnKey } }, select: { taskId: true, round: true } });
  if (!turn) return [];
  const turns = await db.turn.findMany({ where: { taskId: turn.taskId, round: { lte: turn.round } }, orderBy: { round: "asc" }, select: { instruction: true } });
  return turns.map((entry) => entry.instruction);
}

const RETRYABLE_PREFIXES = ["rate-limited", "server-error", "timeout", "connection", "malformed-response", "cancelled"];

/** The worker's handler for pairwise items: both orders (and the rerun) through the endpoint's shared client. */
export function pairwiseJobHandler(options: EndpointClientOptions = {}): JobHandler<PairwiseJobParams, PairwiseItemPayload> {
  const clientFor = endpointClients(options, { params: { temperature: 0 } });
  return {
    ...pairwiseJobKind,
    capacity: (db, job) => endpointCapacity(db, job, PAIRWISE_JOB_KIND),
    async run({ db, job, item, signal }) {
      const params = job.params;
      const payload = item.payload;
      const stored = await db.pairwiseItem.findUnique({ where: { id: payload.pairwiseItemId } });
      if (!stored) return { ok: false, failure: { message: "The comparison was deleted.", retryable: false } };
      const entry = await clientFor(db, params.endpointId);
      if (!entry) return { ok: false, failure: { message: "The endpoint was deleted.", retryable: false } };
      const coolingDown = coolDownFailure(entry);
      if (coolingDown) return { ok: false, failure: coolingDown };
      const before = entry.client.usage();
      const conversation = await conversationOf(db, params.comparisonId, stored.turnKey);
      const judged = await judgeItem(
        askWithClient(entry.client, signal),
        { key: stored.key, conversation, candidate: stored.candidateAnswer, baseline: stored.baselineAnswer },
        stored.firstShown === "baseline" ? "baseline" : "candidate",
        params.policy,
      );
      const after = entry.client.usage();
      const inputTokens = after.promptTokens - before.promptTokens;
      const outputTokens = after.completionTokens - before.completionTokens;
      const usage = { calls: after.calls - before.calls, cachedCalls: 0, inputTokens, outputTokens, latencyMs: null, cost: callCost(entry.config, inputTokens, outputTokens) };
      if (!judged.ok) {
        const message = redactKey(judged.issues.join("; "), entry.config.apiKey);
        const coolDown = entry.coolDownUntil - Date.now();
        return { ok: false, failure: { message, retryable: RETRYABLE_PREFIXES.some((prefix) => message.includes(`: ${prefix}:`) || message.startsWith(prefix)), retryAfterMs: coolDown > 0 ? coolDown : null, usage } };
      }
      const { askings, consistent, reran, outcome } = judged.value;
      return {
        ok: true,
        result: { outcome, consistent, reran },
        usage,
        commit: async (tx) => {
          await tx.pairwiseItem.update({
            where: { id: stored.id },
            data: { verdicts: JSON.stringify(askings), outcome, consistent, reran, error: null, judgedAt: new Date() },
          });
        },
      };
    },
  };
}
