// The agentic baseline's static checks between attempts (its only checks: no conversion, no Dify, no ground truth),
// with the official issue codes and the official tag, JSON and selection rules.
// Pure: validateOfficial never throws; an empty list means the attempt is accepted.

import { agenticReferenceIds } from "@/lib/workflow/inline-references";
import { parsePyJson } from "@/lib/workflow/json-text";
import { compareCodePoints, isJsonObject, pyRepr, pyStrip, type JsonValue } from "@/lib/workflow/python-values";
import { firstTaggedSection } from "@/lib/workflow/tagged-section";
import { declaredSelection, firstWorkflowBody } from "./autofix";

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


const field = (node: JsonValue, key: string): JsonValue | undefined => (isJsonObject(node) ? node[key] : undefined);
const idText = (value: JsonValue | undefined): string => (value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value));
const pyList = (items: readonly string[]) => pyRepr([...items].sort(compareCodePoints));

/** True when the stripped first <workflow> body parses (as Python would) to an object. */
export function workflowJsonIsObject(text: string): boolean {
  const body = firstWorkflowBody(text);
  if (!body) return false;
  const parsed = parsePyJson(body);
  return parsed.ok && isJsonObject(parsed.value);
}

function forwardReferences(nodes: readonly JsonValue[], ids: ReadonlySet<string>): string[] {
  const iterations = new Set(nodes.filter((node) => field(node, "type") === "iteration").map((node) => idText(field(node, "id"))));
  const seen = new Set<string>();
  const violations: string[] = [];
  for (const node of nodes) {
    const id = idText(field(node, "id"));
    const refs = new Set<string>();
    const visit = (value: JsonValue | undefined, skip: string | null): void => {
      if (Array.isArray(value)) {
        const [name, target] = value;
        if (value.length === 2 && typeof name === "string" && typeof target === "string" && ids.has(target) && target !== id) refs.add(target);
        else for (const item of value) visit(item, null);
      } else if (isJsonObject(value)) {
        for (const key of Object.keys(value)) if (key !== skip) visit(value[key], null);
      } else if (typeof value === "string") {
        for (const target of agenticReferenceIds(value)) if (ids.has(target) && target !== id) refs.add(target);
      }
    };
    visit(field(node, "param"), field(node, "type") === "iteration" ? "output_selector" : null);
    if (id.includes("-")) {
      const parent = id.split("-")[0] as string;
      if (ids.has(parent)) refs.add(parent);
    }
    const forward = [...refs].filter((ref) => !seen.has(ref) && !(iterations.has(id) && ref.startsWith(`${id}-`)));
    if (forward.length > 0) violations.push(`node '${id}' references ${pyList(forward)} which appear later`);
    seen.add(id);
  }
  return violations;
}

export function validateOfficial(text: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const add = (code: ValidationCode, message: string) => issues.push({ code, message });
  const design = firstTaggedSection(text, "design_principle");
  if (!design || pyStrip(design.body) === "") add("MISSING_DESIGN_PRINCIPLE", "No <design_principle> section found.");
  const body = firstWorkflowBody(text);
  if (!body) {
    add("MISSING_JSON", "No valid JSON object found between <workflow> tags.");
    return issues;
  }
  const parsed = parsePyJson(body);
  if (!parsed.ok) {
    add("INVALID_JSON", `The workflow JSON is malformed — ${parsed.problem.message}`);
    return issues;
  }
  const workflow = parsed.value;
  if (!isJsonObject(workflow)) {
    add("INVALID_JSON_TYPE", "The workflow JSON is not an object.");
    return issues;
  }
  const nodesValue = workflow.nodes_info ?? [];
  const nodes = Array.isArray(nodesValue) ? nodesValue : [];
  const edges = workflow.edges ?? [];
  if (nodes.length === 0) add("MISSING_NODES", "'nodes_info' is empty or missing.");
  if (!Array.isArray(edges)) add("MISSING_EDGES", "'edges' is missing or not an array.");
  const types = nodes.map((node) => field(node, "type"));
  const idList = nodes.map((node) => idText(field(node, "id")));
  const ids = new Set(idList);
  const starts = nodes.filter((node) => field(node, "type") === "start");
  if (starts.length === 0) add("MISSING_START", "No 'start' node found in nodes_info.");
  else if (starts.length !== 1) add("MULTIPLE_START", `Found ${starts.length} start nodes, but exactly 1 is required.`);
  else if (field(starts[0] as JsonValue, "id") !== "1") add("START_ID_WRONG", `Start node has id '${idText(field(starts[0] as JsonValue, "id"))}', but id '1' is required.`);
  if (!types.includes("end")) add("MISSING_END", "No 'end' node found in nodes_info.");
  const duplicates = new Set(idList.filter((id, index) => idList.indexOf(id) !== index));
  if (duplicates.size > 0) add("DUPLICATE_IDS", `Duplicate node IDs found: ${pyList([...duplicates])}`);
  const badEdges: string[] = [];
  for (const edge of Array.isArray(edges) ? edges : []) {
    if (!Array.isArray(edge) || edge.length < 3) continue;
    if (!ids.has(idText(edge[0]))) badEdges.push(`source '${idText(edge[0])}'`);
    if (!ids.has(idText(edge[2]))) badEdges.push(`target '${idText(edge[2])}'`);
  }
  if (badEdges.length > 0) add("INVALID_EDGES", `Edges reference non-existent node IDs: ${badEdges.join(", ")}`);
  const actual = new Set(types.filter((type): type is string => typeof type === "string" && type !== "").map((type) => type.toLowerCase()));
  const selection = firstTaggedSection(text, "node_selection");
  if (selection) {
    const declared = declaredSelection(selection.body);
    const missing = [...actual].filter((type) => !declared.has(type));
    const extra = [...declared].filter((type) => !actual.has(type));
    if (missing.length > 0) add("NODE_SELECTION_MISMATCH", `<node_selection> is missing these types that appear in the workflow: ${pyList(missing)}`);
    if (extra.length > 0) add("NODE_SELECTION_EXTRA", `<node_selection> declares these types that do NOT appear in the workflow: ${pyList(extra)}. Remove them.`);
  } else add("NODE_SELECTION_MISSING", "No <node_selection> tag found.");
  for (const node of nodes.filter((candidate) => field(candidate, "type") === "iteration")) {
    const id = idText(field(node, "id"));
    if (!ids.has(`${id}-1`)) add("ITERATION_NO_START", `Iteration node '${id}' is missing its iteration-start child '${id}-1'.`);
    const selector = field(field(node, "param") ?? null, "output_selector");
    if (Array.isArray(selector) && selector.length >= 2) {
      const target = idText(selector[1]);
      if (!ids.has(target)) add("ITERATION_BAD_OUTPUT", `Iteration node '${id}' output_selector references non-existent node '${target}'.`);
      else if (!target.startsWith(`${id}-`)) add("ITERATION_BAD_OUTPUT", `Iteration node '${id}' output_selector should reference an internal node ('${id}-N'), but references '${target}'.`);
    }
  }
  for (const node of nodes.filter((candidate) => field(candidate, "type") === "end")) {
    const outputs = field(field(node, "param") ?? null, "outputs");
    if (!Array.isArray(outputs) || outputs.length === 0) add("EMPTY_END_OUTPUTS", `End node '${idText(field(node, "id")) || "?"}' has no output variables defined.`);
  }
  const violations = forwardReferences(nodes, ids);
  if (violations.length > 0) add("TOPOLOGICAL_ORDER", `nodes_info is not in topological order — ${violations.slice(0, 3).join("; ")}${violations.length > 3 ? "..." : ""}`);
  return issues;
}
