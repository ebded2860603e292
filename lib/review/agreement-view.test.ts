import { describe, expect, it } from "vitest";
import { agreementByStage, agreementReport, compareJudgePairs, kappaView, PAPER_AGREEMENT, poolByVerdict, type JudgeVerdictRow, type ReviewedItem, type StoredVote } from "./agreement-view";
import type { FollowedRules } from "./votes";

const T = true;
const F = false;
const AT = new Date("2026-12-01T10:00:00Z");

function votes(passes: boolean[], rules: FollowedRules[] = passes.map(() => "yes"), comments: (string | null)[] = []): StoredVote[] {
  return passes.map((pass, index) => ({ annotator: `a${index + 1}`, pass, followedRules: rules[index] ?? null, comment: comments[index] ?? null, updatedAt: AT }));
}

function reviewed(id: string, judge: string, model: string, judgeVerdict: boolean, itemVotes: StoredVote[], stage = "pass"): ReviewedItem {
  return { id, verdictKey: `resp-${id}/${stage}/0/${judge}`, label: `${model} · Task ${id}`, stage, judge, model, judgeVerdict, votes: itemVotes };
}

// a1 judge pass,  annotators pass pass pass, rules all yes        → strict agree, rules confirmed
// a2 judge pass,  annotators pass pass fail, one "no"             → majority pass, not strict
// a3 judge fail,  annotators fail fail fail, one "unsure"         → strict agree, rules not confirmed by all
// a4 judge fail,  annotators pass pass pass, all "no"             → unanimous against the judge
// a5 judge pass,  no votes yet                                    → outside every metric
const ITEMS: ReviewedItem[] = [
  reviewed("a1", "recorded", "m1", T, votes([T, T, T])),
  reviewed("a2", "recorded", "m1", T, votes([T, T, F], ["yes", "yes", "no"], [null, null, "misses the extra node"])),
  reviewed("a3", "rule", "m2", F, votes([F, F, F], ["yes", "yes", "unsure"])),
  reviewed("a4", "rule", "m2", F, votes([T, T, T], ["no", "no", "no"])),
  reviewed("a5", "recorded", "m1", T, []),
];

