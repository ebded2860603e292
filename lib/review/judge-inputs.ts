// Rebuilds what a judge was shown for one verdict, section by section, from the stored response and benchmark turn.
// Pass stage: node_selection (after the official newline preprocessing), design_principle, the raw workflow string
// and gt_nodes as a Python list; resolve stage: the instructions up to the round, the string and number inputs, the
// non-file outputs and the reference answer. Pure; missing data yields an empty section, never a throw.

import { z } from "zod";
import { parsePyJson } from "../workflow/json-text";
import { officialNodeSelectionText } from "../workflow/node-selection";
import { pyRepr, pyStr, type JsonValue } from "../workflow/python-values";

export interface JudgeInputSection {
  /** The label the judge's message used, e.g. "node_selection" or "reference_answer". */
  name: string;
  /** What it means, for the annotator. */
  title: string;
  text: string;
  /** Render in a monospace block (code, JSON, lists) rather than as prose. */
  code: boolean;
}

export interface PassJudgeSource {
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
  /** The turn's key nodes (related_nodes). */
  keyNodes: readonly string[];
}

export function passJudgeSections(source: PassJudgeSource): JudgeInputSection[] {
  return [
    { name: "node_selection", title: "Node selection (as preprocessed for the judge)", text: officialNodeSelectionText(source.nodeSelection ?? ""), code: false },
    { name: "design_principle", title: "Design principle", text: source.designPrinciple ?? "", code: false },
    { name: "workflow", title: "Workflow (the raw JSON string the judge parsed)", text: source.workflow ?? "", code: true },
    { name: "gt_nodes", title: "Key nodes (gt_nodes)", text: pyRepr([...source.keyNodes]), code: true },
  ];
}

const testFileSchema = z.object({ mime_type: z.string(), value: z.string() });

/** A stored test case's inputs (TestCase.inputs): strings, numbers, files and file lists by name. */
export const testInputsSchema = z.record(z.string(), z.union([z.string(), z.number(), testFileSchema, z.array(testFileSchema)]));

/** A test input value: plain strings and numbers reach the judge; files, file lists and "" do not. */
export type TestInput = z.infer<typeof testInputsSchema>[string];

export interface ResolveJudgeSource {
  /** The task's instructions, round 1 first. */
  queries: readonly string[];
  round: number;
  inputs: Readonly<Record<string, TestInput>>;
  /** The non-file outputs as shown to the judge (stored with the case result). */
  outputs: string | null;
  groundTruth: string | null;
}

/** `key: value` lines of the inputs the resolve judge sees. */
export function judgedInputs(inputs: Readonly<Record<string, TestInput>>): string {
  return Object.entries(inputs)
    .filter((entry): entry is [string, string | number] => (typeof entry[1] === "string" && entry[1] !== "") || typeof entry[1] === "number")
    .map(([key, value]) => `${key}: ${pyStr(value as JsonValue)}`)
    .join("\n");
}

/** Inputs the judge did not see because they are files, listed so the annotator knows they existed. */
export function fileInputNames(inputs: Readonly<Record<string, TestInput>>): string[] {
  return Object.entries(inputs)
    .filter(([, value]) => typeof value === "object")
    .map(([key]) => key);
}

export function resolveJudgeSections(source: ResolveJudgeSource): JudgeInputSection[] {
  const history = source.queries.slice(0, source.round).map((query, index) => `query${index + 1}: ${query}`);
  return [
    { name: "queries", title: `Instructions up to round ${source.round}`, text: history.join("\n"), code: false },
    { name: "input", title: "Inputs (strings and numbers only)", text: judgedInputs(source.inputs), code: true },
    { name: "output", title: "Outputs (non-file)", text: source.outputs ?? "", code: true },
    { name: "reference_answer", title: "Reference answer", text: source.groundTruth ?? "", code: false },
  ];
}

export type PrettyWorkflow = { ok: true; text: string } | { ok: false; text: string; problem: string };

/** The workflow pretty-printed for reading; the raw text with the parse problem when it is not valid JSON. */
export function prettyWorkflow(workflow: string | null): PrettyWorkflow {
  if (workflow === null || workflow.trim() === "") return { ok: false, text: "", problem: "The response has no workflow." };
  const parsed = parsePyJson(workflow);
  if (!parsed.ok) return { ok: false, text: workflow, problem: `Not valid JSON: ${parsed.problem.message}` };
  return { ok: true, text: JSON.stringify(parsed.value, null, 2) };
}
