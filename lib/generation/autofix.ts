// The agentic baseline's four auto-repairs with the official semantics (fence stripping, JSON repair, topological
// re-ordering, node_selection sync), applied in the official order; each reports the text before and after it.
// Pure and total: a repair that does not apply returns the text unchanged and is not reported.
//
// Public API:
//   applyOfficialAutofixes(text) -> { text, applied: AppliedAutofix[] }
//   stripWorkflowFences, repairWorkflowJson, reorderWorkflowNodes, syncNodeSelection: (text) -> string | null
//   officialTopologicalOrder(nodes, edges) -> string[] | null    the official Kahn order (null on a cycle)
//   pyJsonDumps(value, ensureAscii) -> string                     Python json.dumps with default separators
//   firstWorkflowBody(text) -> string | null                      the stripped first <workflow> body (case-sensitive)

import { agenticReferenceIds } from "@/lib/workflow/inline-references";
import { isFloatLiteral, parsePyJson, type FloatLiterals } from "@/lib/workflow/json-text";
import { boundedJsonRepair } from "@/lib/workflow/repair";
import { compareCodePoints, isJsonObject, pyFloatRepr, pyStrip, type JsonObject, type JsonValue } from "@/lib/workflow/python-values";
import { firstTaggedSection } from "@/lib/workflow/tagged-section";

export const AUTOFIX_CODES = ["strip-code-fence", "json-repair", "topological-order", "node-selection"] as const;
export type AutofixCode = (typeof AUTOFIX_CODES)[number];

export interface AppliedAutofix {
  code: AutofixCode;
  before: string;
  after: string;
}

// The official code matches <workflow> case-sensitively (quirk 5), unlike the pass stage.
const LEADING_FENCE = /^(?:```(?:json|JSON)?|(?:json|JSON)```)\s*\n?/;
const SELECTION_SEPARATORS = /[,;\s]+/;

interface Located {
  body: string;
  start: number;
  end: number;
}

function locateWorkflow(text: string): Located | null {
  const match = firstTaggedSection(text, "workflow", { caseSensitive: true });
  if (!match) return null;
  return { body: match.body, start: match.bodyStart, end: match.bodyStart + match.body.length };
}

function replaceBody(text: string, at: Located, body: string): string {
  return text.slice(0, at.start) + body + text.slice(at.end);
}

/** Python `str.rstrip()`. */
function pyRstrip(text: string): string {
  const stripped = pyStrip(`x${text}`);
  return stripped.slice(1);
}

export function firstWorkflowBody(text: string): string | null {
  const at = locateWorkflow(text);
  return at ? pyStrip(at.body) : null;
}

/** Python json.loads of the stripped first <workflow> body (null when missing or invalid). */
function loadWorkflow(text: string): { value: JsonValue; floats: FloatLiterals | null } | null {
  const body = firstWorkflowBody(text);
  if (body === null) return null;
  const parsed = parsePyJson(body);
  return parsed.ok ? { value: parsed.value, floats: parsed.floats } : null;
}

// -- 1. fences ---------------------------------------------------------------------------------------------------

export function stripWorkflowFences(text: string): string | null {
  const at = locateWorkflow(text);
  if (!at) return null;
  let inner = pyStrip(at.body);
  let changed = false;
  const leading = LEADING_FENCE.exec(inner);
  if (leading) {
    inner = inner.slice(leading[0].length);
    changed = true;
  }
  if (pyRstrip(inner).endsWith("```")) {
    inner = pyRstrip(pyRstrip(inner).slice(0, -3));
    changed = true;
  }
  return changed ? replaceBody(text, at, `\n${inner}\n`) : null;
}

// -- 2. JSON repair ----------------------------------------------------------------------------------------------