describe("agreement report of a queue", () => {
  const report = agreementReport(ITEMS);
  const all = report.rows[0]!;

  it("counts voted items and votes, leaving unvoted items out", () => {
    expect(all).toMatchObject({ key: "all", items: 4, incomplete: 0, unvoted: 1, votes: 12, ties: 0 });
  });

  it("counts only items with every vote their queue asks for, and says how many are incomplete", () => {
    const asking3 = ITEMS.map((item) => ({ ...item, required: 3 }));
    // a2 has two of three votes: left out of every figure until its third vote arrives.
    const partial = asking3.map((item) => (item.id === "a2" ? { ...item, votes: item.votes.slice(0, 2) } : item));
    const row = agreementReport(partial).rows[0]!;
    expect(row).toMatchObject({ items: 3, incomplete: 1, unvoted: 1, votes: 9 });
    expect(row.strict).toEqual({ num: 2, den: 3, rate: 2 / 3 });
  });

  it("computes strict unanimity on the verdict and on the rules, and raw agreement over votes", () => {
    expect(all.strict).toEqual({ num: 2, den: 4, rate: 0.5 });
    expect(all.strictRules).toEqual({ num: 1, den: 4, rate: 0.25 });
    // Votes equal to the judge's verdict: 3 + 2 + 3 + 0 of 12.
    expect(all.raw).toEqual({ num: 8, den: 12, rate: 8 / 12 });
    expect(all.rules).toEqual({ yes: 7, no: 4, unsure: 1, unanswered: 0 });
  });

  it("computes Cohen's kappa judge vs majority and Fleiss' kappa among annotators", () => {
    // Judge × majority: a = 2 (a1, a2), b = 0, c = 1 (a4), d = 1 (a3): κ = 2(ad − bc)/((a+b)(b+d) + (a+c)(c+d)) = 4/8.
    expect(all.judgeVsMajority.value).toBeCloseTo(0.5, 12);
    expect(all.judgeVsMajority.text).toBe("0.500");
    expect(all.judgeVsMajority.note).toBe("observed 75.00%, expected by chance 50.00%, n = 4");
    // Pᵢ = 1, 1/3, 1, 1 → P̄ = 5/6; p = 8/12 → Pₑ = 5/9; κ = (5/6 − 5/9)/(1 − 5/9) = 5/8.
    expect(all.annotators.value).toBeCloseTo(0.625, 12);
    expect(all.fixedRaters).toBe(true);
  });

  it("lists each confusion cell's items by label", () => {
    const cells = Object.fromEntries(report.confusion.cells.map((cell) => [`${cell.row}/${cell.column}`, cell.items.map((item) => item.id)]));
    expect(cells).toEqual({ "pass/pass": ["a1", "a2"], "pass/fail": [], "fail/pass": ["a4"], "fail/fail": ["a3"] });
    expect(report.confusion.cells[0]!.items[0]).toEqual({ id: "a1", label: "m1 · Task a1" });
    expect(report.confusion.total).toBe(4);
  });

  it("lists the disagreements with their vote split and comments", () => {
    expect(report.disagreements.map((item) => [item.id, item.pass, item.fail, item.majority])).toEqual([
      ["a2", 2, 1, T],
      ["a4", 3, 0, T],
    ]);
    expect(report.disagreements[0]!.comments).toEqual([{ annotator: "a3", comment: "misses the extra node" }]);
  });

  it("breaks the figures down per judge and per model", () => {
    expect(report.rows.map((row) => [row.key, row.items, row.strict.num])).toEqual([
      ["all", 4, 2],
      ["judge:recorded", 2, 1],
      ["judge:rule", 2, 1],
      ["model:m1", 2, 1],
      ["model:m2", 2, 1],
    ]);
    // rule judge: a3 fail/fail, a4 fail/pass → pₒ = 1/2 = pₑ, κ = 0.
    expect(report.rows[2]!.judgeVsMajority.value).toBe(0);
  });
});

describe("edge cases", () => {
  it("reports kappas as undefined, with the reason, when everyone agrees on one verdict", () => {
    const report = agreementReport([reviewed("x", "recorded", "m", T, votes([T, T, T])), reviewed("y", "recorded", "m", T, votes([T, T, T]))]);
    const all = report.rows[0]!;
    expect(all.strict).toEqual({ num: 2, den: 2, rate: 1 });
    expect(all.raw.rate).toBe(1);
    expect(all.judgeVsMajority).toMatchObject({ value: null, text: "—" });
    expect(all.judgeVsMajority.note).toMatch(/every rating is the same verdict/);
    expect(all.annotators.value).toBeNull();
    expect(report.disagreements).toEqual([]);
  });

  it("reports an empty queue without NaN", () => {
    const all = agreementReport([reviewed("x", "recorded", "m", T, [])]).rows[0]!;
    expect(all.items).toBe(0);
    expect(all.strict.rate).toBeNull();
    expect(all.raw.rate).toBeNull();
    expect(all.judgeVsMajority.note).toBe("no items to compare");
    expect(all.annotators.note).toBe("no items to compare");
  });

  it("explains a Fleiss' kappa without items of two or more votes", () => {
    const all = agreementReport([reviewed("x", "recorded", "m", T, votes([T])), reviewed("y", "recorded", "m", F, votes([T]))]).rows[0]!;
    expect(all.annotators.note).toBe("needs items with at least two votes");
    expect(kappaView({ kappa: 0.25, observed: 0.5, expected: 1 / 3, n: 6 }).text).toBe("0.250");
  });
});

