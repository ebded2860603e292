// The settings of a review queue as a researcher enters them, validated with zod, and its default name. Pure.

import { z } from "zod";
import { describeFilter, queueFilterSchema, type QueueFilter } from "./filter";

export const REVIEW_MODES = ["blind", "reveal"] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

export const MAX_SAMPLE_SIZE = 5000;
export const MAX_ANNOTATORS_PER_ITEM = 10;
export const DEFAULT_ANNOTATORS_PER_ITEM = 3;

const settings = {
  name: z
    .string()
    .trim()
    .max(200, "keep the name under 200 characters")
    .transform((name) => name || null)
    .nullable()
    .default(null),
  annotatorsPerItem: z.coerce
    .number()
    .int("a whole number")
    .min(1, "at least 1")
    .max(MAX_ANNOTATORS_PER_ITEM, `at most ${MAX_ANNOTATORS_PER_ITEM}`)
    .default(DEFAULT_ANNOTATORS_PER_ITEM),
  mode: z.enum(REVIEW_MODES).default("blind"),
  annotatorIds: z.array(z.string().min(1).max(100)).max(100).default([]),
};

export const newQueueSchema = z.object({
  ...settings,
  filter: queueFilterSchema,
  sampleSize: z.coerce.number().int("a whole number").min(1, "at least 1 item").max(MAX_SAMPLE_SIZE, `at most ${MAX_SAMPLE_SIZE} items`),
  seed: z.string().trim().min(1, "give a seed, e.g. 1").max(100),
});

export type NewQueueInput = z.input<typeof newQueueSchema>;
export type NewQueue = z.output<typeof newQueueSchema>;

/** A queue made of chosen items of an existing queue (e.g. its disagreements), in their original order. */
export const derivedQueueSchema = z.object({
  ...settings,
  sourceQueueId: z.string().min(1).max(100),
  itemIds: z.array(z.string().min(1).max(100)).min(1, "choose at least one item").max(MAX_SAMPLE_SIZE),
});

export type DerivedQueueInput = z.input<typeof derivedQueueSchema>;

export function defaultQueueName(filter: QueueFilter, items: number): string {
  return `${describeFilter(filter)} · ${items} item${items === 1 ? "" : "s"}`;
}

/**
 * Why a queue could never finish with these people: each item needs `annotatorsPerItem` different annotators, so
 * fewer assigned people than that leave every item short. Null when enough are assigned, or when nobody is yet
 * (people are assigned later; the queue page flags the shortfall until then).
 */
export function annotatorShortfall(annotatorsPerItem: number, assigned: number): string | null {
  if (assigned === 0 || assigned >= annotatorsPerItem) return null;
  return `each item needs ${annotatorsPerItem} different annotators but only ${assigned} ${assigned === 1 ? "is" : "are"} assigned: assign more people or lower annotators per item`;
}
