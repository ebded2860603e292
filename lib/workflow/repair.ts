// The repair engine's studio policy: the mechanical repairs the viewer and the score's repair column show, each one
// recorded, never inventing content (official policy: repair-official.ts; shared codes: repair-codes.ts).

import { jsonrepair } from "jsonrepair";
import { CATALOG } from "./catalog";
import { findInlineReferences } from "./convert";
import { nestsDeeperThan, parsePyJson } from "./json-text";
import { matchNodeTypeName } from "./node-selection";
import { NODE_TYPE_IDS, isNodeTypeId } from "./node-types";
import { isJsonObject, ownValue, type JsonObject, type JsonValue } from "./python-values";
import type { ParsedResponse } from "./response";
import type { RepairCode } from "./repair-codes";
import { judgeWithSelection, ruleJudge, selectionOf, type RuleJudgeResult } from "./rule-judge";

export type { RepairCode } from "./repair-codes";

export interface Repair {
  code: RepairCode;
  description: string;
}

/** A response in record form (the three tag contents; null = missing), ready for parseResponse. */
export interface RecordInput {
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
}

export interface RepairResult {
  repaired: RecordInput;
  applied: Repair[];
  /** The repaired workflow object (what `repaired.workflow` serialises), when the workflow is an object. */
  value: JsonObject | null;
}

// -- text-level repairs -------------------------------------------------------------------------------------------

const FENCE_CHARS = /[\s`]*/y;
const JSON_WORD = /json/iy;
const TRAILING_FENCE = /(?<=[}\]])[\s`]+$/;

/**
 * How much of `/^[\s`]*(?:json)?[\s`]*(?=[{[])/i` matches at the start (0 when nothing): scanned once, where the
 * pattern itself backtracks quadratically over a long run of blanks.
 */
function leadingFenceLength(text: string): number {
  FENCE_CHARS.lastIndex = 0;
  FENCE_CHARS.test(text);
  let at = FENCE_CHARS.lastIndex;
  JSON_WORD.lastIndex = at;
  if (JSON_WORD.test(text)) {
    FENCE_CHARS.lastIndex = JSON_WORD.lastIndex;
    FENCE_CHARS.test(text);
    at = FENCE_CHARS.lastIndex;
  }
  return text[at] === "{" || text[at] === "[" ? at : 0;
}

function stripFence(text: string): string | null {
  const stripped = text.slice(leadingFenceLength(text)).replace(TRAILING_FENCE, "");
  return stripped !== text && stripped.length > 0 ? stripped : null;
}

/**
 * The longest text handed to jsonrepair: about twice the longest workflow of the published runs (12,683 characters).
 * jsonrepair's work grows with the square of the text on some inputs (rebuilding its output per fix), so longer or
 * deeper texts are not repaired: their workflow stays unparsed. Ours, not the official pipeline's.
 */
export const MAX_REPAIR_CHARS = 24_000;
const MAX_REPAIR_NESTING = 512;

/** jsonrepair's repair of `text`, within the bounds above; null when out of bounds or when it gives up. */
export function boundedJsonRepair(text: string): string | null {
  if (text.length > MAX_REPAIR_CHARS || nestsDeeperThan(text, MAX_REPAIR_NESTING)) return null;
  try {
    return jsonrepair(text);
  } catch {
    return null;
  }
}

function repairJsonText(text: string): JsonObject | null {
  const repaired = boundedJsonRepair(text);
  if (repaired === null) return null;
  const parsed = parsePyJson(repaired);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : null;
}

// -- structural repairs on the workflow object ------------------------------------------------------------------
// Copy-on-write: the draft shares the parsed nodes and deep-copies a node only when a repair changes it. Each
// node repair runs twice at most: once with `applied` null to detect, then on the copy to change and record.

interface Draft {
  /** Shallow copy of the workflow object, with its own nodes_info and edges arrays. */
  root: JsonObject;
  nodes: JsonValue[];
  copied: Set<number>;
  applied: Repair[];
}

