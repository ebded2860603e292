import "server-only";
// Jobs as the pages show them (progress, usage, cost, ETA, item errors) and the controls researchers use on them.
// Views carry no payloads and no endpoint secrets; every function checks the actor first, and a researcher sees and
// steers only the jobs they started (job-access.ts).
import { describeJudgeParams, judgeCallParams, OFFICIAL_JUDGE_TIMEOUT_MS } from "@/lib/judge/identity";
import { z } from "zod";
import { assertAllowed } from "../authz";
import { parseColumn, parseJsonText } from "../data/json-columns";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import { jobQueue, wakeWorker } from "./instance";
import { jobsVisibleTo } from "./job-access";
import { JUDGE_JOB_KIND, judgeJobKind } from "./judge-job";
import { PAIRWISE_JOB_KIND, pairwiseJobKind } from "./pairwise-job";
import { isLeasable, jobStatusOf, type JobStatus } from "./queue";

export interface JobView {
  id: string;
  kind: string;
  status: JobStatus;
  /** A short description: "judge pass · demo_alpha · gpt-judge ×3 (strict)". */
  title: string;
  runId: string | null;
  runLabel: string | null;
  endpointLabel: string | null;
  refresh: boolean;
  total: number;
  done: number;
  failed: number;
  /** Items neither done nor failed (cancelled ones included until the job ends). */
  remaining: number;
  calls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD; null when the endpoint has no prices. */
  cost: number | null;
  /** Cost of the remaining items at the rate so far; null without prices or progress. */
  estimatedTotalCost: number | null;
  /** Seconds left at the rate so far; null before the first item or once finished. */
  etaSeconds: number | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface JobItemErrorView {
  key: string;
  status: string;
  attempts: number;
  error: string;
}

export interface JobDetail extends JobView {
  params: Record<string, unknown>;
  errors: JobItemErrorView[];
  /** Items waiting to retry (after an error), with when. */
  retrying: number;
}

const JOB_SELECT = {
  id: true,
  kind: true,
  status: true,
  params: true,
  runId: true,
  endpointId: true,
  refresh: true,
  itemCount: true,
  doneCount: true,
  failedCount: true,
  calls: true,
  cachedCalls: true,
  inputTokens: true,
  outputTokens: true,
  cost: true,
  error: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} as const;

type JobRow = {
  id: string;
  kind: string;
  status: string;
  params: string;
  runId: string | null;
  endpointId: string | null;
  refresh: boolean;
  itemCount: number;
  doneCount: number;
  failedCount: number;
  calls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
};

const paramsRecord = z.record(z.string(), z.unknown());

/** A job's params as a record of named values, for the title and the fields a person reads back. */
function paramsOf(row: Pick<JobRow, "params">): Record<string, unknown> {
  return parseColumn(row.params, paramsRecord, {});
}

/** The label of the judge a judge or pairwise job asks, read through its kind's schema (older rows included). */
function judgeLabelOf(row: Pick<JobRow, "kind" | "params">): string | null {
  const schema = row.kind === JUDGE_JOB_KIND ? judgeJobKind.paramsSchema : row.kind === PAIRWISE_JOB_KIND ? pairwiseJobKind.paramsSchema : null;
  const parsed = schema?.safeParse(parseJsonText(row.params));
  return parsed?.success ? parsed.data.judgeLabel : null;
}

function titleOf(row: JobRow, params: Record<string, unknown>, judgeLabel: string | null, runLabel: string | null): string {
  if (row.kind === "generate") return `Generation (${String(params.mode ?? "?")}) for evaluation ${String(params.evaluationId ?? "?")}`;
  if (row.kind === JUDGE_JOB_KIND) {
    const samples = typeof params.samples === "number" && params.samples > 1 ? ` ×${params.samples}` : "";
    const strict = params.strict === true ? " (strict)" : "";
    return `Judge ${String(params.stage ?? "")} stage · ${runLabel ?? "deleted run"} · ${judgeLabel ?? ""}${samples}${strict}`;
  }
  if (row.kind === "import") return `Import of ${String(params.files ?? "?")} run file(s)`;
  if (row.kind === "resolve") return `Dify execution · ${runLabel ?? "deleted run"}`;
  if (row.kind === PAIRWISE_JOB_KIND) return `Pairwise comparison · ${runLabel ?? "deleted run"} · ${judgeLabel ?? ""} (${params.policy === "rerun" ? "rerun" : "tie"} on disagreement)`;
  return row.kind;
}

function toView(row: JobRow, runLabel: string | null, endpointLabel: string | null, hasPrices: boolean, now: number): JobView {
  const params = paramsOf(row);
  const judgeLabel = judgeLabelOf(row);
  const settled = row.doneCount + row.failedCount;
  const remaining = Math.max(0, row.itemCount - settled);
  const active = isLeasable(row.status);
  let etaSeconds: number | null = null;
  if (active && row.startedAt && settled > 0 && remaining > 0) {
    const elapsed = (now - row.startedAt.getTime()) / 1000;
    etaSeconds = Math.round((elapsed / settled) * remaining);
  }
  const cost = hasPrices ? row.cost : null;
  return {
    id: row.id,
    kind: row.kind,
    status: jobStatusOf(row.status),
    title: titleOf(row, params, judgeLabel, runLabel),
    runId: row.runId,
    runLabel,
    endpointLabel: endpointLabel ?? judgeLabel,
    refresh: row.refresh,
    total: row.itemCount,
    done: row.doneCount,
    failed: row.failedCount,
    remaining,
    calls: row.calls,
    cachedCalls: row.cachedCalls,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    cost,
    estimatedTotalCost: cost !== null && settled > 0 ? (cost / settled) * row.itemCount : null,
    etaSeconds,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

async function views(db: Database, rows: JobRow[]): Promise<JobView[]> {
  const runIds = [...new Set(rows.flatMap((row) => (row.runId ? [row.runId] : [])))];
  const endpointIds = [...new Set(rows.flatMap((row) => (row.endpointId ? [row.endpointId] : [])))];
  const [runs, endpoints] = await Promise.all([
    db.run.findMany({ where: { id: { in: runIds } }, select: { id: true, label: true } }),
    db.modelEndpoint.findMany({ where: { id: { in: endpointIds } }, select: { id: true, label: true, inputPricePerMTok: true, outputPricePerMTok: true } }),
  ]);
  const runLabels = new Map(runs.map((run) => [run.id, run.label]));
  const endpointById = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  const now = Date.now();
  return rows.map((row) => {
    const endpoint = row.endpointId ? endpointById.get(row.endpointId) : undefined;
    const hasPrices = endpoint ? endpoint.inputPricePerMTok !== null || endpoint.outputPricePerMTok !== null : row.cost > 0;
    return toView(row, row.runId ? (runLabels.get(row.runId) ?? null) : null, endpoint?.label ?? null, hasPrices, now);
  });
}

/** The newest jobs the actor may see first, optionally those of one run. */
export async function listJobs(db: Database, actor: SessionUser | null, filter: { runId?: string; limit?: number } = {}): Promise<JobView[]> {
  assertAllowed(actor, "runJobs");
  const rows = await db.job.findMany({
    where: { ...jobsVisibleTo(actor!), ...(filter.runId ? { runId: filter.runId } : {}) },
    orderBy: { createdAt: "desc" },
    take: Math.min(filter.limit ?? 100, 500),
    select: JOB_SELECT,
  });
  return views(db, rows);
}

export async function getJobDetail(db: Database, actor: SessionUser | null, jobId: string): Promise<JobDetail | null> {
  assertAllowed(actor, "runJobs");
  const row = await db.job.findFirst({ where: { id: jobId, ...jobsVisibleTo(actor!) }, select: JOB_SELECT });
  if (!row) return null;
  const [view] = await views(db, [row]);
  const [errors, retrying] = await Promise.all([
    db.jobItem.findMany({
      where: { jobId, error: { not: null } },
      orderBy: { updatedAt: "desc" },
      take: 50,
      select: { key: true, status: true, attempts: true, error: true },
    }),
    db.jobItem.count({ where: { jobId, status: "pending", attempts: { gt: 0 } } }),
  ]);
  const params = paramsOf(row);
  const judgeLabel = judgeLabelOf(row);
  // Only what a person needs to read back; never item payloads.
  const shownParams: Record<string, unknown> = Object.fromEntries(Object.entries(params).filter(([key]) => ["stage", "samples", "strict", "judge", "files", "policy", "comparisonId"].includes(key)));
  if (judgeLabel !== null) shownParams.judge = judgeLabel;
  // Judge calls: what they send (official unless overridden) and how long each may take.
  if (row.kind === "judge") shownParams.calls = `${describeJudgeParams(judgeCallParams(params.params))}; timeout ${OFFICIAL_JUDGE_TIMEOUT_MS / 1000} s per call`;
  return {
    ...(view as JobView),
    params: shownParams,
    errors: errors.map((item) => ({ key: item.key, status: item.status, attempts: item.attempts, error: item.error ?? "" })),
    retrying,
  };
}

export type JobControl = "cancel" | "pause" | "resume";

/** Cancels, pauses or resumes a job; false when the job is not in a state that allows it or is not the actor's. */
export async function controlJob(db: Database, actor: SessionUser | null, jobId: string, control: JobControl): Promise<boolean> {
  assertAllowed(actor, "runJobs");
  if (!(await db.job.findFirst({ where: { id: jobId, ...jobsVisibleTo(actor!) }, select: { id: true } }))) return false;
  const queue = jobQueue(db);
  const changed = control === "cancel" ? await queue.cancel(jobId) : control === "pause" ? await queue.pause(jobId) : await queue.resume(jobId);
  if (changed && control === "resume") wakeWorker();
  return changed;
}
