// Pairwise judging with swapped order (§8): the judge sees two responses to one turn in both orders; only outcomes
// that agree across orders count as wins, inconsistent ones become ties (or re-runs). Pure: prompt, parse, tally.

import { err, ok, type Result } from "../result";
import { normalize, type PairwiseCounts } from "./formulas";

/** The guide's warning threshold for the share of inconsistent swapped outcomes. */
export const INCONSISTENCY_WARNING_RATE = 0.1;

/** What the judge answered for the order it was shown: the first response, the second, or a tie. */
export type OrderedChoice = "first" | "second" | "tie";
export type PairOutcome = "candidate" | "baseline" | "tie";
export type InconsistencyPolicy = "tie" | "rerun";

export interface SwappedJudgement {
  key: string;
  /** Answer with the candidate shown first. */
  candidateFirst: OrderedChoice;
  /** Answer with the baseline shown first. */
  baselineFirst: OrderedChoice;
}

export interface ResolvedJudgement {
  key: string;
  consistent: boolean;
  /** "rerun" only under the rerun policy, for an inconsistent pair. */
  outcome: PairOutcome | "rerun";
}

function fromCandidateFirst(choice: OrderedChoice): PairOutcome {
  return choice === "first" ? "candidate" : choice === "second" ? "baseline" : "tie";
}

function fromBaselineFirst(choice: OrderedChoice): PairOutcome {
  return choice === "first" ? "baseline" : choice === "second" ? "candidate" : "tie";
}

/** Both orders must name the same winner (or both a tie); anything else is position bias showing through. */
export function resolveSwapped(judgement: SwappedJudgement, policy: InconsistencyPolicy = "tie"): ResolvedJudgement {
  const a = fromCandidateFirst(judgement.candidateFirst);
  const b = fromBaselineFirst(judgement.baselineFirst);
  if (a === b) return { key: judgement.key, consistent: true, outcome: a };
  return { key: judgement.key, consistent: false, outcome: policy === "rerun" ? "rerun" : "tie" };
}

export interface PairwiseSummary {
  /** Counts from the candidate's side, ready for the `pairwise` formula. */
  counts: PairwiseCounts;
  /** (wins + 0.5·ties) / compared; null when nothing was compared. */
  winRate: number | null;
  judged: number;
  inconsistent: number;
  inconsistencyRate: number | null;
  /** True when the inconsistency rate exceeds 0.10. */
  warning: boolean;
  /** Turns to judge again (rerun policy only). */
  rerun: string[];
  resolved: ResolvedJudgement[];
}

export function summarizePairwise(judgements: readonly SwappedJudgement[], policy: InconsistencyPolicy = "tie"): PairwiseSummary {
  const resolved = judgements.map((judgement) => resolveSwapped(judgement, policy));
  const counts: PairwiseCounts = { wins: 0, losses: 0, ties: 0 };
  for (const entry of resolved) {
    if (entry.outcome === "candidate") counts.wins += 1;
    else if (entry.outcome === "baseline") counts.losses += 1;
    else if (entry.outcome === "tie") counts.ties += 1;
  }
  const inconsistent = resolved.filter((entry) => !entry.consistent).length;
  const rate = judgements.length === 0 ? null : inconsistent / judgements.length;
  const norm = normalize("pairwise", counts);
  return {
    counts,
    winRate: norm.ok ? norm.value : null,
    judged: judgements.length,
    inconsistent,
    inconsistencyRate: rate,
    warning: rate !== null && rate > INCONSISTENCY_WARNING_RATE,
    rerun: resolved.filter((entry) => entry.outcome === "rerun").map((entry) => entry.key),
    resolved,
  };
}

/** The judge's task for one order: constrained to a tagged answer, low temperature is the caller's job. */
export function pairwiseMessages(instruction: string, first: string, second: string): { role: "system" | "user"; content: string }[] {
  return [
    {
      role: "system",
      content:
        "You compare two workflow designs written for the same instruction. Decide which one better satisfies the instruction: correct nodes, " +
        "correct data flow between them, and the requested inputs and outputs. Ignore length and style. Give a short reason in <reason></reason>, " +
        "then exactly one of first, second or tie in <result></result>.",
    },
    { role: "user", content: `Instruction:\n${instruction}\n\n<first>\n${first}\n</first>\n\n<second>\n${second}\n</second>` },
  ];
}

/** Reads the <result> tag strictly: a reply without exactly one of first/second/tie is malformed, never guessed. */
export function parsePairwiseReply(reply: string): Result<{ choice: OrderedChoice; reason: string | null }, string> {
  const results = [...reply.matchAll(/<result>\s*([^<]*?)\s*<\/result>/gi)];
  if (results.length !== 1) return err(results.length === 0 ? "the reply has no <result> tag" : "the reply has several <result> tags");
  const answer = results[0]![1]!.toLowerCase();
  if (answer !== "first" && answer !== "second" && answer !== "tie") return err(`the <result> must be first, second or tie, got "${answer}"`);
  const reason = reply.match(/<reason>([\s\S]*?)<\/reason>/i)?.[1]?.trim() ?? null;
  return ok({ choice: answer, reason });
}
