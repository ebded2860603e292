// The benchmark's two LLM judge protocols as the official pipeline runs them: user templates, input preprocessing,
// the verdict rule and the reason extraction. Byte-for-byte with the official scripts; pure and total.

import { officialNodeSelectionText } from "../workflow/node-selection";
import { pyRepr, pyStr, pyStrip, type JsonValue } from "../workflow/python-values";

export type JudgeStage = "pass" | "resolve";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What the pass-stage judge (step 1_4) is shown, as stored in the response record. */
export interface PassJudgeInput {
  nodeSelection: string;
  designPrinciple: string;
  /** The workflow string after the official extraction (not re-serialised). */
  workflow: string;
  /** The turn's key nodes (related_nodes), shown as a Python list. */
  keyNodes: readonly string[];
}

/** A test input value: strings and numbers reach the judge; files, file lists and "" do not. */
export type JudgeTestInput = string | number | { mime_type: string; value: string } | readonly { mime_type: string; value: string }[];

/** What the resolve-stage judge is shown for one test case. */
export interface ResolveJudgeInput {
  /** The task's instructions, round 1 first (at least `round` of them). */
  queries: readonly string[];
  round: number;
  /** The test case's inputs in dataset order, without ground_truth. */
  inputs: Readonly<Record<string, JudgeTestInput>>;
  /** The non-file outputs as the pipeline rendered them (`llm_output_testN`), or a value to render. */
  outputs: string | Readonly<Record<string, JsonValue>>;
  /** The reference answer; null or missing is sent as "". */
  groundTruth: string | null;
}

/** The official system prompt: the prompt file's text with Python `str.strip()` applied. */
export function officialSystemPrompt(fileText: string): string {
  return pyStrip(fileText);
}

/** The official step 1_4 user message. */
export function passUserMessage(input: PassJudgeInput): string {
  const ns = officialNodeSelectionText(input.nodeSelection);
  const gt = pyRepr([...input.keyNodes]);
  return `\n    node_selection: ${ns}\n    design_principle: ${input.designPrinciple}\n    workflow: ${input.workflow}\n    gt_nodes: ${gt}\n    `;
}

/** `query{n}: {text}\n` for rounds 1..round, concatenated. */
export function officialQueriesText(queries: readonly string[], round: number): string {
  return queries
    .slice(0, round)
    .map((query, index) => `query${index + 1}: ${query}\n`)
    .join("");
}

/** `{k}: {v}\n` for every string or number input; "" values are omitted as the pipeline omits them from the run. */
export function officialInputText(inputs: Readonly<Record<string, JudgeTestInput>>): string {
  let text = "";
  for (const [key, value] of Object.entries(inputs)) {
    if (key === "ground_truth" || value === "") continue;
    if (typeof value === "string" || typeof value === "number") text += `${key}: ${pyStr(value)}\n`;
  }
  return text;
}

/** `{k}: {str(v)}` lines joined by newlines: Python `str()` of non-string values (dicts, lists, True, 3.0). */
export function officialOutputText(outputs: Readonly<Record<string, JsonValue>>): string {
  return Object.entries(outputs)
    .map(([key, value]) => `${key}: ${pyStr(value)}`)
    .join("\n");
}

/** The official resolve-stage user message. */
export function resolveUserMessage(input: ResolveJudgeInput): string {
  const q = officialQueriesText(input.queries, input.round);
  const i = officialInputText(input.inputs);
  const o = typeof input.outputs === "string" ? input.outputs : officialOutputText(input.outputs);
  const gt = input.groundTruth ?? "";
  return `\n    <queries>\n    ${q}\n    </queries>\n\n    <input>\n    ${i}\n    </input>\n\n    <output>\n    ${o}\n    </output>\n    \n    <reference_answer>\n    ${gt}\n    </reference_answer>\n    `;
}

/** The single-turn conversation the official judge sends: [system, user]. */
export function judgeMessages(systemPrompt: string, userMessage: string): ChatMessage[] {
  return [
    { role: "system", content: systemPrompt },
    { role: "user", content: userMessage },
  ];
}

// -- verdicts ------------------------------------------------------------------------------------------------------

export interface ParsedReply {
  /** The official reading: fail iff "false" occurs in the <result> section (or anywhere when it is missing). */
  verdict: boolean;
  /** The reply had a <result> section holding exactly "true" or "false" (any case, surrounding whitespace). */
  wellFormed: boolean;
  /** The text inside <reason>, or the whole reply when the tag is missing (what the pipeline records). */
  reason: string;
}

/** Python `s.split(sep)[-1]`. */
function afterLast(text: string, separator: string): string {
  const index = text.lastIndexOf(separator);
  return index < 0 ? text : text.slice(index + separator.length);
}

/** Python `s.split(sep)[0]`. */
function beforeFirst(text: string, separator: string): string {
  const index = text.indexOf(separator);
  return index < 0 ? text : text.slice(0, index);
}

const WELL_FORMED_RESULT = /^\s*(true|false)\s*$/i;

/** Reads a judge reply with the official rule; also says whether it had the required shape. */
export function parseJudgeReply(reply: string): ParsedReply {
  const section = beforeFirst(afterLast(reply, "<result>"), "</result>");
  const verdict = !section.toLowerCase().includes("false");
  const wellFormed = reply.includes("<result>") && reply.includes("</result>", reply.lastIndexOf("<result>")) && WELL_FORMED_RESULT.test(section);
  return { verdict, wellFormed, reason: beforeFirst(afterLast(reply, "<reason>"), "</reason>") };
}

/**
 * The follow-up a strict judge sends after a malformed reply: the conversation so far, the reply, and a request to
 * answer again in the required format. Deterministic, so a re-ask is itself cacheable.
 */
export function reaskMessages(messages: readonly ChatMessage[], malformedReply: string): ChatMessage[] {
  return [
    ...messages,
    { role: "assistant", content: malformedReply },
    { role: "user", content: STRICT_REASK_TEXT },
  ];
}

export const STRICT_REASK_TEXT =
  "Your reply did not follow the required output format. Answer again using exactly this format and nothing else:\n<reason>\n[your reasoning]\n</reason>\n<result>\n[true or false]\n</result>";
