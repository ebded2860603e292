// The official pass-stage verdict for steps 1_1–1_3, reproduced exactly (first start node, set equality of inputs,
// every end node's sorted outputs).

import type { Result } from "../result";
import type { TurnSpec } from "../benchmark/turn";
import { conversionFailure, convertWorkflow, type Conversion, type ConvertOptions } from "./convert";
import { makeDiagnostic, type DiagnosticCode, type DiagnosticExtras } from "./diagnostic-codes";
import type { Diagnostic } from "./diagnostics";
import type { FloatLiterals } from "./json-text";
import type { ParsedResponse } from "./response";
import {
  compareCodePoints,
  isJsonObject,
  ownValue,
  preview,
  pyEq,
  pyHashKey,
  pyIter,
  pySortBy,
  type JsonObject,
  type JsonValue,
} from "./python-values";

export type VerdictStep = "step_1_1" | "step_1_2" | "step_1_3";

export interface OfficialVerdict {
  failStep: VerdictStep | null;
  diagnostics: Diagnostic[];
  /** The conversion outcome, when step_1_1 passed (reuse it instead of converting again). */
  conversion: Result<Conversion, Diagnostic> | null;
}

export type VariableSpec = Pick<TurnSpec, "inputVars" | "outputVars">;

export interface VerdictOptions extends Omit<ConvertOptions, "floats"> {
  /** False: decide step_1_2 by the conversion's checks alone (no layout, no Dify graph); `conversion` is null. */
  graph?: boolean;
}

export function officialVerdict(parsed: ParsedResponse, turn: VariableSpec, options: VerdictOptions = {}): OfficialVerdict {
  if (!parsed.json.ok || parsed.diagnostics.length > 0) {
    return { failStep: "step_1_1", diagnostics: parsed.diagnostics, conversion: null };
  }
  const { graph = true, ...convertOptions } = options;
  if (!graph) {
    const failure = conversionFailure(parsed.json.value, { ...convertOptions, floats: parsed.json.floats });
    if (failure) return { failStep: "step_1_2", diagnostics: [failure], conversion: null };
    const diagnostics = checkVariableNames(parsed.json.value, turn);
    return { failStep: diagnostics.length ? "step_1_3" : null, diagnostics, conversion: null };
  }
  const conversion = convertWorkflow(parsed.json.value, { ...convertOptions, floats: parsed.json.floats });
  if (!conversion.ok) return { failStep: "step_1_2", diagnostics: conversion.issues, conversion };
  const diagnostics = checkVariableNames(parsed.json.value, turn);
  return { failStep: diagnostics.length ? "step_1_3" : null, diagnostics, conversion };
}

/** The first official step (1_2 or 1_3) an already-parsed workflow fails; null when it reaches step_1_4. */
export function officialFailStepOf(workflow: JsonValue, turn: VariableSpec, floats: FloatLiterals | null = null): "step_1_2" | "step_1_3" | null {
  if (conversionFailure(workflow, { floats })) return "step_1_2";
  return checkVariableNames(workflow, turn).length ? "step_1_3" : null;
}

// -- step_1_3 ------------------------------------------------------------------------------------------------------

/** A step_1_3 failure: always an error of that step, whatever the code's default (some codes are graph problems). */
function consistency(code: DiagnosticCode, message: string, extra: Pick<DiagnosticExtras, "location" | "targetNodeId" | "hint"> = {}): Diagnostic {
  return makeDiagnostic(code, message, { ...extra, severity: "error", officialStep: "step_1_3" });
}

function nodeId(node: JsonObject): string | undefined {
  const id = ownValue(node, "id");
  return typeof id === "string" ? id : undefined;
}

const NO_ENTRIES: readonly JsonValue[] = Object.freeze([]);

/**
 * Python `node.get("param", {}).get(key, [])`, undefined where the official code would raise (param not a dict); a
 * null param or entry counts as absent.
 */
function paramEntries(node: JsonObject, key: string): JsonValue | undefined {
  const param = ownValue(node, "param");
  if (param === undefined || param === null) return NO_ENTRIES as JsonValue[];
  if (!isJsonObject(param)) return undefined;
  return ownValue(param, key) ?? (NO_ENTRIES as JsonValue[]);
}

/** `[item[0] for item in entries if isinstance(item, list) and len(item) > 0]` */
function firstElements(entries: JsonValue | undefined): JsonValue[] | undefined {
  const items = entries === undefined ? undefined : pyIter(entries);
  if (!items) return undefined;
  const firsts: JsonValue[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (Array.isArray(item) && item.length > 0) firsts.push(item[0] as JsonValue);
  }
  return firsts;
}

const show = (names: readonly JsonValue[]): string => (names.length ? names.map((n) => (typeof n === "string" ? n : preview(n))).join(", ") : "none");

