import "server-only";
// Review queues: the options of the queue form, the judge verdicts a filter matches, creating queues and listing them.
// Every queue (sampled, derived from another queue, or of judge disagreements) is written by one creation path.
import type { Database } from "../../db";
import { assertAllowed, isAllowed } from "../../authz";
import type { SessionUser } from "../../session";
import { err, ok, type Result } from "@/lib/result";
import { matchesFilter, queueFilterSchema, type QueueCandidate, type QueueFilter, type Stage } from "@/lib/review/filter";
import { annotatorProgress, hasVoted, queueProgress, type AnnotatorProgress, type QueueProgress } from "@/lib/review/ordering";
import { annotatorShortfall, defaultQueueName, type NewQueue, type ReviewMode } from "@/lib/review/queue";
import { sampleCandidates } from "@/lib/review/sampling";
import { checkAnnotators, listAnnotators, type AnnotatorOption } from "./assignments";
import { asMode, asStage, toItemState, type QueueProblem } from "./shared";

// -- options for the queue form --------------------------------------------------------------------------------------

export interface BenchmarkReviewOptions {
  id: string;
  name: string;
  models: string[];
  domains: string[];
  /** Judges with how many verdicts each, per stage. */
  judges: { stage: Stage; judge: string; count: number }[];
}

export interface ReviewOptions {
  benchmarks: BenchmarkReviewOptions[];
  annotators: AnnotatorOption[];
}

export async function listReviewOptions(db: Database, actor: SessionUser): Promise<ReviewOptions> {
  assertAllowed(actor, "manageQueues");
  const benchmarks = await db.benchmark.findMany({
    orderBy: { importedAt: "desc" },
    select: { id: true, name: true, domains: { orderBy: { position: "asc" }, select: { name: true } }, runs: { select: { model: { select: { name: true } } } } },
  });
  const judgeCounts = await db.$queryRawUnsafe<{ benchmarkId: string; stage: string; judge: string; count: number | bigint }[]>(
    `SELECT ru."benchmarkId" AS "benchmarkId", jv."stage" AS stage, jv."judge" AS judge, COUNT(*) AS count
     FROM "JudgeVerdict" jv JOIN "Response" re ON re."id" = jv."responseId" JOIN "Run" ru ON ru."id" = re."runId"
     GROUP BY ru."benchmarkId", jv."stage", jv."judge" ORDER BY jv."stage", jv."judge"`,
  );
  return {
    benchmarks: benchmarks.map((benchmark) => ({
      id: benchmark.id,
      name: benchmark.name,
      domains: benchmark.domains.map((domain) => domain.name),
      models: [...new Set(benchmark.runs.map((run) => run.model.name))].sort(),
      judges: judgeCounts
        .filter((row) => row.benchmarkId === benchmark.id)
        .map((row) => ({ stage: asStage(row.stage), judge: row.judge, count: Number(row.count) })),
    })),
    annotators: await listAnnotators(db, actor),
  };
}

// -- candidates and queue creation -----------------------------------------------------------------------------------

interface Candidate extends QueueCandidate {
  reason: string | null;
  inputFingerprint: string;
  promptFingerprint: string | null;
}

async function loadCandidates(db: Database, filter: QueueFilter): Promise<Candidate[]> {
  const rows = await db.judgeVerdict.findMany({
    where: { stage: filter.stage, response: { run: { benchmarkId: filter.benchmarkId } } },
    select: {
      id: true,
      responseId: true,
      stage: true,
      casePosition: true,
      judge: true,
      verdict: true,
      reason: true,
      inputFingerprint: true,
      promptFingerprint: true,
      sampleIndex: true,
      response: { select: { run: { select: { label: true, model: { select: { name: true } } } }, turn: { select: { key: true, task: { select: { domain: { select: { name: true } } } } } } } },
    },
  });
  const byItem = new Map<string, { judge: string; verdict: boolean }[]>();
  for (const row of rows) {
    const key = `${row.responseId}/${row.casePosition}`;
    const list = byItem.get(key);
    if (list) list.push({ judge: row.judge, verdict: row.verdict });
    else byItem.set(key, [{ judge: row.judge, verdict: row.verdict }]);
  }
  // A queue holds one verdict per judge and item: a judge asked K times is reviewed on its first sample.
  return rows.filter((row) => row.sampleIndex === 0).map((row) => ({
    judgeVerdictId: row.id,
    responseId: row.responseId,
    stage: asStage(row.stage),
    casePosition: row.casePosition,
    judge: row.judge,
    verdict: row.verdict,
    model: row.response.run.model.name,
    runLabel: row.response.run.label,
    domain: row.response.turn.task.domain.name,
    turnKey: row.response.turn.key,
    others: (byItem.get(`${row.responseId}/${row.casePosition}`) ?? []).filter((other) => other.judge !== row.judge),
    reason: row.reason,
    inputFingerprint: row.inputFingerprint,
    promptFingerprint: row.promptFingerprint,
  }));
}

