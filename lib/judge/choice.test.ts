import { describe, expect, it } from "vitest";
import { describeJudgeChoice, hrefWithJudge, judgeChoiceOrDefault, parseJudgeChoice, withJudge } from "./choice";

describe("parseJudgeChoice", () => {
  it("reads absent, empty and 'recorded' as the default", () => {
    for (const raw of [undefined, null, "", "  ", "recorded"]) expect(parseJudgeChoice(raw)).toEqual({ ok: true, value: { kind: "recorded", param: "" } });
  });
  it("reads one label", () => {
    expect(parseJudgeChoice("rule")).toEqual({ ok: true, value: { kind: "judges", members: ["rule"], param: "rule" } });
    expect(parseJudgeChoice("gpt-5.1")).toEqual({ ok: true, value: { kind: "judges", members: ["gpt-5.1"], param: "gpt-5.1" } });
  });
  it("reads a panel in canonical order without repeats; a panel of one is that judge", () => {
    expect(parseJudgeChoice("panel:c, a,b,a")).toEqual({ ok: true, value: { kind: "judges", members: ["a", "b", "c"], param: "panel:a,b,c" } });
    expect(parseJudgeChoice("panel:rule")).toEqual({ ok: true, value: { kind: "judges", members: ["rule"], param: "rule" } });
  });
  it("refuses empty and oversized panels and labels with control characters", () => {
    expect(parseJudgeChoice("panel:").ok).toBe(false);
    expect(parseJudgeChoice(`panel:${Array.from({ length: 10 }, (_, index) => `j${index}`).join(",")}`).ok).toBe(false);
    expect(parseJudgeChoice("a\u0001b").ok).toBe(false);
    expect(judgeChoiceOrDefault("panel:")).toEqual({ choice: { kind: "recorded", param: "" }, problem: "a panel needs at least one judge, e.g. panel:a,b,c" });
  });
});

describe("links and words", () => {
  const panel = parseJudgeChoice("panel:b,a");
  it("carries a non-default choice in query strings and hrefs", () => {
    if (!panel.ok) throw new Error("panel should parse");
    expect(withJudge("", panel.value)).toBe("?judge=panel%3Aa%2Cb");
    expect(withJudge("?benchmark=x", panel.value)).toBe("?benchmark=x&judge=panel%3Aa%2Cb");
    expect(hrefWithJudge("/models/m?benchmark=x", panel.value)).toBe("/models/m?benchmark=x&judge=panel%3Aa%2Cb");
    expect(hrefWithJudge("/tasks", panel.value)).toBe("/tasks?judge=panel%3Aa%2Cb");
    expect(describeJudgeChoice(panel.value)).toBe("the panel a, b (majority)");
  });
  it("leaves links alone for the default", () => {
    const recorded = judgeChoiceOrDefault(null).choice;
    expect(withJudge("?benchmark=x", recorded)).toBe("?benchmark=x");
    expect(hrefWithJudge("/tasks", recorded)).toBe("/tasks");
  });
});

describe("judgeOptions", () => {
  it("lists the default, the rule judge first, then LLM judges; keeps a custom panel", async () => {
    const { judgeOptions } = await import("./choice");
    const panel = parseJudgeChoice("panel:rule,stub");
    if (!panel.ok) throw new Error("panel should parse");
    const options = judgeOptions(
      [
        { judge: "stub", model: "stub-model", samples: 3 },
        { judge: "recorded", model: null, samples: 1 },
        { judge: "rule", model: null, samples: 1 },
      ],
      panel.value,
    );
    expect(options).toEqual([
      { value: "", label: "Each run's own judge (default)" },
      { value: "rule", label: "Rule judge (deterministic)" },
      { value: "stub", label: "stub (stub-model, majority of 3 samples)" },
      { value: "panel:rule,stub", label: "the panel rule, stub (majority)" },
    ]);
  });
});
