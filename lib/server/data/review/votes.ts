import "server-only";
// Review votes: recording an annotator's vote, and what votes decide elsewhere (blind verdicts still hidden, votes a
// run holds). A first vote is written only under the voter's live lock and the per-item limit; a refused vote writes nothing.
import { randomUUID } from "node:crypto";
import type { Database } from "../../db";
import { assertAllowed } from "../../authz";
import type { SessionUser } from "../../session";
import { can } from "@/lib/auth/roles";
import { err, ok, type Result } from "@/lib/result";
import { annotatorProgress, queueProgress, type AnnotatorProgress, type QueueProgress } from "@/lib/review/ordering";
import { annotatorVerdict, isFollowedRules, judgeCorrectness, type ParsedVote } from "@/lib/review/votes";
import { releaseLock, toMyVote, type MyVote } from "./claims";
import { couldSeeJudgeVerdict, responsesPendingFor } from "./blind-visibility";
import { asMode, isAssigned, itemStates } from "./shared";

export type VoteProblem = "not-found" | "blind-needs-own-verdict" | "lock-lost" | "item-full";

export interface VoteOutcome {
  vote: MyVote;
  item: { id: string; position: number };
  /** The judge's verdict and reason, revealed now that the annotator has voted. */
  judge: { verdict: boolean; reason: string | null };
  progress: AnnotatorProgress;
  queue: QueueProgress;
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
  // Dates and booleans go to the driver adapter as they are: it writes each database's own DateTime and boolean form.
  const at = now;
  const inserted = await db.$executeRawUnsafe(
    `INSERT INTO "ReviewVote" ("id", "itemId", "annotatorId", "annotatorPass", "verdict", "followedRules", "comment", "judgeVisible", "createdAt", "updatedAt")
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     WHERE EXISTS (SELECT 1 FROM "ReviewItem" WHERE "id" = ? AND "lockedById" = ? AND "lockedUntil" > ?)
       AND (SELECT COUNT(*) FROM "ReviewVote" WHERE "itemId" = ?) < ?
     ON CONFLICT ("itemId", "annotatorId") DO NOTHING`,
    `v${randomUUID().replace(/-/g, "")}`,
    itemId,
    annotatorId,
    data.annotatorPass,
    data.verdict,
    data.followedRules,
    data.comment ?? null,
    data.judgeVisible,
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
    select: { id: true, queueId: true, position: true, verdict: true, reason: true, responseId: true, stage: true, casePosition: true, judge: true, queue: { select: { mode: true, annotatorsPerItem: true, filter: true } } },
  });
  if (!item || !(await isAssigned(db, item.queueId, actor.id))) return err("not-found");
  const mode = asMode(item.queue.mode);
  const key = { itemId_annotatorId: { itemId: item.id, annotatorId: actor.id } };
  let existing = await db.reviewVote.findUnique({ where: key });
  // Before a blind vote the annotator has not seen the judge's verdict, so "the judge was correct" means nothing yet.
  if (mode === "blind" && !existing && vote.pass === undefined) return err("blind-needs-own-verdict");
  const pass = annotatorVerdict(vote, item.verdict);
  // Blind only when the verdict was hidden from the voter everywhere (blind-visibility.ts), and stays so until they
  // change their own verdict after seeing the judge's.
  const seenElsewhere = mode === "blind" && !existing ? await couldSeeJudgeVerdict(db, actor.id, item) : true;
  const dataFor = (previous: typeof existing) => ({
    annotatorPass: pass,
    verdict: judgeCorrectness(pass, item.verdict),
    followedRules: vote.followedRules ?? (isFollowedRules(previous?.followedRules) ? previous.followedRules : null),
    comment: vote.comment,
    judgeVisible: mode === "reveal" ? true : previous ? previous.judgeVisible || previous.annotatorPass !== pass : seenElsewhere,
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

// -- blind review: what an annotator may not see yet -------------------------------------------------------------

/**
 * Responses whose judge verdicts and reasons `actor` must not see yet: they are items of a blind queue assigned to
 * the actor that the actor has not voted on. Pages, exports and APIs showing verdicts leave these out.
 */
export async function blindPendingResponseIds(db: Database, actor: SessionUser | null, responseIds?: readonly string[]): Promise<Set<string>> {
  if (!actor || !can(actor.role, "annotate")) return new Set();
  return responsesPendingFor(db, actor.id, responseIds ? { responseIds } : {});
}

/** How many votes the review items of a run hold, and in how many queues (deleting the run would delete them). */
export async function countRunVotes(db: Database, runId: string): Promise<{ votes: number; queues: number }> {
  const [votes, queues] = await Promise.all([
    db.reviewVote.count({ where: { item: { response: { runId } } } }),
    db.reviewQueue.count({ where: { items: { some: { response: { runId } } } } }),
  ]);
  return { votes, queues };
}