/** How many stored judge verdicts a filter matches (before sampling). */
export async function countMatchingVerdicts(db: Database, actor: SessionUser, filter: QueueFilter): Promise<number> {
  assertAllowed(actor, "manageQueues");
  return (await loadCandidates(db, filter)).filter((candidate) => matchesFilter(candidate, filter)).length;
}

/** What every queue is created with, whatever its items are drawn from. */
interface QueueSettings {
  mode: ReviewMode;
  annotatorsPerItem: number;
  annotatorIds: readonly string[];
}

/** A judge verdict as a queue item copies it: the item keeps the verdict, reason and fingerprints the judge gave. */
interface DrawnItem {
  responseId: string;
  judgeVerdictId: string | null;
  stage: string;
  casePosition: number;
  judge: string;
  verdict: boolean;
  reason: string | null;
  inputFingerprint: string;
  promptFingerprint: string | null;
}

interface DrawnQueue {
  name: string;
  benchmarkId: string;
  stage: string;
  /** The filter as stored (JSON text), so the queue records how it was drawn. */
  filter: string;
  sampleSize: number;
  seed: string;
  sourceQueueId: string | null;
  items: readonly DrawnItem[];
}

/**
 * The one queue-creation path: checks the assignees (users who may annotate, at least as many as annotators per item),
 * then draws the items, then writes the queue with its items in order and its assignments in one statement. Nothing
 * is written when a check or the draw fails. Callers check the permission and that what they draw from exists.
 */
async function createQueueFrom(
  db: Database,
  actor: SessionUser,
  settings: QueueSettings,
  draw: () => Promise<Result<DrawnQueue, QueueProblem>>,
): Promise<Result<{ queueId: string; items: number }, QueueProblem>> {
  const problems = await checkAnnotators(db, actor, settings.annotatorIds);
  const shortfall = annotatorShortfall(settings.annotatorsPerItem, new Set(settings.annotatorIds).size);
  if (shortfall) problems.push({ field: "annotatorsPerItem", message: shortfall });
  if (problems.length) return err(...problems);
  const drawn = await draw();
  if (!drawn.ok) return drawn;
  const { items, ...queue } = drawn.value;
  const created = await db.reviewQueue.create({
    data: {
      ...queue,
      mode: settings.mode,
      annotatorsPerItem: settings.annotatorsPerItem,
      createdById: actor.id,
      items: {
        createMany: {
          data: items.map((item, position) => ({
            position,
            responseId: item.responseId,
            judgeVerdictId: item.judgeVerdictId,
            stage: item.stage,
            casePosition: item.casePosition,
            judge: item.judge,
            verdict: item.verdict,
            reason: item.reason,
            inputFingerprint: item.inputFingerprint,
            promptFingerprint: item.promptFingerprint,
          })),
        },
      },
      assignments: { createMany: { data: [...new Set(settings.annotatorIds)].map((userId) => ({ userId, assignedById: actor.id })) } },
    },
    select: { id: true },
  });
  return ok({ queueId: created.id, items: items.length });
}

/** A queue sampled from the stored judge verdicts a filter matches (also the judges-disagreement queue). */
export async function createQueue(db: Database, actor: SessionUser, input: NewQueue): Promise<Result<{ queueId: string; items: number }, QueueProblem>> {
  assertAllowed(actor, "manageQueues");
  const benchmark = await db.benchmark.findUnique({ where: { id: input.filter.benchmarkId }, select: { id: true } });
  if (!benchmark) return err({ field: "filter.benchmarkId", message: "that benchmark does not exist" });
  return createQueueFrom(db, actor, input, async () => {
    const matching = (await loadCandidates(db, input.filter)).filter((candidate) => matchesFilter(candidate, input.filter));
    if (matching.length === 0) return err({ field: "filter", message: "no judge verdicts match this filter" });
    const sample = sampleCandidates(matching, input.sampleSize, input.seed);
    return ok({
      name: input.name ?? defaultQueueName(input.filter, sample.length),
      benchmarkId: input.filter.benchmarkId,
      stage: input.filter.stage,
      filter: JSON.stringify(input.filter),
      sampleSize: input.sampleSize,
      seed: input.seed,
      sourceQueueId: null,
      items: sample,
    });
  });
}