/** Python `items.index(x)` (pyEq is symmetric), -1 when absent. */
function pyIndexOf(items: readonly JsonValue[], x: JsonValue): number {
  for (let k = 0; k < items.length; k++) if (pyEq(items[k] as JsonValue, x)) return k;
  return -1;
}

/** The items of `a` absent from `b`, each kept at its first occurrence in `a`. */
function setDifference(a: readonly JsonValue[], b: readonly JsonValue[]): JsonValue[] {
  const difference: JsonValue[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as JsonValue;
    if (pyIndexOf(b, x) < 0 && pyIndexOf(a, x) === i) difference.push(x);
  }
  return difference;
}

/** The official step_1_3 check on the parsed workflow; one or more diagnostics when it fails. */
export function checkVariableNames(workflow: JsonValue, turn: VariableSpec): Diagnostic[] {
  const nodesValue = isJsonObject(workflow) ? (ownValue(workflow, "nodes_info") ?? []) : undefined;
  const nodes = nodesValue === undefined ? undefined : pyIter(nodesValue);
  if (!nodes) return [consistency("workflow-missing-nodes", "The workflow has no list of nodes to check variable names on.")];
  // The first start node and every end node, in list order, each node's type read once.
  const ends: JsonObject[] = [];
  let start: JsonObject | undefined;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    if (!isJsonObject(node)) continue;
    const type = ownValue(node, "type");
    if (type === "end") ends.push(node);
    else if (type === "start" && start === undefined) start = node;
  }
  const diagnostics: Diagnostic[] = [];

  if (!start) {
    diagnostics.push(
      consistency("missing-start", `The workflow has no start node, so its inputs cannot match the required inputs (${show(turn.inputVars)}).`, {
        hint: 'Add a start node declaring the inputs, with id "1".',
      }),
    );
  } else {
    const inputs = checkInputs(start, turn.inputVars);
    if (inputs) diagnostics.push(inputs);
  }
  const outputs = checkOutputs(ends, turn.outputVars);
  for (let i = 0; i < outputs.length; i++) diagnostics.push(outputs[i] as Diagnostic);
  return diagnostics;
}

function allHashable(names: readonly JsonValue[]): boolean {
  for (let i = 0; i < names.length; i++) if (pyHashKey(names[i] as JsonValue) === undefined) return false;
  return true;
}

function checkInputs(start: JsonObject, required: readonly string[]): Diagnostic | null {
  const names = firstElements(paramEntries(start, "variables"));
  const id = nodeId(start);
  const location = id === undefined ? undefined : { nodeId: id, paramPath: ["variables"] };
  if (!names) {
    return consistency("input-variables-mismatch", `The start node's variables are not a list; the task requires inputs ${show(required)}.`, location ? { location } : {});
  }
  if (!allHashable(names)) {
    return consistency("input-variables-mismatch", "A start variable name is a list or object; names must be strings.", location ? { location } : {});
  }
  const missing = setDifference(required, names);
  const extra = setDifference(names, required);
  if (!missing.length && !extra.length) return null;
  const parts = [missing.length ? `missing ${show(missing)}` : "", extra.length ? `unexpected ${show(extra)}` : ""].filter(Boolean);
  return consistency(
    "input-variables-mismatch",
    `Start node${id ? ` "${id}"` : ""} declares inputs (${show(names)}), but the task requires exactly (${show(required)}): ${parts.join("; ")}.`,
    { ...(location ? { location } : {}), hint: "Use the input names the instruction gives as (variable X)." },
  );
}

interface EndOutputs {
  node: JsonObject;
  names: JsonValue[];
}

function allStrings(items: readonly JsonValue[]): items is readonly string[] {
  for (let i = 0; i < items.length; i++) if (typeof items[i] !== "string") return false;
  return true;
}

const identity = (item: JsonValue): JsonValue => item;

/** Python `sorted(list)`; null when the official sort would raise (mixed types). */
function pySorted(items: readonly JsonValue[]): JsonValue[] | null {
  // Strings never raise, and both sorts are stable: the same order without replaying CPython's comparisons.
  if (allStrings(items)) return items.slice().sort(compareCodePoints);
  const { sorted, raises } = pySortBy(items, identity);
  return raises ? null : sorted;
}

function checkOutputs(endNodes: readonly JsonObject[], outputVars: string[] | string[][]): Diagnostic[] {
  const ends: EndOutputs[] = [];
  for (let i = 0; i < endNodes.length; i++) {
    const node = endNodes[i] as JsonObject;
    const names = firstElements(paramEntries(node, "outputs"));
    if (!names) {
      return [consistency("output-variables-mismatch", "An end node's outputs are not a list.", locationOf(node, "outputs"))];
    }
    const sorted = pySorted(names);
    if (!sorted) {
      return [consistency("output-variables-mismatch", `End node outputs (${show(names)}) mix names of different kinds; names must be strings.`, locationOf(node, "outputs"))];
    }
    ends.push({ node, names: sorted });
  }
  const groups = targetGroups(outputVars);
  const actual = pySortBy(ends, (end) => end.names);
  if (actual.raises) return [consistency("output-variables-mismatch", "End node outputs cannot be compared; names must be strings.")];
  if (actual.sorted.length === groups.length && endsEqualGroups(actual.sorted, groups)) return [];
  return explainOutputMismatch(ends, groups);
}

