// Turns stored review votes into the agreement tables the pages show: per group (all, per judge, per model), the
// strict-unanimity rate, raw agreement, Cohen's kappa judge vs majority, Fleiss' kappa, the confusion matrix with
// item labels, and the disagreements; plus judge-vs-judge comparisons. Pure; the statistics are lib/stats/agreement.

import { formatPercent } from "../format";
import { compareJudges, reviewAgreement, type ConfusionMatrix, type Kappa, type Majority } from "../stats/agreement";
import { proportion, type Proportion } from "../stats/common";
import type { FollowedRules } from "./votes";

/** The paper's published agreement of its judge with three volunteers (strict unanimity), for reference. */
export const PAPER_AGREEMENT = {
  judge: "GPT-5.1",
  pass: { rate: 0.9718, instances: 355 },
  resolve: { rate: 0.9309, instances: 463 },
  crossCheck: { judge: "DeepSeek-V3", pass: 0.9662, resolve: 0.9179 },
} as const;

export interface StoredVote {
  annotator: string;
  /** The annotator's own verdict (true = pass). */
  pass: boolean;
  followedRules: FollowedRules | null;
  comment: string | null;
  updatedAt: Date;
  /** The voter could have seen the judge's verdict (a reveal queue, or the verdict shown elsewhere): not a blind label. */
  judgeVisible?: boolean;
}

/** One reviewed judge verdict with its votes. */
export interface ReviewedItem {
  id: string;
  /** Identifies the judge verdict across queues: response, stage, case and judge. */
  verdictKey: string;
  /** e.g. "demo_alpha · GrantProposalDigest round 2 · case 1". */
  label: string;
  stage: string;
  judge: string;
  model: string;
  judgeVerdict: boolean;
  votes: readonly StoredVote[];
  /** Votes the item needs to be complete (its queue's annotators per item); default 1. */
  required?: number;
}

/** An item counts in the agreement figures once it has every vote its queue asks for. */
export function isComplete(item: Pick<ReviewedItem, "votes" | "required">): boolean {
  return item.votes.length >= Math.max(1, item.required ?? 1);
}

export interface KappaView {
  value: number | null;
  text: string;
  /** Why it is undefined, or its ingredients. */
  note: string;
}

const KAPPA_REASONS: Record<string, string> = {
  "no-items": "no items to compare",
  "no-variance": "undefined: every rating is the same verdict, so chance agreement is already certain",
  "too-few-raters": "needs items with at least two votes",
};

export function kappaView(kappa: Kappa): KappaView {
  if (kappa.kappa === null) return { value: null, text: "—", note: KAPPA_REASONS[kappa.reason] ?? kappa.reason };
  return {
    value: kappa.kappa,
    text: kappa.kappa.toFixed(3),
    note: `observed ${formatPercent(kappa.observed)}, expected by chance ${formatPercent(kappa.expected)}, n = ${kappa.n}`,
  };
}

export interface CellItem {
  id: string;
  label: string;
}

export interface ConfusionView {
  rowLabel: string;
  columnLabel: string;
  /** [row pass, row fail] × [column pass, column fail]. */
  cells: { row: "pass" | "fail"; column: "pass" | "fail"; items: CellItem[] }[];
  total: number;
}

export function confusionView(matrix: ConfusionMatrix, labels: ReadonlyMap<string, string>, rowLabel: string, columnLabel: string): ConfusionView {
  const cell = (row: "pass" | "fail", column: "pass" | "fail", ids: string[]) => ({
    row,
    column,
    items: ids.map((id) => ({ id, label: labels.get(id) ?? id })),
  });
  const cells = [
    cell("pass", "pass", matrix.passPass),
    cell("pass", "fail", matrix.passFail),
    cell("fail", "pass", matrix.failPass),
    cell("fail", "fail", matrix.failFail),
  ];
  return { rowLabel, columnLabel, cells, total: cells.reduce((sum, entry) => sum + entry.items.length, 0) };
}

export interface DisagreementView {
  id: string;
  label: string;
  judge: string;
  model: string;
  judgeVerdict: boolean;
  /** Annotators who said pass / fail. */
  pass: number;
  fail: number;
  majority: Majority;
  comments: { annotator: string; comment: string }[];
}