type NodeRepair = (node: JsonObject, applied: Repair[] | null) => boolean;

function makeDraft(source: JsonObject): Draft {
  const root: JsonObject = { ...source };
  const nodes = Array.isArray(source.nodes_info) ? [...source.nodes_info] : [];
  if (Array.isArray(source.nodes_info)) root.nodes_info = nodes;
  if (Array.isArray(source.edges)) root.edges = [...source.edges];
  return { root, nodes, copied: new Set(), applied: [] };
}

function writableNode(draft: Draft, index: number): JsonObject {
  if (!draft.copied.has(index)) {
    draft.nodes[index] = cloneJson(draft.nodes[index] as JsonValue);
    draft.copied.add(index);
  }
  return draft.nodes[index] as JsonObject;
}

function nodeLabel(node: JsonObject): string {
  return `Node "${String(ownValue(node, "id"))}"`;
}

const renameType: NodeRepair = (node, applied) => {
  const type = node.type;
  if (typeof type !== "string" || isNodeTypeId(type)) return false;
  const official = matchNodeTypeName(type);
  if (!official) return false;
  if (applied) {
    node.type = official;
    applied.push({ code: "rename-node-type", description: `${nodeLabel(node)}: type "${type}" -> "${official}".` });
  }
  return true;
};

function isPair(value: JsonValue | undefined): value is [string, string] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string";
}

function paramOf(node: JsonObject): JsonObject | null {
  const param = ownValue(node, "param");
  return isJsonObject(param) ? param : null;
}

const flattenAggregator: NodeRepair = (node, applied) => {
  const param = paramOf(node);
  const variables = param ? ownValue(param, "variables") : undefined;
  if (!Array.isArray(variables)) return false;
  let changed = false;
  for (let i = 0; i < variables.length; i += 1) {
    const entry = variables[i];
    if (!Array.isArray(entry) || entry.length !== 2 || !isPair(entry[1])) continue;
    changed = true;
    if (!applied) continue;
    variables[i] = entry[1];
    applied.push({ code: "flatten-aggregator-entry", description: `${nodeLabel(node)}: variables[${i}] ${JSON.stringify(entry)} -> ${JSON.stringify(entry[1])}.` });
  }
  return changed;
};

function isFlattenedEntry(entry: JsonValue): entry is [string, string, string] {
  return Array.isArray(entry) && entry.length === 3 && typeof entry[0] === "string" && typeof entry[1] === "string" && typeof entry[2] === "string";
}

/** The repair for a type's named-selector params (`keys`): `[name, var, id]` entries become `[name, [var, id]]`. */
function nestFlattenedSelectors(keys: readonly string[]): NodeRepair {
  return (node, applied) => {
    const param = paramOf(node);
    if (!param) return false;
    let changed = false;
    for (const key of keys) {
      const entries = ownValue(param, key);
      if (!Array.isArray(entries)) continue;
      for (let i = 0; i < entries.length; i += 1) {
        const entry = entries[i] as JsonValue;
        if (!isFlattenedEntry(entry)) continue;
        changed = true;
        if (!applied) continue;
        const fixed: JsonValue = [entry[0], [entry[1], entry[2]]];
        entries[i] = fixed;
        applied.push({ code: "nest-flattened-selector", description: `${nodeLabel(node)}: ${key}[${i}] ${JSON.stringify(entry)} -> ${JSON.stringify(fixed)}.` });
      }
    }
    return changed;
  };
}

