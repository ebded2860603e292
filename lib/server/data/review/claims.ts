import "server-only";
// Serving review items to assigned annotators: resume, a chosen item, next or back, each unvoted item under a short
// lock taken and released with single conditional writes, so two annotators are never served the same open place.
import type { Database } from "../../db";
import { assertAllowed } from "../../authz";
import type { SessionUser } from "../../session";
import { readTurnVariables } from "../json-columns";
import type { Stage } from "@/lib/review/filter";
import { fileInputNames, passJudgeSections, resolveJudgeSections, testInputsSchema, type JudgeInputSection } from "@/lib/review/judge-inputs";
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
import type { ReviewMode } from "@/lib/review/queue";
import { isFollowedRules, type FollowedRules, type JudgeCorrectness } from "@/lib/review/votes";
import { asMode, asStage, isAssigned, isNotFound, itemStates } from "./shared";

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

export function toMyVote(vote: { annotatorPass: boolean; verdict: string; followedRules: string | null; comment: string | null; judgeVisible: boolean; updatedAt: Date }): MyVote {
  return {
    pass: vote.annotatorPass,
    judgeCorrect: vote.verdict === "incorrect" ? "incorrect" : "correct",
    followedRules: isFollowedRules(vote.followedRules) ? vote.followedRules : null,
    comment: vote.comment,
    judgeVisible: vote.judgeVisible,
    updatedAt: vote.updatedAt.toISOString(),
  };
}

export async function loadItemView(db: Database, itemId: string, annotatorId: string, mode: ReviewMode, revealAll = false): Promise<ReviewItemView | null> {
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
export async function releaseLock(db: Database, itemId: string, annotatorId: string): Promise<void> {
  try {
    await db.reviewItem.update({ where: { id: itemId, lockedById: annotatorId }, data: { lockedById: null, lockedUntil: null }, select: { id: true } });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

export async function releaseOtherLocks(db: Database, queueId: string, annotatorId: string, keepItemId: string | null): Promise<void> {
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
