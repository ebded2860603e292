import { describe, expect, it } from "vitest";
import { matchRank, rankMatches } from "./results";

describe("command palette matching", () => {
  it("ranks exact over prefix over word prefix over substring, case-insensitively", () => {
    expect(matchRank("gpt_5d2", ["gpt_5d2"])).toBe(0);
    expect(matchRank("gpt", ["GPT-5.2"])).toBe(1);
    expect(matchRank("5.2", ["GPT-5.2"])).toBe(2);
    expect(matchRank("pt-5", ["GPT-5.2"])).toBe(3);
    expect(matchRank("zz", ["GPT-5.2"])).toBeNull();
    expect(matchRank("   ", ["x"])).toBeNull();
  });

  it("keeps the best matches, shorter names first among equals", () => {
    const items = ["StudyPlanner", "Study", "ResumeScreening", "CaseStudyWriter"];
    expect(rankMatches("study", items, (item) => [item], 3)).toEqual(["Study", "StudyPlanner", "CaseStudyWriter"]);
    // A regular-expression character in the query is taken literally.
    expect(rankMatches("(", ["a(b", "ab"], (item) => [item], 5)).toEqual(["a(b"]);
  });
});
