import "server-only";
// Pairwise judging of two stored runs (§8): the shared turns with each one's conversation so far, comparisons stored
// per turn × judge × sample with both answers and every verdict, and the report (win rate, ties, swap-inconsistency,
// length check). The job that asks the judges lives in jobs/pairwise-job.ts; the CLI asks directly through the same
// per-item rule (lib/grading/pairwise.ts).
import {
  judgeSwappedPairs,
  pairwiseReport,
  type AskJudge,
  type Asking,
  type InconsistencyPolicy,
  type PairOutcome,
  type PairwiseItem,
  type PairwiseReport,
  type PairwiseRun,
  type Side,
} from "@/lib/grading/pairwise";
import type { PairwiseCounts } from "@/lib/grading/formulas";
import { err, ok } from "@/lib/result";
import type { Database } from "./db";
import { assertAllowed } from "./authz";
import type { ChatClient } from "./llm";
import type { SessionUser } from "./session";

/** The client as the pairwise tally's `ask`: temperature 0 (guide §8.5), failures as reasons, never as answers. */
export function askWithClient(client: ChatClient, signal?: AbortSignal): AskJudge {
  return async (messages) => {
    const outcome = await client.complete(messages, { params: { temperature: 0 }, ...(signal ? { signal } : {}) });
    return outcome.ok ? ok(outcome.content) : err(`${outcome.error.kind}: ${outcome.error.message}`);
  };
}

