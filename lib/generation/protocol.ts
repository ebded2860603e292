// The official generation protocol as data: zero-shot conversations (builder prompt as system message, earlier
// (query, answer) pairs as turns), the stored answer after the last </think>, and the agentic single-turn message
// with its context blocks worded as the official code words them. Pure; builds text, calls nothing.

import type { ChatParams } from "@/lib/judge/identity";
import type { ChatMessage } from "@/lib/judge/protocol";
import { parsePyJson } from "@/lib/workflow/json-text";
import { isJsonObject, pyStr, pyStrip, type JsonValue } from "@/lib/workflow/python-values";
import { firstWorkflowBody } from "@/lib/workflow/repair-official";

/** The official zero-shot parameters (bash_generation.sh). */
export const ZERO_SHOT_PARAMS: Readonly<ChatParams> = Object.freeze({ temperature: 0.7, max_tokens: 32768 });

/**
 * zero-shot and agentic-opencode are the paper's protocols; agentic (the agentic loop with no agent framework) and
 * feedback (that loop telling the model its previous attempt's problems) are this project's.
 */
export const GENERATION_MODES = ["zero-shot", "agentic-opencode", "agentic", "feedback"] as const;
export type GenerationMode = (typeof GENERATION_MODES)[number];

export interface Exchange {
  query: string;
  answer: string;
}

/** What is stored and replayed as history: the content after the last `</think>`. */
export function storedAnswer(content: string): string {
  return content.split("</think>").at(-1) as string;
}

/** The official builder prompt as the system message: the prompt file read whole and stripped. */
export function zeroShotMessages(builderPrompt: string, history: readonly Exchange[], query: string): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: pyStrip(builderPrompt) }];
  for (const exchange of history) messages.push({ role: "user", content: exchange.query }, { role: "assistant", content: exchange.answer });
  messages.push({ role: "user", content: query });
  return messages;
}

// -- agentic ---------------------------------------------------------------------------------------------------------

export const TIMEOUT_PREFIX = "[TIMEOUT]";
export const TIMEOUT_ANSWER = `${TIMEOUT_PREFIX} opencode run timed out after 300 seconds`;
export const AGENTIC_TIMEOUT_MS = 300_000;

const MULTI_ROUND_RULES = [
  "<multi-round_interaction_rules>",
  "Unless explicitly instructed to add, remove, or modify, variables and logic not mentioned in the instruction should remain unchanged.",
  "",
  "How to interpret output specifications across rounds:",
  "1. REPLACE — Phrases like 'needs to output X', 'should output X', or 'only needs to output X' (without additive language) mean output EXACTLY X; all previous outputs not listed are dropped.",
  "2. ADD — Additive language such as 'also output', 'additionally output', or 'in addition to what already exists' means append the new variables to the existing outputs.",
  "3. REMOVE — 'Remove the output Y' means drop only Y and keep everything else.",
  "4. NO MENTION — If outputs are not mentioned at all, keep them unchanged.",
  "5. BRANCH-SCOPED — When the instruction targets specific branches, only those branches are affected; unmentioned branches remain unchanged.",
  "6. If multiple branches produce the same output variables, aggregate them with a variable-aggregator node and use a single end node.",
  "7. If different branches produce different output variable sets, use separate end nodes for each branch.",
  "</multi-round_interaction_rules>",
].join("\n");

export type SummaryResult = { ok: true; summary: string | null } | { ok: false; reason: string };

const get = (value: JsonValue | undefined, key: string, fallback: JsonValue): JsonValue => (isJsonObject(value) && value[key] !== undefined ? (value[key] as JsonValue) : fallback);
const iterable = (value: JsonValue): readonly JsonValue[] => (Array.isArray(value) ? value : isJsonObject(value) ? Object.keys(value) : typeof value === "string" ? [...value] : []);

/**
 * The official variable summary of a workflow body. Null when it does not parse; a failure when the official code
 * would raise (a non-object workflow or node), which aborts the rest of the task there.
 */
export function variablesSummary(workflowJson: string): SummaryResult {
  const parsed = parsePyJson(workflowJson);
  if (!parsed.ok) return { ok: true, summary: null };
  if (!isJsonObject(parsed.value)) return { ok: false, reason: "the previous round's workflow JSON is not an object (the official code raises here)" };
  const inputs: string[] = [];
  const outputs: string[] = [];
  for (const node of iterable(get(parsed.value, "nodes_info", []))) {
    if (!isJsonObject(node)) return { ok: false, reason: "a node of the previous round's workflow is not an object (the official code raises here)" };
    const type = get(node, "type", "");
    const param = get(node, "param", {});
    if (type === "start") {
      for (const variable of iterable(get(param, "variables", []))) {
        if (Array.isArray(variable) && variable.length >= 2) inputs.push(`${pyStr(variable[0] as JsonValue)} (${pyStr(variable[1] as JsonValue)})`);
      }
    } else if (type === "end") {
      for (const output of iterable(get(param, "outputs", []))) {
        if (!Array.isArray(output) || output.length < 2) continue;
        const source = output[1] as JsonValue;
        const described = Array.isArray(source) && source.length >= 2 ? `from node ${pyStr(source[1] as JsonValue)}.${pyStr(source[0] as JsonValue)}` : pyStr(source);
        outputs.push(`${pyStr(output[0] as JsonValue)} (${described})`);
      }
    }
  }
  return { ok: true, summary: `Input variables: ${inputs.length ? inputs.join(", ") : "none"}\nOutput variables: ${outputs.length ? outputs.join(", ") : "none"}` };
}

export interface CompletedRound {
  round: number;
  query: string;
  /** The stored (auto-repaired) answer, whatever it is: failures and TIMEOUT strings included. */
  answer: string;
}

/** The official context prefix for a round: "" for round 1, else the three blocks and a trailing blank line. */
export function contextPrefix(history: readonly CompletedRound[]): { ok: true; prefix: string } | { ok: false; reason: string } {
  if (history.length === 0) return { ok: true, prefix: "" };
  const blocks = history.map((round) => `[Round ${round.round} Query]\n${round.query}\n\n[Round ${round.round} Response]\n${round.answer}`);
  const parts = [`<completed_rounds>\nBelow are all previous successful rounds (query + response) for context:\n\n${blocks.join("\n\n---\n\n")}\n</completed_rounds>`];
  const workflow = firstWorkflowBody((history.at(-1) as CompletedRound).answer);
  if (workflow) {
    const summary = variablesSummary(workflow);
    if (!summary.ok) return summary;
    if (summary.summary) parts.push(`<latest_variables_summary>\nSummary of latest workflow inputs/outputs:\n${summary.summary}\n</latest_variables_summary>`);
  }
  parts.push(MULTI_ROUND_RULES);
  return { ok: true, prefix: `${parts.join("\n\n")}\n\n` };
}

/** The round's instruction after its context prefix. */
export function prefixedQuery(prefix: string, round: number, query: string): string {
  return `${prefix}Workflow Creation Instruction for Round ${round}: ${query}`;
}

/** The single user message of one agentic attempt: the whole skill text, then the prefixed query. */
export function agenticMessage(skill: string, message: string): string {
  if (skill === "") return `Follow the instructions in SKILL.md located in the current directory.\n\n${message}`;
  return `Below is your complete skill instruction. Follow it precisely.\n\n--- SKILL.md START ---\n${skill}\n--- SKILL.md END ---\n\n${message}`;
}

/** The official response selection over one reply: tags present when all three closing tags or `</workflow>` are. */
export function hasWorkflowTags(reply: string): boolean {
  return reply.includes("</workflow>");
}
