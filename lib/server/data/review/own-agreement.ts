import "server-only";
// An annotator's own agreement per queue (lib/review/own-agreement): only over items they have voted on, so nothing
// of a blind item is told before their vote; others are counted, never named.
import { ownAgreement, type OwnAgreement } from "@/lib/review/own-agreement";
import { assertAllowed } from "../../authz";
import type { Database } from "../../db";
import type { SessionUser } from "../../session";

/** Items per query: any number of votes stays under the databases' bound-parameter limits. */
const CHUNK = 500;

export async function getOwnAgreement(db: Database, actor: SessionUser, queueIds: readonly string[]): Promise<Map<string, OwnAgreement>> {
  assertAllowed(actor, "annotate");
  const mine = await db.reviewVote.findMany({
    where: { annotatorId: actor.id, item: { queueId: { in: [...queueIds] } } },
    select: { itemId: true, annotatorPass: true, item: { select: { queueId: true, verdict: true } } },
  });
  const itemIds = mine.map((vote) => vote.itemId);
  const others: { itemId: string; annotatorPass: boolean }[] = [];
  for (let start = 0; start < itemIds.length; start += CHUNK) {
    others.push(...(await db.reviewVote.findMany({ where: { itemId: { in: itemIds.slice(start, start + CHUNK) }, annotatorId: { not: actor.id } }, select: { itemId: true, annotatorPass: true } })));
  }
  const queueOf = new Map(mine.map((vote) => [vote.itemId, vote.item.queueId]));
  const result = new Map<string, OwnAgreement>();
  for (const queueId of queueIds) {
    const own = mine.filter((vote) => vote.item.queueId === queueId);
    if (own.length === 0) continue;
    result.set(
      queueId,
      ownAgreement(
        own.map((vote) => ({ itemId: vote.itemId, pass: vote.annotatorPass, judgePass: vote.item.verdict })),
        others.filter((vote) => queueOf.get(vote.itemId) === queueId).map((vote) => ({ itemId: vote.itemId, pass: vote.annotatorPass })),
      ),
    );
  }
  return result;
}
