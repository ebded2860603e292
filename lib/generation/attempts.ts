// One agentic turn as the official baseline runs it: up to 5 attempts, each a fresh single-message call, with the
// official selection, tag check, auto-repairs, static validation, acceptance and fallback; in feedback mode attempts
// 2-5 also tell the model what was wrong with the previous attempt. Every attempt is kept as data.
// The only I/O is the injected `complete` function; this module never throws for a model's output. It sees the
// instruction, the skill and the model's answers only: nothing here can reach the benchmark's check files.

import { namedVariables } from "@/lib/benchmark/instruction";
import { diagnoseWithoutTask } from "@/lib/workflow/diagnose";
import type { Diagnostic } from "@/lib/workflow/diagnostics";
import { applyOfficialAutofixes, type AppliedAutofix } from "@/lib/workflow/repair-official";
import { agenticMessage, hasWorkflowTags, prefixedQuery, storedAnswer, TIMEOUT_ANSWER, TIMEOUT_PREFIX } from "./protocol";
import { officialValidation, workflowJsonIsObject, type ValidationIssue } from "./validate";

export const MAX_ATTEMPTS = 5;

/** One run of an agent framework (opencode) behind an attempt, as the attempt timeline shows it. */
export interface AgentRunRecord {
  /** The agent package and version, e.g. "opencode-ai 1.3.2". */
  agent: string;
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
  /** Every step's text, in order (the official parse of the JSON events). */
  steps: string[];
  /** The step the official selection kept; null when stdout stood in. */
  chosenStep: number | null;
  hasTags: boolean;
  sessionId: string | null;
  stderrTail: string;
}

/**
 * What one model call gave: text, a timeout (the official sentinel follows), or an error that fails the turn. An
 * agent's reply carries the official has_tags of its step selection and the run's record.
 */
export type CallResult =
  | { kind: "reply"; content: string; hasTags?: boolean; agentRun?: AgentRunRecord }
  | { kind: "timeout"; message: string; agentRun?: AgentRunRecord }
  | { kind: "error"; message: string; agentRun?: AgentRunRecord };

export type AttemptOutcome =
  | "timeout" // the call timed out; the official sentinel stands in for the reply
  | "no-tags" // no </workflow> in the reply
  | "invalid-json" // after repairs the workflow is still not a JSON object; never kept
  | "issues" // valid JSON with validation issues; kept as the fallback
  | "accepted";

/** A located problem the feedback mode reports back to the model (found without the task's check data). */
export interface FeedbackItem {
  code: string;
  message: string;
  nodeId?: string;
  hint?: string;
}

export interface Attempt {
  index: number;
  /** The user message sent. */
  message: string;
  /** The reply text as received (the sentinel for a timeout). */
  raw: string;
  outcome: AttemptOutcome;
  /** Text after the last </think> once repaired (null when the reply had no tags). */
  candidate: string | null;
  repairs: AppliedAutofix[];
  issues: ValidationIssue[];
  /** Our located diagnostics of the candidate (or of the raw reply without tags). */
  diagnostics: FeedbackItem[];
  /** The agent run behind this attempt (agentic-opencode). */
  agentRun?: AgentRunRecord;
}

export type AgenticTurn =
  | { ok: true; answer: string; accepted: boolean; attempts: Attempt[] }
  | { ok: false; error: string; attempts: Attempt[] };

export interface AgenticTurnInput {
  skill: string;
  round: number;
  query: string;
  /** The official context prefix (contextPrefix of the completed rounds). */
  prefix: string;
  feedback: boolean;
  complete: (message: string) => Promise<CallResult>;
}

const MAX_FEEDBACK_ITEMS = 12;

function toFeedback(diagnostic: Diagnostic): FeedbackItem {
  return {
    code: diagnostic.code,
    message: diagnostic.message,
    ...(diagnostic.location?.nodeId !== undefined ? { nodeId: diagnostic.location.nodeId } : {}),
    ...(diagnostic.hint ? { hint: diagnostic.hint } : {}),
  };
}

/**
 * Errors and warnings our scoring core finds in an answer from the answer and the instruction alone (format, graph,
 * semantics, and the variable names the instruction states), most severe first.
 */
export function diagnoseAnswer(answer: string, instruction: string): FeedbackItem[] {
  return diagnoseWithoutTask({ raw: answer }, namedVariables(instruction))
    .filter((diagnostic) => diagnostic.severity !== "info")
    .map(toFeedback);
}

