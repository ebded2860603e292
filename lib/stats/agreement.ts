// Agreement between an LLM judge and human annotators (and between two judges) for the judge-review features.
// Kappas are exact ratios of integer counts or null with a stated reason, never NaN; every cell names its items.

import { z } from "zod";
import { checkIds, issue, proportion, type Proportion, type StatsIssue } from "./common";
import type { PairedItem } from "./paired";
import { err, ok, type Result } from "../result";

/** A reviewed item: the judge's verdict (true = pass) and each annotator's verdict on the same question. */
export const reviewItemSchema = z.object({
  id: z.string().min(1),
  judge: z.boolean(),
  votes: z.array(z.boolean()).min(1, "an item needs at least one annotator vote"),
});

export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** The annotators' majority verdict; "tie" when as many vote pass as fail. */
export type Majority = boolean | "tie";

export interface ItemSummary {
  id: string;
  judge: boolean;
  /** Annotator votes for pass and for fail. */
  yes: number;
  no: number;
  majority: Majority;
  /** All annotators gave the same verdict (always true with a single annotator). */
  unanimous: boolean;
  /** Every annotator's verdict equals the judge's: the paper's strict-unanimity criterion. */
  strictAgree: boolean;
}

export type KappaUndefinedReason = "no-items" | "no-variance" | "too-few-raters";

/**
 * Kappa with its ingredients. Undefined (null) when there is nothing to measure or when chance agreement is
 * already certain (expected = 1: every rating is the same category, so observed agreement says nothing).
 */
export type Kappa =
  | { kappa: number; observed: number; expected: number; n: number }
  | { kappa: null; reason: KappaUndefinedReason; observed: number | null; expected: number | null; n: number };

/** 2×2 table of two raters; the first word is the row rater's verdict, the second the column rater's. */
export interface ConfusionMatrix {
  passPass: string[];
  passFail: string[];
  failPass: string[];
  failFail: string[];
}

function emptyMatrix(): ConfusionMatrix {
  return { passPass: [], passFail: [], failPass: [], failFail: [] };
}

function place(matrix: ConfusionMatrix, id: string, row: boolean, column: boolean): void {
  if (row && column) matrix.passPass.push(id);
  else if (row) matrix.passFail.push(id);
  else if (column) matrix.failPass.push(id);
  else matrix.failFail.push(id);
}

/**
 * Cohen's kappa of a 2×2 table with cells a = pass/pass, b = pass/fail, c = fail/pass, d = fail/fail. Expanding
 * (pₒ − pₑ) / (1 − pₑ) over n² gives 2(ad − bc) / ((a + b)(b + d) + (a + c)(c + d)): integer arithmetic until the
 * single division, so no cancellation, and the denominator is 0 exactly when pₑ = 1.
 */
export function cohenKappaFromCounts(a: number, b: number, c: number, d: number): Kappa {
  const n = a + b + c + d;
  if (n === 0) return { kappa: null, reason: "no-items", observed: null, expected: null, n };
  const observed = (a + d) / n;
  const expected = ((a + b) * (a + c) + (c + d) * (b + d)) / (n * n);
  const denominator = (a + b) * (b + d) + (a + c) * (c + d);
  if (denominator === 0) return { kappa: null, reason: "no-variance", observed, expected: 1, n };
  return { kappa: (2 * (a * d - b * c)) / denominator, observed, expected, n };
}

export function cohenKappa(matrix: ConfusionMatrix): Kappa {
  return cohenKappaFromCounts(matrix.passPass.length, matrix.passFail.length, matrix.failPass.length, matrix.failFail.length);
}

export interface FleissKappa {
  result: Kappa;
  /** Items that entered the computation (at least two votes). */
  items: number;
  /** Items with a single vote: they carry no inter-annotator information and are left out. */
  excluded: string[];
  /** Whether every included item had the same number of annotators (then this is Fleiss' kappa exactly). */
  fixedRaters: boolean;
}

/**
 * Fleiss' kappa among annotators, generalised to items with different numbers of raters: each item's agreement is
 * the share of agreeing ordered rater pairs, Pᵢ = Σⱼ nᵢⱼ(nᵢⱼ − 1) / (nᵢ(nᵢ − 1)), averaged over items unweighted;
 * category shares pⱼ pool all ratings. With a constant rater count this is Fleiss' original statistic exactly,
 * and unlike restricting to the modal count it loses no item. 1 − Pₑ is computed as 2·p·q, not 1 − (p² + q²).
 */
