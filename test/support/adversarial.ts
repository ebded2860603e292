// Hostile model text for the linear-work checks: short patterns that make backtracking matchers rescan (`{{#` without
// a `.`, opening tags that never close, long runs of digits, blanks, quotes and backslashes, Python-literal oddities),
// repeated to any size, and every analysis of stored text the app runs on it. Shared by the property test
// (lib/workflow/linear-work.test.ts) and `npm run bench:adversarial`.
import { buildComparison } from "@/lib/diff-view/comparison";
import { applyOfficialAutofixes } from "@/lib/workflow/repair-official";
import { officialValidation } from "@/lib/generation/validate";
import { parsePairwiseReply } from "@/lib/grading/pairwise";
import { parseJudgeReply } from "@/lib/judge/protocol";
import { buildResponseView } from "@/lib/viewer/response-view";
import { officialNodeSelectionText } from "@/lib/workflow/node-selection";
import { classifyDisagreement } from "@/lib/workflow/rule-judge";
import type { ResponseInput } from "@/lib/workflow/response";
import { scoreResponse } from "@/lib/workflow/score";

/** Pieces a hostile pattern is made of. */
export const ATOMS = [
  "{{#", "{{#a.", "{{#'", "#}}", ".", "a", "0", "1", "_", "x", "×", " ", "\n", "\t", "\r", "`", "'", '"', "\\", '\\"',
  "[", "]", "{", "}", "(", ")", ",", ":", "+", "-", "*", "#", "<", ">", "'''", '"""', "0x", "0_0", "1e", "f'", "r'",
  "\\N", "\\x", "<workflow>", "</workflow>", "<node_selection>", "<design_principle>", "<result>", "</result>", "<reason>",
  "<LLM>", "</LLM", "def main(", "function main", "violat", "rule 2", "json", "```", "nodes", "—", "：",
] as const;

/** Patterns known to stall the backtracking matchers this project used to run; the property test adds random ones. */
export const KNOWN_PATTERNS: readonly string[] = [
  "{{#", "{{#a.", "{{#0", "<workflow>", "<node_selection>", "<result> ", "\n", " ", "1", "0", "violat", "def main(", "(", "+", '\\"', "'", "[", "{", "`",
];

/** `pattern` repeated to `size` characters (cut at the end). */
export function repeatTo(pattern: string, size: number): string {
  if (pattern.length === 0) return "";
  return pattern.repeat(Math.ceil(size / pattern.length)).slice(0, size);
}

const TURN = { inputVars: ["query"], outputVars: ["answer"], keyNodes: ["llm", "code"] };

/** A workflow that converts, with the hostile text in every kind of field the analyses read. */
function workflowAround(text: string): string {
  return JSON.stringify({
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["query", "string"]] } },
      { id: "2", type: "llm", param: { system: text, user: `{{#'1'.query#}} ${text} {{#${text}.text#}}` } },
      { id: "3", type: "code", param: { variables: [["x", ["text", "2"]]], outputs: [["y", "string"]], code: `def main(${text}):\n    return {"y": x}\n${text}` } },
      { id: "4", type: "template-transform", param: { variables: [["y", ["y", "3"]]], template: `{{ y }} ${text}` } },
      { id: "5", type: "end", param: { outputs: [["answer", ["output", "4"]]] } },
    ],
    edges: [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"], ["4", 0, "5"]],
  });
}

/** The response shapes the text can arrive in: raw answers and recorded fields, parseable or not. */
export function responsesAround(text: string): { name: string; input: ResponseInput }[] {
  const workflow = workflowAround(text);
  return [
    { name: "raw answer", input: { raw: text } },
    { name: "raw answer in tags", input: { raw: `<node_selection>${text}</node_selection>\n<design_principle>${text}</design_principle>\n<workflow>${text}</workflow>` } },
    { name: "raw answer with a workflow", input: { raw: `<node_selection>Start, LLM, Code, Template, End ${text}</node_selection><design_principle>${text}</design_principle><workflow>${workflow}</workflow>` } },
    { name: "recorded fields", input: { nodeSelection: text, designPrinciple: text, workflow: text } },
    { name: "recorded workflow", input: { nodeSelection: `Start, LLM, Code, Template, End, ${text}`, designPrinciple: text, workflow } },
    { name: "recorded broken workflow", input: { nodeSelection: "Start, End", designPrinciple: text, workflow: `{"nodes_info": [${text}` } },
  ];
}

/** Every analysis of stored or received model text: scoring, the response page's view, a diff, the agentic checks, judge replies. */
export function analyseEverything(text: string): void {
  const shapes = responsesAround(text);
  for (const { input } of shapes) {
    scoreResponse(input, TURN);
    const stored = "raw" in input ? { rawText: input.raw, nodeSelection: null, designPrinciple: null, workflow: null } : { rawText: null, ...input };
    buildResponseView({ ...stored, turn: TURN, appName: "Task_1" });
  }
  const [first, second] = [shapes[2]!.input, shapes[4]!.input].map((input) => ("raw" in input ? { rawText: input.raw, nodeSelection: null, designPrinciple: null, workflow: null, turn: TURN } : { rawText: null, ...input, turn: TURN }));
  buildComparison({ before: first!, after: second! });
  for (const reply of [text, `<workflow>${workflowAround(text)}</workflow>`]) {
    officialValidation(reply);
    applyOfficialAutofixes(reply);
  }
  parseJudgeReply(text);
  parsePairwiseReply(text);
  classifyDisagreement({ verdict: true, mentions: [], missingKeyNodes: [], undeclaredUsed: [], declaredUnused: [] } as never, false, text);
  officialNodeSelectionText(text);
}