describe("pooling across queues", () => {
  it("counts a verdict reviewed in two queues once, with each annotator's latest vote", () => {
    const first = reviewed("q1-item", "recorded", "m", T, [{ annotator: "ann", pass: F, followedRules: "no", comment: null, updatedAt: new Date("2026-12-01T10:00:00Z") }]);
    const second = {
      ...reviewed("q2-item", "recorded", "m", T, [
        { annotator: "ann", pass: T, followedRules: "yes", comment: null, updatedAt: new Date("2026-12-02T10:00:00Z") },
        { annotator: "bob", pass: T, followedRules: "yes", comment: null, updatedAt: new Date("2026-12-02T10:00:00Z") },
      ]),
      verdictKey: first.verdictKey,
    };
    const pooled = poolByVerdict([first, second]);
    expect(pooled).toHaveLength(1);
    expect(pooled[0]!.id).toBe(first.verdictKey);
    expect(pooled[0]!.votes.map((vote) => [vote.annotator, vote.pass])).toEqual([
      ["ann", T],
      ["bob", T],
    ]);
  });

  it("groups the overview by stage with the paper's figure beside each", () => {
    const stages = agreementByStage([...ITEMS, reviewed("r1", "recorded", "m1", T, votes([T, T]), "resolve")]);
    expect(stages.map((stage) => [stage.stage, stage.report.rows[0]!.items, stage.paper?.rate])).toEqual([
      ["pass", 4, 0.9718],
      ["resolve", 1, 0.9309],
    ]);
    expect(stages.map((stage) => stage.visibleVotesLeftOut)).toEqual([0, 0]);
    expect(PAPER_AGREEMENT.pass.instances).toBe(355);
    expect(PAPER_AGREEMENT.resolve.instances).toBe(463);
  });
});

describe("pooled agreement counts blind labels only", () => {
  it("leaves out votes cast with the verdict visible, says how many, and keeps them in the queue's own figures", () => {
    const seen = (list: StoredVote[], visible: boolean[]) => list.map((vote, index) => ({ ...vote, judgeVisible: visible[index] ?? false }));
    // b1: two blind votes agreeing with the judge; b2: one blind fail and one visible pass of a judge's pass.
    const items = [reviewed("b1", "j", "m1", T, seen(votes([T, T]), [F, F])), { ...reviewed("b2", "j", "m1", T, seen(votes([F, T]), [F, T])), required: 1 }];
    const [pass] = agreementByStage(items);
    expect(pass!.visibleVotesLeftOut).toBe(1);
    expect(pass!.report.rows[0]).toMatchObject({ items: 2, votes: 3, visibleVotes: 0, strict: { num: 1, den: 2 } });
    const queue = agreementReport(items).rows[0]!;
    expect(queue).toMatchObject({ votes: 4, visibleVotes: 1 });
  });
});

describe("judge vs judge", () => {
  const row = (item: string, judge: string, verdict: boolean, model = "m1"): JudgeVerdictRow => ({ itemKey: item, label: `${model} · ${item}`, stage: "pass", model, judge, verdict });
  const rows = [
    row("x1", "recorded", T),
    row("x1", "rule", T),
    row("x2", "recorded", T),
    row("x2", "rule", F),
    row("x3", "recorded", F, "m2"),
    row("x3", "rule", F, "m2"),
    row("x4", "rule", F, "m2"),
    row("x4", "recorded", F, "m2"),
    row("x5", "recorded", T),
  ];

  it("compares two judges over the items both judged, recorded first", () => {
    const [comparison, ...rest] = compareJudgePairs(rows);
    expect(rest).toEqual([]);
    expect(comparison).toMatchObject({ stage: "pass", a: "recorded", b: "rule", n: 4 });
    expect(comparison!.agreement).toEqual({ num: 3, den: 4, rate: 0.75 });
    // a = 1, b = 1, c = 0, d = 2: κ = 2(2 − 0)/((2)(3) + (1)(2)) = 1/2.
    expect(comparison!.kappa.value).toBeCloseTo(0.5, 12);
    expect(comparison!.confusion.cells.map((cell) => cell.items.map((item) => item.id))).toEqual([["x1"], ["x2"], [], ["x3", "x4"]]);
    expect(comparison!.byModel.map((entry) => [entry.model, entry.n, entry.agreement.num])).toEqual([
      ["m1", 2, 1],
      ["m2", 2, 2],
    ]);
  });

  it("finds nothing to compare with a single judge", () => {
    expect(compareJudgePairs([row("x1", "recorded", T)])).toEqual([]);
  });
});
