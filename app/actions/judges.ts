"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { REVIEW_MODES, MAX_ANNOTATORS_PER_ITEM, DEFAULT_ANNOTATORS_PER_ITEM } from "@/lib/review/queue";
import { STAGES } from "@/lib/review/filter";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { createDisagreementQueue } from "@/lib/server/data/judges";

const label = z.string().trim().min(1).max(200);

const disagreementQueueSchema = z.object({
  benchmarkId: z.string().min(1).max(100),
  stage: z.enum(STAGES),
  judge: label,
  against: label,
  mode: z.enum(REVIEW_MODES).default("blind"),
  annotatorsPerItem: z.coerce.number().int().min(1).max(MAX_ANNOTATORS_PER_ITEM).default(DEFAULT_ANNOTATORS_PER_ITEM),
});

const create = authorizedAction("manageQueues", disagreementQueueSchema, async (input, user): Promise<ActionResult<{ queueId: string; items: number }>> => {
  const created = await createDisagreementQueue(database(), user, input);
  if (!created.ok) return { ok: false, error: "invalid", message: created.issues.map((issue) => issue.message).join("; ") };
  revalidatePath("/review");
  return { ok: true, value: created.value };
});

/** Makes a review queue of the items where two judges disagree (judge comparison page; admins and researchers). */
export async function createDisagreementQueueAction(input: z.input<typeof disagreementQueueSchema>) {
  return create(input);
}