export interface AgreementRow {
  key: string;
  /** "All items", a judge name or a model name. */
  label: string;
  group: "all" | "judge" | "model";
  /** Complete items (every vote the queue asks for: the metrics' n), items with some but not all votes, and without any. */
  items: number;
  incomplete: number;
  unvoted: number;
  votes: number;
  /** Of those votes, how many were cast with the judge's verdict visible (they may lean toward the judge). */
  visibleVotes: number;
  /** Every annotator's verdict equals the judge's. */
  strict: Proportion;
  /** Every annotator confirmed the judge followed its prompt's rules (the paper's wording of its criterion). */
  strictRules: Proportion;
  raw: Proportion;
  judgeVsMajority: KappaView;
  annotators: KappaView;
  /** Whether Fleiss' kappa had the same number of annotators on every item. */
  fixedRaters: boolean;
  ties: number;
  /** "Did the judge follow its rules?" answers over all votes. */
  rules: Record<FollowedRules | "unanswered", number>;
}

export interface AgreementReport {
  rows: AgreementRow[];
  /** For the "all" group. */
  confusion: ConfusionView;
  disagreements: DisagreementView[];
}

function rulesCounts(items: readonly ReviewedItem[]): AgreementRow["rules"] {
  const counts = { yes: 0, no: 0, unsure: 0, unanswered: 0 };
  for (const item of items) for (const vote of item.votes) counts[vote.followedRules ?? "unanswered"] += 1;
  return counts;
}

function row(key: string, label: string, group: AgreementRow["group"], items: readonly ReviewedItem[]): { row: AgreementRow; confusion: ConfusionMatrix; disagreements: string[] } {
  // Only complete items: an item still missing votes would count a partial majority (or unanimity of one).
  const voted = items.filter(isComplete);
  const result = reviewAgreement(voted.map((item) => ({ id: item.id, judge: item.judgeVerdict, votes: item.votes.map((vote) => vote.pass) })));
  // Ids are unique per queue item and every item has a vote, so the statistics accept the input.
  if (!result.ok) throw new Error(`agreement input rejected: ${result.issues.map((problem) => problem.message).join("; ")}`);
  const review = result.value;
  const rulesConfirmed = voted.filter((item) => item.votes.every((vote) => vote.followedRules === "yes")).length;
  return {
    row: {
      key,
      label,
      group,
      items: voted.length,
      incomplete: items.filter((item) => item.votes.length > 0 && !isComplete(item)).length,
      unvoted: items.filter((item) => item.votes.length === 0).length,
      votes: voted.reduce((sum, item) => sum + item.votes.length, 0),
      visibleVotes: voted.reduce((sum, item) => sum + item.votes.filter((vote) => vote.judgeVisible === true).length, 0),
      strict: review.strict,
      strictRules: proportion(rulesConfirmed, voted.length),
      raw: review.raw,
      judgeVsMajority: kappaView(review.judgeVsMajority),
      annotators: kappaView(review.annotators.result),
      fixedRaters: review.annotators.fixedRaters,
      ties: review.ties.length,
      rules: rulesCounts(voted),
    },
    confusion: review.confusion,
    disagreements: review.disagreements.map((summary) => summary.id),
  };
}