/** Iteration-start id -> its iteration id, for starts whose parent is an iteration. */
function iterationStarts(nodes: readonly JsonValue[]): Map<string, string> {
  const starts = new Map<string, string>();
  // Most workflows have no iteration: skip building the id index for them.
  let anyStart = false;
  for (let i = 0; i < nodes.length && !anyStart; i += 1) {
    const node = nodes[i];
    if (isJsonObject(node) && node.type === "iteration-start") anyStart = true;
  }
  if (!anyStart) return starts;
  const types = new Map<string, string>();
  for (const node of nodes) if (isJsonObject(node) && typeof node.id === "string" && typeof node.type === "string") types.set(node.id, node.type);
  for (const [id, type] of types) {
    if (type !== "iteration-start") continue;
    const dash = id.indexOf("-");
    if (dash < 0) continue;
    const parent = id.slice(0, dash);
    if (types.get(parent) === "iteration") starts.set(id, parent);
  }
  return starts;
}

const ITEM_VARIABLES: ReadonlySet<string> = new Set(["item", "index"]);

/** Finds (and with `applied`, rewrites) ["item"|"index", iterationStartId] pairs anywhere inside `value`. */
function retargetIn(value: JsonValue, owner: JsonObject, starts: ReadonlyMap<string, string>, applied: Repair[] | null): boolean {
  // Most leaves are strings: answered before any call.
  if (typeof value !== "object" || value === null) return false;
  if (isJsonObject(value)) {
    let changed = false;
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i += 1) changed = retargetIn(value[keys[i] as string] as JsonValue, owner, starts, applied) || changed;
    return changed;
  }
  if (!Array.isArray(value)) return false;
  if (value.length === 2 && isPair(value) && ITEM_VARIABLES.has(value[0]) && starts.has(value[1])) {
    if (applied) {
      const parent = starts.get(value[1]) as string;
      applied.push({ code: "retarget-iteration-start", description: `Node "${String(owner.id)}": ["${value[0]}", "${value[1]}"] -> ["${value[0]}", "${parent}"].` });
      value[1] = parent;
    }
    return true;
  }
  let changed = false;
  for (let i = 0; i < value.length; i += 1) changed = retargetIn(value[i] as JsonValue, owner, starts, applied) || changed;
  return changed;
}

/** The repair for a type's text params (`keys`): a `[var, id]` pair written there becomes `{{#'id'.var#}}`. */
function inlineTextSelectors(keys: readonly string[]): NodeRepair {
  return (node, applied) => {
    const param = paramOf(node);
    if (!param) return false;
    let changed = false;
    for (const key of keys) {
      const value = ownValue(param, key);
      if (!isPair(value)) continue;
      changed = true;
      if (!applied) continue;
      const inline = `{{#'${value[1]}'.${value[0]}#}}`;
      param[key] = inline;
      applied.push({ code: "inline-text-selector", description: `${nodeLabel(node)}: ${key} ${JSON.stringify(value)} -> "${inline}".` });
    }
    return changed;
  };
}

function trimEdges(draft: Draft): void {
  const edges = ownValue(draft.root, "edges");
  if (!Array.isArray(edges)) return;
  for (let i = 0; i < edges.length; i += 1) {
    const edge = edges[i];
    if (!Array.isArray(edge) || edge.length <= 3 || typeof edge[0] !== "string" || edge[0].includes("-")) continue;
    edges[i] = edge.slice(0, 3);
    draft.applied.push({ code: "trim-edge", description: `edges[${i}] ${JSON.stringify(edge)} -> ${JSON.stringify(edge.slice(0, 3))}.` });
  }
}

// -- topological reordering ---------------------------------------------------------------------------------------

interface DependencyScan {
  self: string;
  /** For an iteration: the prefix of its own children, whose references it ignores. */
  ownChildren: string | null;
  known: ReadonlySet<string>;
  deps: Set<string>;
}

function addDependency(scan: DependencyScan, other: string): void {
  if (other === scan.self || !scan.known.has(other)) return;
  if (scan.ownChildren !== null && other.startsWith(scan.ownChildren)) return;
  scan.deps.add(other);
}

