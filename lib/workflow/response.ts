// Official step_1_1: extracts the three tagged sections of an answer and parses the workflow JSON with the official
// regexes, Python strip() and fence-stripping quirk; failures are located.

import type { Diagnostic } from "./diagnostics";
import { parsePyJson, positionAt, type FloatLiterals, type JsonProblem } from "./json-text";
import { pyStrip, pyStripChars, type JsonValue } from "./python-values";
import { firstTaggedSection, type TaggedSection } from "./tagged-section";

export const TAGS = ["node_selection", "design_principle", "workflow"] as const;
export type TagName = (typeof TAGS)[number];

export type ResponseInput =
  | { raw: string }
  | { nodeSelection: string | null; designPrinciple: string | null; workflow: string | null };

/** The texts a stored response keeps: the raw answer (generation-format imports) or the three recorded fields. */
export interface StoredResponseTexts {
  rawText: string | null;
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
}

/** What scoring reads from a stored response: the raw answer when there is one (it is what was generated). */
export function storedResponseInput(stored: StoredResponseTexts): ResponseInput {
  return stored.rawText !== null
    ? { raw: stored.rawText }
    : { nodeSelection: stored.nodeSelection, designPrinciple: stored.designPrinciple, workflow: stored.workflow };
}

export type ParsedJson = { ok: true; value: JsonValue; floats: FloatLiterals | null } | { ok: false };

export interface ParsedResponse {
  source: "raw" | "record";
  /** Trimmed tag contents; all three are null when any tag is missing, as in the official records. */
  nodeSelection: string | null;
  designPrinciple: string | null;
  /** The cleaned workflow string the official pipeline parses (and stores). */
  workflowText: string | null;
  json: ParsedJson;
  /** Problems found at step_1_1; empty when the step passes. */
  diagnostics: Diagnostic[];
  /** For raw input: where `workflowText` starts inside the raw answer (to map positions back). */
  workflowOffsetInRaw?: number;
}

// The official patterns `<tag>(.*?)</tag>` take the first match, DOTALL, IGNORECASE, non-greedy; firstTaggedSection
// finds the same match in linear time. Case-insensitivity uses Unicode case folding like Python's (the Kelvin sign
// matches `k`, long s matches `s`).
const OPENING_TAG: Readonly<Record<TagName, RegExp>> = {
  node_selection: /<node_selection>/iu,
  design_principle: /<design_principle>/iu,
  workflow: /<workflow>/iu,
};

/** Characters the official cleanup strips from both ends of the workflow (a set, not a "```json" prefix). */
const WORKFLOW_STRIP_CHARS = "\n`json";

/** The official cleanup of a captured <workflow> body: Python strip(), then the character-set strip. */
export function cleanWorkflowText(captured: string): string {
  return pyStripChars(pyStrip(captured), WORKFLOW_STRIP_CHARS);
}

const FAILED_JSON: ParsedJson = { ok: false };

export function parseResponse(input: ResponseInput): ParsedResponse {
  return "raw" in input ? parseRaw(input.raw) : parseRecord(input);
}

function parseRecord(input: Exclude<ResponseInput, { raw: string }>): ParsedResponse {
  const { nodeSelection, designPrinciple, workflow } = input;
  if (nodeSelection === null || designPrinciple === null || workflow === null) {
    const missing = [
      nodeSelection === null ? "node_selection" : null,
      designPrinciple === null ? "design_principle" : null,
      workflow === null ? "workflow" : null,
    ].filter((tag): tag is TagName => tag !== null);
    // The official record nulls all three fields when any tag is missing, so which one was missing is unknowable.
    const which = missing.length === 3 ? "one or more of <node_selection>, <design_principle>, <workflow>" : missing.map((t) => `<${t}>`).join(", ");
    return {
      source: "record",
      nodeSelection: null,
      designPrinciple: null,
      workflowText: null,
      json: FAILED_JSON,
      diagnostics: [
        {
          code: "missing-tag",
          category: "format",
          severity: "error",
          officialStep: "step_1_1",
          message: `The answer lacks ${which}: all three tagged sections are required.`,
          location: { field: "raw" },
          hint: "Wrap the node list, the design principle and the workflow JSON in their tags.",
        },
      ],
    };
  }
  // Recorded workflows are stored already cleaned; cleaning again is not idempotent (" json{…}" would change).
  const { json, diagnostics } = parseWorkflowJson(workflow);
  return { source: "record", nodeSelection, designPrinciple, workflowText: workflow, json, diagnostics };
}

