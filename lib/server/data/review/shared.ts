import "server-only";
// Helpers every review module shares: reading stored stage and mode text, item labels and keys, who is assigned to a
// queue and each item's voters and lock. No permission checks here: callers check before calling.
import type { Database } from "../../db";
import type { Stage } from "@/lib/review/filter";
import type { ItemState } from "@/lib/review/ordering";
import type { ReviewMode } from "@/lib/review/queue";

export type QueueProblem = { field: string; message: string };

export function asStage(value: string): Stage {
  return value === "resolve" ? "resolve" : "pass";
}

export function asMode(value: string): ReviewMode {
  return value === "reveal" ? "reveal" : "blind";
}

export function itemLabel(item: { model: string; task: string; round: number; stage: string; casePosition: number }): string {
  return `${item.model} · ${item.task} round ${item.round}${item.stage === "resolve" ? ` · case ${item.casePosition}` : ""}`;
}

export function verdictKey(item: { responseId: string; stage: string; casePosition: number; judge: string }): string {
  return `${item.responseId}/${item.stage}/${item.casePosition}/${item.judge}`;
}

export async function isAssigned(db: Database, queueId: string, userId: string): Promise<boolean> {
  return (await db.reviewAssignment.count({ where: { queueId, userId } })) > 0;
}

export async function itemStates(db: Database, queueId: string): Promise<ItemState[]> {
  const items = await db.reviewItem.findMany({
    where: { queueId },
    select: { id: true, position: true, lockedById: true, lockedUntil: true, votes: { select: { annotatorId: true } } },
    orderBy: { position: "asc" },
  });
  return items.map(toItemState);
}

/** An item row (with its voters) as the ordering core reads it. */
export function toItemState(item: { id: string; position: number; lockedById: string | null; lockedUntil: Date | null; votes: { annotatorId: string }[] }): ItemState {
  return { id: item.id, position: item.position, voters: item.votes.map((vote) => vote.annotatorId), lockedBy: item.lockedById, lockedUntil: item.lockedUntil };
}

export function isNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2025";
}
