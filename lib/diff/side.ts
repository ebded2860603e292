// Indexes one side of a diff: its nodes (canonical type, canvas parent, references, words), edges and I/O variables.
// Total over any value (built on the analysis model); what cannot be read becomes DiffIssue data, never an exception.

import { selectorRefs, textFieldPaths, type ParamPath } from "../workflow/catalog";
import { findInlineReferences } from "../workflow/convert";
import { replaceInlineReferences } from "../workflow/inline-references";
import { buildModel, type NodeEntry, type WorkflowModel } from "../workflow/analysis/model";
import { valueAt } from "../workflow/analysis/params";
import { matchNodeTypeName } from "../workflow/node-selection";
import { NODE_TYPES, isNodeTypeId } from "../workflow/node-types";
import { isJsonObject, ownValue, preview, type JsonValue } from "../workflow/python-values";
import type { DiffIssue, DiffSide, DiffTurn, NodeRef, StartVariable } from "./types";

export interface SideReference {
  via: "selector" | "inline";
  path: ParamPath;
  /** Fine slot (`outputs/answer` for named entries) and coarse slot (the top-level key). */
  slot: string;
  coarseSlot: string;
  variable: string;
  /** Read as an id: strings as written, numbers as text (so `3` and `"3"` name the same node). */
  nodeId: string | null;
  /** Whether the id was written as something other than a string (a conversion error worth noticing). */
  idNotString: boolean;
  target: SideNode | null;
}

export interface SideNode {
  entry: NodeEntry;
  /** The node id as text (numbers included), or null. */
  id: string | null;
  /** The type recognised up to naming (`template` -> template-transform); raw text for unknown types. */
  canonicalType: string;
  ref: NodeRef;
  refs: SideReference[];
  /** Normalised words of the param's texts and names (ids and references left out), with counts. */
  words: Map<string, number>;
  parent: SideNode | null;
  /** Leaf paths of selector ids, so normalisation can map them: `path.join("\u0001")`. */
  selectorIdPaths: Set<string>;
}

export interface SideEdge {
  index: number;
  sourceId: string | null;
  targetId: string | null;
  source: SideNode | null;
  target: SideNode | null;
  port: JsonValue | undefined;
  /** Endpoints written as numbers or other non-strings: kept apart from the same edge written with strings. */
  rawKinds: string;
}

export interface SideModel {
  model: WorkflowModel;
  nodes: SideNode[];
  edges: SideEdge[];
  /** Last node per id (what the official lookups resolve to). */
  byId: Map<string, SideNode>;
  issues: DiffIssue[];
  nodeSelection: string | null | undefined;
  turn: DiffTurn | null;
  startVariables: StartVariable[];
  endOutputs: string[];
}

/** Canonical type of a node: the catalog id when the text names one ("template", "Iteration Start"), else as written. */
export function canonicalTypeOf(type: string | null, rawType: JsonValue | undefined): string {
  if (type === null) return `?${rawType === undefined ? "missing" : preview(rawType, 24)}`;
  if (isNodeTypeId(type)) return type;
  return matchNodeTypeName(type) ?? type;
}

function idText(raw: JsonValue | undefined): string | null {
  if (typeof raw === "string") return raw;
  if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
  return null;
}

export function typeLabel(type: string | null, canonicalType: string): string {
  if (isNodeTypeId(canonicalType)) return NODE_TYPES[canonicalType].displayName;
  return type ?? "untyped node";
}

function labelOf(id: string | null, index: number, type: string | null, canonicalType: string): string {
  const name = typeLabel(type, canonicalType);
  return id === null ? `${name} (nodes_info[${index}])` : `${name} "${id}"`;
}

// -- words ------------------------------------------------------------------------------------------------------

const HAN = /(\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul})/gu;
const HAS_HAN = /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Hangul}/u;
const WORD = /[\p{L}\p{N}_]+/gu;

function addWords(text: string, words: Map<string, number>): void {
  let cleaned = replaceInlineReferences(text, () => " ");
  // Ideographic scripts have no spaces: count each character as a word.
  if (HAS_HAN.test(cleaned)) cleaned = cleaned.replace(HAN, " $1 ");
  for (const match of cleaned.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    words.set(word, (words.get(word) ?? 0) + 1);
  }
}