function collectDependencies(scan: DependencyScan, value: JsonValue): void {
  if (typeof value === "string") {
    if (!value.includes("{{#")) return;
    for (const ref of findInlineReferences(value)) if (ref.nodeId !== null) addDependency(scan, ref.nodeId);
  } else if (Array.isArray(value)) {
    if (value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string") addDependency(scan, value[1]);
    for (const item of value) collectDependencies(scan, item);
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) collectDependencies(scan, value[key] as JsonValue);
  }
}

/** Ids a node depends on: any [string, knownId] pair and any inline {{#id.…#}} in its param, plus its parent. */
function dependenciesOf(node: JsonObject, known: ReadonlySet<string>): Set<string> {
  const self = typeof node.id === "string" ? node.id : "";
  const scan: DependencyScan = { self, ownChildren: node.type === "iteration" ? `${self}-` : null, known, deps: new Set() };
  const param = ownValue(node, "param");
  if (isJsonObject(param)) {
    for (const key of Object.keys(param)) {
      if (!(node.type === "iteration" && key === "output_selector")) collectDependencies(scan, param[key] as JsonValue);
    }
  }
  if (self.includes("-")) addDependency(scan, self.split("-")[0] as string);
  return scan.deps;
}

/** The tie rule both policies order ready nodes by: start first, end last, the rest in between. */
export function tieRank(type: JsonValue | undefined): number {
  return type === "start" ? 0 : type === "end" ? 2 : 1;
}

/**
 * Index of the ready node placed next: the lowest tie rank, then the lowest position (`rank` and `position` of
 * each candidate); the first candidate wins a full tie. Both policies' Kahn orders pick with it.
 */
export function nextReady<T>(ready: readonly T[], rank: (item: T) => number, position: (item: T) => number): number {
  let best = -1;
  for (let i = 0; i < ready.length; i += 1) {
    const item = ready[i] as T;
    if (best < 0) {
      best = i;
      continue;
    }
    const chosen = ready[best] as T;
    const byRank = rank(item) - rank(chosen);
    if (byRank < 0 || (byRank === 0 && position(item) < position(chosen))) best = i;
  }
  return best;
}

function nodeType(node: JsonValue | undefined): JsonValue | undefined {
  return isJsonObject(node) ? node.type : undefined;
}

/**
 * Stable Kahn order of nodes_info: dependencies first; among ready nodes start first, end last, then original
 * position. Returns null when nothing depends on a later node, when there is a cycle, or when ids are not unique
 * strings. Dependencies: references in param, child -> parent, and edges (source before target).
 */
export function reorderNodes(nodes: readonly JsonValue[], edges: readonly JsonValue[] = []): JsonValue[] | null {
  const ids: string[] = [];
  for (const node of nodes) {
    if (!isJsonObject(node) || typeof node.id !== "string") return null;
    ids.push(node.id);
  }
  const known = new Set(ids);
  if (known.size !== ids.length) return null;
  const position = new Map(ids.map((id, i) => [id, i]));
  const deps = nodes.map((node) => dependenciesOf(node as JsonObject, known));
  if (!deps.some((set, i) => [...set].some((dep) => (position.get(dep) as number) > i))) return null;
  for (const edge of edges) {
    if (!Array.isArray(edge) || typeof edge[0] !== "string" || typeof edge[2] !== "string") continue;
    const target = position.get(edge[2]);
    if (target !== undefined && known.has(edge[0]) && edge[0] !== edge[2]) deps[target]?.add(edge[0]);
  }
  const order = kahnOrder(nodes, ids, deps);
  return order && !order.every((index, i) => index === i) ? order.map((index) => nodes[index] as JsonValue) : null;
}

