// Small hand-written workflow pairs for the diff page tests: a turn that adds a Code node and an iteration (with its
// children), removes a TTS node, changes an LLM prompt and renumbers the End node.
import type { DiffSide } from "../../lib/diff/types";

type Node = [id: string, type: string, param: Record<string, unknown>];
type Edge = [source: string, port: number, target: string];

export function workflow(nodes: Node[], edges: Edge[]): { nodes_info: { id: string; type: string; param: Record<string, unknown> }[]; edges: Edge[] } {
  return { nodes_info: nodes.map(([id, type, param]) => ({ id, type, param })), edges };
}

const START: Node = ["1", "start", { variables: [["topic", "string"]] }];

export const BEFORE = workflow(
  [
    START,
    ["2", "llm", { system: "You write short study notes.", user: "Write study notes about {{#'1'.topic#}}.\nKeep them under one page.\nUse plain words." }],
    ["3", "tts", { text: "{{#'2'.text#}}" }],
    ["4", "end", { outputs: [["audio", ["files", "3"]]] }],
  ],
  [
    ["1", 0, "2"],
    ["2", 0, "3"],
    ["3", 0, "4"],
  ],
);

export const AFTER = workflow(
  [
    START,
    ["2", "llm", { system: "You write short study notes.", user: "Write a list of chapters about {{#'1'.topic#}}.\nKeep them under one page.\nUse plain words." }],
    ["3", "code", { variables: [["raw", ["text", "2"]]], outputs: [["chapters", "array[string]"]], code: "def main(raw):\n    return {'chapters': raw.split('\\n')}" }],
    ["4", "iteration", { iterator_selector: ["chapters", "3"], output_selector: ["text", "4-2"] }],
    ["4-1", "iteration-start", {}],
    ["4-2", "llm", { system: "You explain one chapter.", user: "Explain {{#'4-1'.item#}} in detail." }],
    ["5", "end", { outputs: [["notes", ["output", "4"]]] }],
  ],
  [
    ["1", 0, "2"],
    ["2", 0, "3"],
    ["3", 0, "4"],
    ["4-1", 0, "4-2"],
    ["4", 0, "5"],
  ],
);

export const SIDES: { before: DiffSide; after: DiffSide } = { before: { workflow: BEFORE }, after: { workflow: AFTER } };