function parseRaw(raw: string): ParsedResponse {
  const matches = TAGS.map((tag) => firstTaggedSection(raw, tag, { unicode: true }));
  const missing = TAGS.filter((_, i) => !matches[i]);
  if (missing.length > 0) {
    return {
      source: "raw",
      nodeSelection: null,
      designPrinciple: null,
      workflowText: null,
      json: FAILED_JSON,
      diagnostics: missing.map((tag) => missingTagDiagnostic(raw, tag)),
    };
  }
  const [nodeMatch, designMatch, workflowMatch] = matches as [TaggedSection, TaggedSection, TaggedSection];
  const captured = workflowMatch.body;
  const workflowText = cleanWorkflowText(captured);
  const workflowOffsetInRaw = workflowMatch.bodyStart + locateCleaned(captured, workflowText);
  const { json, diagnostics } = parseWorkflowJson(workflowText);
  return {
    source: "raw",
    nodeSelection: pyStrip(nodeMatch.body),
    designPrinciple: pyStrip(designMatch.body),
    workflowText,
    json,
    diagnostics,
    workflowOffsetInRaw,
  };
}

/** Offset of the cleaned text inside the captured body (cleaning only removes characters from the ends). */
function locateCleaned(captured: string, cleaned: string): number {
  if (cleaned.length === 0) return 0;
  // What the two strips removed from the front: the strip of the text with a sentinel that no strip removes appended.
  return captured.length - cleanWorkflowText(`${captured}\u0000`).length + 1;
}

function missingTagDiagnostic(raw: string, tag: TagName): Diagnostic {
  const opening = OPENING_TAG[tag].exec(raw);
  const detail = opening
    ? `<${tag}> opens at ${describePosition(raw, opening.index)} but no </${tag}> follows it.`
    : `there is no <${tag}> section.`;
  return {
    code: "missing-tag",
    category: "format",
    severity: "error",
    officialStep: "step_1_1",
    message: `Missing <${tag}> tag: ${detail}`,
    location: opening ? { field: "raw", ...positionAt(raw, opening.index), length: opening[0].length } : { field: "raw" },
    hint: `Add the <${tag}>…</${tag}> section; tags are matched case-insensitively and in any order.`,
  };
}

function describePosition(text: string, offset: number): string {
  const { line, column } = positionAt(text, offset);
  return `line ${line}, column ${column}`;
}

function parseWorkflowJson(text: string): { json: ParsedJson; diagnostics: Diagnostic[] } {
  const result = parsePyJson(text);
  if (result.ok) return { json: { ok: true, value: result.value, floats: result.floats }, diagnostics: [] };
  return { json: FAILED_JSON, diagnostics: [jsonProblemDiagnostic(result.problem)] };
}

const JSON_HINTS: Partial<Record<JsonProblem["code"], string>> = {
  "json-comment": "Delete the comment; put explanations in <design_principle> instead.",
  "json-trailing-comma": "Delete the comma after the last element.",
  "json-mismatched-bracket": "Make every `[` close with `]` and every `{` with `}`.",
  "json-unclosed-bracket": "Add the missing closing bracket.",
  "json-code-fence": "Put the bare JSON between the <workflow> tags, without a ``` fence.",
  "json-bad-escape": "Escape a backslash as \\\\.",
  "json-control-character": "Escape newlines and tabs inside strings as \\n and \\t.",
  "json-single-quote": "Use double quotes for strings and keys.",
  "json-missing-comma": "Separate elements with commas.",
};

function jsonProblemDiagnostic(problem: JsonProblem): Diagnostic {
  const diagnostic: Diagnostic = {
    code: problem.code,
    category: "format",
    severity: "error",
    officialStep: "step_1_1",
    message: problem.message,
    location: {
      field: "workflow",
      line: problem.line,
      column: problem.column,
      offset: problem.offset,
      length: problem.length,
    },
  };
  const hint = JSON_HINTS[problem.code];
  if (hint) diagnostic.hint = hint;
  return diagnostic;
}
