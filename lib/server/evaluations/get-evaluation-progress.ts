import "server-only";
// The live progress of an evaluation, for its page: per run a task × round grid whose cells fill as turns are
// stored, with counts, and the tokens and cost spent so far by its generate job and its runs' judge jobs.
//
// Shape (relied on by the evaluation page):
//   EvaluationProgress {
//     evaluationId, status: "running" | "succeeded" | "failed" | "cancelled", mode, jobId, jobStatus,
//     counts: ProgressCounts,                         // over all runs
//     usage: { calls, cachedCalls, inputTokens, outputTokens, cost: number | null },   // generation + judging
//     runs: [{ runId, runNumber, label, status: "in-progress" | "complete" | "failed" | "cancelled", counts,
//              figures: RunFigures (lib/server/data/runs: pass and resolve by the run's own judge, and that judge),
//              tasks: [{ task, category, cells: [{ round, state, responseId, failStep, error }] }] }]
//   }
//   state: "pending" (not asked yet) | "running" (being generated now) | "passed" | "failed" (stored; failStep says
//   where) | "error" (the call failed: error holds the message; the item waits for its retry or failed for good).
//   Tasks are in benchmark order, cells in round order; responseId is set for passed and failed cells.
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import { getRunFigures, type RunFigures } from "../data/runs";
import { findGenerateJob } from "./jobs-of-evaluation";
import { passStageVerdict } from "./pass-stage-verdicts";
import { generateItemKey, type EvaluationStatus } from "./types";
import type { GenerationMode } from "@/lib/generation/protocol";
import { earlyWarnings, finalStatusText, type EarlyWarning, type StoredTurn } from "@/lib/evaluations/early-warning";

export type ProgressCellState = "pending" | "running" | "passed" | "failed" | "error";

export interface ProgressCell {
  round: number;
  state: ProgressCellState;
  responseId: string | null;
  failStep: string | null;
  error: string | null;
}

export interface ProgressCounts {
  turns: number;
  pending: number;
  running: number;
  passed: number;
  failed: number;
  error: number;
}

export interface RunProgress {
  runId: string;
  runNumber: number;
  label: string;
  status: string;
  counts: ProgressCounts;
  /** The run's pass and resolve figures by its own judge, as its run page and leaderboard row show them. */
  figures: RunFigures | null;
  tasks: { task: string; category: string; cells: ProgressCell[] }[];
}

export interface EvaluationUsage {
  calls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD, when the endpoints have prices. */
  cost: number | null;
}

export interface EvaluationProgress {
  evaluationId: string;
  status: EvaluationStatus;
  mode: GenerationMode;
  jobId: string | null;
  jobStatus: string | null;
  counts: ProgressCounts;
  usage: EvaluationUsage;
  runs: RunProgress[];
  /** What the first stored turns say about where this is going (lib/evaluations/early-warning). */
  warnings: EarlyWarning[];
  /** The final status in words ("Finished: all 79 stored turns failed at step 1.1 …"), null while running. */
  outcome: { text: string; tone: "good" | "bad" | "neutral" } | null;
}

const emptyCounts = (): ProgressCounts => ({ turns: 0, pending: 0, running: 0, passed: 0, failed: 0, error: 0 });

