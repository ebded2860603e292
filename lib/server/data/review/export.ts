import "server-only";
// The annotation export: every vote with the judge verdict it concerns and its fingerprints, one queue or all.
// An exporter who is also an assigned annotator of a blind queue never receives verdicts they have not voted on.
import type { Database } from "../../db";
import { blindVisibility } from "./blind-visibility";
import { assertAllowed } from "../../authz";
import type { SessionUser } from "../../session";
import type { AnnotationRow } from "@/lib/review/export";
import { loadReviewedItems } from "./agreement";

/** Every vote (of one queue, or of all queues) with the judge verdict it concerns and its fingerprints. */
export async function listAnnotationRows(db: Database, actor: SessionUser, queueId: string | null): Promise<{ rows: AnnotationRow[]; scope: string } | null> {
  assertAllowed(actor, "manageQueues");
  const queues = await db.reviewQueue.findMany({ where: queueId ? { id: queueId } : {}, select: { id: true, name: true, mode: true } });
  if (queueId && queues.length === 0) return null;
  const byId = new Map(queues.map((queue) => [queue.id, queue]));
  const items = await loadReviewedItems(db, queueId ? { queueId } : {});
  // An exporter who is also reviewing a response blind does not learn its verdicts before voting (blind-visibility.ts).
  const blind = await blindVisibility(db, actor, { responseIds: [...new Set(items.map((item) => item.responseId))] });
  const rows: AnnotationRow[] = [];
  for (const item of items) {
    const queue = byId.get(item.queueId);
    if (!queue || blind.verdictHidden(item.responseId)) continue;
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