function kahnOrder(nodes: readonly JsonValue[], ids: readonly string[], deps: readonly Set<string>[]): number[] | null {
  const placed = new Set<string>();
  const order: number[] = [];
  const rank = (i: number) => tieRank(nodeType(nodes[i]));
  const position = (i: number) => i;
  while (order.length < nodes.length) {
    const ready: number[] = [];
    for (let i = 0; i < nodes.length; i += 1) {
      if (!placed.has(ids[i] as string) && isReady(deps[i] as Set<string>, placed)) ready.push(i);
    }
    const pick = nextReady(ready, rank, position);
    if (pick < 0) return null;
    const best = ready[pick] as number;
    placed.add(ids[best] as string);
    order.push(best);
  }
  return order;
}

function isReady(deps: ReadonlySet<string>, placed: ReadonlySet<string>): boolean {
  for (const dep of deps) if (!placed.has(dep)) return false;
  return true;
}

function reorder(draft: Draft): void {
  const nodes = ownValue(draft.root, "nodes_info");
  if (!Array.isArray(nodes)) return;
  const edges = ownValue(draft.root, "edges");
  const ordered = reorderNodes(nodes, Array.isArray(edges) ? edges : []);
  if (!ordered) return;
  const moved = ordered.map((node) => String((node as JsonObject).id)).join(", ");
  draft.root.nodes_info = ordered;
  draft.applied.push({ code: "reorder-nodes", description: `nodes_info reordered to ${moved}.` });
}

// -- node_selection ---------------------------------------------------------------------------------------------

/** `original`: the judge of the unrepaired response; it stands when the types are unchanged, else its parse is reused. */
function syncSelection(
  nodeSelection: string | null,
  workflow: JsonObject,
  original: RuleJudgeResult | undefined,
  typesChanged: boolean,
): { text: string; repair: Repair } | null {
  const judge = !original
    ? ruleJudge({ nodeSelection, workflow, keyNodes: [] })
    : typesChanged
      ? judgeWithSelection(selectionOf(original), workflow, [])
      : original;
  if (judge.undeclaredUsed.length === 0 && judge.declaredUnused.length === 0) return null;
  const used = [...new Set(judge.used)].sort();
  const changes = [
    judge.undeclaredUsed.length ? `added ${judge.undeclaredUsed.join(", ")}` : "",
    judge.declaredUnused.length ? `removed ${judge.declaredUnused.join(", ")}` : "",
  ].filter(Boolean);
  return { text: used.join("\n"), repair: { code: "sync-node-selection", description: `node_selection ${changes.join("; ")}.` } };
}

// -- driver -------------------------------------------------------------------------------------------------------

/** The shape repairs that can apply to each node type (most types need none, so most nodes cost one lookup). */
const REPAIRS_BY_TYPE: ReadonlyMap<string, readonly NodeRepair[]> = new Map(
  NODE_TYPE_IDS.map((type) => {
    const repairs: NodeRepair[] = [];
    if (type === "variable-aggregator") repairs.push(flattenAggregator);
    const namedSelectorKeys = CATALOG[type].selectorParams.filter((spec) => spec.shape === "named-selectors").map((spec) => spec.key);
    if (namedSelectorKeys.length > 0) repairs.push(nestFlattenedSelectors(namedSelectorKeys));
    if (CATALOG[type].textParams.length > 0) repairs.push(inlineTextSelectors(CATALOG[type].textParams));
    return [type, repairs];
  }),
);

function runRepair(draft: Draft, index: number, repair: NodeRepair): void {
  if (repair(draft.nodes[index] as JsonObject, null)) repair(writableNode(draft, index), draft.applied);
}

/** One walk over nodes_info: type renames first, then the repairs of the (possibly renamed) type. */
function repairNodes(draft: Draft): void {
  const starts = iterationStarts(draft.nodes);
  const retarget: NodeRepair | null =
    starts.size === 0 ? null : (node, applied) => node.param !== undefined && retargetIn(node.param, node, starts, applied);
  for (let index = 0; index < draft.nodes.length; index += 1) {
    if (!isJsonObject(draft.nodes[index])) continue;
    runRepair(draft, index, renameType);
    const type = (draft.nodes[index] as JsonObject).type;
    const repairs = typeof type === "string" ? REPAIRS_BY_TYPE.get(type) : undefined;
    if (repairs) for (let i = 0; i < repairs.length; i += 1) runRepair(draft, index, repairs[i] as NodeRepair);
    if (retarget) runRepair(draft, index, retarget);
  }
}

