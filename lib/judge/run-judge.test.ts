import { describe, expect, it } from "vitest";
import { describeRunJudge, judgeNote, parseRunJudge, RULE_JUDGE_LABEL, runJudgeJson } from "./run-judge";

describe("a run's own judge", () => {
  it("falls back to the recorded verdicts for recorded runs and to the rule judge for everything else", () => {
    expect(parseRunJudge(null, "recorded")).toEqual({ kind: "recorded" });
    expect(parseRunJudge(null, "imported")).toEqual({ kind: "rule" });
    expect(parseRunJudge("{not json", "generated")).toEqual({ kind: "rule" });
    expect(parseRunJudge('{"kind":"llm","members":[],"samples":1}', "generated")).toEqual({ kind: "rule" });
  });

  it("reads a stored LLM judge or panel, members sorted and samples bounded", () => {
    const judge = parseRunJudge(runJudgeJson({ kind: "llm", members: ["gpt-5.1", "claude"], samples: 3 }), "generated");
    expect(judge).toEqual({ kind: "llm", members: ["claude", "gpt-5.1"], samples: 3 });
    expect(parseRunJudge('{"kind":"llm","members":["a"],"samples":99}', "generated")).toEqual({ kind: "llm", members: ["a"], samples: 9 });
  });

  it("says which judge made a figure", () => {
    expect(describeRunJudge({ kind: "recorded" })).toBe("recorded verdicts");
    expect(describeRunJudge({ kind: "rule" })).toBe("rule judge (not the official LLM judge)");
    expect(describeRunJudge({ kind: "llm", members: ["gpt-5.1"], samples: 1 })).toBe("judge: gpt-5.1 ×1");
    expect(describeRunJudge({ kind: "llm", members: ["a", "b", "c"], samples: 3 })).toBe("panel: a, b, c ×3");
    expect(judgeNote("judge: gpt-5.1 ×1", 0)).toBe("judge: gpt-5.1 ×1");
    expect(judgeNote("judge: gpt-5.1 ×1", 3)).toBe("judge: gpt-5.1 ×1 · 3 turns awaiting its verdict (rule judge until then)");
    expect(RULE_JUDGE_LABEL).toContain("not the official LLM judge");
  });
});