/** The feedback block appended to attempts 2-5 in feedback mode. */
export function feedbackBlock(previous: Attempt): string {
  const lines: string[] = [];
  if (previous.outcome === "timeout") lines.push("- timeout: the previous attempt did not answer in time.");
  if (previous.outcome === "no-tags") lines.push("- missing-tags: the previous attempt had no <workflow>...</workflow> section.");
  for (const issue of previous.issues) lines.push(`- ${issue.code}: ${issue.message}`);
  for (const item of previous.diagnostics.slice(0, MAX_FEEDBACK_ITEMS)) {
    lines.push(`- ${item.code}${item.nodeId !== undefined ? ` (node ${item.nodeId})` : ""}: ${item.message}${item.hint ? ` Fix: ${item.hint}` : ""}`);
  }
  if (lines.length === 0) lines.push("- the previous attempt was not accepted.");
  return `\n\n<previous_attempt_problems>\nYour previous attempt (attempt ${previous.index}) was rejected. Problems found:\n${lines.join("\n")}\nProduce a complete corrected answer with all three sections.\n</previous_attempt_problems>`;
}

export async function runAgenticTurn(input: AgenticTurnInput): Promise<AgenticTurn> {
  const base = prefixedQuery(input.prefix, input.round, input.query);
  const attempts: Attempt[] = [];
  let fallback: string | null = null;
  let lastRaw = "";
  for (let index = 1; index <= MAX_ATTEMPTS; index++) {
    const previous = attempts.at(-1);
    const query = input.feedback && previous ? base + feedbackBlock(previous) : base;
    const message = agenticMessage(input.skill, query);
    const result = await input.complete(message);
    if (result.kind === "error") return { ok: false, error: result.message, attempts };
    const attempt: Attempt = { index, message, raw: "", outcome: "timeout", candidate: null, repairs: [], issues: [], diagnostics: [], ...(result.agentRun ? { agentRun: result.agentRun } : {}) };
    attempts.push(attempt);
    if (result.kind === "timeout") {
      attempt.raw = lastRaw = TIMEOUT_ANSWER;
      continue;
    }
    attempt.raw = lastRaw = result.content;
    // The official loop checks the sentinel by prefix, whoever wrote it.
    if (result.content.startsWith(TIMEOUT_PREFIX)) continue;
    if (!(result.hasTags ?? hasWorkflowTags(result.content))) {
      attempt.outcome = "no-tags";
      attempt.diagnostics = diagnoseAnswer(storedAnswer(result.content), input.query);
      continue;
    }
    const repaired = applyOfficialAutofixes(storedAnswer(result.content));
    attempt.repairs = repaired.applied;
    if (!repaired.ok) return { ok: false, error: officialRaise(`the official auto-repair (${repaired.at}) raises ${repaired.raises} on attempt ${index}'s answer`), attempts };
    attempt.candidate = repaired.text;
    attempt.diagnostics = diagnoseAnswer(repaired.text, input.query);
    if (!workflowJsonIsObject(repaired.text)) {
      attempt.outcome = "invalid-json";
      continue;
    }
    const validation = officialValidation(repaired.text);
    if (!validation.ok) return { ok: false, error: officialRaise(`the official validation raises ${validation.raises} on attempt ${index}'s answer`), attempts };
    attempt.issues = validation.issues;
    if (attempt.issues.length > 0) {
      attempt.outcome = "issues";
      fallback = repaired.text;
      continue;
    }
    attempt.outcome = "accepted";
    return { ok: true, answer: repaired.text, accepted: true, attempts };
  }
  if (fallback !== null) return { ok: true, answer: fallback, accepted: false, attempts };
  const last = applyOfficialAutofixes(storedAnswer(lastRaw));
  if (!last.ok) return { ok: false, error: officialRaise(`the official auto-repair (${last.at}) raises ${last.raises} on the last answer`), attempts };
  // The official loop validates the stored answer once more (to log it), which can raise too.
  const logged = officialValidation(last.text);
  if (!logged.ok) return { ok: false, error: officialRaise(`the official validation raises ${logged.raises} on the stored answer`), attempts };
  return { ok: true, answer: last.text, accepted: false, attempts };
}

/** The official loop does not catch these: the rest of the task is abandoned, and a resumed run tries again. */
function officialRaise(what: string): string {
  return `${what}; the official run abandons the rest of the task here`;
}
