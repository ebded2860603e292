// Pairwise judging with swapped order (§8): the judge sees two responses to one turn in both orders; only outcomes
// that agree across orders count as wins, inconsistent ones become ties (or re-runs). Pure: prompt, parse, tally.

import { err, ok, type Result } from "../result";
import { firstTaggedSection } from "../workflow/tagged-section";
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

const RESULT_OPEN = /<result>/gi;
const RESULT_CLOSE = /<\/result>/iy;

/**
 * The trimmed bodies of `/<result>\s*([^<]*?)\s*<\/result>/gi`, in one pass: a body holds no `<`, so a section is an
 * opening tag whose next `<` starts the closing tag (the pattern backtracks over long blank bodies).
 */
function resultSections(reply: string): string[] {
  const bodies: string[] = [];
  RESULT_OPEN.lastIndex = 0;
  for (let open = RESULT_OPEN.exec(reply); open !== null; open = RESULT_OPEN.exec(reply)) {
    const bodyStart = open.index + open[0].length;
    const next = reply.indexOf("<", bodyStart);
    if (next === -1) break;
    RESULT_CLOSE.lastIndex = next;
    if (RESULT_CLOSE.test(reply)) {
      bodies.push(reply.slice(bodyStart, next).trim());
      RESULT_OPEN.lastIndex = RESULT_CLOSE.lastIndex;
    }
  }
  return bodies;
}

/** Reads the <result> tag strictly: a reply without exactly one of first/second/tie is malformed, never guessed. */
export function parsePairwiseReply(reply: string): Result<{ choice: OrderedChoice; reason: string | null }, string> {
  const results = resultSections(reply);
  if (results.length !== 1) return err(results.length === 0 ? "the reply has no <result> tag" : "the reply has several <result> tags");
  const answer = results[0]!.toLowerCase();
  if (answer !== "first" && answer !== "second" && answer !== "tie") return err(`the <result> must be first, second or tie, got "${answer}"`);
  const reason = firstTaggedSection(reply, "reason")?.body.trim() ?? null;
  return ok({ choice: answer, reason });
}

// -- asking a judge in both orders ---------------------------------------------------------------------------------

export interface PairwiseItem {
  key: string;
  instruction: string;
  candidate: string;
  baseline: string;
}

/** One chat completion: the reply text, or why there is none. The LLM client is injected, so this stays pure. */
export type AskJudge = (messages: { role: "system" | "user"; content: string }[]) => Promise<Result<string, string>>;

export interface PairwiseRun {
  summary: PairwiseSummary;
  /** Turns whose judge call failed or whose reply was malformed in either order: not counted, listed with why. */
  failed: { key: string; order: "candidate-first" | "baseline-first"; problem: string }[];
}

async function askOrder(ask: AskJudge, item: PairwiseItem, candidateFirst: boolean): Promise<Result<OrderedChoice, string>> {
  const [first, second] = candidateFirst ? [item.candidate, item.baseline] : [item.baseline, item.candidate];
  const reply = await ask(pairwiseMessages(item.instruction, first, second));
  if (!reply.ok) return reply;
  const parsed = parsePairwiseReply(reply.value);
  return parsed.ok ? ok(parsed.value.choice) : parsed;
}

/**
 * Asks the judge about every turn in both orders (one turn at a time, so the client's own limits pace the calls).
 * Under the rerun policy an inconsistent turn is asked once more in both orders; a second inconsistency is a tie.
 */
export async function judgeSwappedPairs(items: readonly PairwiseItem[], ask: AskJudge, policy: InconsistencyPolicy = "tie"): Promise<PairwiseRun> {
  const judgements: SwappedJudgement[] = [];
  const failed: PairwiseRun["failed"] = [];
  for (const item of items) {
    let judgement: SwappedJudgement | null = null;
    for (let attempt = 0; attempt < (policy === "rerun" ? 2 : 1); attempt += 1) {
      const a = await askOrder(ask, item, true);
      const b = a.ok ? await askOrder(ask, item, false) : null;
      if (!a.ok || !b || !b.ok) {
        failed.push({ key: item.key, order: !a.ok ? "candidate-first" : "baseline-first", problem: (!a.ok ? a.issues : b && !b.ok ? b.issues : []).join("; ") });
        judgement = null;
        break;
      }
      judgement = { key: item.key, candidateFirst: a.value, baselineFirst: b.value };
      if (resolveSwapped(judgement).consistent) break;
    }
    if (judgement) judgements.push(judgement);
  }
  // After the re-run, a pair still inconsistent counts as a tie rather than staying open.
  return { summary: summarizePairwise(judgements, "tie"), failed };
}