/** The turns both runs answered: each run's workflow (or raw answer) and every instruction of the task up to the turn. */
export async function pairwiseItems(db: Database, actor: SessionUser | null, candidateRunId: string, baselineRunId: string): Promise<PairwiseItem[]> {
  assertAllowed(actor, "read");
  const load = (runId: string) =>
    db.response.findMany({ where: { runId }, select: { turnId: true, workflow: true, rawText: true, turn: { select: { key: true, taskId: true, round: true } } } });
  const [candidate, baseline] = await Promise.all([load(candidateRunId), load(baselineRunId)]);
  const baselineByTurn = new Map(baseline.map((response) => [response.turnId, response]));
  const shared = candidate.filter((response) => baselineByTurn.has(response.turnId));
  const taskIds = [...new Set(shared.map((response) => response.turn.taskId))];
  const turns = await db.turn.findMany({ where: { taskId: { in: taskIds } }, orderBy: { round: "asc" }, select: { taskId: true, round: true, instruction: true } });
  return shared
    .map((response) => {
      const other = baselineByTurn.get(response.turnId)!;
      return {
        key: response.turn.key,
        conversation: turns.filter((turn) => turn.taskId === response.turn.taskId && turn.round <= response.turn.round).map((turn) => turn.instruction),
        candidate: response.workflow ?? response.rawText ?? "",
        baseline: other.workflow ?? other.rawText ?? "",
      };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}

/** Judges two stored runs pairwise with a seeded random first order, without storing (the command line). */
export async function judgeRunsPairwise(
  db: Database,
  actor: SessionUser | null,
  candidateRunId: string,
  baselineRunId: string,
  client: ChatClient,
  options: { policy?: InconsistencyPolicy; seed: number; lengthThreshold?: number; signal?: AbortSignal },
): Promise<PairwiseRun & { judge: { endpoint: string; model: string } }> {
  assertAllowed(actor, "runJobs");
  const items = await pairwiseItems(db, actor, candidateRunId, baselineRunId);
  const run = await judgeSwappedPairs(items, askWithClient(client, options.signal), options.seed, options.policy ?? "tie", options.lengthThreshold);
  return { ...run, judge: { endpoint: client.endpoint, model: client.model } };
}

// -- stored comparisons ----------------------------------------------------------------------------------------------

export interface PairwiseJudgeRef {
  endpointId: string;
  label: string;
  model: string;
}

export interface PairwiseItemView {
  id: string;
  key: string;
  turnKey: string;
  judge: string;
  sampleIndex: number;
  firstShown: Side;
  candidateAnswer: string;
  baselineAnswer: string;
  verdicts: Asking[];
  outcome: PairOutcome | null;
  consistent: boolean | null;
  reran: boolean;
  longer: Side | "equal";
  error: string | null;
}

export interface ComparisonSummary {
  id: string;
  candidate: { id: string; label: string; model: string };
  baseline: { id: string; label: string; model: string };
  judges: PairwiseJudgeRef[];
  samples: number;
  policy: InconsistencyPolicy;
  orderSeed: number;
  lengthThreshold: number;
  jobIds: string[];
  createdAt: Date;
  report: PairwiseReport;
}

export interface ComparisonDetail extends ComparisonSummary {
  items: PairwiseItemView[];
}

function parseList<T>(text: string): T[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

const comparisonInclude = {
  candidateRun: { select: { id: true, label: true, model: { select: { displayName: true } } } },
  baselineRun: { select: { id: true, label: true, model: { select: { displayName: true } } } },
} as const;

type ComparisonRow = Awaited<ReturnType<typeof findComparisonRow>>;

function findComparisonRow(db: Database, id: string) {
  return db.pairwiseComparison.findUnique({ where: { id }, include: comparisonInclude });
}

function summaryOf(row: NonNullable<ComparisonRow>, items: readonly { outcome: string | null; consistent: boolean | null; reran: boolean; longer: string }[]): ComparisonSummary {
  return {
    id: row.id,
    candidate: { id: row.candidateRun.id, label: row.candidateRun.label, model: row.candidateRun.model.displayName },
    baseline: { id: row.baselineRun.id, label: row.baselineRun.label, model: row.baselineRun.model.displayName },
    judges: parseList<PairwiseJudgeRef>(row.judges),
    samples: row.samples,
    policy: row.policy === "rerun" ? "rerun" : "tie",
    orderSeed: row.orderSeed,
    lengthThreshold: row.lengthThreshold,
    jobIds: parseList<string>(row.jobIds),
    createdAt: row.createdAt,
    report: pairwiseReport(
      items.map((item) => ({ outcome: item.outcome as PairOutcome | null, consistent: item.consistent, reran: item.reran, longer: item.longer as Side | "equal" })),
      row.lengthThreshold,
    ),
  };
}

/** Every comparison, newest first, with its report. */
export async function listComparisons(db: Database, actor: SessionUser | null, filter: { runId?: string } = {}): Promise<ComparisonSummary[]> {
  assertAllowed(actor, "read");
  const rows = await db.pairwiseComparison.findMany({
    where: filter.runId ? { OR: [{ candidateRunId: filter.runId }, { baselineRunId: filter.runId }] } : {},
    include: { ...comparisonInclude, items: { select: { outcome: true, consistent: true, reran: true, longer: true } } },
    orderBy: { createdAt: "desc" },
    take: 100,
  });
  return rows.map((row) => summaryOf(row, row.items));
}

/** One comparison with every item (both answers, every verdict and reason); null when unknown. */
export async function getComparison(db: Database, actor: SessionUser | null, id: string): Promise<ComparisonDetail | null> {
  assertAllowed(actor, "read");
  const row = await findComparisonRow(db, id);
  if (!row) return null;
  const items = await db.pairwiseItem.findMany({ where: { comparisonId: id }, orderBy: [{ turnKey: "asc" }, { judge: "asc" }, { sampleIndex: "asc" }] });
  return {
    ...summaryOf(row, items),
    items: items.map((item) => ({
      id: item.id,
      key: item.key,
      turnKey: item.turnKey,
      judge: item.judge,
      sampleIndex: item.sampleIndex,
      firstShown: item.firstShown === "baseline" ? "baseline" : "candidate",
      candidateAnswer: item.candidateAnswer,
      baselineAnswer: item.baselineAnswer,
      verdicts: parseList<Asking>(item.verdicts),
      outcome: item.outcome as PairOutcome | null,
      consistent: item.consistent,
      reran: item.reran,
      longer: item.longer as Side | "equal",
      error: item.error,
    })),
  };
}

/**
 * A run's pairwise outcomes per turn from its latest comparison with judged items, seen from the run's side: what a
 * rubric's `pairwise` criterion reads. Empty when the run was never compared.
 */
export async function pairwiseCountsByTurn(db: Database, runId: string): Promise<{ comparisonId: string; byTurn: Map<string, PairwiseCounts> } | null> {
  const latest = await db.pairwiseComparison.findFirst({
    where: { OR: [{ candidateRunId: runId }, { baselineRunId: runId }], items: { some: { outcome: { not: null } } } },
    orderBy: { createdAt: "desc" },
    select: { id: true, candidateRunId: true },
  });
  if (!latest) return null;
  const asCandidate = latest.candidateRunId === runId;
  const items = await db.pairwiseItem.findMany({ where: { comparisonId: latest.id, outcome: { not: null } }, select: { turnKey: true, outcome: true } });
  const byTurn = new Map<string, PairwiseCounts>();
  for (const item of items) {
    const counts = byTurn.get(item.turnKey) ?? { wins: 0, losses: 0, ties: 0 };
    if (item.outcome === "tie") counts.ties += 1;
    else if ((item.outcome === "candidate") === asCandidate) counts.wins += 1;
    else counts.losses += 1;
    byTurn.set(item.turnKey, counts);
  }
  return { comparisonId: latest.id, byTurn };
}