export function fleissKappa(items: readonly Pick<ReviewItem, "id" | "votes">[]): FleissKappa {
  const included = items.filter((item) => item.votes.length >= 2);
  const excluded = items.filter((item) => item.votes.length < 2).map((item) => item.id);
  const fixedRaters = new Set(included.map((item) => item.votes.length)).size <= 1;
  const n = included.length;
  if (n === 0) {
    const reason: KappaUndefinedReason = items.length === 0 ? "no-items" : "too-few-raters";
    return { result: { kappa: null, reason, observed: null, expected: null, n }, items: 0, excluded, fixedRaters };
  }
  let agreementSum = 0;
  let yesTotal = 0;
  let ratingTotal = 0;
  for (const item of included) {
    const raters = item.votes.length;
    const yes = item.votes.filter(Boolean).length;
    const no = raters - yes;
    agreementSum += (yes * (yes - 1) + no * (no - 1)) / (raters * (raters - 1));
    yesTotal += yes;
    ratingTotal += raters;
  }
  const observed = agreementSum / n;
  const p = yesTotal / ratingTotal;
  const q = (ratingTotal - yesTotal) / ratingTotal;
  const expected = p * p + q * q;
  if (yesTotal === 0 || yesTotal === ratingTotal) {
    return { result: { kappa: null, reason: "no-variance", observed, expected: 1, n }, items: n, excluded, fixedRaters };
  }
  return { result: { kappa: (observed - expected) / (2 * p * q), observed, expected, n }, items: n, excluded, fixedRaters };
}

export interface JudgeReview {
  items: ItemSummary[];
  /** Items where every annotator agrees with the judge, over all items (the paper's strict-unanimity rate). */
  strict: Proportion;
  /** The same, over only the items where the annotators are unanimous among themselves. */
  strictAmongUnanimous: Proportion;
  /** Annotator votes equal to the judge's verdict, over all votes (each vote one comparison). */
  raw: Proportion;
  /** Ids whose annotator majority is a tie; they are outside the judge-vs-majority kappa and matrix. */
  ties: string[];
  /** Judge (rows) against annotator majority (columns), ties excluded. */
  confusion: ConfusionMatrix;
  judgeVsMajority: Kappa;
  annotators: FleissKappa;
  /** Items where at least one annotator disagrees with the judge, in input order. */
  disagreements: ItemSummary[];
}

function summarize(item: ReviewItem): ItemSummary {
  const yes = item.votes.filter(Boolean).length;
  const no = item.votes.length - yes;
  const majority: Majority = yes === no ? "tie" : yes > no;
  const agreeing = item.judge ? yes : no;
  return { id: item.id, judge: item.judge, yes, no, majority, unanimous: yes === 0 || no === 0, strictAgree: agreeing === item.votes.length };
}

/** Every agreement figure of a judge-review sample. Zero items is valid input: rates and kappas are then null. */
export function reviewAgreement(items: readonly ReviewItem[]): Result<JudgeReview, StatsIssue> {
  const issues: StatsIssue[] = [];
  items.forEach((raw, index) => {
    const parsed = reviewItemSchema.safeParse(raw);
    if (!parsed.success) {
      for (const zodIssue of parsed.error.issues) {
        issues.push(issue("invalid-review-item", zodIssue.message, [index, ...zodIssue.path.map((part) => (typeof part === "number" ? part : String(part)))]));
      }
    }
  });
  if (issues.length === 0) issues.push(...checkIds(items.map((item) => item.id), "item"));
  if (issues.length > 0) return err(...issues);

  const summaries = items.map(summarize);
  const unanimous = summaries.filter((summary) => summary.unanimous);
  const votes = summaries.reduce((sum, summary) => sum + summary.yes + summary.no, 0);
  const agreeingVotes = summaries.reduce((sum, summary) => sum + (summary.judge ? summary.yes : summary.no), 0);
  const confusion = emptyMatrix();
  for (const summary of summaries) {
    if (summary.majority !== "tie") place(confusion, summary.id, summary.judge, summary.majority);
  }
  return ok({
    items: summaries,
    strict: proportion(summaries.filter((summary) => summary.strictAgree).length, summaries.length),
    strictAmongUnanimous: proportion(unanimous.filter((summary) => summary.strictAgree).length, unanimous.length),
    raw: proportion(agreeingVotes, votes),
    ties: summaries.filter((summary) => summary.majority === "tie").map((summary) => summary.id),
    confusion,
    judgeVsMajority: cohenKappa(confusion),
    annotators: fleissKappa(items),
    disagreements: summaries.filter((summary) => !summary.strictAgree),
  });
}

export interface JudgeComparison {
  /** Items where the two judges give the same verdict. */
  agreement: Proportion;
  kappa: Kappa;
  /** Judge A (rows) against judge B (columns). */
  confusion: ConfusionMatrix;
}

/** Two judges over the same items (join their verdicts with pairItems from ./paired): `a` and `b` are verdicts. */
export function compareJudges(pairs: readonly PairedItem[]): Result<JudgeComparison, StatsIssue> {
  const idIssues = checkIds(pairs.map((pair) => pair.id), "item");
  if (idIssues.length > 0) return err(...idIssues);
  const confusion = emptyMatrix();
  for (const pair of pairs) place(confusion, pair.id, pair.a, pair.b);
  return ok({
    agreement: proportion(confusion.passPass.length + confusion.failFail.length, pairs.length),
    kappa: cohenKappa(confusion),
    confusion,
  });
}