function collectWords(value: JsonValue | undefined, path: ParamPath, skip: ReadonlySet<string>, words: Map<string, number>): void {
  if (value === undefined || value === null) return;
  if (typeof value === "string") {
    if (!skip.has(path.join("\u0001"))) addWords(value, words);
    return;
  }
  if (typeof value === "number" || typeof value === "boolean") {
    if (!skip.has(path.join("\u0001"))) words.set(`=${String(value)}`, (words.get(`=${String(value)}`) ?? 0) + 1);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectWords(item, [...path, i], skip, words));
    return;
  }
  for (const key of Object.keys(value)) collectWords(ownValue(value, key), [...path, key], skip, words);
}

// -- references ---------------------------------------------------------------------------------------------------

function variableText(value: JsonValue): string {
  return typeof value === "string" ? value : preview(value, 40);
}

function selectorReferences(canonicalType: string, param: JsonValue | undefined): { refs: SideReference[]; idPaths: Set<string> } {
  const refs: SideReference[] = [];
  const idPaths = new Set<string>();
  for (const ref of selectorRefs({ type: canonicalType, param })) {
    const key = String(ref.path[0]);
    let slot = key;
    if (ref.shape === "named-selectors" && isJsonObject(param)) {
      const entry = valueAt(param, ref.path.slice(0, -1));
      const name = Array.isArray(entry) ? entry[0] : undefined;
      if (name !== undefined) slot = `${key}/${variableText(name)}`;
    }
    idPaths.add([...ref.path, 1].join("\u0001"));
    refs.push({
      via: "selector",
      path: ref.path,
      slot,
      coarseSlot: key,
      variable: variableText(ref.variable),
      nodeId: idText(ref.nodeId),
      idNotString: typeof ref.nodeId !== "string",
      target: null,
    });
  }
  return { refs, idPaths };
}

function inlineReferences(canonicalType: string, param: JsonValue | undefined): SideReference[] {
  if (!isJsonObject(param)) return [];
  const refs: SideReference[] = [];
  for (const path of textFieldPaths({ type: canonicalType, param })) {
    const text = valueAt(param, path);
    if (typeof text !== "string") continue;
    const slot = path.map(String).join("/");
    for (const inline of findInlineReferences(text)) {
      refs.push({
        via: "inline",
        path,
        slot,
        coarseSlot: String(path[0]),
        variable: inline.variable,
        nodeId: inline.nodeId,
        idNotString: false,
        target: null,
      });
    }
  }
  return refs;
}

// -- building -----------------------------------------------------------------------------------------------------

function buildNode(entry: NodeEntry): SideNode {
  const object = entry.raw as Record<string, JsonValue>;
  const rawType = ownValue(object, "type");
  const canonicalType = canonicalTypeOf(entry.type, rawType);
  const id = entry.id ?? idText(entry.rawId);
  const dash = id === null ? -1 : id.indexOf("-");
  const parentId = dash < 0 ? null : (id as string).slice(0, dash);
  const { refs: selectors, idPaths } = selectorReferences(canonicalType, entry.rawParam);
  const words = new Map<string, number>();
  collectWords(entry.rawParam, [], idPaths, words);
  return {
    entry,
    id,
    canonicalType,
    ref: { index: entry.index, id, type: entry.type, label: labelOf(id, entry.index, entry.type, canonicalType), parentId },
    refs: [...selectors, ...inlineReferences(canonicalType, entry.rawParam)],
    words,
    parent: null,
    selectorIdPaths: idPaths,
  };
}

function startVariablesOf(nodes: readonly SideNode[]): StartVariable[] {
  const start = nodes.find((node) => node.entry.type === "start");
  const variables = start && isJsonObject(start.entry.rawParam) ? ownValue(start.entry.rawParam, "variables") : undefined;
  if (!Array.isArray(variables)) return [];
  return variables.flatMap((item) =>
    Array.isArray(item) && item.length > 0 ? [{ name: variableText(item[0] as JsonValue), type: item[1] ?? null }] : [],
  );
}

