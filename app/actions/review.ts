"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import {
  assignAnnotators,
  claimReviewItem,
  createDerivedQueue,
  createQueue,
  renewReviewLock,
  submitReviewVote,
  unassignAnnotator,
  type ClaimOutcome,
  type QueueProblem,
  type VoteOutcome,
} from "@/lib/server/data/review";
import { derivedQueueSchema, newQueueSchema, type DerivedQueueInput, type NewQueueInput } from "@/lib/review/queue";
import { voteInputSchema, type VoteInput } from "@/lib/review/votes";

const id = z.string().min(1).max(100);

function problems(issues: QueueProblem[]): ActionResult<never> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) fieldErrors[issue.field] ??= issue.message;
  return { ok: false, error: "invalid", message: issues.map((issue) => issue.message).join("; "), fieldErrors };
}

const create = authorizedAction("manageQueues", newQueueSchema, async (input, user): Promise<ActionResult<{ queueId: string; items: number }>> => {
  const created = await createQueue(database(), user, input);
  if (!created.ok) return problems(created.issues);
  revalidatePath("/review");
  return { ok: true, value: created.value };
});

/** Samples a new review queue from stored judge verdicts (admins and researchers). */
export async function createQueueAction(input: NewQueueInput) {
  return create(input);
}

const derive = authorizedAction("manageQueues", derivedQueueSchema, async (input, user): Promise<ActionResult<{ queueId: string; items: number }>> => {
  const created = await createDerivedQueue(database(), user, input);
  if (!created.ok) return problems(created.issues);
  revalidatePath("/review");
  return { ok: true, value: created.value };
});

/** Makes a new queue of chosen items of a queue, e.g. the items where annotators disagreed with the judge. */
export async function createDerivedQueueAction(input: DerivedQueueInput) {
  return derive(input);
}

const assignSchema = z.object({ queueId: id, userIds: z.array(id).min(1, "choose at least one annotator").max(100) });

const assign = authorizedAction("manageQueues", assignSchema, async ({ queueId, userIds }, user): Promise<ActionResult<{ assigned: number }>> => {
  const result = await assignAnnotators(database(), user, queueId, userIds);
  if (!result.ok) return problems(result.issues);
  revalidatePath(`/review/${queueId}/manage`);
  revalidatePath("/review");
  return { ok: true, value: result.value };
});

export async function assignAnnotatorsAction(input: z.input<typeof assignSchema>) {
  return assign(input);
}

const unassignSchema = z.object({ queueId: id, userId: id });

const unassign = authorizedAction("manageQueues", unassignSchema, async ({ queueId, userId }, user): Promise<ActionResult<{ removed: boolean }>> => {
  const removed = await unassignAnnotator(database(), user, queueId, userId);
  revalidatePath(`/review/${queueId}/manage`);
  revalidatePath("/review");
  return { ok: true, value: { removed } };
});

/** Removes an annotator from a queue; their votes are kept. */
export async function unassignAnnotatorAction(input: z.input<typeof unassignSchema>) {
  return unassign(input);
}

const claimSchema = z.object({
  queueId: id,
  request: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("resume") }),
    z.object({ kind: z.literal("item"), itemId: id }),
    z.object({ kind: z.literal("next"), fromPosition: z.number().int().min(-1) }),
    z.object({ kind: z.literal("back"), fromPosition: z.number().int().min(0).nullable() }),
  ]),
});

// Serving an item takes its two-minute lock, a write, so it is an action rather than a GET.
const claim = authorizedAction("annotate", claimSchema, async ({ queueId, request }, user): Promise<ActionResult<ClaimOutcome>> => {
  const outcome = await claimReviewItem(database(), user, queueId, request);
  if (!outcome) return { ok: false, error: "forbidden", message: "This queue does not exist or is not assigned to you." };
  return { ok: true, value: outcome };
});

/** The item to show an annotator: resume, a given item, or the next / previous one (locked for them). */
export async function claimReviewItemAction(input: z.input<typeof claimSchema>) {
  return claim(input);
}

const renew = authorizedAction("annotate", z.object({ itemId: id }), async ({ itemId }, user): Promise<ActionResult<{ lockedUntil: string | null }>> => {
  const lockedUntil = await renewReviewLock(database(), user, itemId);
  return { ok: true, value: { lockedUntil: lockedUntil?.toISOString() ?? null } };
});

/** Keeps the signed-in annotator's lock on the item they have open; `lockedUntil` is null when it is no longer theirs. */
export async function renewReviewLockAction(input: { itemId: string }) {
  return renew(input);
}

const vote = authorizedAction("annotate", voteInputSchema, async (input, user): Promise<ActionResult<VoteOutcome>> => {
  const result = await submitReviewVote(database(), user, input);
  if (!result.ok) {
    switch (result.issues[0]) {
      case "blind-needs-own-verdict":
        return { ok: false, error: "invalid", message: "In a blind queue, give your own verdict first (p or f)." };
      case "lock-lost":
        return { ok: false, error: "failed", message: "Your hold on this item lapsed and it went to another annotator; nothing was saved. Open the next item." };
      case "item-full":
        return { ok: false, error: "failed", message: "This item already has all the votes it needs; nothing was saved." };
      default:
        return { ok: false, error: "forbidden", message: "This item is not in a queue assigned to you." };
    }
  }
  return { ok: true, value: result.value };
});

/** Records or changes the signed-in annotator's vote on an item. */
export async function submitVoteAction(input: VoteInput) {
  return vote(input);
}
