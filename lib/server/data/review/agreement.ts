import "server-only";
// Agreement figures of review votes: per queue, pooled per stage (optionally of one benchmark), judge against judge,
// and one item with every vote for managers. Only admins and researchers (manageQueues) read them.
import type { Database } from "../../db";
import { assertAllowed } from "../../authz";
import type { SessionUser } from "../../session";
import {
  agreementByStage,
  agreementReport,
  compareJudgePairs,
  type AgreementReport,
  type JudgePairComparison,
  type ReviewedItem,
  type StageAgreement,
} from "@/lib/review/agreement-view";
import { isFollowedRules } from "@/lib/review/votes";
import { blindVisibility } from "./blind-visibility";
import { loadItemView, type ReviewItemView } from "./claims";
import { getQueue, listQueues, type QueueSummary } from "./queues";
import { itemLabel, verdictKey } from "./shared";

export interface LoadedItem extends ReviewedItem {
  queueId: string;
  responseId: string;
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

export async function loadReviewedItems(db: Database, where: { queueId?: string; id?: string; queue?: { benchmarkId?: string }; stage?: string }): Promise<LoadedItem[]> {
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
      responseId: item.responseId,
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
  const belongs = await db.reviewItem.findFirst({ where: { id: itemId, queueId }, select: { position: true, responseId: true } });
  if (!belongs) return null;
  // A manager who is also reviewing this response blind sees it as an annotator does: no verdict, reason or votes.
  const hidden = (await blindVisibility(db, actor, { responseIds: [belongs.responseId] })).verdictHidden(belongs.responseId);
  const item = await loadItemView(db, itemId, actor.id, queue.mode, !hidden);
  if (!item) return null;
  const [loaded] = hidden ? [] : await loadReviewedItems(db, { queueId, id: itemId });
  const [previous, next] = await Promise.all([
    db.reviewItem.findFirst({ where: { queueId, position: { lt: belongs.position } }, orderBy: { position: "desc" }, select: { id: true } }),
    db.reviewItem.findFirst({ where: { queueId, position: { gt: belongs.position } }, orderBy: { position: "asc" }, select: { id: true } }),
  ]);
  return { queue, item, votes: loaded?.voteRows ?? [], previousId: previous?.id ?? null, nextId: next?.id ?? null };
}
