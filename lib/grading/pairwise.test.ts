import { describe, expect, it } from "vitest";
import { normalize } from "./formulas";
import { firstShownFor, judgeItem, judgeSwappedPairs, pairwiseMessages, pairwiseReport, parsePairwiseReply, resolveSwapped, type AskJudge, type JudgedItem, type SwappedJudgement } from "./pairwise";

const j = (key: string, candidateFirst: SwappedJudgement["candidateFirst"], baselineFirst: SwappedJudgement["baselineFirst"]): SwappedJudgement => ({ key, candidateFirst, baselineFirst });
const judged = (outcome: JudgedItem["outcome"], consistent = true, longer: JudgedItem["longer"] = "equal"): JudgedItem => ({ outcome, consistent, reran: false, longer });

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
    const report = pairwiseReport([judged("candidate"), judged("candidate"), judged("baseline"), judged("tie"), judged("tie", false), judged(null)]);
    expect(report.counts).toEqual({ wins: 2, losses: 1, ties: 2 });
    expect(report.winRate).toBe(0.6);
    const viaFormula = normalize("pairwise", report.counts);
    expect(viaFormula.ok && viaFormula.value).toBe(report.winRate);
    expect([report.judged, report.pending, report.inconsistencyRate, report.warning]).toEqual([5, 1, 0.2, true]);
  });

  it("does not warn at exactly 10%; has no win rate without judgements", () => {
    const atLimit = pairwiseReport([...Array.from({ length: 9 }, () => judged("candidate")), judged("tie", false)]);
    expect([atLimit.inconsistencyRate, atLimit.warning]).toEqual([0.1, false]);
    expect(pairwiseReport([])).toMatchObject({ winRate: null, inconsistencyRate: null, warning: false });
  });

  it("flags the judge when more than the threshold of decided wins go to the longer answer (from 5 decided on)", () => {
    const longerWins = [judged("candidate", true, "candidate"), judged("baseline", true, "baseline"), judged("candidate", true, "candidate"), judged("baseline", true, "baseline")];
    expect(pairwiseReport(longerWins).length).toMatchObject({ decided: 4, toLonger: 4, share: 1, flagged: false });
    const five = pairwiseReport([...longerWins, judged("candidate", true, "baseline"), judged("tie", true, "candidate")]);
    expect(five.length).toMatchObject({ decided: 5, toLonger: 4, share: 0.8, threshold: 0.7, flagged: true });
    expect(pairwiseReport([...longerWins, judged("candidate", true, "baseline")], 0.8).length.flagged).toBe(false);
  });

  it("parses the judge's tagged answer strictly", () => {
    expect(parsePairwiseReply("<reason>B misses the End node</reason><result> First </result>")).toEqual({ ok: true, value: { choice: "first", reason: "B misses the End node" } });
    expect(parsePairwiseReply("first is better").ok).toBe(false);
    expect(parsePairwiseReply("<result>both</result>").ok).toBe(false);
    expect(parsePairwiseReply("<result>first</result><result>second</result>").ok).toBe(false);
  });

  it("shows one instruction plainly, and every round's instruction up to the compared one for later rounds", () => {
    expect(pairwiseMessages(["Build a summariser"], "WF-A", "WF-B")[1]?.content).toBe("Instruction:\nBuild a summariser\n\n<first>\nWF-A\n</first>\n\n<second>\nWF-B\n</second>");
    const later = pairwiseMessages(["Build a summariser", "Also output the word count"], "WF-A", "WF-B")[1]!.content;
    expect(later).toBe(
      "Conversation so far (each round's instruction; the workflows answer the last round):\nRound 1:\nBuild a summariser\n\nRound 2:\nAlso output the word count\n\n<first>\nWF-A\n</first>\n\n<second>\nWF-B\n</second>",
    );
  });

  it("draws the first order per item from the seed: reproducible, and both orders occur", () => {
    const keys = Array.from({ length: 200 }, (_, index) => `Task_${index}:judge:s0`);
    const orders = keys.map((key) => firstShownFor(42, key));
    expect(keys.map((key) => firstShownFor(42, key))).toEqual(orders);
    const candidateFirst = orders.filter((side) => side === "candidate").length;
    expect(candidateFirst).toBeGreaterThan(70);
    expect(candidateFirst).toBeLessThan(130);
    expect(keys.map((key) => firstShownFor(43, key))).not.toEqual(orders);
  });
});

describe("asking a judge in both orders", () => {
  const items = [
    { key: "t1", conversation: ["i1"], candidate: "GOOD", baseline: "BAD" },
    { key: "t2", conversation: ["i2"], candidate: "GOOD", baseline: "BAD" },
  ];
  const firstText = (messages: { content: string }[]) => messages[1]!.content.split("<first>\n")[1]!.split("\n</first>")[0]!;

  it("a judge that prefers content wins consistently for the candidate", async () => {
    const ask: AskJudge = async (messages) => ({ ok: true, value: `<result>${firstText(messages) === "GOOD" ? "first" : "second"}</result>` });
    const run = await judgeSwappedPairs(items, ask, 7);
    expect(run.report.counts).toEqual({ wins: 2, losses: 0, ties: 0 });
    expect(run.report.warning).toBe(false);
  });

  it("asks the drawn order first, then the other; an always-first judge is all ties, and rerun asks once more", async () => {
    const calls: string[] = [];
    const ask: AskJudge = async (messages) => {
      calls.push(firstText(messages));
      return { ok: true, value: "<reason>the first one</reason><result>first</result>" };
    };
    const once = await judgeItem(ask, items[0]!, "baseline");
    expect(calls).toEqual(["BAD", "GOOD"]);
    expect(once.ok && once.value).toEqual({
      askings: [
        { round: 0, order: "baseline-first", choice: "first", reason: "the first one" },
        { round: 0, order: "candidate-first", choice: "first", reason: "the first one" },
      ],
      consistent: false,
      reran: false,
      outcome: "tie",
    });
    calls.length = 0;
    const rerun = await judgeItem(ask, items[0]!, "candidate", "rerun");
    expect(calls).toEqual(["GOOD", "BAD", "GOOD", "BAD"]);
    expect(rerun.ok && [rerun.value.consistent, rerun.value.reran, rerun.value.outcome]).toEqual([false, true, "tie"]);
    const run = await judgeSwappedPairs(items, ask, 1);
    expect(run.report).toMatchObject({ counts: { wins: 0, losses: 0, ties: 2 }, inconsistencyRate: 1, warning: true });
  });

  it("a failed call or malformed reply leaves the item out and says why", async () => {
    const ask: AskJudge = async (messages) => (messages[1]!.content.includes("i1") ? { ok: false, issues: ["429 rate limited"] } : { ok: true, value: "no tag" });
    const run = await judgeSwappedPairs(items, ask, 3);
    expect(run.report.judged).toBe(0);
    expect(run.failed.map((entry) => entry.key)).toEqual(["t1", "t2"]);
    expect(run.failed[0]!.problem).toMatch(/429 rate limited$/);
    expect(run.failed[1]!.problem).toMatch(/the reply has no <result> tag$/);
  });
});
