import "server-only";
// Judge-verdict review: queues sampled from stored judge verdicts, assignments, serving items under a short lock,
// votes, agreement figures and the annotation export. Each function checks the acting user's permission next to its
// query; annotators only ever reach queues they are assigned to (others read as "not found").
import { randomUUID } from "node:crypto";
import type { Database } from "../db";
import { assertAllowed, isAllowed } from "../authz";
import type { SessionUser } from "../session";
import { readTurnVariables } from "./json-columns";
import { can, isRole } from "@/lib/auth/roles";
import { err, ok, type Result } from "@/lib/result";
import {
  agreementByStage,
  agreementReport,
  compareJudgePairs,
  type AgreementReport,
  type JudgePairComparison,
  type ReviewedItem,
  type StageAgreement,
} from "@/lib/review/agreement-view";
import type { AnnotationRow } from "@/lib/review/export";
import { matchesFilter, queueFilterSchema, type QueueCandidate, type QueueFilter, type Stage } from "@/lib/review/filter";
import {
  fileInputNames,
  passJudgeSections,
  resolveJudgeSections,
  testInputsSchema,
  type JudgeInputSection,
} from "@/lib/review/judge-inputs";
import {
  annotatorProgress,
  hasVoted,
  isLockedByOther,
  isOpenFor,
  lockExpiry,
  nextItem,
  previousItem,
  queueProgress,
  resumeItem,
  type AnnotatorProgress,
  type ItemState,
  type QueueProgress,
} from "@/lib/review/ordering";
import { annotatorShortfall, defaultQueueName, type NewQueue, type ReviewMode } from "@/lib/review/queue";
import { sampleCandidates } from "@/lib/review/sampling";
import { annotatorVerdict, isFollowedRules, judgeCorrectness, type FollowedRules, type JudgeCorrectness, type ParsedVote } from "@/lib/review/votes";

// -- shared helpers --------------------------------------------------------------------------------------------------

function asStage(value: string): Stage {
  return value === "resolve" ? "resolve" : "pass";
}

function asMode(value: string): ReviewMode {
  return value === "reveal" ? "reveal" : "blind";
}

function itemLabel(item: { model: string; task: string; round: number; stage: string; casePosition: number }): string {
  return `${item.model} · ${item.task} round ${item.round}${item.stage === "resolve" ? ` · case ${item.casePosition}` : ""}`;
}

