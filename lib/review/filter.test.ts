import { describe, expect, it } from "vitest";
import { describeFilter, disagreesWith, disagreesWithRule, filterQuery, matchesFilter, queueFilterSchema, type QueueCandidate } from "./filter";

function candidate(overrides: Partial<QueueCandidate> = {}): QueueCandidate {
  return {
    judgeVerdictId: "jv1",
    responseId: "r1",
    stage: "pass",
    casePosition: 0,
    judge: "recorded",
    verdict: true,
    model: "demo_alpha",
    runLabel: "runs/demo_alpha.json",
    domain: "Research",
    turnKey: "GrantProposalDigest_1",
    others: [{ judge: "rule", verdict: true }],
    ...overrides,
  };
}

const filter = (input: Partial<Parameters<typeof queueFilterSchema.parse>[0]> = {}) => queueFilterSchema.parse({ benchmarkId: "b1", stage: "pass", ...input });

describe("queue filter", () => {
  it("defaults to any judge, model, domain and verdict", () => {
    expect(filter()).toEqual({ benchmarkId: "b1", stage: "pass", judges: [], models: [], domains: [], verdict: "any", disagreeWithRule: false });
    expect(matchesFilter(candidate(), filter())).toBe(true);
  });

  it("requires the stage and every listed condition", () => {
    expect(matchesFilter(candidate({ stage: "resolve", casePosition: 1 }), filter())).toBe(false);
    expect(matchesFilter(candidate(), filter({ judges: ["rule"] }))).toBe(false);
    expect(matchesFilter(candidate(), filter({ judges: ["rule", "recorded"] }))).toBe(true);
    expect(matchesFilter(candidate(), filter({ models: ["demo_beta"] }))).toBe(false);
    expect(matchesFilter(candidate(), filter({ domains: ["Research", "AIGC"] }))).toBe(true);
    expect(matchesFilter(candidate(), filter({ domains: ["AIGC"] }))).toBe(false);
    expect(matchesFilter(candidate(), filter({ verdict: "fail" }))).toBe(false);
    expect(matchesFilter(candidate({ verdict: false }), filter({ verdict: "fail" }))).toBe(true);
    expect(matchesFilter(candidate({ verdict: false }), filter({ verdict: "pass" }))).toBe(false);
  });

  it("keeps only verdicts that differ from the rule judge's when asked", () => {
    const agree = candidate();
    const differ = candidate({ others: [{ judge: "rule", verdict: false }] });
    const noRule = candidate({ others: [] });
    expect(matchesFilter(agree, filter({ disagreeWithRule: true }))).toBe(false);
    expect(matchesFilter(differ, filter({ disagreeWithRule: true }))).toBe(true);
    expect(matchesFilter(noRule, filter({ disagreeWithRule: true }))).toBe(false);
  });

  it("treats the rule judge itself as disagreeing when another judge differs from it", () => {
    expect(disagreesWithRule({ judge: "rule", verdict: true, others: [{ judge: "recorded", verdict: false }] })).toBe(true);
    expect(disagreesWithRule({ judge: "rule", verdict: true, others: [{ judge: "recorded", verdict: true }] })).toBe(false);
    expect(disagreesWithRule({ judge: "rule", verdict: true, others: [] })).toBe(false);
  });

  it("keeps only verdicts that differ from another judge's sample majority when asked", () => {
    // The other judge passes 2 of 3 samples (majority pass); a tie is a fail.
    const samples = [{ judge: "stub", verdict: true }, { judge: "stub", verdict: true }, { judge: "stub", verdict: false }];
    expect(matchesFilter(candidate({ verdict: false, others: samples }), filter({ disagreeWith: "stub" }))).toBe(true);
    expect(matchesFilter(candidate({ verdict: true, others: samples }), filter({ disagreeWith: "stub" }))).toBe(false);
    expect(disagreesWith({ verdict: true, others: [{ judge: "stub", verdict: true }, { judge: "stub", verdict: false }] }, "stub")).toBe(true);
    expect(disagreesWith({ verdict: true, others: [] }, "stub")).toBe(false);
    expect(describeFilter(filter({ judges: ["rule"], disagreeWith: "stub" }))).toBe("pass stage · judge rule · disagrees with stub");
  });

  it("describes itself in words", () => {
    expect(describeFilter(filter())).toBe("pass stage");
    expect(describeFilter(filter({ judges: ["recorded"], models: ["a", "b"], verdict: "fail", disagreeWithRule: true }))).toBe(
      "pass stage · judge recorded · models a, b · verdict fail · disagrees with the rule judge",
    );
  });

  it("rejects an unknown stage or verdict", () => {
    expect(queueFilterSchema.safeParse({ benchmarkId: "b1", stage: "both" }).success).toBe(false);
    expect(queueFilterSchema.safeParse({ benchmarkId: "b1", stage: "pass", verdict: "maybe" }).success).toBe(false);
  });

  it("round-trips through the query string the matching-count endpoint reads", () => {
    const original = filter({ judges: ["recorded", "rule"], models: ["m"], verdict: "pass", disagreeWithRule: true });
    const params = new URLSearchParams(filterQuery(original));
    expect(params.getAll("judge")).toEqual(["recorded", "rule"]);
    const parsed = queueFilterSchema.parse({
      benchmarkId: params.get("benchmarkId"),
      stage: params.get("stage"),
      judges: params.getAll("judge"),
      models: params.getAll("model"),
      domains: params.getAll("domain"),
      verdict: params.get("verdict"),
      disagreeWithRule: params.get("disagreeWithRule") === "true",
    });
    expect(parsed).toEqual(original);
  });
});
