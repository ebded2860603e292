// Start/end rules and the task's input/output variables. The verdict is the official step_1_3 check
// (checkVariableNames); inputs are then explained per variable, outputs with the official check's own explanations.

import { outputGroups, type TurnSpec } from "../../benchmark/turn";
import type { Diagnostic } from "../diagnostics";
import { checkVariableNames } from "../official-verdict";
import { ownValue, preview, type JsonValue } from "../python-values";
import { makeDiagnostic } from "../diagnostic-codes";
import { describeNode, nodeLocation, type NodeEntry, type WorkflowModel } from "./model";

export type VariableTurn = Pick<TurnSpec, "inputVars" | "outputVars">;

function outputEntries(node: NodeEntry): JsonValue[] {
  const outputs = node.param ? ownValue(node.param, "outputs") : undefined;
  return Array.isArray(outputs) ? outputs.filter((entry) => Array.isArray(entry) && entry.length > 0) : [];
}

/** Start variable and End output names, as written (string names only). */
function declaredNames(model: WorkflowModel): Set<string> {
  const names = new Set<string>();
  for (const node of model.nodes) {
    const entries = node.known === "start" ? (node.param ? ownValue(node.param, "variables") : undefined) : node.known === "end" ? outputEntries(node) : undefined;
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) if (Array.isArray(entry) && typeof entry[0] === "string") names.add(entry[0]);
  }
  return names;
}

/** Each variable the instruction names that the workflow neither takes as a start input nor outputs from an End node. */
export function checkInstructionVariables(model: WorkflowModel, names: readonly string[], out: Diagnostic[]): void {
  if (names.length === 0) return;
  const declared = declaredNames(model);
  const anchor = model.nodes.find((node) => node.known === "end") ?? model.nodes.find((node) => node.known === "start");
  for (const name of names) {
    if (declared.has(name)) continue;
    out.push(
      makeDiagnostic("instruction-variable-unused", `The instruction names the variable "${name}", but no start variable and no End output is called that.`, {
        location: anchor ? nodeLocation(anchor) : { field: "workflow" },
        hint: `Declare "${name}" as a start variable if the user provides it, or output it from an End node if the workflow returns it.`,
      }),
    );
  }
}

export function checkStartEnd(model: WorkflowModel, out: Diagnostic[]): void {
  const starts: NodeEntry[] = [];
  const ends: NodeEntry[] = [];
  const nodes = model.nodes;
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as NodeEntry;
    if (node.known === "start") starts.push(node);
    else if (node.known === "end") ends.push(node);
  }
  if (starts.length === 0) {
    out.push(makeDiagnostic("missing-start", "The workflow has no start node, so it takes no inputs.", { location: { field: "workflow" }, hint: 'Add {"id": "1", "type": "start", "param": {"variables": [...]}} first.' }));
  }
  for (let i = 1; i < starts.length; i += 1) {
    const extra = starts[i] as NodeEntry;
    out.push(makeDiagnostic("multiple-start", `${describeNode(extra)} is a second start node; a workflow has exactly one (the official check reads only the first).`, { location: nodeLocation(extra) }));
  }
  const first = starts[0];
  if (first && first.id !== null && first.id !== "1") {
    out.push(makeDiagnostic("start-id-not-1", `The start node has the id "${first.id}"; the convention is "1".`, { location: nodeLocation(first) }));
  }
  if (ends.length === 0) {
    out.push(makeDiagnostic("missing-end", "The workflow has no end node, so it outputs nothing.", { location: { field: "workflow" }, hint: "Add an end node whose outputs name the task's output variables." }));
  }
  for (let i = 0; i < ends.length; i += 1) {
    const end = ends[i] as NodeEntry;
    if (end.param && outputEntries(end).length === 0) {
      out.push(makeDiagnostic("end-without-outputs", `${describeNode(end)} has no outputs.`, { location: nodeLocation(end, ["outputs"]), hint: 'List them as [["name", ["variable", "nodeId"]], …].' }));
    }
  }
}