function endsEqualGroups(ends: readonly EndOutputs[], groups: readonly string[][]): boolean {
  for (let i = 0; i < ends.length; i++) if (!pyEq((ends[i] as EndOutputs).names, (groups[i] ?? []) as JsonValue[])) return false;
  return true;
}

// A turn's required outputs are sorted once per process, not once per response to the turn (read only after).
const SORTED_TARGETS = new WeakMap<readonly unknown[], string[][]>();

function targetGroups(outputVars: string[] | string[][]): string[][] {
  let sorted = SORTED_TARGETS.get(outputVars);
  if (!sorted) {
    const groups = outputVars.length === 0 ? [] : typeof outputVars[0] === "string" ? [outputVars as string[]] : (outputVars as string[][]);
    sorted = groups.map((group) => [...group].sort(compareCodePoints)).sort(compareLists);
    SORTED_TARGETS.set(outputVars, sorted);
  }
  return sorted;
}

/** Python list ordering for lists of strings: element by element, then length. */
function compareLists(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const order = compareCodePoints(a[i] as string, b[i] as string);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

function locationOf(node: JsonObject, key: string): Partial<Diagnostic> {
  const id = nodeId(node);
  return id === undefined ? {} : { location: { nodeId: id, paramPath: [key] } };
}

function duplicates(names: readonly JsonValue[]): JsonValue[] {
  return names.filter((name, i) => names.findIndex((other) => pyEq(other, name)) !== i);
}

function endLabel(end: EndOutputs): string {
  return nodeId(end.node) ? `End node "${nodeId(end.node)}"` : "An end node";
}

/** Pairs end nodes with required groups (exact matches first, then by overlap) and names what differs. */
function explainOutputMismatch(ends: EndOutputs[], groups: string[][]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (ends.length !== groups.length) {
    const expected =
      groups.length === 1 ? `exactly one End node with outputs (${show(groups[0] ?? [])})` : `${groups.length} End nodes with outputs ${groups.map((g) => `(${show(g)})`).join(" and ")}`;
    const found = ends.length ? ends.map((end) => `${endLabel(end)}: (${show(end.names)})`).join("; ") : "none";
    diagnostics.push(
      consistency("end-count-mismatch", `The workflow has ${ends.length} End node(s), but the task expects ${expected}. Found: ${found}.`, {
        hint:
          groups.length === 1
            ? "Merge the branches with a variable aggregator into a single End node."
            : "Give each set of outputs its own End node.",
      }),
    );
  }
  for (const end of ends) {
    const repeated = duplicates(end.names);
    if (repeated.length) {
      diagnostics.push(consistency("duplicate-output-name", `${endLabel(end)} outputs ${show(repeated)} more than once.`, locationOf(end.node, "outputs")));
    }
  }
  const unmatchedGroups = groups.slice();
  const unmatchedEnds: EndOutputs[] = [];
  for (const end of ends) {
    const exact = unmatchedGroups.findIndex((group) => pyEq(end.names, group));
    if (exact >= 0) unmatchedGroups.splice(exact, 1);
    else unmatchedEnds.push(end);
  }
  for (const end of unmatchedEnds) {
    if (!unmatchedGroups.length) break;
    let best = 0;
    let bestScore = -1;
    unmatchedGroups.forEach((group, i) => {
      const score = end.names.filter((name) => group.some((g) => pyEq(g, name))).length;
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    });
    const group = unmatchedGroups.splice(best, 1)[0] ?? [];
    const missing = setDifference(group, end.names);
    const extra = setDifference(end.names, group);
    if (!missing.length && !extra.length) continue;
    const parts = [missing.length ? `missing ${show(missing)}` : "", extra.length ? `unexpected ${show(extra)}` : ""].filter(Boolean);
    diagnostics.push(
      consistency(
        "output-variables-mismatch",
        `${endLabel(end)} outputs (${show(end.names)}), but the task requires (${show(group)}): ${parts.join("; ")}.`,
        { ...locationOf(end.node, "outputs"), hint: "Use the output names the instruction gives as (variable X)." },
      ),
    );
  }
  if (!diagnostics.length) {
    diagnostics.push(consistency("output-variables-mismatch", `The End nodes' outputs do not match the required outputs ${groups.map((g) => `(${show(g)})`).join(", ")}.`));
  }
  return diagnostics;
}