function pyString(value: string, ensureAscii: boolean): string {
  const json = JSON.stringify(value);
  return ensureAscii ? json.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`) : json;
}

function pyNumber(value: number, float: boolean): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  return float || !Number.isInteger(value) ? pyFloatRepr(value) : String(value);
}

/** Python `json.dumps(value, ensure_ascii=...)`: one line, ", " and ": " separators. */
export function pyJsonDumps(value: JsonValue, ensureAscii: boolean, floats: FloatLiterals | null = null, float = false): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") return pyNumber(value, float);
  if (typeof value === "string") return pyString(value, ensureAscii);
  if (Array.isArray(value)) return `[${value.map((item, index) => pyJsonDumps(item, ensureAscii, floats, isFloatLiteral(floats, value, index))).join(", ")}]`;
  return `{${Object.keys(value)
    .map((key) => `${pyString(key, ensureAscii)}: ${pyJsonDumps(value[key] as JsonValue, ensureAscii, floats, isFloatLiteral(floats, value, key))}`)
    .join(", ")}}`;
}

/**
 * Repairs the workflow JSON when Python cannot parse it and the repair yields an object; the repaired text is
 * serialised as json_repair does (json.dumps defaults, so ASCII-escaped). The repair engine is jsonrepair, not the
 * Python json_repair package: both fix the usual LLM mistakes, but exotic inputs may repair differently.
 */
export function repairWorkflowJson(text: string): string | null {
  const at = locateWorkflow(text);
  if (!at) return null;
  const inner = pyStrip(at.body);
  if (parsePyJson(inner).ok) return null;
  let repaired: unknown;
  try {
    repaired = JSON.parse(boundedJsonRepair(inner) ?? "null");
  } catch {
    return null;
  }
  if (!isJsonObject(repaired)) return null;
  return replaceBody(text, at, `\n${pyJsonDumps(repaired as JsonObject, true)}\n`);
}

// -- 3. topological order ------------------------------------------------------------------------------------------


const idOf = (node: JsonValue): string => (isJsonObject(node) && node.id !== undefined ? (typeof node.id === "string" ? node.id : JSON.stringify(node.id)) : "None");
const typeOf = (node: JsonValue): string | null => (isJsonObject(node) && typeof node.type === "string" ? node.type : null);

/** Node ids `value` references: [name, id] pairs (not looked into further) and {{#id.var#}} in strings. */
function referencedIds(value: JsonValue | undefined, known: ReadonlySet<string>, skipKey: string | null, into: Set<string>): void {
  if (Array.isArray(value)) {
    const [name, target] = value;
    if (value.length === 2 && typeof name === "string" && (typeof target === "string" || typeof target === "number") && known.has(String(target))) {
      into.add(String(target));
      return;
    }
    for (const item of value) referencedIds(item, known, null, into);
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) if (key !== skipKey) referencedIds(value[key], known, null, into);
  } else if (typeof value === "string") {
    for (const target of agenticReferenceIds(value)) if (known.has(target)) into.add(target);
  }
}

/** What must come before each node (by id), per the official rules. */
function dependencies(nodes: readonly JsonValue[], edges: JsonValue | undefined): Map<string, Set<string>> {
  const ids = nodes.map(idOf);
  const known = new Set(ids);
  const deps = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
  if (Array.isArray(edges)) {
    for (const edge of edges) {
      if (!Array.isArray(edge) || edge.length < 3) continue;
      const source = String(edge[0]);
      const target = String(edge[2]);
      if (known.has(source) && known.has(target)) deps.get(target)?.add(source);
    }
  }
  nodes.forEach((node, index) => {
    const id = ids[index] as string;
    const iteration = typeOf(node) === "iteration";
    const refs = new Set<string>();
    referencedIds(isJsonObject(node) ? node.param : undefined, known, iteration ? "output_selector" : null, refs);
    refs.delete(id);
    if (id.includes("-")) {
      const parent = id.split("-")[0] as string;
      if (known.has(parent)) deps.get(id)?.add(parent);
    }
    for (const ref of refs) if (!(iteration && ref.startsWith(`${id}-`))) deps.get(id)?.add(ref);
  });
  return deps;
}

const rankOf = (type: string | null) => (type === "start" ? 0 : type === "end" ? 2 : 1);

/**
 * Kahn's algorithm; among ready nodes the official tie-break takes start first, end last, otherwise the original
 * position. Null when the graph has a cycle (the official code then keeps the original order).
 */
export function officialTopologicalOrder(nodes: readonly JsonValue[], edges: JsonValue | undefined): number[] | null {
  const ids = nodes.map(idOf);
  const position = new Map<string, number>();
  ids.forEach((id, index) => {
    if (!position.has(id)) position.set(id, index);
  });
  const deps = dependencies(nodes, edges);
  const indegree = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const [id, before] of deps) {
    indegree.set(id, before.size);
    for (const dep of before) dependents.set(dep, [...(dependents.get(dep) ?? []), id]);
  }
  const rank = (id: string) => rankOf(typeOf(nodes[position.get(id) as number] as JsonValue));
  const ready = [...deps.keys()].filter((id) => indegree.get(id) === 0);
  const order: string[] = [];
  while (ready.length > 0) {
    ready.sort((a, b) => rank(a) - rank(b) || (position.get(a) as number) - (position.get(b) as number));
    const next = ready.shift() as string;
    order.push(next);
    for (const dependent of dependents.get(next) ?? []) {
      const left = (indegree.get(dependent) as number) - 1;
      indegree.set(dependent, left);
      if (left === 0) ready.push(dependent);
    }
  }
  if (order.length !== deps.size || deps.size !== ids.length) return null;
  return order.map((id) => position.get(id) as number);
}

export function reorderWorkflowNodes(text: string): string | null {
  const at = locateWorkflow(text);
  const loaded = loadWorkflow(text);
  if (!at || !loaded || !isJsonObject(loaded.value)) return null;
  const workflow = loaded.value;
  const nodes = workflow.nodes_info;
  if (!Array.isArray(nodes) || nodes.length === 0) return null;
  const order = officialTopologicalOrder(nodes, workflow.edges);
  if (!order || order.every((index, position) => index === position)) return null;
  const reordered: JsonObject = { ...workflow, nodes_info: order.map((index) => nodes[index] as JsonValue) };
  return replaceBody(text, at, `\n${pyJsonDumps(reordered, false, loaded.floats)}\n`);
}

// -- 4. node_selection ---------------------------------------------------------------------------------------------

/** The declared node_selection as the official code reads it: split on [,;\s]+, lower-cased, as a set. */
export function declaredSelection(content: string): Set<string> {
  return new Set(
    pyStrip(content)
      .split(SELECTION_SEPARATORS)
      .map((part) => part.trim().toLowerCase())
      .filter((part) => part !== ""),
  );
}

export function syncNodeSelection(text: string): string | null {
  const loaded = loadWorkflow(text);
  if (!loaded || !isJsonObject(loaded.value)) return null;
  const nodes = loaded.value.nodes_info;
  if (!Array.isArray(nodes) || nodes.length === 0) return null;
  const types = [...new Set(nodes.map(typeOf).filter((type): type is string => type !== null && type !== ""))].sort(compareCodePoints);
  if (types.length === 0) return null;
  const content = `\n${types.join("\n")}\n`;
  const selection = firstTaggedSection(text, "node_selection");
  if (selection) {
    const declared = [...declaredSelection(selection.body)].sort(compareCodePoints);
    const actual = [...new Set(types.map((type) => type.toLowerCase()))].sort(compareCodePoints);
    if (declared.length === actual.length && declared.every((type, index) => type === actual[index])) return null;
    return text.slice(0, selection.bodyStart) + content + text.slice(selection.bodyStart + selection.body.length);
  }
  const anchors = ["<design_principle>", "<workflow>"].map((tag) => text.indexOf(tag)).filter((index) => index >= 0);
  const at = anchors[0] ?? 0;
  return `${text.slice(0, at)}<node_selection>${content}</node_selection>\n\n${text.slice(at)}`;
}

// -- all four ------------------------------------------------------------------------------------------------------

const FIXES: readonly [AutofixCode, (text: string) => string | null][] = [
  ["strip-code-fence", stripWorkflowFences],
  ["json-repair", repairWorkflowJson],
  ["topological-order", reorderWorkflowNodes],
  ["node-selection", syncNodeSelection],
];

export function applyOfficialAutofixes(text: string): { text: string; applied: AppliedAutofix[] } {
  const applied: AppliedAutofix[] = [];
  let current = text;
  for (const [code, fix] of FIXES) {
    const next = fix(current);
    if (next === null) continue;
    applied.push({ code, before: current, after: next });
    current = next;
  }
  return { text: current, applied };
}