function verdictKey(item: { responseId: string; stage: string; casePosition: number; judge: string }): string {
  return `${item.responseId}/${item.stage}/${item.casePosition}/${item.judge}`;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

async function isAssigned(db: Database, queueId: string, userId: string): Promise<boolean> {
  return (await db.reviewAssignment.count({ where: { queueId, userId } })) > 0;
}

async function itemStates(db: Database, queueId: string): Promise<ItemState[]> {
  const items = await db.reviewItem.findMany({
    where: { queueId },
    select: { id: true, position: true, lockedById: true, lockedUntil: true, votes: { select: { annotatorId: true } } },
    orderBy: { position: "asc" },
  });
  return items.map((item) => ({
    id: item.id,
    position: item.position,
    voters: item.votes.map((vote) => vote.annotatorId),
    lockedBy: item.lockedById,
    lockedUntil: item.lockedUntil,
  }));
}

// -- options for the queue form --------------------------------------------------------------------------------------

export interface AnnotatorOption {
  id: string;
  email: string;
  name: string | null;
  role: string;
}

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

/** Users who may vote: the only ones a queue can be assigned to. */
export async function listAnnotators(db: Database, actor: SessionUser): Promise<AnnotatorOption[]> {
  assertAllowed(actor, "manageQueues");
  const users = await db.user.findMany({ orderBy: { email: "asc" }, select: { id: true, email: true, name: true, role: true } });
  return users.filter((user) => isRole(user.role) && can(user.role, "annotate"));
}

export async function listReviewOptions(db: Database, actor: SessionUser): Promise<ReviewOptions> {
  assertAllowed(actor, "manageQueues");
  const benchmarks = await db.benchmark.findMany({
    orderBy: { importedAt: "desc" },
    select: { id: true, name: true, domains: { orderBy: { position: "asc" }, select: { name: true } }, runs: { select: { model: { select: { name: true } } } } },
  });
  const judgeCounts = await db.$queryRawUnsafe<{ benchmarkId: string; stage: string; judge: string; count: number | bigint }[]>(
    `SELECT ru."benchmarkId" AS benchmarkId, jv."stage" AS stage, jv."judge" AS judge, COUNT(*) AS count
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

export type QueueProblem = { field: string; message: string };

async function checkAnnotators(db: Database, actor: SessionUser, userIds: readonly string[]): Promise<QueueProblem[]> {
  if (userIds.length === 0) return [];
  const allowed = new Set((await listAnnotators(db, actor)).map((user) => user.id));
  const unknown = userIds.filter((id) => !allowed.has(id));
  return unknown.length ? [{ field: "annotatorIds", message: `${unknown.length} of the chosen users cannot annotate or do not exist` }] : [];
}

export async function createQueue(db: Database, actor: SessionUser, input: NewQueue): Promise<Result<{ queueId: string; items: number }, QueueProblem>> {
  assertAllowed(actor, "manageQueues");
  const benchmark = await db.benchmark.findUnique({ where: { id: input.filter.benchmarkId }, select: { id: true } });
  if (!benchmark) return err({ field: "filter.benchmarkId", message: "that benchmark does not exist" });
  const problems = await checkAnnotators(db, actor, input.annotatorIds);
  const shortfall = annotatorShortfall(input.annotatorsPerItem, new Set(input.annotatorIds).size);
  if (shortfall) problems.push({ field: "annotatorsPerItem", message: shortfall });
  if (problems.length) return err(...problems);
  const matching = (await loadCandidates(db, input.filter)).filter((candidate) => matchesFilter(candidate, input.filter));
  if (matching.length === 0) return err({ field: "filter", message: "no judge verdicts match this filter" });
  const sample = sampleCandidates(matching, input.sampleSize, input.seed);
  const queue = await db.reviewQueue.create({
    data: {
      name: input.name ?? defaultQueueName(input.filter, sample.length),
      benchmarkId: input.filter.benchmarkId,
      stage: input.filter.stage,
      mode: input.mode,
      annotatorsPerItem: input.annotatorsPerItem,
      filter: JSON.stringify(input.filter),
      sampleSize: input.sampleSize,
      seed: input.seed,
      createdById: actor.id,
      items: {
        createMany: {
          data: sample.map((candidate, position) => ({
            position,
            responseId: candidate.responseId,
            judgeVerdictId: candidate.judgeVerdictId,
            stage: candidate.stage,
            casePosition: candidate.casePosition,
            judge: candidate.judge,
            verdict: candidate.verdict,
            reason: candidate.reason,
            inputFingerprint: candidate.inputFingerprint,
            promptFingerprint: candidate.promptFingerprint,
          })),
        },
      },
      assignments: { createMany: { data: [...new Set(input.annotatorIds)].map((userId) => ({ userId, assignedById: actor.id })) } },
    },
    select: { id: true },
  });
  return ok({ queueId: queue.id, items: sample.length });
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
  const problems = await checkAnnotators(db, actor, input.annotatorIds);
  const shortfall = annotatorShortfall(input.annotatorsPerItem, new Set(input.annotatorIds).size);
  if (shortfall) problems.push({ field: "annotatorsPerItem", message: shortfall });
  if (problems.length) return err(...problems);
  const items = await db.reviewItem.findMany({ where: { queueId: source.id, id: { in: [...input.itemIds] } }, orderBy: { position: "asc" } });
  if (items.length === 0) return err({ field: "itemIds", message: "none of the chosen items belongs to that queue" });
  const queue = await db.reviewQueue.create({
    data: {
      name: input.name ?? `Re-review of ${items.length} item${items.length === 1 ? "" : "s"} from “${source.name}”`,
      benchmarkId: source.benchmarkId,
      stage: source.stage,
      mode: input.mode,
      annotatorsPerItem: input.annotatorsPerItem,
      filter: source.filter,
      sampleSize: items.length,
      seed: source.seed,
      sourceQueueId: source.id,
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
      assignments: { createMany: { data: [...new Set(input.annotatorIds)].map((userId) => ({ userId, assignedById: actor.id })) } },
    },
    select: { id: true },
  });
  return ok({ queueId: queue.id, items: items.length });
}

// -- assignments ---------------------------------------------------------------------------------------------------

export async function assignAnnotators(db: Database, actor: SessionUser, queueId: string, userIds: readonly string[]): Promise<Result<{ assigned: number }, QueueProblem>> {
  assertAllowed(actor, "manageQueues");
  if (!(await db.reviewQueue.findUnique({ where: { id: queueId }, select: { id: true } }))) return err({ field: "queueId", message: "that queue does not exist" });
  const problems = await checkAnnotators(db, actor, userIds);
  if (problems.length) return err(...problems);
  let assigned = 0;
  for (const userId of new Set(userIds)) {
    // Upsert on the (queue, user) unique key: assigning twice, or from two sessions at once, is one assignment.
    const before = await db.reviewAssignment.count({ where: { queueId, userId } });
    await db.reviewAssignment.upsert({ where: { queueId_userId: { queueId, userId } }, create: { queueId, userId, assignedById: actor.id }, update: {} }).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
    });
    if (before === 0) assigned += 1;
  }
  return ok({ assigned });
}

/** Removes an annotator from a queue. Their votes stay: they were cast and count in the figures. */
export async function unassignAnnotator(db: Database, actor: SessionUser, queueId: string, userId: string): Promise<boolean> {
  assertAllowed(actor, "manageQueues");
  const removed = await db.reviewAssignment.deleteMany({ where: { queueId, userId } });
  await releaseOtherLocks(db, queueId, userId, null);
  return removed.count > 0;
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
    const states: ItemState[] = queue.items.map((item) => ({
      id: item.id,
      position: item.position,
      voters: item.votes.map((vote) => vote.annotatorId),
      lockedBy: item.lockedById,
      lockedUntil: item.lockedUntil,
    }));
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

// -- serving items ---------------------------------------------------------------------------------------------------

export interface MyVote {
  pass: boolean;
  judgeCorrect: JudgeCorrectness;
  followedRules: FollowedRules | null;
  comment: string | null;
  judgeVisible: boolean;
  updatedAt: string;
}

export interface ReviewItemView {
  id: string;
  queueId: string;
  position: number;
  stage: Stage;
  judgeName: string;
  casePosition: number;
  model: { name: string; displayName: string };
  runLabel: string;
  task: string;
  domain: string;
  round: number;
  turnKey: string;
  sections: JudgeInputSection[];
  /** Inputs the resolve judge did not see because they are files. */
  fileInputs: string[];
  /** The raw workflow text of the response (the pass-stage judge's input; context for the resolve stage). */
  workflow: string | null;
  inputFingerprint: string;
  promptFingerprint: string | null;
  /** Null while hidden (blind mode, before this annotator's vote). */
  judge: { verdict: boolean; reason: string | null } | null;
  myVote: MyVote | null;
  /** Until when this annotator holds the item; null for items they already voted on. */
  lockedUntil: string | null;
}

export type ClaimRequest =
  | { kind: "resume" }
  | { kind: "item"; itemId: string }
  | { kind: "next"; fromPosition: number }
  | { kind: "back"; fromPosition: number | null };

export type ClaimOutcome =
  | { kind: "item"; item: ReviewItemView; progress: AnnotatorProgress; queue: QueueProgress; hasBack: boolean }
  | { kind: "done"; progress: AnnotatorProgress; queue: QueueProgress; hasBack: boolean }
  /** Nothing to serve right now, but items are left: other annotators hold them. Try again shortly. */
  | { kind: "waiting"; progress: AnnotatorProgress; queue: QueueProgress; hasBack: boolean }
  | { kind: "unavailable"; reason: "locked" | "full" | "missing"; progress: AnnotatorProgress; queue: QueueProgress; hasBack: boolean }
  | { kind: "none"; progress: AnnotatorProgress; queue: QueueProgress; hasBack: boolean };

function toMyVote(vote: { annotatorPass: boolean; verdict: string; followedRules: string | null; comment: string | null; judgeVisible: boolean; updatedAt: Date }): MyVote {
  return {
    pass: vote.annotatorPass,
    judgeCorrect: vote.verdict === "incorrect" ? "incorrect" : "correct",
    followedRules: isFollowedRules(vote.followedRules) ? vote.followedRules : null,
    comment: vote.comment,
    judgeVisible: vote.judgeVisible,
    updatedAt: vote.updatedAt.toISOString(),
  };
}

async function loadItemView(db: Database, itemId: string, annotatorId: string, mode: ReviewMode, revealAll = false): Promise<ReviewItemView | null> {
  const item = await db.reviewItem.findUnique({
    where: { id: itemId },
    include: {
      votes: { where: { annotatorId } },
      response: {
        include: {
          run: { include: { model: { select: { name: true, displayName: true } } } },
          turn: { include: { task: { include: { domain: { select: { name: true } } } }, testCases: true } },
          caseResults: true,
        },
      },
    },
  });
  if (!item) return null;
  const { response } = item;
  const turn = response.turn;
  let sections: JudgeInputSection[];
  let fileInputs: string[] = [];
  if (item.stage === "resolve") {
    const turns = await db.turn.findMany({ where: { taskId: turn.taskId, round: { lte: turn.round } }, orderBy: { round: "asc" }, select: { instruction: true } });
    const test = turn.testCases.find((candidate) => candidate.position === item.casePosition);
    const parsedInputs = testInputsSchema.safeParse(test ? JSON.parse(test.inputs) : {});
    const inputs = parsedInputs.success ? parsedInputs.data : {};
    fileInputs = fileInputNames(inputs);
    sections = resolveJudgeSections({
      queries: turns.map((entry) => entry.instruction),
      round: turn.round,
      inputs,
      outputs: response.caseResults.find((result) => result.position === item.casePosition)?.outputs ?? null,
      groundTruth: test?.groundTruth ?? null,
    });
  } else {
    sections = passJudgeSections({
      nodeSelection: response.nodeSelection,
      designPrinciple: response.designPrinciple,
      workflow: response.workflow,
      keyNodes: readTurnVariables(turn).keyNodes,
    });
  }
  const vote = item.votes[0];
  const visible = revealAll || mode === "reveal" || vote !== undefined;
  return {
    id: item.id,
    queueId: item.queueId,
    position: item.position,
    stage: asStage(item.stage),
    judgeName: item.judge,
    casePosition: item.casePosition,
    model: response.run.model,
    runLabel: response.run.label,
    task: turn.task.name,
    domain: turn.task.domain.name,
    round: turn.round,
    turnKey: turn.key,
    sections,
    fileInputs,
    workflow: response.workflow,
    inputFingerprint: item.inputFingerprint,
    promptFingerprint: item.promptFingerprint,
    judge: visible ? { verdict: item.verdict, reason: item.reason } : null,
    myVote: vote ? toMyVote(vote) : null,
    lockedUntil: vote === undefined && item.lockedById === annotatorId && item.lockedUntil ? item.lockedUntil.toISOString() : null,
  };
}

function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2025";
}

// Lock writes use single-row `update` with a condition: one autocommit statement, so the check and the write are
// atomic and no transaction stays open across an await (updateMany runs inside one here).

/** Takes the item's lock for the annotator unless someone else holds a live one. */
async function tryLock(db: Database, item: ItemState, annotatorId: string, now: Date): Promise<boolean> {
  try {
    await db.reviewItem.update({
      where: { id: item.id, OR: [{ lockedById: null }, { lockedById: annotatorId }, { lockedUntil: null }, { lockedUntil: { lte: now } }] },
      data: { lockedById: annotatorId, lockedUntil: lockExpiry(now) },
      select: { id: true },
    });
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** Clears the annotator's lock on the item, if they still hold it. */
async function releaseLock(db: Database, itemId: string, annotatorId: string): Promise<void> {
  try {
    await db.reviewItem.update({ where: { id: itemId, lockedById: annotatorId }, data: { lockedById: null, lockedUntil: null }, select: { id: true } });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

async function releaseOtherLocks(db: Database, queueId: string, annotatorId: string, keepItemId: string | null): Promise<void> {
  const held = await db.reviewItem.findMany({
    where: { queueId, lockedById: annotatorId, ...(keepItemId ? { id: { not: keepItemId } } : {}) },
    select: { id: true },
  });
  for (const item of held) await releaseLock(db, item.id, annotatorId);
}

/**
 * Serves an item to an assigned annotator: resume where they left off, a given item, or the next / previous one.
 * An item they have not voted on is locked for them for two minutes first; if another annotator takes it in the
 * meantime, the next candidate is tried. Null when the queue is not theirs.
 */
export async function claimReviewItem(db: Database, actor: SessionUser, queueId: string, request: ClaimRequest, now: Date = new Date()): Promise<ClaimOutcome | null> {
  assertAllowed(actor, "annotate");
  const queue = await db.reviewQueue.findUnique({ where: { id: queueId }, select: { mode: true, annotatorsPerItem: true } });
  if (!queue || !(await isAssigned(db, queueId, actor.id))) return null;
  const mode = asMode(queue.mode);
  const k = queue.annotatorsPerItem;

  for (let attempt = 0; attempt < 8; attempt++) {
    const states = await itemStates(db, queueId);
    const context = (position: number | null) => ({
      progress: annotatorProgress(states, actor.id, k),
      queue: queueProgress(states, k),
      hasBack: previousItem(states, actor.id, position) !== null,
    });
    let target: ItemState | null;
    if (request.kind === "resume") target = resumeItem(states, actor.id, k, now);
    else if (request.kind === "next") target = nextItem(states, actor.id, k, now, request.fromPosition);
    else if (request.kind === "back") target = previousItem(states, actor.id, request.fromPosition);
    else target = states.find((state) => state.id === request.itemId) ?? null;

    if (!target) {
      if (request.kind === "item") return { kind: "unavailable", reason: "missing", ...context(null) };
      if (request.kind === "back") return { kind: "none", ...context(request.fromPosition) };
      await releaseOtherLocks(db, queueId, actor.id, null);
      const summary = context(null);
      return { kind: summary.progress.remaining > 0 ? "waiting" : "done", ...summary };
    }
    if (!hasVoted(target, actor.id)) {
      if (!isOpenFor(target, actor.id, k)) return { kind: "unavailable", reason: "full", ...context(target.position) };
      if (isLockedByOther(target, actor.id, now) || !(await tryLock(db, target, actor.id, now))) {
        if (request.kind === "item") return { kind: "unavailable", reason: "locked", ...context(target.position) };
        continue; // someone took it between reading and locking: look again
      }
      await releaseOtherLocks(db, queueId, actor.id, target.id);
    }
    const item = await loadItemView(db, target.id, actor.id, mode);
    if (!item) continue;
    return { kind: "item", item, ...context(target.position) };
  }
  return { kind: "waiting", ...(await progressContext(db, queueId, actor.id, k)) };
}

/**
 * Extends the actor's lock on an item they have open, so an annotator who takes longer than two minutes keeps it.
 * Returns the new expiry, or null when the lock is no longer theirs (another annotator was served the item after it
 * lapsed, or the item was voted on or released meanwhile). A single conditional update, like the other lock writes.
 */
export async function renewReviewLock(db: Database, actor: SessionUser, itemId: string, now: Date = new Date()): Promise<Date | null> {
  assertAllowed(actor, "annotate");
  const lockedUntil = lockExpiry(now);
  const renewed = await db.reviewItem.updateMany({ where: { id: itemId, lockedById: actor.id }, data: { lockedUntil } });
  return renewed.count === 1 ? lockedUntil : null;
}

async function progressContext(db: Database, queueId: string, annotatorId: string, k: number) {
  const states = await itemStates(db, queueId);
  return { progress: annotatorProgress(states, annotatorId, k), queue: queueProgress(states, k), hasBack: previousItem(states, annotatorId, null) !== null };
}

// -- votes ---------------------------------------------------------------------------------------------------------

export type VoteProblem = "not-found" | "blind-needs-own-verdict" | "lock-lost" | "item-full";

export interface VoteOutcome {
  vote: MyVote;
  item: { id: string; position: number };
  /** The judge's verdict and reason, revealed now that the annotator has voted. */
  judge: { verdict: boolean; reason: string | null };
  progress: AnnotatorProgress;
  queue: QueueProgress;
}

/** The adapter's DateTime text (ISO 8601 with +00:00): fixed width, so SQL compares it in time order. */
function sqliteTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

/**
 * A first vote on an item, written only while the voter holds a live lock on it and the item has fewer than `limit`
 * votes: one INSERT … SELECT … WHERE statement, so the lock, the per-item limit and the write are checked and done
 * atomically (the adapter shares one connection, so no interactive transaction is held across awaits).
 */
async function insertFirstVote(
  db: Database,
  itemId: string,
  annotatorId: string,
  limit: number,
  now: Date,
  data: { annotatorPass: boolean; verdict: string; followedRules: string | null; comment: string | null | undefined; judgeVisible: boolean },
): Promise<boolean> {
  const at = sqliteTime(now);
  const inserted = await db.$executeRawUnsafe(
    `INSERT INTO "ReviewVote" ("id", "itemId", "annotatorId", "annotatorPass", "verdict", "followedRules", "comment", "judgeVisible", "createdAt", "updatedAt")
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     WHERE EXISTS (SELECT 1 FROM "ReviewItem" WHERE "id" = ? AND "lockedById" = ? AND "lockedUntil" > ?)
       AND (SELECT COUNT(*) FROM "ReviewVote" WHERE "itemId" = ?) < ?
     ON CONFLICT ("itemId", "annotatorId") DO NOTHING`,
    `v${randomUUID().replace(/-/g, "")}`,
    itemId,
    annotatorId,
    data.annotatorPass ? 1 : 0,
    data.verdict,
    data.followedRules,
    data.comment ?? null,
    data.judgeVisible ? 1 : 0,
    at,
    at,
    itemId,
    annotatorId,
    at,
    itemId,
    limit,
  );
  return inserted === 1;
}

/**
 * Records the annotator's vote. A first vote needs the annotator's live lock on the item (a stale tab whose lock
 * went to someone else is refused) and a free place under the queue's annotators-per-item limit; changing one's own
 * existing vote needs neither. A refused vote writes nothing.
 */
export async function submitReviewVote(db: Database, actor: SessionUser, vote: ParsedVote, now: Date = new Date()): Promise<Result<VoteOutcome, VoteProblem>> {
  assertAllowed(actor, "annotate");
  const item = await db.reviewItem.findUnique({
    where: { id: vote.itemId },
    select: { id: true, queueId: true, position: true, verdict: true, reason: true, queue: { select: { mode: true, annotatorsPerItem: true } } },
  });
  if (!item || !(await isAssigned(db, item.queueId, actor.id))) return err("not-found");
  const mode = asMode(item.queue.mode);
  const key = { itemId_annotatorId: { itemId: item.id, annotatorId: actor.id } };
  let existing = await db.reviewVote.findUnique({ where: key });
  // Before a blind vote the annotator has not seen the judge's verdict, so "the judge was correct" means nothing yet.
  if (mode === "blind" && !existing && vote.pass === undefined) return err("blind-needs-own-verdict");
  const pass = annotatorVerdict(vote, item.verdict);
  const dataFor = (previous: typeof existing) => ({
    annotatorPass: pass,
    verdict: judgeCorrectness(pass, item.verdict),
    followedRules: vote.followedRules ?? (isFollowedRules(previous?.followedRules) ? previous.followedRules : null),
    comment: vote.comment,
    judgeVisible: mode === "reveal" ? true : previous ? previous.judgeVisible || previous.annotatorPass !== pass : false,
  });
  let saved;
  if (!existing) {
    if (await insertFirstVote(db, item.id, actor.id, item.queue.annotatorsPerItem, now, dataFor(null))) {
      saved = await db.reviewVote.findUniqueOrThrow({ where: key });
    } else {
      // Another session of this annotator may have inserted first: then this is a change of that vote.
      existing = await db.reviewVote.findUnique({ where: key });
      if (!existing) {
        const votes = await db.reviewVote.count({ where: { itemId: item.id } });
        return err(votes >= item.queue.annotatorsPerItem ? "item-full" : "lock-lost");
      }
    }
  }
  if (!saved) saved = await db.reviewVote.update({ where: key, data: dataFor(existing) });
  await releaseLock(db, item.id, actor.id);
  const states = await itemStates(db, item.queueId);
  return ok({
    vote: toMyVote(saved),
    item: { id: item.id, position: item.position },
    judge: { verdict: item.verdict, reason: item.reason },
    progress: annotatorProgress(states, actor.id, item.queue.annotatorsPerItem),
    queue: queueProgress(states, item.queue.annotatorsPerItem),
  });
}

// -- agreement -----------------------------------------------------------------------------------------------------

interface LoadedItem extends ReviewedItem {
  queueId: string;
  position: number;
  task: string;
  round: number;
  casePosition: number;
  runLabel: string;
  reason: string | null;
  inputFingerprint: string;
  promptFingerprint: string | null;
  voteRows: { annotator: string; pass: boolean; verdict: string; followedRules: string | null; comment: string | null; judgeVisible: boolean; createdAt: Date; updatedAt: Date }[];
}

async function loadReviewedItems(db: Database, where: { queueId?: string; id?: string; queue?: { benchmarkId?: string }; stage?: string }): Promise<LoadedItem[]> {
  const items = await db.reviewItem.findMany({
    where,
    orderBy: [{ queueId: "asc" }, { position: "asc" }],
    include: {
      queue: { select: { annotatorsPerItem: true } },
      votes: { orderBy: { createdAt: "asc" }, include: { annotator: { select: { email: true } } } },
      response: { select: { run: { select: { label: true, model: { select: { name: true } } } }, turn: { select: { round: true, task: { select: { name: true } } } } } },
    },
  });
  return items.map((item) => {
    const model = item.response.run.model.name;
    const task = item.response.turn.task.name;
    const round = item.response.turn.round;
    const voteRows = item.votes.map((vote) => ({
      annotator: vote.annotator.email,
      pass: vote.annotatorPass,
      verdict: vote.verdict,
      followedRules: vote.followedRules,
      comment: vote.comment,
      judgeVisible: vote.judgeVisible,
      createdAt: vote.createdAt,
      updatedAt: vote.updatedAt,
    }));
    return {
      id: item.id,
      verdictKey: verdictKey(item),
      label: itemLabel({ model, task, round, stage: item.stage, casePosition: item.casePosition }),
      stage: item.stage,
      judge: item.judge,
      model,
      judgeVerdict: item.verdict,
      required: item.queue.annotatorsPerItem,
      votes: voteRows.map((vote) => ({
        annotator: vote.annotator,
        pass: vote.pass,
        followedRules: isFollowedRules(vote.followedRules) ? vote.followedRules : null,
        comment: vote.comment,
        updatedAt: vote.updatedAt,
      })),
      queueId: item.queueId,
      position: item.position,
      task,
      round,
      casePosition: item.casePosition,
      runLabel: item.response.run.label,
      reason: item.reason,
      inputFingerprint: item.inputFingerprint,
      promptFingerprint: item.promptFingerprint,
      voteRows,
    };
  });
}

export interface QueueAgreement {
  queue: QueueSummary;
  report: AgreementReport;
}

export async function getQueueAgreement(db: Database, actor: SessionUser, queueId: string): Promise<QueueAgreement | null> {
  assertAllowed(actor, "manageQueues");
  const queue = await getQueue(db, actor, queueId);
  if (!queue) return null;
  return { queue, report: agreementReport(await loadReviewedItems(db, { queueId })) };
}

export interface AgreementOverview {
  stages: StageAgreement[];
  queues: { queue: QueueSummary; report: AgreementReport }[];
  judgePairs: { benchmark: { id: string; name: string }; comparisons: JudgePairComparison[] }[];
}

/** Pooled agreement, optionally of one benchmark's queues and one stage (so demo and real reviews never mix). */
export async function getAgreementOverview(db: Database, actor: SessionUser, scope: { benchmarkId?: string | null; stage?: string | null } = {}): Promise<AgreementOverview> {
  assertAllowed(actor, "manageQueues");
  const where = { ...(scope.benchmarkId ? { queue: { benchmarkId: scope.benchmarkId } } : {}), ...(scope.stage ? { stage: scope.stage } : {}) };
  const [allQueues, items, inScope] = await Promise.all([
    listQueues(db, actor),
    loadReviewedItems(db, where),
    db.reviewQueue.findMany({ where: { ...(scope.benchmarkId ? { benchmarkId: scope.benchmarkId } : {}), ...(scope.stage ? { stage: scope.stage } : {}) }, select: { id: true } }),
  ]);
  const scopedIds = new Set(inScope.map((queue) => queue.id));
  const queues = allQueues.filter((queue) => scopedIds.has(queue.id));
  const byQueue = new Map<string, LoadedItem[]>();
  for (const item of items) {
    const list = byQueue.get(item.queueId);
    if (list) list.push(item);
    else byQueue.set(item.queueId, [item]);
  }
  return {
    stages: agreementByStage(items),
    queues: queues.map((queue) => ({ queue, report: agreementReport(byQueue.get(queue.id) ?? []) })),
    judgePairs: (await judgePairsByBenchmark(db)).filter((entry) => !scope.benchmarkId || entry.benchmark.id === scope.benchmarkId),
  };
}

async function judgePairsByBenchmark(db: Database): Promise<AgreementOverview["judgePairs"]> {
  const rows = await db.judgeVerdict.findMany({
    select: {
      responseId: true,
      stage: true,
      casePosition: true,
      judge: true,
      verdict: true,
      response: { select: { run: { select: { benchmark: { select: { id: true, name: true } }, model: { select: { name: true } } } }, turn: { select: { round: true, task: { select: { name: true } } } } } },
    },
  });
  const byBenchmark = new Map<string, { benchmark: { id: string; name: string }; rows: Parameters<typeof compareJudgePairs>[0][number][] }>();
  for (const row of rows) {
    const benchmark = row.response.run.benchmark;
    const model = row.response.run.model.name;
    const entry = byBenchmark.get(benchmark.id) ?? { benchmark, rows: [] };
    entry.rows.push({
      itemKey: `${row.responseId}/${row.stage}/${row.casePosition}`,
      label: itemLabel({ model, task: row.response.turn.task.name, round: row.response.turn.round, stage: row.stage, casePosition: row.casePosition }),
      stage: row.stage,
      model,
      judge: row.judge,
      verdict: row.verdict,
    });
    byBenchmark.set(benchmark.id, entry);
  }
  return [...byBenchmark.values()]
    .map((entry) => ({ benchmark: entry.benchmark, comparisons: compareJudgePairs(entry.rows) }))
    .sort((a, b) => a.benchmark.name.localeCompare(b.benchmark.name));
}

// -- item detail for managers ----------------------------------------------------------------------------------------

export interface ItemDetail {
  queue: QueueSummary;
  item: ReviewItemView;
  votes: LoadedItem["voteRows"];
  previousId: string | null;
  nextId: string | null;
}

/** A queue item with the judge's verdict and every vote, for admins and researchers (linked from the agreement). */
export async function getItemDetail(db: Database, actor: SessionUser, queueId: string, itemId: string): Promise<ItemDetail | null> {
  assertAllowed(actor, "manageQueues");
  const queue = await getQueue(db, actor, queueId);
  if (!queue) return null;
  const belongs = await db.reviewItem.findFirst({ where: { id: itemId, queueId }, select: { position: true } });
  if (!belongs) return null;
  const item = await loadItemView(db, itemId, actor.id, queue.mode, true);
  if (!item) return null;
  const [loaded] = await loadReviewedItems(db, { queueId, id: itemId });
  const [previous, next] = await Promise.all([
    db.reviewItem.findFirst({ where: { queueId, position: { lt: belongs.position } }, orderBy: { position: "desc" }, select: { id: true } }),
    db.reviewItem.findFirst({ where: { queueId, position: { gt: belongs.position } }, orderBy: { position: "asc" }, select: { id: true } }),
  ]);
  return { queue, item, votes: loaded?.voteRows ?? [], previousId: previous?.id ?? null, nextId: next?.id ?? null };
}

// -- export --------------------------------------------------------------------------------------------------------

/** Every vote (of one queue, or of all queues) with the judge verdict it concerns and its fingerprints. */
export async function listAnnotationRows(db: Database, actor: SessionUser, queueId: string | null): Promise<{ rows: AnnotationRow[]; scope: string } | null> {
  assertAllowed(actor, "manageQueues");
  const queues = await db.reviewQueue.findMany({ where: queueId ? { id: queueId } : {}, select: { id: true, name: true, mode: true } });
  if (queueId && queues.length === 0) return null;
  const byId = new Map(queues.map((queue) => [queue.id, queue]));
  const items = await loadReviewedItems(db, queueId ? { queueId } : {});
  // An exporter who is also an annotator of a blind queue does not learn its verdicts before voting on them.
  const hiddenItems = new Set(
    (
      await db.reviewItem.findMany({
        where: { queue: { mode: "blind", assignments: { some: { userId: actor.id } } }, votes: { none: { annotatorId: actor.id } } },
        select: { id: true },
      })
    ).map((item) => item.id),
  );
  const rows: AnnotationRow[] = [];
  for (const item of items) {
    const queue = byId.get(item.queueId);
    if (!queue || hiddenItems.has(item.id)) continue;
    for (const vote of item.voteRows) {
      rows.push({
        queueId: queue.id,
        queueName: queue.name,
        mode: queue.mode,
        itemId: item.id,
        position: item.position,
        stage: item.stage,
        judge: item.judge,
        model: item.model,
        run: item.runLabel,
        task: item.task,
        round: item.round,
        casePosition: item.casePosition,
        judgeVerdict: item.judgeVerdict ? "pass" : "fail",
        judgeReason: item.reason,
        inputFingerprint: item.inputFingerprint,
        promptFingerprint: item.promptFingerprint,
        annotator: vote.annotator,
        annotatorVerdict: vote.pass ? "pass" : "fail",
        judgeCorrect: vote.verdict === "incorrect" ? "incorrect" : "correct",
        followedRules: vote.followedRules,
        comment: vote.comment,
        judgeVisibleWhenVoting: vote.judgeVisible,
        votedAt: vote.createdAt.toISOString(),
        updatedAt: vote.updatedAt.toISOString(),
      });
    }
  }
  return { rows, scope: queueId ? (queues[0]?.name ?? "queue") : "all queues" };
}

// -- blind review: what an annotator may not see yet -------------------------------------------------------------

/**
 * Responses whose judge verdicts and reasons `actor` must not see yet: they are items of a blind queue assigned to
 * the actor that the actor has not voted on. Pages, exports and APIs showing verdicts leave these out.
 */
export async function blindPendingResponseIds(db: Database, actor: SessionUser | null, responseIds?: readonly string[]): Promise<Set<string>> {
  if (!actor || !can(actor.role, "annotate")) return new Set();
  const items = await db.reviewItem.findMany({
    where: {
      queue: { mode: "blind", assignments: { some: { userId: actor.id } } },
      votes: { none: { annotatorId: actor.id } },
      ...(responseIds ? { responseId: { in: [...responseIds] } } : {}),
    },
    select: { responseId: true },
  });
  return new Set(items.map((item) => item.responseId));
}

/** How many votes the review items of a run hold, and in how many queues (deleting the run would delete them). */
export async function countRunVotes(db: Database, runId: string): Promise<{ votes: number; queues: number }> {
  const [votes, queues] = await Promise.all([
    db.reviewVote.count({ where: { item: { response: { runId } } } }),
    db.reviewQueue.count({ where: { items: { some: { response: { runId } } } } }),
  ]);
  return { votes, queues };
}
