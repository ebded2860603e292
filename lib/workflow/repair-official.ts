// The repair engine's official policy: the generation loop's four auto-repairs with Python's semantics and order, so a
// generated answer is stored as the official pipeline would store it (studio policy: repair.ts; codes: repair-codes.ts).

import { agenticReferenceIds } from "./inline-references";
import { isFloatLiteral, parsePyJson, type FloatLiterals } from "./json-text";
import { compareCodePoints, isJsonObject, pyFloatRepr, pyStrip, type JsonObject, type JsonValue } from "./python-values";
import { dictGet, isStrOrInt, iterate, PY_SPACE, PyRaise, raise, strAt, truthy } from "./python-ops";
import { boundedJsonRepair, nextReady, tieRank } from "./repair";
import type { AutofixCode } from "./repair-codes";
import { firstTaggedSection } from "./tagged-section";

export { AUTOFIX_CODES, type AutofixCode } from "./repair-codes";

export interface AppliedAutofix {
  code: AutofixCode;
  before: string;
  after: string;
}

// The official code matches <workflow> case-sensitively (quirk 5), unlike the pass stage.
const LEADING_FENCE = new RegExp(`^(?:\`\`\`(?:json|JSON)?|(?:json|JSON)\`\`\`)[${PY_SPACE}]*\n?`);
const SELECTION_SEPARATORS = new RegExp(`[,;${PY_SPACE}]+`);

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
 * Python json_repair package: of the 27 recorded answers the official code repairs, 22 come out differently
 * (lib/generation/repair-official.parity.test.ts lists them).
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


/** Node ids `value` references: [name, id] pairs (not looked into further) and {{#id.var#}} in strings. */
function referencedIds(value: JsonValue | undefined, known: ReadonlySet<string>, floats: FloatLiterals | null, skipKey: string | null, into: Set<string>): void {
  if (Array.isArray(value)) {
    if (value.length === 2 && typeof value[0] === "string" && isStrOrInt(value, 1, floats) && known.has(strAt(value, 1, floats))) {
      into.add(strAt(value, 1, floats));
      return;
    }
    for (const item of value) referencedIds(item, known, floats, null, into);
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) if (key !== skipKey) referencedIds(value[key], known, floats, null, into);
  } else if (typeof value === "string") {
    for (const target of agenticReferenceIds(value)) if (known.has(target)) into.add(target);
  }
}

/**
 * The official `_topological_sort_nodes`: Kahn's algorithm over str(id)s, the ready queue re-sorted before each pop
 * by (start first, end last, the id's last position). Duplicate ids behave as in Python (a dict keeps the last node
 * of an id). Returns the new order of ids' nodes, or null when the order stays (no change, or a cycle). Raises
 * (PyRaise) where Python does.
 */