/** Deep copy of a JSON value (much cheaper than structuredClone for small trees). */
function cloneJson(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (!isJsonObject(value)) return value;
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) copy[key] = cloneJson(value[key] as JsonValue);
  return copy;
}

export interface RepairOptions {
  /** The rule judge of the unrepaired response: reused for node_selection reconciliation (its selection parse when types changed). */
  judge?: RuleJudgeResult | null;
  /** False when the caller knows no node reads a node listed after it (skips the dependency scan). */
  forwardReferences?: boolean;
}

/** Everything repairResponse computes except the serialised workflow text (for callers that only need the value). */
export interface RepairOutcome {
  nodeSelection: string | null;
  designPrinciple: string | null;
  /** The workflow text, unfenced when that repair applied; stale when `reserialise` is set. */
  workflowText: string | null;
  /** Whether the repaired workflow text is `value` serialised (some repair changed the text or the object). */
  reserialise: boolean;
  applied: Repair[];
  /** The repaired workflow object, when the workflow is (or was repaired into) an object. */
  value: JsonObject | null;
}

/** Applies every mechanical repair that fits, leaving the serialisation of a changed workflow to the caller. */
export function repairOutcome(parsed: ParsedResponse, options: RepairOptions = {}): RepairOutcome {
  const applied: Repair[] = [];
  const { nodeSelection, designPrinciple } = parsed;
  let workflow = parsed.workflowText;
  let root: JsonObject | null = parsed.json.ok && isJsonObject(parsed.json.value) ? parsed.json.value : null;
  if (workflow !== null && !parsed.json.ok) {
    const unfenced = stripFence(workflow);
    if (unfenced !== null) {
      workflow = unfenced;
      applied.push({ code: "strip-code-fence", description: "Removed the code fence around the workflow JSON." });
      const reparsed = parsePyJson(unfenced);
      if (reparsed.ok && isJsonObject(reparsed.value)) root = reparsed.value;
    }
    if (!root) {
      root = repairJsonText(workflow);
      if (root) applied.push({ code: "json-repair", description: "Repaired the workflow JSON so that it parses." });
    }
  }
  if (!root) return { nodeSelection, designPrinciple, workflowText: workflow, reserialise: false, applied, value: null };
  const draft = makeDraft(root);
  repairNodes(draft);
  trimEdges(draft);
  if (options.forwardReferences !== false) reorder(draft);
  applied.push(...draft.applied);
  root = draft.root;
  const reserialise = applied.length > 0;
  let selection = nodeSelection;
  const typesChanged = applied.some((repair) => repair.code === "rename-node-type" || repair.code === "json-repair" || repair.code === "strip-code-fence");
  const synced = nodeSelection === null ? null : syncSelection(nodeSelection, root, options.judge ?? undefined, typesChanged);
  if (synced) {
    selection = synced.text;
    applied.push(synced.repair);
  }
  return { nodeSelection: selection, designPrinciple, workflowText: workflow, reserialise, applied, value: root };
}

/** Applies every mechanical repair that fits; `repaired` equals the input when `applied` is empty. */
export function repairResponse(parsed: ParsedResponse, options: RepairOptions = {}): RepairResult {
  const outcome = repairOutcome(parsed, options);
  const workflow = outcome.reserialise ? JSON.stringify(outcome.value, null, 2) : outcome.workflowText;
  return {
    repaired: { nodeSelection: outcome.nodeSelection, designPrinciple: outcome.designPrinciple, workflow },
    applied: outcome.applied,
    value: outcome.value,
  };
}
