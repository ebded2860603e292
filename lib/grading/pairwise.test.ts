import { describe, expect, it } from "vitest";
import { normalize } from "./formulas";
import { judgeSwappedPairs, pairwiseMessages, parsePairwiseReply, resolveSwapped, summarizePairwise, type AskJudge, type SwappedJudgement } from "./pairwise";

const j = (key: string, candidateFirst: SwappedJudgement["candidateFirst"], baselineFirst: SwappedJudgement["baselineFirst"]): SwappedJudgement => ({ key, candidateFirst, baselineFirst });

describe("swapped-order pairwise judging (§8)", () => {
  it("a consistent preference survives the swap", () => {
    expect(resolveSwapped(j("t", "first", "second"))).toEqual({ key: "t", consistent: true, outcome: "candidate" });
    expect(resolveSwapped(j("t", "second", "first"))).toEqual({ key: "t", consistent: true, outcome: "baseline" });
    expect(resolveSwapped(j("t", "tie", "tie"))).toEqual({ key: "t", consistent: true, outcome: "tie" });
  });

  it("always picking the first position is inconsistent: a tie, or a re-run when chosen", () => {
    expect(resolveSwapped(j("t", "first", "first"))).toEqual({ key: "t", consistent: false, outcome: "tie" });
    expect(resolveSwapped(j("t", "first", "tie"), "rerun")).toEqual({ key: "t", consistent: false, outcome: "rerun" });
  });

  it("tallies wins, losses and ties into the pairwise formula and warns above 10% inconsistency", () => {
    const judgements = [
      j("a", "first", "second"),
      j("b", "first", "second"),
      j("c", "second", "first"),
      j("d", "tie", "tie"),
      j("e", "first", "first"),
    ];
    const summary = summarizePairwise(judgements);
    expect(summary.counts).toEqual({ wins: 2, losses: 1, ties: 2 });
    expect(summary.winRate).toBe(0.6);
    const viaFormula = normalize("pairwise", summary.counts);
    expect(viaFormula.ok && viaFormula.value).toBe(summary.winRate);
    expect(summary.inconsistencyRate).toBe(0.2);
    expect(summary.warning).toBe(true);
  });

  it("does not warn at exactly 10% and lists re-runs under the rerun policy", () => {
    const consistent = Array.from({ length: 9 }, (_, index) => j(`k${index}`, "first", "second"));
    const atLimit = summarizePairwise([...consistent, j("x", "second", "second")]);
    expect(atLimit.inconsistencyRate).toBe(0.1);
    expect(atLimit.warning).toBe(false);
    const rerun = summarizePairwise([...consistent, j("x", "second", "second")], "rerun");
    expect(rerun.rerun).toEqual(["x"]);
    expect(rerun.counts).toEqual({ wins: 9, losses: 0, ties: 0 });
  });

  it("has no win rate without judgements", () => {
    expect(summarizePairwise([])).toMatchObject({ winRate: null, inconsistencyRate: null, warning: false });
  });

  it("parses the judge's tagged answer strictly", () => {
    expect(parsePairwiseReply("<reason>B misses the End node</reason><result> First </result>")).toEqual({ ok: true, value: { choice: "first", reason: "B misses the End node" } });
    expect(parsePairwiseReply("first is better").ok).toBe(false);
    expect(parsePairwiseReply("<result>both</result>").ok).toBe(false);
    expect(parsePairwiseReply("<result>first</result><result>second</result>").ok).toBe(false);
  });

  it("puts the two responses in the order given, as data inside tags", () => {
    const messages = pairwiseMessages("Build a summariser", "WF-A", "WF-B");
    expect(messages[1]?.content).toBe("Instruction:\nBuild a summariser\n\n<first>\nWF-A\n</first>\n\n<second>\nWF-B\n</second>");
  });
});

describe("asking a judge in both orders", () => {
  const items = [
    { key: "t1", instruction: "i1", candidate: "GOOD", baseline: "BAD" },
    { key: "t2", instruction: "i2", candidate: "GOOD", baseline: "BAD" },
  ];
  const firstText = (messages: { content: string }[]) => messages[1]!.content.split("<first>\n")[1]!.split("\n</first>")[0]!;

  it("a judge that prefers content wins consistently for the candidate", async () => {
    const ask: AskJudge = async (messages) => ({ ok: true, value: `<result>${firstText(messages) === "GOOD" ? "first" : "second"}</result>` });
    const run = await judgeSwappedPairs(items, ask);
    expect(run.summary.counts).toEqual({ wins: 2, losses: 0, ties: 0 });
    expect(run.summary.warning).toBe(false);
  });

  it("a judge that always picks the first position is all ties and triggers the warning; rerun asks again", async () => {
    const calls: string[] = [];
    const ask: AskJudge = async (messages) => {
      calls.push(firstText(messages));
      return { ok: true, value: "<result>first</result>" };
    };
    const run = await judgeSwappedPairs(items, ask);
    expect(run.summary.counts).toEqual({ wins: 0, losses: 0, ties: 2 });
    expect(run.summary.inconsistencyRate).toBe(1);
    expect(run.summary.warning).toBe(true);
    expect(calls).toEqual(["GOOD", "BAD", "GOOD", "BAD"]);
    calls.length = 0;
    const rerun = await judgeSwappedPairs(items, ask, "rerun");
    expect(calls).toHaveLength(8);
    expect(rerun.summary.counts.ties).toBe(2);
  });

  it("a failed call or malformed reply leaves the turn out and says why", async () => {
    const ask: AskJudge = async (messages) => (messages[1]!.content.includes("i1") ? { ok: false, issues: ["429 rate limited"] } : { ok: true, value: "no tag" });
    const run = await judgeSwappedPairs(items, ask);
    expect(run.summary.judged).toBe(0);
    expect(run.failed).toEqual([
      { key: "t1", order: "candidate-first", problem: "429 rate limited" },
      { key: "t2", order: "candidate-first", problem: "the reply has no <result> tag" },
    ]);
  });
});