function endOutputsOf(nodes: readonly SideNode[]): string[] {
  return nodes
    .filter((node) => node.entry.type === "end")
    .flatMap((node) => {
      const outputs = isJsonObject(node.entry.rawParam) ? ownValue(node.entry.rawParam, "outputs") : undefined;
      if (!Array.isArray(outputs)) return [];
      return outputs.flatMap((item) => (Array.isArray(item) && item.length > 0 ? [variableText(item[0] as JsonValue)] : []));
    });
}

function topLevelIssues(value: unknown, model: WorkflowModel): DiffIssue[] {
  if (value === undefined || value === null) return [{ code: "no-workflow", message: "There is no workflow (it did not parse, or the answer had none)." }];
  if (!model.root) return [{ code: "not-an-object", message: `The workflow is ${Array.isArray(value) ? "a list" : `a ${typeof value}`}, not an object with nodes_info and edges.` }];
  const issues: DiffIssue[] = [];
  const nodes = ownValue(model.root, "nodes_info");
  if (!Array.isArray(nodes)) issues.push({ code: "no-nodes-info", message: nodes === undefined ? "The workflow has no nodes_info." : "nodes_info is not a list." });
  const edges = ownValue(model.root, "edges");
  if (edges !== undefined && !Array.isArray(edges)) issues.push({ code: "edges-not-a-list", message: "edges is not a list." });
  return issues;
}

/** Only JSON data is read: anything else (functions, class instances, undefined) counts as no workflow. */
function asJson(value: unknown): JsonValue {
  if (value === undefined || typeof value === "function" || typeof value === "symbol" || typeof value === "bigint") return null;
  return value as JsonValue;
}

export function buildSide(side: DiffSide): SideModel {
  const model = buildModel(asJson(side.workflow));
  const issues = topLevelIssues(side.workflow, model);
  const nodes: SideNode[] = [];
  for (const entry of model.nodes) {
    if (!isJsonObject(entry.raw)) {
      issues.push({ code: "node-not-object", message: `nodes_info[${entry.index}] is ${preview(entry.raw, 30)}, not a node object; it is left out.`, nodeIndex: entry.index });
      continue;
    }
    nodes.push(buildNode(entry));
  }
  const byId = new Map<string, SideNode>();
  const seen = new Set<string>();
  for (const node of nodes) {
    if (node.id === null) {
      issues.push({ code: "missing-id", message: `nodes_info[${node.entry.index}] has no string id; edges and references cannot reach it.`, nodeIndex: node.entry.index });
      continue;
    }
    if (seen.has(node.id)) {
      issues.push({ code: "duplicate-id", message: `Id "${node.id}" is used by more than one node; lookups resolve to the last one.`, nodeIndex: node.entry.index });
    }
    seen.add(node.id);
    byId.set(node.id, node);
  }
  for (const node of nodes) {
    if (node.ref.parentId !== null) node.parent = byId.get(node.ref.parentId) ?? null;
    for (const ref of node.refs) ref.target = ref.nodeId === null ? null : (byId.get(ref.nodeId) ?? null);
  }
  const edges: SideEdge[] = [];
  for (const entry of model.edges) {
    const items = Array.isArray(entry.raw) ? entry.raw : null;
    if (!items || items.length < 2) {
      issues.push({ code: "edge-malformed", message: `edges[${entry.index}] is ${preview(entry.raw, 30)}, not [source, port, target]; it is left out.`, edgeIndex: entry.index });
      continue;
    }
    // Two elements read as [source, target]: a common slip, still worth drawing.
    const rawSource = items[0] as JsonValue;
    const rawTarget = (items.length === 2 ? items[1] : items[2]) as JsonValue;
    const sourceId = idText(rawSource);
    const targetId = idText(rawTarget);
    edges.push({
      index: entry.index,
      sourceId,
      targetId,
      source: sourceId === null ? null : (byId.get(sourceId) ?? null),
      target: targetId === null ? null : (byId.get(targetId) ?? null),
      port: items.length === 2 ? undefined : items[1],
      rawKinds: `${typeof rawSource}/${typeof rawTarget}/${items.length}`,
    });
  }
  return {
    model,
    nodes,
    edges,
    byId,
    issues,
    nodeSelection: side.nodeSelection,
    turn: side.turn ?? null,
    startVariables: startVariablesOf(nodes),
    endOutputs: endOutputsOf(nodes),
  };
}
