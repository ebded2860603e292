import { describe, expect, it } from "vitest";
import { annotatorVerdict, judgeCorrectness, voteInputSchema } from "./votes";

describe("votes", () => {
  it("reads 'the judge was correct' as agreeing with the judge's verdict, and 'incorrect' as the opposite", () => {
    expect(annotatorVerdict({ judgeCorrect: "correct" }, true)).toBe(true);
    expect(annotatorVerdict({ judgeCorrect: "correct" }, false)).toBe(false);
    expect(annotatorVerdict({ judgeCorrect: "incorrect" }, true)).toBe(false);
    expect(annotatorVerdict({ judgeCorrect: "incorrect" }, false)).toBe(true);
    expect(annotatorVerdict({ pass: false }, true)).toBe(false);
  });

  it("derives correctness from both verdicts", () => {
    expect(judgeCorrectness(true, true)).toBe("correct");
    expect(judgeCorrectness(false, true)).toBe("incorrect");
  });

  it("needs exactly one of the two phrasings, and trims an empty comment to nothing", () => {
    expect(voteInputSchema.safeParse({ itemId: "x" }).success).toBe(false);
    expect(voteInputSchema.safeParse({ itemId: "x", pass: true, judgeCorrect: "correct" }).success).toBe(false);
    const parsed = voteInputSchema.parse({ itemId: "x", judgeCorrect: "incorrect", followedRules: "no", comment: "   " });
    expect(parsed).toEqual({ itemId: "x", judgeCorrect: "incorrect", followedRules: "no", comment: null });
    expect(voteInputSchema.parse({ itemId: "x", pass: true }).followedRules).toBeNull();
    expect(voteInputSchema.safeParse({ itemId: "x", pass: true, followedRules: "maybe" }).success).toBe(false);
    expect(voteInputSchema.safeParse({ itemId: "x", pass: true, comment: "x".repeat(4001) }).success).toBe(false);
  });
});