/** Start variable names as the official check reads them, or null when they are not plain names. */
function startNames(start: NodeEntry): { name: string; index: number }[] | null {
  const variables = start.param ? ownValue(start.param, "variables") : [];
  if (!Array.isArray(variables)) return null;
  const names: { name: string; index: number }[] = [];
  for (const [index, entry] of variables.entries()) {
    if (!Array.isArray(entry) || entry.length === 0) continue;
    if (typeof entry[0] !== "string") return null;
    names.push({ name: entry[0], index });
  }
  return names;
}

/** Per-variable input diagnostics; false when the names cannot be explained one by one. */
function explainInputs(start: NodeEntry, required: readonly string[], out: Diagnostic[]): boolean {
  const names = startNames(start);
  if (!names) return false;
  const declared = new Set(names.map((entry) => entry.name));
  const wanted = new Set(required);
  const missing = [...wanted].filter((name) => !declared.has(name));
  const extra = names.filter((entry, i) => !wanted.has(entry.name) && names.findIndex((e) => e.name === entry.name) === i);
  const rename = missing.length === 1 && extra.length === 1 ? `Rename "${extra[0]?.name}" to "${missing[0]}".` : undefined;
  for (const name of missing) {
    out.push(
      makeDiagnostic("input-variable-missing", `The task requires the input "${name}", which the start node does not declare (it declares ${preview(names.map((e) => e.name))}).`, {
        location: nodeLocation(start, ["variables"]),
        hint: rename ?? `Add ["${name}", "<type>"] to the start variables.`,
      }),
    );
  }
  for (const entry of extra) {
    out.push(
      makeDiagnostic("input-variable-extra", `The start node declares "${entry.name}", which is not among the task's inputs (${preview([...wanted])}).`, {
        location: nodeLocation(start, ["variables", entry.index]),
        hint: rename ?? "Remove it: the official check compares the input names as a set.",
      }),
    );
  }
  return missing.length + extra.length > 0;
}

function sortedNames(end: NodeEntry): string {
  return JSON.stringify(outputEntries(end).map((entry) => String((entry as JsonValue[])[0])).sort());
}

/** The end node an output-count problem is best shown on: the first whose outputs match no required group. */
function misfitEnd(model: WorkflowModel, turn: VariableTurn): NodeEntry | undefined {
  const ends = model.nodes.filter((node) => node.type === "end");
  const groups = new Set(outputGroups(turn.outputVars).map((group) => JSON.stringify([...group].sort())));
  return ends.find((end) => !groups.has(sortedNames(end))) ?? ends[ends.length - 1];
}

/** The official step_1_3 explanations, with a location added where they have none. */
function located(diagnostic: Diagnostic, model: WorkflowModel, turn: VariableTurn): Diagnostic {
  if (diagnostic.location) return diagnostic;
  const end = diagnostic.code === "end-count-mismatch" ? misfitEnd(model, turn) : undefined;
  return { ...diagnostic, location: end ? nodeLocation(end, ["outputs"]) : { field: "workflow" } };
}

const INPUT_CODES: ReadonlySet<string> = new Set(["input-variables-mismatch", "missing-start", "workflow-missing-nodes"]);

/** Explains a failing official step_1_3 check; emits nothing when it passes. */
export function checkTaskVariables(model: WorkflowModel, turn: VariableTurn, out: Diagnostic[], precomputed?: readonly Diagnostic[]): void {
  const official = precomputed ?? checkVariableNames(model.value, turn);
  if (official.length === 0) return;
  const start = model.nodes.find((node) => node.type === "start");
  const inputOfficial = official.filter((d) => d.code === "input-variables-mismatch");
  if (inputOfficial.length > 0 && !(start && explainInputs(start, turn.inputVars, out))) {
    out.push(...inputOfficial.map((d) => located(d, model, turn)));
  }
  // Missing start nodes are reported by checkStartEnd; output explanations come from the official check itself.
  for (const diagnostic of official) if (!INPUT_CODES.has(diagnostic.code)) out.push(located(diagnostic, model, turn));
}
