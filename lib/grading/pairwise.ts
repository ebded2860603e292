// Pairwise judging with swapped order (§8): the judge sees two responses to one turn in both orders, the first drawn
// at random from a recorded seed; only outcomes that agree across orders count as wins, inconsistent ones become ties
// (after one rerun, if chosen). Pure: order, prompt, parse, tally and the length check.

import { err, ok, type Result } from "../result";
import { mulberry32 } from "../stats/paired";
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

/** The judge's task for one order: constrained to a tagged answer, low temperature is the caller's job. */
export function pairwiseMessages(conversation: readonly string[], first: string, second: string): { role: "system" | "user"; content: string }[] {
  // Later rounds say "also output…" about earlier ones, so the judge reads every instruction up to this round.
  const instructions =
    conversation.length === 1
      ? `Instruction:\n${conversation[0]}`
      : `Conversation so far (each round's instruction; the workflows answer the last round):\n${conversation.map((text, index) => `Round ${index + 1}:\n${text}`).join("\n\n")}`;
  return [
    {
      role: "system",
      content:
        "You compare two workflow designs written for the same conversation. Decide which one better satisfies the latest instruction together with " +
        "what earlier rounds asked for: correct nodes, correct data flow between them, and the requested inputs and outputs. Ignore length and style. " +
        "Give a short reason in <reason></reason>, then exactly one of first, second or tie in <result></result>.",
    },
    { role: "user", content: `${instructions}\n\n<first>\n${first}\n</first>\n\n<second>\n${second}\n</second>` },
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

// -- random order, asking in both orders, the length check -----------------------------------------------------------

export type Side = "candidate" | "baseline";

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/** §8.2: which answer an item shows first, drawn from the comparison's seed and the item's key (reproducible). */
export function firstShownFor(seed: number, key: string): Side {
  return mulberry32((seed ^ fnv1a(key)) >>> 0)() < 0.5 ? "candidate" : "baseline";
}

export function longerOf(candidate: string, baseline: string): Side | "equal" {
  return candidate.length === baseline.length ? "equal" : candidate.length > baseline.length ? "candidate" : "baseline";
}

export interface PairwiseItem {
  key: string;
  /** Every round's instruction up to and including the compared one. */
  conversation: readonly string[];
  candidate: string;
  baseline: string;
}

/** One chat completion: the reply text, or why there is none. The LLM client is injected, so this stays pure. */
export type AskJudge = (messages: { role: "system" | "user"; content: string }[]) => Promise<Result<string, string>>;

export interface Asking {
  /** 0 for the first pair of askings, 1 for the rerun. */
  round: number;
  order: "candidate-first" | "baseline-first";
  choice: OrderedChoice;
  reason: string | null;
}

export interface ItemJudgement {
  askings: Asking[];
  /** Whether the first two askings (both orders) agreed: the swap-consistency the guide tracks. */
  consistent: boolean;
  reran: boolean;
  outcome: PairOutcome;
}

async function askOne(ask: AskJudge, item: PairwiseItem, first: Side, round: number): Promise<Result<Asking, string>> {
  const [shownFirst, shownSecond] = first === "candidate" ? [item.candidate, item.baseline] : [item.baseline, item.candidate];
  const reply = await ask(pairwiseMessages(item.conversation, shownFirst, shownSecond));
  if (!reply.ok) return reply;
  const parsed = parsePairwiseReply(reply.value);
  if (!parsed.ok) return parsed;
  return ok({ round, order: first === "candidate" ? "candidate-first" : "baseline-first", choice: parsed.value.choice, reason: parsed.value.reason });
}

/**
 * Asks one comparison in both orders, `firstShown` first (§8.2–8.3). When the two disagree, the rerun policy asks
 * both orders once more; what still disagrees (or any disagreement under the tie policy) is a tie (§8.4).
 */
export async function judgeItem(ask: AskJudge, item: PairwiseItem, firstShown: Side, policy: InconsistencyPolicy = "tie"): Promise<Result<ItemJudgement, string>> {
  const askings: Asking[] = [];
  const other: Side = firstShown === "candidate" ? "baseline" : "candidate";
  let consistent = false;
  let outcome: PairOutcome = "tie";
  const rounds = policy === "rerun" ? 2 : 1;
  for (let round = 0; round < rounds; round += 1) {
    const a = await askOne(ask, item, firstShown, round);
    if (!a.ok) return err(`${firstShown}-first: ${a.issues.join("; ")}`);
    const b = await askOne(ask, item, other, round);
    if (!b.ok) return err(`${other}-first: ${b.issues.join("; ")}`);
    askings.push(a.value, b.value);
    const byOrder = (order: Asking["order"]) => [a.value, b.value].find((entry) => entry.order === order)!.choice;
    const resolved = resolveSwapped({ key: item.key, candidateFirst: byOrder("candidate-first"), baselineFirst: byOrder("baseline-first") });
    if (round === 0) consistent = resolved.consistent;
    if (resolved.consistent) {
      outcome = resolved.outcome as PairOutcome;
      break;
    }
  }
  return ok({ askings, consistent, reran: askings.length > 2, outcome });
}

/** Above this share of decided comparisons going to the longer answer, the length check flags the judge (ours). */
export const DEFAULT_LENGTH_THRESHOLD = 0.7;
/** Fewer decided comparisons than this say nothing about length bias. */
export const MIN_DECIDED_FOR_LENGTH_CHECK = 5;

export interface JudgedItem {
  outcome: PairOutcome | null;
  consistent: boolean | null;
  reran: boolean;
  longer: Side | "equal";
}

export interface PairwiseReport {
  counts: PairwiseCounts;
  winRate: number | null;
  judged: number;
  /** Items not judged yet or whose calls failed. */
  pending: number;
  inconsistent: number;
  inconsistencyRate: number | null;
  /** True above the guide's 0.10 warning threshold (§13). */
  warning: boolean;
  reran: number;
  length: { decided: number; toLonger: number; share: number | null; threshold: number; flagged: boolean };
}

/** Win rate, ties, swap-inconsistency rate and the length-controlled check over a comparison's items. */
export function pairwiseReport(items: readonly JudgedItem[], lengthThreshold = DEFAULT_LENGTH_THRESHOLD): PairwiseReport {
  const judged = items.filter((item): item is JudgedItem & { outcome: PairOutcome } => item.outcome !== null);
  const counts: PairwiseCounts = { wins: 0, losses: 0, ties: 0 };
  for (const item of judged) {
    if (item.outcome === "candidate") counts.wins += 1;
    else if (item.outcome === "baseline") counts.losses += 1;
    else counts.ties += 1;
  }
  const inconsistent = judged.filter((item) => item.consistent === false).length;
  const rate = judged.length === 0 ? null : inconsistent / judged.length;
  const norm = normalize("pairwise", counts);
  const decided = judged.filter((item) => item.outcome !== "tie" && item.longer !== "equal");
  const toLonger = decided.filter((item) => item.outcome === item.longer).length;
  const share = decided.length === 0 ? null : toLonger / decided.length;
  return {
    counts,
    winRate: norm.ok ? norm.value : null,
    judged: judged.length,
    pending: items.length - judged.length,
    inconsistent,
    inconsistencyRate: rate,
    warning: rate !== null && rate > INCONSISTENCY_WARNING_RATE,
    reran: judged.filter((item) => item.reran).length,
    length: { decided: decided.length, toLonger, share, threshold: lengthThreshold, flagged: share !== null && decided.length >= MIN_DECIDED_FOR_LENGTH_CHECK && share > lengthThreshold },
  };
}

export interface PairwiseRun {
  report: PairwiseReport;
  judgements: (ItemJudgement & { key: string; firstShown: Side })[];
  /** Items whose judge call failed or whose reply was malformed: not counted, listed with why. */
  failed: { key: string; problem: string }[];
}

/** Judges every item in turn (so the client's own limits pace the calls), first orders drawn from `seed`. */
export async function judgeSwappedPairs(items: readonly PairwiseItem[], ask: AskJudge, seed: number, policy: InconsistencyPolicy = "tie", lengthThreshold = DEFAULT_LENGTH_THRESHOLD): Promise<PairwiseRun> {
  const judgements: PairwiseRun["judgements"] = [];
  const failed: PairwiseRun["failed"] = [];
  const judgedItems: JudgedItem[] = [];
  for (const item of items) {
    const firstShown = firstShownFor(seed, item.key);
    const judged = await judgeItem(ask, item, firstShown, policy);
    if (!judged.ok) {
      failed.push({ key: item.key, problem: judged.issues.join("; ") });
      continue;
    }
    judgements.push({ ...judged.value, key: item.key, firstShown });
    judgedItems.push({ ...judged.value, longer: longerOf(item.candidate, item.baseline) });
  }
  return { report: pairwiseReport(judgedItems, lengthThreshold), judgements, failed };
}
