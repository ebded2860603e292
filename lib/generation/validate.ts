// The agentic baseline's static checks between attempts (its only checks: no conversion, no Dify, no ground truth),
// with the official issue codes, messages and rules, ids read with Python's str() (a numeric start id 1 is "1",
// numeric reference ids count). Pure: never throws; where the official code raises, the result says so.

import { agenticReferenceIds } from "@/lib/workflow/inline-references";
import { parsePyJson, type FloatLiterals } from "@/lib/workflow/json-text";
import { compareCodePoints, isJsonObject, pyRepr, pyStrip, pyTypeName, type JsonValue } from "@/lib/workflow/python-values";
import { firstTaggedSection } from "@/lib/workflow/tagged-section";
import { declaredSelection, firstWorkflowBody } from "@/lib/workflow/repair-official";
import { dictGet, isStrOrInt, iterate, PyRaise, raise, strAt, truthy } from "@/lib/workflow/python-ops";

export const VALIDATION_CODES = [
  "MISSING_DESIGN_PRINCIPLE",
  "MISSING_JSON",
  "INVALID_JSON",
  "INVALID_JSON_TYPE",
  "MISSING_NODES",
  "MISSING_EDGES",
  "MISSING_START",
  "MULTIPLE_START",
  "START_ID_WRONG",
  "MISSING_END",
  "DUPLICATE_IDS",
  "INVALID_EDGES",
  "NODE_SELECTION_MISMATCH",
  "NODE_SELECTION_EXTRA",
  "NODE_SELECTION_MISSING",
  "ITERATION_NO_START",
  "ITERATION_BAD_OUTPUT",
  "EMPTY_END_OUTPUTS",
  "TOPOLOGICAL_ORDER",
] as const;
export type ValidationCode = (typeof VALIDATION_CODES)[number];

export interface ValidationIssue {
  code: ValidationCode;
  message: string;
}

/** The issues found, or where the official validation raises (the official run abandons the task there). */
export type Validation = { ok: true; issues: ValidationIssue[] } | { ok: false; raises: string };

const ALL_TAGS = "The evaluation pipeline requires all three sections: <node_selection>, <design_principle>, and <workflow>.";

const sortedRepr = (items: Iterable<string>) => pyRepr([...items].sort(compareCodePoints));

/** True when the stripped first <workflow> body parses (as Python would) to an object. */
export function workflowJsonIsObject(text: string): boolean {
  const body = firstWorkflowBody(text);
  if (!body) return false;
  const parsed = parsePyJson(body);
  return parsed.ok && isJsonObject(parsed.value);
}

/** Python `.lower()` of each truthy type; a truthy type that is not a string raises. */
function lowerTypes(types: readonly (JsonValue | undefined)[]): Set<string> {
  const lowered = new Set<string>();
  for (const type of types) {
    if (!truthy(type)) continue;
    if (typeof type !== "string") raise("AttributeError");
    lowered.add(type.toLowerCase());
  }
  return lowered;
}

/** Node ids a node's param references, as the official check collects them (the skipped key only at the top). */
function collectRefs(value: JsonValue | undefined, ids: ReadonlySet<string>, self: string, floats: FloatLiterals | null, skip: string | null, into: Set<string>): void {
  if (Array.isArray(value)) {
    if (value.length === 2 && typeof value[0] === "string" && isStrOrInt(value, 1, floats)) {
      const target = strAt(value, 1, floats);
      if (ids.has(target) && target !== self) {
        into.add(target);
        return;
      }
    }
    for (const item of value) collectRefs(item, ids, self, floats, null, into);
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) if (key !== skip) collectRefs(value[key], ids, self, floats, null, into);
  } else if (typeof value === "string") {
    for (const target of agenticReferenceIds(value)) if (ids.has(target) && target !== self) into.add(target);
  }
}

