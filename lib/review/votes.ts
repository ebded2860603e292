// What an annotator records about one judge verdict, and how "the judge was correct" and "my own verdict" relate.
// Pure. The stored fact is the annotator's own verdict on the item; correctness is derived from it and the judge's
// verdict, so the same vote reads the same way in blind mode (asked "does it pass?") and reveal mode ("was the
// judge right?").

import { z } from "zod";

export const JUDGE_CORRECTNESS = ["correct", "incorrect"] as const;
export type JudgeCorrectness = (typeof JUDGE_CORRECTNESS)[number];

export const FOLLOWED_RULES = ["yes", "no", "unsure"] as const;
export type FollowedRules = (typeof FOLLOWED_RULES)[number];

export const MAX_COMMENT_LENGTH = 4000;

/**
 * A vote as submitted: either the annotator's own verdict (`pass`, blind mode) or their call on the judge
 * (`judgeCorrect`, reveal mode); exactly one of the two.
 */
export const voteInputSchema = z
  .object({
    itemId: z.string().min(1).max(100),
    pass: z.boolean().optional(),
    judgeCorrect: z.enum(JUDGE_CORRECTNESS).optional(),
    followedRules: z.enum(FOLLOWED_RULES).nullable().default(null),
    comment: z
      .string()
      .max(MAX_COMMENT_LENGTH, `keep the comment under ${MAX_COMMENT_LENGTH} characters`)
      .transform((text) => text.trim() || null)
      .nullable()
      .default(null),
  })
  .refine((vote) => (vote.pass === undefined) !== (vote.judgeCorrect === undefined), {
    message: "give either your own verdict or whether the judge was correct",
    path: ["pass"],
  });

export type VoteInput = z.input<typeof voteInputSchema>;
export type ParsedVote = z.output<typeof voteInputSchema>;

/** The annotator's own pass/fail verdict, whichever way the vote was phrased. */
export function annotatorVerdict(vote: Pick<ParsedVote, "pass" | "judgeCorrect">, judgeVerdict: boolean): boolean {
  if (vote.pass !== undefined) return vote.pass;
  return vote.judgeCorrect === "correct" ? judgeVerdict : !judgeVerdict;
}

export function judgeCorrectness(annotatorPass: boolean, judgeVerdict: boolean): JudgeCorrectness {
  return annotatorPass === judgeVerdict ? "correct" : "incorrect";
}

export function isFollowedRules(value: unknown): value is FollowedRules {
  return typeof value === "string" && (FOLLOWED_RULES as readonly string[]).includes(value);
}