function topologicalNodes(nodesValue: JsonValue, edges: JsonValue | undefined, floats: FloatLiterals | null): JsonValue[] | null {
  if (!truthy(nodesValue)) return null;
  const nodes = iterate(nodesValue);
  const byId = new Map<string, JsonValue>();
  const ids: string[] = [];
  for (const node of nodes) {
    dictGet(node, "id");
    const id = strAt(node, "id", floats);
    byId.set(id, node);
    ids.push(id);
  }
  const deps = new Map<string, Set<string>>();
  const depsOf = (id: string) => deps.get(id) ?? (deps.set(id, new Set()).get(id) as Set<string>);
  for (const edge of iterate(edges)) {
    if (!Array.isArray(edge) || edge.length < 3) continue;
    const source = strAt(edge, 0, floats);
    const target = strAt(edge, 2, floats);
    if (byId.has(source) && byId.has(target)) depsOf(target).add(source);
  }
  const iterationIds = new Set(nodes.filter((node) => dictGet(node, "type") === "iteration").map((node) => strAt(node, "id", floats)));
  for (const node of nodes) {
    const id = strAt(node, "id", floats);
    const refs = new Set<string>();
    referencedIds(dictGet(node, "param", {}), new Set(byId.keys()), floats, dictGet(node, "type", "") === "iteration" ? "output_selector" : null, refs);
    refs.delete(id);
    if (id.includes("-")) {
      const parent = id.split("-")[0] as string;
      if (byId.has(parent)) depsOf(id).add(parent);
    }
    for (const ref of refs) if (!(iterationIds.has(id) && ref.startsWith(`${id}-`))) depsOf(id).add(ref);
  }
  const unique = new Set(ids);
  const indegree = new Map<string, number>();
  const dependents = new Map<string, Set<string>>();
  for (const id of unique) {
    for (const dep of deps.get(id) ?? []) {
      if (!unique.has(dep)) continue;
      (dependents.get(dep) ?? (dependents.set(dep, new Set()).get(dep) as Set<string>)).add(id);
      indegree.set(id, (indegree.get(id) ?? 0) + 1);
    }
  }
  const lastPosition = new Map(ids.map((id, index) => [id, index]));
  const rank = (id: string) => tieRank(dictGet(byId.get(id) ?? {}, "type"));
  const position = (id: string) => lastPosition.get(id) as number;
  const ready = ids.filter((id) => (indegree.get(id) ?? 0) === 0);
  const order: string[] = [];
  while (ready.length > 0) {
    // Python re-sorts the queue by (rank, last position) before each pop; equal keys are the same id.
    const next = ready.splice(nextReady(ready, rank, position), 1)[0] as string;
    order.push(next);
    for (const dependent of dependents.get(next) ?? []) {
      const left = (indegree.get(dependent) ?? 0) - 1;
      indegree.set(dependent, left);
      if (left === 0) ready.push(dependent);
    }
  }
  if (order.length !== ids.length) return null;
  if (order.every((id, index) => id === ids[index])) return null;
  return order.map((id) => byId.get(id) as JsonValue);
}

export function reorderWorkflowNodes(text: string): string | null {
  const at = locateWorkflow(text);
  const loaded = loadWorkflow(text);
  if (!at || !loaded) return null;
  const workflow = loaded.value;
  const nodes = dictGet(workflow, "nodes_info", []) as JsonValue;
  const edges = dictGet(workflow, "edges", []);
  const reordered = topologicalNodes(nodes, edges, loaded.floats);
  if (!reordered) return null;
  const rewritten: JsonObject = { ...(workflow as JsonObject), nodes_info: reordered };
  return replaceBody(text, at, `\n${pyJsonDumps(rewritten, false, loaded.floats)}\n`);
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
  if (!loaded) return null;
  const nodesValue = dictGet(loaded.value, "nodes_info", []) as JsonValue;
  if (!truthy(nodesValue)) return null;
  const found: JsonValue[] = [];
  for (const node of iterate(nodesValue)) {
    const type = dictGet(node, "type");
    if (!truthy(dictGet(node, "type"))) continue;
    if (typeof type === "object") raise("TypeError"); // unhashable in a set
    found.push(type as JsonValue);
  }
  // sorted() of mixed types, then "\n".join(), raise for anything but strings.
  if (found.some((type) => typeof type !== "string")) raise("TypeError");
  const types = [...new Set(found as string[])].sort(compareCodePoints);
  if (types.length === 0) return null;
  const content = `\n${types.join("\n")}\n`;
  const selection = firstTaggedSection(text, "node_selection");
  if (selection) {
    const declared = [...declaredSelection(selection.body)].sort(compareCodePoints);
    // Not a set: "LLM" and "llm" are two entries, so such a workflow is always rewritten, as officially.
    const actual = types.map((type) => type.toLowerCase()).sort(compareCodePoints);
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

export type AutofixResult = { ok: true; text: string; applied: AppliedAutofix[] } | { ok: false; raises: string; at: AutofixCode; applied: AppliedAutofix[] };

export function applyOfficialAutofixes(text: string): AutofixResult {
  const applied: AppliedAutofix[] = [];
  let current = text;
  for (const [code, fix] of FIXES) {
    let next: string | null;
    try {
      next = fix(current);
    } catch (error) {
      if (error instanceof PyRaise) return { ok: false, raises: error.name, at: code, applied };
      throw error;
    }
    if (next === null) continue;
    applied.push({ code, before: current, after: next });
    current = next;
  }
  return { ok: true, text: current, applied };
}