export async function getEvaluationProgress(db: Database, actor: SessionUser | null, evaluationId: string): Promise<EvaluationProgress | null> {
  assertAllowed(actor, "read");
  const evaluation = await db.evaluation.findUnique({
    where: { id: evaluationId },
    select: {
      id: true,
      status: true,
      mode: true,
      benchmarkId: true,
      runs: { orderBy: { runNumber: "asc" }, select: { id: true, runNumber: true, label: true, status: true } },
    },
  });
  if (!evaluation) return null;
  const runIds = evaluation.runs.map((run) => run.id);
  const [tasks, responses, job, judgeJobs, figures] = await Promise.all([
    db.task.findMany({
      where: { benchmarkId: evaluation.benchmarkId },
      orderBy: { externalId: "asc" },
      select: { name: true, roundCount: true, domain: { select: { name: true } } },
    }),
    db.response.findMany({
      where: { runId: { in: runIds } },
      orderBy: [{ generatedAt: "asc" }, { id: "asc" }],
      select: {
        id: true,
        runId: true,
        turn: { select: { round: true, task: { select: { name: true } } } },
        passResult: { select: { valid: true, failStep: true } },
        attempts: { select: { outcome: true } },
      },
    }),
    findGenerateJob(db, evaluationId),
    db.job.findMany({ where: { runId: { in: runIds } }, select: { calls: true, cachedCalls: true, inputTokens: true, outputTokens: true, cost: true } }),
    getRunFigures(db, actor, runIds),
  ]);
  const items = job ? await db.jobItem.findMany({ where: { jobId: job.id }, select: { key: true, status: true, error: true } }) : [];
  const itemByKey = new Map(items.map((item) => [item.key, item]));
  // Cells show the verdict of the runs' own judge, as stored: the rule judge's as a turn arrives, an LLM judge's once it answers.
  const stored = new Map(responses.map((response) => [`${response.runId}:${response.turn.task.name}:${response.turn.round}`, response]));

  const total = emptyCounts();
  const runs: RunProgress[] = evaluation.runs.map((run) => {
    const counts = emptyCounts();
    const rows = tasks.map((task) => {
      const item = itemByKey.get(generateItemKey(run.id, task.name));
      let frontier = true;
      const cells: ProgressCell[] = [];
      for (let round = 1; round <= task.roundCount; round++) {
        const response = stored.get(`${run.id}:${task.name}:${round}`);
        let cell: ProgressCell;
        if (response) {
          const verdict = passStageVerdict(response);
          cell = { round, state: verdict.valid ? "passed" : "failed", responseId: response.id, failStep: verdict.failStep, error: null };
        } else if (frontier && item?.status === "leased") {
          cell = { round, state: "running", responseId: null, failStep: null, error: null };
          frontier = false;
        } else if (frontier && item?.error && (item.status === "pending" || item.status === "failed")) {
          // The first missing round is the one whose call failed; later rounds wait for it.
          cell = { round, state: "error", responseId: null, failStep: null, error: item.error };
          frontier = false;
        } else {
          cell = { round, state: "pending", responseId: null, failStep: null, error: null };
          frontier = false;
        }
        counts.turns += 1;
        counts[cell.state] += 1;
        cells.push(cell);
      }
      return { task: task.name, category: task.domain.name, cells };
    });
    for (const key of Object.keys(total) as (keyof ProgressCounts)[]) total[key] += counts[key];
    return { runId: run.id, runNumber: run.runNumber ?? 0, label: run.label, status: run.status, counts, figures: figures.get(run.id) ?? null, tasks: rows };
  });

  const storedTurns: StoredTurn[] = responses.map((response) => {
    const verdict = passStageVerdict(response);
    return {
      responseId: response.id,
      task: response.turn.task.name,
      round: response.turn.round,
      ...verdict,
      noTags: response.attempts.length > 0 && response.attempts.every((attempt) => attempt.outcome === "no-tags"),
    };
  });
  const failedCalls = items.filter((item) => item.error);
  const spent = [...(job ? [job] : []), ...judgeJobs];
  const priced = spent.filter((entry) => entry.cost > 0);
  return {
    evaluationId: evaluation.id,
    status: evaluation.status as EvaluationStatus,
    mode: evaluation.mode as GenerationMode,
    jobId: job?.id ?? null,
    jobStatus: job?.status ?? null,
    counts: total,
    usage: {
      calls: spent.reduce((sum, entry) => sum + entry.calls, 0),
      cachedCalls: spent.reduce((sum, entry) => sum + entry.cachedCalls, 0),
      inputTokens: spent.reduce((sum, entry) => sum + entry.inputTokens, 0),
      outputTokens: spent.reduce((sum, entry) => sum + entry.outputTokens, 0),
      cost: priced.length > 0 ? priced.reduce((sum, entry) => sum + entry.cost, 0) : null,
    },
    runs,
    warnings: earlyWarnings(storedTurns, { count: failedCalls.length, first: failedCalls[0]?.error ?? null }),
    outcome: finalStatusText(evaluation.status, storedTurns),
  };
}
