import "server-only";
// Evaluations through the API: the request's references resolved to ids, then the very service the New evaluation
// page calls (startEvaluation, cancelEvaluation); the status answer is read from the evaluation page's read models.
import type { z } from "zod";
import type { ApiErrorCode } from "@/lib/api/errors";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { cancelEvaluation } from "../evaluations/cancel-evaluation";
import { getEvaluation } from "../evaluations/get-evaluation";
import { getEvaluationProgress } from "../evaluations/get-evaluation-progress";
import { startEvaluation } from "../evaluations/start-evaluation";
import type { EvaluationJudge } from "../evaluations/types";
import type { SessionUser } from "../session";
import type { evaluationCancelledSchema, evaluationCreatedSchema, evaluationSchema, StartEvaluationRequest } from "./contract";
import { findBenchmarkByReference, findDifyConnectionByReference, findEndpointByReference } from "./references";

export type ApiOutcome<T> = { ok: true; value: T } | { ok: false; code: ApiErrorCode; message: string };

const invalid = (message: string) => ({ ok: false as const, code: "invalid_field" as const, message });

/** The service's field names, as the API request names them. */
const API_FIELD_NAMES: [RegExp, string][] = [
  [/^caseFilesDir:/, "dify.caseFilesDir:"],
  [/^judge\.endpointIds:/, "judge.endpoints:"],
  [/^params:/, "temperature, maxTokens:"],
  [/^No such benchmark\./, "benchmark: no such benchmark."],
  [/^No such model endpoint\./, "endpoint: no such model endpoint."],
  [/^No such Dify connection\./, "dify.connection: no such Dify connection."],
];

export async function startEvaluationFromApi(db: Database, actor: SessionUser, request: StartEvaluationRequest): Promise<ApiOutcome<z.output<typeof evaluationCreatedSchema>>> {
  assertAllowed(actor, "runJobs");
  const benchmark = await findBenchmarkByReference(db, actor, request.benchmark);
  if (!benchmark) return invalid("benchmark: no benchmark with this id or slug.");
  const endpoint = await findEndpointByReference(db, actor, request.endpoint);
  if (!endpoint) return invalid("endpoint: no model endpoint with this id or label.");
  let judge: EvaluationJudge = request.judge.kind === "llm" ? { kind: "llm", endpointIds: [], samples: request.judge.samples } : request.judge;
  if (request.judge.kind === "llm") {
    const endpointIds: string[] = [];
    for (const [index, reference] of request.judge.endpoints.entries()) {
      const found = await findEndpointByReference(db, actor, reference);
      if (!found) return invalid(`judge.endpoints.${index}: no model endpoint with this id or label.`);
      endpointIds.push(found.id);
    }
    judge = { kind: "llm", endpointIds, samples: request.judge.samples };
  }
  let dify: { difyConnectionId: string; caseFilesDir: string } | null = null;
  if (request.dify) {
    const connection = await findDifyConnectionByReference(db, actor, request.dify.connection);
    if (!connection) return invalid("dify.connection: no Dify connection with this id or label.");
    dify = { difyConnectionId: connection.id, caseFilesDir: request.dify.caseFilesDir };
  }
  const started = await startEvaluation(db, actor, {
    benchmarkId: benchmark.id,
    endpointId: endpoint.id,
    mode: request.mode,
    judge,
    ...(dify ?? {}),
    runCount: request.runs,
    params: { ...(request.temperature !== undefined ? { temperature: request.temperature } : {}), ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}) },
  });
  if (!started.ok) {
    const rule = API_FIELD_NAMES.find(([pattern]) => pattern.test(started.message));
    return invalid(rule ? started.message.replace(rule[0], rule[1]) : started.message);
  }
  return { ok: true, value: { id: started.evaluationId, runs: started.runIds.map((id) => ({ id })) } };
}

/** An evaluation's status, judge, runs with turn counts and jobs; null when there is no such evaluation. */
export async function getEvaluationStatus(db: Database, actor: SessionUser | null, evaluationId: string): Promise<z.output<typeof evaluationSchema> | null> {
  assertAllowed(actor, "read");
  const [view, progress] = [await getEvaluation(db, actor, evaluationId), await getEvaluationProgress(db, actor, evaluationId)];
  if (!view || !progress) return null;
  let judge: z.output<typeof evaluationSchema>["judge"] = { kind: "none" };
  if (view.judge.kind === "llm") {
    const endpoints = await db.modelEndpoint.findMany({ where: { id: { in: view.judge.endpointIds } }, select: { id: true, label: true } });
    const labels = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.label]));
    judge = { kind: "llm", endpoints: view.judge.endpointIds.map((id) => labels.get(id) ?? id), samples: view.judge.samples ?? 1 };
  } else {
    judge = { kind: view.judge.kind };
  }
  const runIds = view.runs.map((run) => run.id);
  const runJobs = await db.job.findMany({ where: { runId: { in: runIds } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, kind: true, status: true } });
  const generate = view.jobId ? await db.job.findUnique({ where: { id: view.jobId }, select: { id: true, kind: true, status: true } }) : null;
  const counts = new Map(progress.runs.map((run) => [run.runId, run.counts]));
  return {
    id: view.id,
    status: view.status,
    mode: view.mode,
    judge,
    runs: view.runs.map((run) => {
      const runCounts = counts.get(run.id);
      return {
        id: run.id,
        status: run.status as z.output<typeof evaluationSchema>["runs"][number]["status"],
        turns: { total: runCounts?.turns ?? 0, stored: (runCounts?.passed ?? 0) + (runCounts?.failed ?? 0), pass: runCounts?.passed ?? 0, fail: runCounts?.failed ?? 0 },
      };
    }),
    jobs: [...(generate ? [generate] : []), ...runJobs.filter((job) => job.id !== generate?.id)],
  };
}

export async function cancelEvaluationFromApi(db: Database, actor: SessionUser, evaluationId: string): Promise<ApiOutcome<z.output<typeof evaluationCancelledSchema>>> {
  assertAllowed(actor, "runJobs");
  const existing = await db.evaluation.findUnique({ where: { id: evaluationId }, select: { id: true } });
  if (!existing) return { ok: false, code: "not_found", message: "No evaluation with this id." };
  const cancelled = await cancelEvaluation(db, actor, evaluationId);
  if (!cancelled.ok) return { ok: false, code: "conflict", message: cancelled.message };
  const after = await db.evaluation.findUniqueOrThrow({ where: { id: evaluationId }, select: { id: true, status: true } });
  return { ok: true, value: { id: after.id, status: after.status as z.output<typeof evaluationCancelledSchema>["status"] } };
}