function groupsOf<T>(items: readonly T[], pick: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = pick(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** Agreement of one set of items (a queue, or one stage pooled across queues): all, then per judge, then per model. */
export function agreementReport(items: readonly ReviewedItem[]): AgreementReport {
  const all = row("all", "All items", "all", items);
  const rows = [all.row];
  for (const [judge, group] of groupsOf(items, (item) => item.judge)) rows.push(row(`judge:${judge}`, judge, "judge", group).row);
  for (const [model, group] of groupsOf(items, (item) => item.model)) rows.push(row(`model:${model}`, model, "model", group).row);
  const byId = new Map(items.map((item) => [item.id, item]));
  const labels = new Map(items.map((item) => [item.id, item.label]));
  const disagreements = all.disagreements.map((id): DisagreementView => {
    const item = byId.get(id)!;
    const pass = item.votes.filter((vote) => vote.pass).length;
    const fail = item.votes.length - pass;
    return {
      id,
      label: item.label,
      judge: item.judge,
      model: item.model,
      judgeVerdict: item.judgeVerdict,
      pass,
      fail,
      majority: pass === fail ? "tie" : pass > fail,
      comments: item.votes.filter((vote) => vote.comment).map((vote) => ({ annotator: vote.annotator, comment: vote.comment! })),
    };
  });
  return { rows, confusion: confusionView(all.confusion, labels, "Judge", "Annotator majority"), disagreements };
}

/**
 * Merges the same judge verdict reviewed in several queues into one item, keeping each annotator's latest vote,
 * so pooled figures count every verdict and every annotator once.
 */
export function poolByVerdict(items: readonly ReviewedItem[]): ReviewedItem[] {
  const pooled = new Map<string, { item: ReviewedItem; votes: Map<string, StoredVote> }>();
  for (const item of items) {
    const entry = pooled.get(item.verdictKey) ?? { item: { ...item, id: item.verdictKey }, votes: new Map<string, StoredVote>() };
    // Pooled over queues, an item is complete once it meets the most demanding queue's count.
    entry.item = { ...entry.item, required: Math.max(entry.item.required ?? 1, item.required ?? 1) };
    for (const vote of item.votes) {
      const previous = entry.votes.get(vote.annotator);
      if (!previous || previous.updatedAt.getTime() <= vote.updatedAt.getTime()) entry.votes.set(vote.annotator, vote);
    }
    pooled.set(item.verdictKey, entry);
  }
  return [...pooled.values()].map(({ item, votes }) => ({ ...item, votes: [...votes.values()] }));
}

export interface StageAgreement {
  stage: string;
  report: AgreementReport;
  /** Votes left out because they were cast with the judge's verdict visible. */
  visibleVotesLeftOut: number;
  paper: { rate: number; instances: number } | null;
}

/**
 * The overview: items of every queue pooled per stage, counting only blind labels (a vote cast with the judge's
 * verdict visible may lean toward it), so these are the figures comparable with the paper's.
 */
export function agreementByStage(items: readonly ReviewedItem[]): StageAgreement[] {
  return groupsOf(poolByVerdict(items), (item) => item.stage).map(([stage, group]) => ({
    stage,
    report: agreementReport(group.map((item) => ({ ...item, votes: item.votes.filter((vote) => vote.judgeVisible !== true) }))),
    visibleVotesLeftOut: group.reduce((sum, item) => sum + item.votes.filter((vote) => vote.judgeVisible === true).length, 0),
    paper: stage === "pass" ? PAPER_AGREEMENT.pass : stage === "resolve" ? PAPER_AGREEMENT.resolve : null,
  }));
}

// -- judge vs judge ------------------------------------------------------------------------------------------------

/** One stored judge verdict, for comparing judges with each other (no annotators involved). */
export interface JudgeVerdictRow {
  /** The judged item: response, stage and case. */
  itemKey: string;
  label: string;
  stage: string;
  model: string;
  judge: string;
  verdict: boolean;
}

export interface JudgePairRow {
  model: string;
  n: number;
  agreement: Proportion;
  kappa: KappaView;
}

export interface JudgePairComparison {
  stage: string;
  a: string;
  b: string;
  n: number;
  agreement: Proportion;
  kappa: KappaView;
  confusion: ConfusionView;
  byModel: JudgePairRow[];
}

/** "recorded" first, "rule" second, then other judges by name: the usual reading order of a pair. */
function judgeOrder(a: string, b: string): number {
  const rank = (judge: string) => (judge === "recorded" ? 0 : judge === "rule" ? 1 : 2);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** Every pair of judges that judged the same items, per stage, with agreement and Cohen's kappa between them. */
export function compareJudgePairs(rows: readonly JudgeVerdictRow[]): JudgePairComparison[] {
  const comparisons: JudgePairComparison[] = [];
  for (const [stage, stageRows] of groupsOf(rows, (entry) => entry.stage)) {
    const byJudge = new Map<string, Map<string, JudgeVerdictRow>>();
    for (const entry of stageRows) {
      const verdicts = byJudge.get(entry.judge) ?? new Map<string, JudgeVerdictRow>();
      verdicts.set(entry.itemKey, entry);
      byJudge.set(entry.judge, verdicts);
    }
    const judges = [...byJudge.keys()].sort(judgeOrder);
    for (let i = 0; i < judges.length; i++) {
      for (let j = i + 1; j < judges.length; j++) {
        const a = byJudge.get(judges[i]!)!;
        const b = byJudge.get(judges[j]!)!;
        const shared = [...a.values()].filter((entry) => b.has(entry.itemKey)).sort((x, y) => x.label.localeCompare(y.label));
        if (shared.length === 0) continue;
        const pairsOf = (entries: readonly JudgeVerdictRow[]) => entries.map((entry) => ({ id: entry.itemKey, a: entry.verdict, b: b.get(entry.itemKey)!.verdict }));
        const overall = compareJudges(pairsOf(shared));
        if (!overall.ok) continue;
        const byModel = groupsOf(shared, (entry) => entry.model).flatMap(([model, entries]): JudgePairRow[] => {
          const result = compareJudges(pairsOf(entries));
          return result.ok ? [{ model, n: entries.length, agreement: result.value.agreement, kappa: kappaView(result.value.kappa) }] : [];
        });
        comparisons.push({
          stage,
          a: judges[i]!,
          b: judges[j]!,
          n: shared.length,
          agreement: overall.value.agreement,
          kappa: kappaView(overall.value.kappa),
          confusion: confusionView(overall.value.confusion, new Map(shared.map((entry) => [entry.itemKey, entry.label])), judges[i]!, judges[j]!),
          byModel,
        });
      }
    }
  }
  return comparisons;
}
