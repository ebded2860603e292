import "server-only";
// The evaluation page's live read model: the evaluation, per run a task × round grid (lib/generation/progress-grid)
// and the calls, tokens and cost so far of its generate job and its runs' judge jobs. Polled every ~2 s while running.
import { buildProgressGrid, emptyCounts, type GridCounts, type GridRow } from "@/lib/generation/progress-grid";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { getEvaluation, type EvaluationView } from "../evaluations/get-evaluation";
import { GENERATE_JOB_KIND, type GenerateItemPayload } from "../evaluations/types";
import type { SessionUser } from "../session";

export interface EvaluationRunProgress {
  id: string;
  runNumber: number;
  label: string;
  status: string;
  rows: GridRow[];
  counts: GridCounts;
}

export interface EvaluationUsage {
  calls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD of paid calls (counted when the endpoints have prices). */
  cost: number;
}

export interface EvaluationProgress {
  evaluation: Omit<EvaluationView, "createdAt" | "finishedAt" | "runs"> & { createdAt: string; finishedAt: string | null };
  runs: EvaluationRunProgress[];
  counts: GridCounts;
  usage: EvaluationUsage;
  /** Judge jobs started for the runs (LLM judge), to link to. */
  judgeJobIds: string[];
  /** The evaluation can still change: the page keeps polling. */
  active: boolean;
}

function itemTask(payload: string): string | null {
  try {
    const parsed = JSON.parse(payload) as Partial<GenerateItemPayload>;
    return typeof parsed.task === "string" ? parsed.task : null;
  } catch {
    return null;
  }
}

export async function getEvaluationProgress(db: Database, actor: SessionUser | null, evaluationId: string): Promise<EvaluationProgress | null> {
  assertAllowed(actor, "read");
  const evaluation = await getEvaluation(db, actor, evaluationId);
  if (!evaluation) return null;
  const runIds = evaluation.runs.map((run) => run.id);
  const [tasks, responses, items, jobs] = await Promise.all([
    db.task.findMany({ where: { benchmarkId: evaluation.benchmark.id }, orderBy: { externalId: "asc" }, select: { name: true, roundCount: true } }),
    db.response.findMany({
      where: { runId: { in: runIds } },
      select: { id: true, runId: true, turn: { select: { round: true, task: { select: { name: true } } } }, passResult: { select: { valid: true, failStep: true } } },
    }),
    evaluation.jobId
      ? db.jobItem.findMany({ where: { jobId: evaluation.jobId }, select: { key: true, payload: true, status: true, error: true } })
      : Promise.resolve([]),
    db.job.findMany({
      where: { OR: [...(evaluation.jobId ? [{ id: evaluation.jobId }] : []), { runId: { in: runIds }, kind: { not: GENERATE_JOB_KIND } }] },
      select: { id: true, kind: true, calls: true, cachedCalls: true, inputTokens: true, outputTokens: true, cost: true },
    }),
  ]);
  const gridTasks = tasks.map((task) => ({ name: task.name, rounds: task.roundCount }));
  const counts = emptyCounts();
  const runs = evaluation.runs
    .slice()
    .sort((a, b) => a.runNumber - b.runNumber)
    .map((run) => {
      const turns = responses
        .filter((response) => response.runId === run.id)
        .map((response) => ({
          task: response.turn.task.name,
          round: response.turn.round,
          responseId: response.id,
          valid: response.passResult?.valid ?? null,
          failStep: response.passResult?.failStep ?? null,
        }));
      const runItems = items
        .filter((item) => item.key.startsWith(`${run.id}:`))
        .flatMap((item) => {
          const task = itemTask(item.payload);
          return task === null ? [] : [{ task, status: item.status, error: item.error }];
        });
      const grid = buildProgressGrid(gridTasks, turns, runItems);
      for (const state of Object.keys(counts) as (keyof GridCounts)[]) counts[state] += grid.counts[state];
      return { id: run.id, runNumber: run.runNumber, label: run.label, status: run.status, rows: grid.rows, counts: grid.counts };
    });
  const usage: EvaluationUsage = { calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, cost: 0 };
  for (const job of jobs) {
    usage.calls += job.calls;
    usage.cachedCalls += job.cachedCalls;
    usage.inputTokens += job.inputTokens;
    usage.outputTokens += job.outputTokens;
    usage.cost += job.cost;
  }
  const { runs: _runs, createdAt, finishedAt, ...rest } = evaluation;
  return {
    // Who started it is a user id: shown to signed-in users only.
    evaluation: { ...rest, createdBy: actor ? rest.createdBy : null, createdAt: createdAt.toISOString(), finishedAt: finishedAt?.toISOString() ?? null },
    runs,
    counts,
    usage,
    judgeJobIds: jobs.filter((job) => job.kind !== GENERATE_JOB_KIND).map((job) => job.id),
    active: evaluation.status === "running",
  };
}

/** USD spent so far per evaluation (its generate job and its runs' judge jobs), for the evaluations list. */
export async function evaluationCosts(db: Database, actor: SessionUser | null, evaluations: readonly Pick<EvaluationView, "id" | "jobId" | "runs">[]): Promise<Map<string, number>> {
  assertAllowed(actor, "read");
  const owner = new Map<string, string>();
  for (const evaluation of evaluations) {
    if (evaluation.jobId) owner.set(`job:${evaluation.jobId}`, evaluation.id);
    for (const run of evaluation.runs) owner.set(`run:${run.id}`, evaluation.id);
  }
  const jobIds = evaluations.flatMap((evaluation) => (evaluation.jobId ? [evaluation.jobId] : []));
  const runIds = evaluations.flatMap((evaluation) => evaluation.runs.map((run) => run.id));
  const costs = new Map<string, number>(evaluations.map((evaluation) => [evaluation.id, 0]));
  if (jobIds.length === 0 && runIds.length === 0) return costs;
  const jobs = await db.job.findMany({
    where: { OR: [{ id: { in: jobIds } }, { runId: { in: runIds }, kind: { not: GENERATE_JOB_KIND } }] },
    select: { id: true, runId: true, cost: true },
  });
  for (const job of jobs) {
    const evaluationId = owner.get(`job:${job.id}`) ?? (job.runId ? owner.get(`run:${job.runId}`) : undefined);
    if (evaluationId) costs.set(evaluationId, (costs.get(evaluationId) ?? 0) + job.cost);
  }
  return costs;
}

/** The Dify connections an evaluation may execute on: id and label only (never the credentials). */
export async function listDifyConnectionChoices(db: Database, actor: SessionUser | null): Promise<{ id: string; label: string }[]> {
  assertAllowed(actor, "runJobs");
  return db.difyConnection.findMany({ orderBy: { label: "asc" }, select: { id: true, label: true } });
}