/** A new queue of chosen items of an existing queue, e.g. its disagreements, re-reviewed by (other) annotators. */
export async function createDerivedQueue(
  db: Database,
  actor: SessionUser,
  input: { sourceQueueId: string; itemIds: readonly string[]; name: string | null; mode: ReviewMode; annotatorsPerItem: number; annotatorIds: readonly string[] },
): Promise<Result<{ queueId: string; items: number }, QueueProblem>> {
  assertAllowed(actor, "manageQueues");
  const source = await db.reviewQueue.findUnique({ where: { id: input.sourceQueueId } });
  if (!source) return err({ field: "sourceQueueId", message: "that queue no longer exists" });
  return createQueueFrom(db, actor, input, async () => {
    const items = await db.reviewItem.findMany({ where: { queueId: source.id, id: { in: [...input.itemIds] } }, orderBy: { position: "asc" } });
    if (items.length === 0) return err({ field: "itemIds", message: "none of the chosen items belongs to that queue" });
    return ok({
      name: input.name ?? `Re-review of ${items.length} item${items.length === 1 ? "" : "s"} from “${source.name}”`,
      benchmarkId: source.benchmarkId,
      stage: source.stage,
      filter: source.filter,
      sampleSize: items.length,
      seed: source.seed,
      sourceQueueId: source.id,
      items,
    });
  });
}

// -- queue lists ---------------------------------------------------------------------------------------------------

export interface QueueSummary {
  id: string;
  name: string;
  benchmark: string;
  stage: Stage;
  mode: ReviewMode;
  annotatorsPerItem: number;
  filter: QueueFilter | null;
  seed: string;
  sampleSize: number;
  sourceQueueId: string | null;
  createdAt: Date;
  createdBy: string | null;
  assignedToMe: boolean;
  annotators: { id: string; email: string; name: string | null; voted: number }[];
  progress: QueueProgress;
  mine: AnnotatorProgress;
}

function parseFilter(text: string): QueueFilter | null {
  try {
    const parsed = queueFilterSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function summarizeQueues(db: Database, actor: SessionUser, where: { id?: string; assignments?: { some: { userId: string } } }): Promise<QueueSummary[]> {
  const queues = await db.reviewQueue.findMany({
    where,
    orderBy: { createdAt: "desc" },
    include: {
      benchmark: { select: { name: true } },
      createdBy: { select: { email: true } },
      assignments: { orderBy: { assignedAt: "asc" }, include: { user: { select: { id: true, email: true, name: true } } } },
      items: { select: { id: true, position: true, lockedById: true, lockedUntil: true, votes: { select: { annotatorId: true } } } },
    },
  });
  return queues.map((queue) => {
    const states = queue.items.map(toItemState);
    const votesBy = (userId: string) => states.filter((state) => hasVoted(state, userId)).length;
    return {
      id: queue.id,
      name: queue.name,
      benchmark: queue.benchmark.name,
      stage: asStage(queue.stage),
      mode: asMode(queue.mode),
      annotatorsPerItem: queue.annotatorsPerItem,
      filter: parseFilter(queue.filter),
      seed: queue.seed,
      sampleSize: queue.sampleSize,
      sourceQueueId: queue.sourceQueueId,
      createdAt: queue.createdAt,
      createdBy: queue.createdBy?.email ?? null,
      assignedToMe: queue.assignments.some((assignment) => assignment.userId === actor.id),
      annotators: queue.assignments.map((assignment) => ({ ...assignment.user, voted: votesBy(assignment.user.id) })),
      progress: queueProgress(states, queue.annotatorsPerItem),
      mine: annotatorProgress(states, actor.id, queue.annotatorsPerItem),
    };
  });
}

/** The queues the actor may open: annotators their assigned ones; admins and researchers every queue. */
export async function listQueues(db: Database, actor: SessionUser): Promise<QueueSummary[]> {
  assertAllowed(actor, "annotate");
  const manager = isAllowed(actor, "manageQueues");
  return summarizeQueues(db, actor, manager ? {} : { assignments: { some: { userId: actor.id } } });
}

/** One queue, or null when it does not exist or the actor may not see it (an annotator not assigned to it). */
export async function getQueue(db: Database, actor: SessionUser, queueId: string): Promise<QueueSummary | null> {
  assertAllowed(actor, "annotate");
  const manager = isAllowed(actor, "manageQueues");
  const [queue] = await summarizeQueues(db, actor, manager ? { id: queueId } : { id: queueId, assignments: { some: { userId: actor.id } } });
  return queue ?? null;
}