function check(text: string, issues: ValidationIssue[]): void {
  const add = (code: ValidationCode, message: string): void => {
    issues.push({ code, message });
  };
  const design = firstTaggedSection(text, "design_principle");
  if (!design || pyStrip(design.body) === "") add("MISSING_DESIGN_PRINCIPLE", `No <design_principle> section found. ${ALL_TAGS}`);
  const body = firstWorkflowBody(text);
  if (!body) return add("MISSING_JSON", "No valid JSON object found between <workflow> tags.");
  const parsed = parsePyJson(body);
  if (!parsed.ok) return add("INVALID_JSON", `The workflow JSON is malformed — ${parsed.problem.message}`);
  const { value: workflow, floats } = parsed;
  if (!isJsonObject(workflow)) return add("INVALID_JSON_TYPE", `The workflow JSON is a ${pyTypeName(workflow) === "None" ? "NoneType" : pyTypeName(workflow)}, expected a dict/object.`);

  const nodesValue = dictGet(workflow, "nodes_info", []) as JsonValue;
  const edges = dictGet(workflow, "edges", []) as JsonValue;
  if (!truthy(nodesValue)) add("MISSING_NODES", "'nodes_info' is empty or missing.");
  if (!Array.isArray(edges)) add("MISSING_EDGES", "'edges' is missing or not an array.");
  const nodes = iterate(nodesValue);
  const types = nodes.map((node) => dictGet(node, "type", ""));
  const idList = nodes.map((node) => strAt(node, "id", floats, ""));
  const ids = new Set(idList);
  if (!types.includes("start")) add("MISSING_START", "No 'start' node found in nodes_info.");
  else {
    const starts = nodes.filter((node) => dictGet(node, "type") === "start");
    if (starts.length !== 1) add("MULTIPLE_START", `Found ${starts.length} start nodes, but exactly 1 is required.`);
    else if (strAt(starts[0] as JsonValue, "id", floats) !== "1") add("START_ID_WRONG", `Start node has id '${strAt(starts[0] as JsonValue, "id", floats)}', but SKILL.md requires id '1'.`);
  }
  if (!types.includes("end")) add("MISSING_END", "No 'end' node found in nodes_info.");
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const id of idList) {
    if (seen.has(id)) duplicates.add(id);
    seen.add(id);
  }
  if (duplicates.size > 0) add("DUPLICATE_IDS", `Duplicate node IDs found: ${sortedRepr(duplicates)}`);
  const badEdges: string[] = [];
  for (const edge of iterate(edges)) {
    if (!Array.isArray(edge) || edge.length < 3) continue;
    const source = strAt(edge, 0, floats);
    const target = strAt(edge, 2, floats);
    if (!ids.has(source)) badEdges.push(`source '${source}'`);
    if (!ids.has(target)) badEdges.push(`target '${target}'`);
  }
  if (badEdges.length > 0) add("INVALID_EDGES", `Edges reference non-existent node IDs: ${badEdges.join(", ")}`);
  const actual = lowerTypes(types);
  const selection = firstTaggedSection(text, "node_selection");
  if (selection) {
    const declared = declaredSelection(selection.body);
    const missing = [...actual].filter((type) => !declared.has(type));
    const extra = [...declared].filter((type) => !actual.has(type));
    if (missing.length > 0) add("NODE_SELECTION_MISMATCH", `<node_selection> is missing these types that appear in the workflow: ${sortedRepr(missing)}`);
    if (extra.length > 0) add("NODE_SELECTION_EXTRA", `<node_selection> declares these types that do NOT appear in the workflow: ${sortedRepr(extra)}. Remove them.`);
  } else add("NODE_SELECTION_MISSING", `No <node_selection> tag found. ${ALL_TAGS}`);
  // A dict keyed by str(id): the last iteration node of an id wins, at the place of the first.
  const iterations = new Map<string, JsonValue>();
  for (const node of nodes) if (dictGet(node, "type") === "iteration") iterations.set(strAt(node, "id", floats), node);
  for (const [id, node] of iterations) {
    if (!ids.has(`${id}-1`)) add("ITERATION_NO_START", `Iteration node '${id}' is missing its iteration-start child '${id}-1'.`);
    const selector = dictGet(dictGet(node, "param", {}), "output_selector", []);
    if (Array.isArray(selector) && selector.length >= 2) {
      const target = strAt(selector, 1, floats);
      if (!ids.has(target)) add("ITERATION_BAD_OUTPUT", `Iteration node '${id}' output_selector references non-existent node '${target}'.`);
      else if (!target.startsWith(`${id}-`)) add("ITERATION_BAD_OUTPUT", `Iteration node '${id}' output_selector should reference an internal node ('${id}-N'), but references '${target}'.`);
    }
  }
  for (const node of nodes.filter((candidate) => dictGet(candidate, "type") === "end")) {
    if (!truthy(dictGet(dictGet(node, "param", {}), "outputs", []))) add("EMPTY_END_OUTPUTS", `End node '${strAt(node, "id", floats, "?")}' has no output variables defined.`);
  }
  const iterationIds = new Set(nodes.filter((node) => dictGet(node, "type") === "iteration").map((node) => strAt(node, "id", floats)));
  const before = new Set<string>();
  const violations: string[] = [];
  for (const node of nodes) {
    const id = strAt(node, "id", floats, "");
    const refs = new Set<string>();
    collectRefs(dictGet(node, "param", {}), ids, id, floats, dictGet(node, "type", "") === "iteration" ? "output_selector" : null, refs);
    if (id.includes("-")) {
      const parent = id.split("-")[0] as string;
      if (ids.has(parent)) refs.add(parent);
    }
    const forward = [...refs].filter((ref) => !before.has(ref) && !(iterationIds.has(id) && ref.startsWith(`${id}-`)));
    if (forward.length > 0) violations.push(`node '${id}' references ${sortedRepr(forward)} which appear later`);
    before.add(id);
  }
  if (violations.length > 0) add("TOPOLOGICAL_ORDER", `nodes_info is not in topological order — ${violations.slice(0, 3).join("; ")}${violations.length > 3 ? "..." : ""}`);
}

export function officialValidation(text: string): Validation {
  const issues: ValidationIssue[] = [];
  try {
    check(text, issues);
  } catch (error) {
    if (error instanceof PyRaise) return { ok: false, raises: error.name };
    throw error;
  }
  return { ok: true, issues };
}
