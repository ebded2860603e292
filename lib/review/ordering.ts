// Which item an annotator sees next, what "back" and "next" mean, and how far a queue has got. Pure: the server
// loads the queue's item states, asks these functions, then takes the item's lock with a conditional update.
// Guarantees: an annotator is never offered an item they voted on as "new", one that already has all its votes,
// or one another annotator holds an unexpired lock on.

/** One queue item as the ordering sees it. */
export interface ItemState {
  id: string;
  position: number;
  /** Who voted on it (each annotator at most once). */
  voters: readonly string[];
  lockedBy: string | null;
  lockedUntil: Date | null;
}

/** How long a served item stays reserved for its annotator. */
export const LOCK_MS = 2 * 60 * 1000;

export function lockExpiry(now: Date): Date {
  return new Date(now.getTime() + LOCK_MS);
}

export function isLockedByOther(item: Pick<ItemState, "lockedBy" | "lockedUntil">, annotator: string, now: Date): boolean {
  return item.lockedBy !== null && item.lockedBy !== annotator && item.lockedUntil !== null && item.lockedUntil.getTime() > now.getTime();
}

export function hasVoted(item: Pick<ItemState, "voters">, annotator: string): boolean {
  return item.voters.includes(annotator);
}

/** The item still needs a vote and this annotator may give it: not voted by them, not full. Locks aside. */
export function isOpenFor(item: Pick<ItemState, "voters">, annotator: string, annotatorsPerItem: number): boolean {
  return !hasVoted(item, annotator) && item.voters.length < annotatorsPerItem;
}

/** Open for the annotator and not held by anyone else right now. */
export function isAvailableTo(item: ItemState, annotator: string, annotatorsPerItem: number, now: Date): boolean {
  return isOpenFor(item, annotator, annotatorsPerItem) && !isLockedByOther(item, annotator, now);
}

function byPosition(items: readonly ItemState[]): ItemState[] {
  return [...items].sort((a, b) => a.position - b.position);
}

/**
 * Where a session starts (resume): the unvoted item this annotator already holds a live lock on, else the first
 * available item in queue order. Null when nothing is left for them.
 */
export function resumeItem(items: readonly ItemState[], annotator: string, annotatorsPerItem: number, now: Date): ItemState | null {
  const ordered = byPosition(items);
  const held = ordered.find(
    (item) => item.lockedBy === annotator && item.lockedUntil !== null && item.lockedUntil.getTime() > now.getTime() && isOpenFor(item, annotator, annotatorsPerItem),
  );
  return held ?? ordered.find((item) => isAvailableTo(item, annotator, annotatorsPerItem, now)) ?? null;
}

/**
 * "Next" from the item at `fromPosition`: the nearest later item the annotator either voted on (to walk through
 * earlier votes) or may vote on now; when nothing later qualifies, wraps to the first available earlier item (an
 * item skipped before). Null when there is nowhere to go.
 */
export function nextItem(items: readonly ItemState[], annotator: string, annotatorsPerItem: number, now: Date, fromPosition: number): ItemState | null {
  const ordered = byPosition(items);
  const later = ordered.find(
    (item) => item.position > fromPosition && (hasVoted(item, annotator) || isAvailableTo(item, annotator, annotatorsPerItem, now)),
  );
  if (later) return later;
  return ordered.find((item) => item.position < fromPosition && isAvailableTo(item, annotator, annotatorsPerItem, now)) ?? null;
}

/**
 * "Back" from `fromPosition` (null: from the end of the queue): the nearest earlier item this annotator voted on,
 * so they can review or change that vote. Null at the first vote.
 */
export function previousItem(items: readonly ItemState[], annotator: string, fromPosition: number | null): ItemState | null {
  const voted = byPosition(items).filter((item) => hasVoted(item, annotator) && (fromPosition === null || item.position < fromPosition));
  return voted.at(-1) ?? null;
}

export interface AnnotatorProgress {
  /** Items this annotator voted on. */
  voted: number;
  /** Items they could still vote on (not voted by them, not yet full). */
  remaining: number;
  /** voted + remaining: the most this annotator can contribute. */
  total: number;
}

export function annotatorProgress(items: readonly ItemState[], annotator: string, annotatorsPerItem: number): AnnotatorProgress {
  let voted = 0;
  let remaining = 0;
  for (const item of items) {
    if (hasVoted(item, annotator)) voted += 1;
    else if (item.voters.length < annotatorsPerItem) remaining += 1;
  }
  return { voted, remaining, total: voted + remaining };
}

export interface QueueProgress {
  items: number;
  /** Items with all their votes. */
  complete: number;
  /** Votes that count towards the target (at most annotatorsPerItem per item). */
  votes: number;
  /** items × annotatorsPerItem. */
  target: number;
}

export function queueProgress(items: readonly Pick<ItemState, "voters">[], annotatorsPerItem: number): QueueProgress {
  let complete = 0;
  let votes = 0;
  for (const item of items) {
    if (item.voters.length >= annotatorsPerItem) complete += 1;
    votes += Math.min(item.voters.length, annotatorsPerItem);
  }
  return { items: items.length, complete, votes, target: items.length * annotatorsPerItem };
}
