// A lenient, indexed view of a parsed workflow value that every analysis pass reads (nodes, edges, id lookups).
// Built once per response in linear time; never throws, whatever the JSON shape.

import type { ParamPath } from "../catalog";
import { NODE_SPECS } from "../nodes";
import type { FloatLiterals } from "../json-text";
import { isNodeTypeId, type NodeTypeId } from "../node-types";
import { isArray, isJsonObject, ownValue, pyParseInt, type JsonObject, type JsonValue } from "../python-values";
import type { DiagnosticLocation } from "../diagnostics";

export interface NodeEntry {
  /** Position in nodes_info (the official converter's processing order). */
  index: number;
  raw: JsonValue;
  /** The id as a string when it is one. */
  id: string | null;
  rawId: JsonValue | undefined;
  rawType: JsonValue | undefined;
  /** The type string as written, when it is a string. */
  type: string | null;
  known: NodeTypeId | null;
  /** The param object, when it is one. */
  param: JsonObject | null;
  rawParam: JsonValue | undefined;
  /** For an id with `-`: the part before the first `-` (the iteration canvas it belongs to). */
  parentId: string | null;
  /** For an id with `-`: the integer after the first `-`, or null when it is not one. */
  childIndex: number | null;
  /** Its id's position among the distinct ids in list order (the graph's vertex), or -1 without an id. */
  vertex: number;
  /** The rewritten text fields present in the param, once textFieldsOf has read them. */
  textFields: TextField[] | null;
}

/** A text field of a node's param and the value written there (not necessarily a string). */
export interface TextField {
  path: ParamPath;
  value: JsonValue | undefined;
}

export interface EdgeEntry {
  index: number;
  raw: JsonValue;
  /** Source and target ids when they are strings. */
  source: string | null;
  target: string | null;
  port: JsonValue | undefined;
  /** Well-formed enough to draw: an array of at least 3 with string endpoints. */
  usable: boolean;
  /** Source id contains no `-`: the converter lays these out and requires exactly 3 elements. */
  topLevel: boolean;
  /** The vertices of the source and target ids, or -1 where no node has the id (or it is not a string). */
  sourceVertex: number;
  targetVertex: number;
}

export interface WorkflowModel {
  value: JsonValue;
  root: JsonObject | null;
  nodes: NodeEntry[];
  edges: EdgeEntry[];
  /** All nodes per string id, in list order. */
  byId: ReadonlyMap<string, readonly NodeEntry[]>;
  /** The distinct ids in list order: the node of vertex v has the id ids[v]. */
  ids: readonly string[];
  /** Per vertex, the last node with its id (the one a lookup by id finds). */
  lastNodes: readonly NodeEntry[];
  /** Integral float literals (1.0) as the JSON parser recorded them. */
  floats: FloatLiterals | null;
}

const ASCII_INT = /^\d+$/;

/** The converter's `int(id.split("-")[1])`: Python int() syntax, with a fast path for plain digits. */
function childIndexOf(id: string, dash: number): number | null {
  const next = id.indexOf("-", dash + 1);
  const part = next < 0 ? id.slice(dash + 1) : id.slice(dash + 1, next);
  if (ASCII_INT.test(part)) return Number(part);
  return pyParseInt(part) ?? null;
}

function buildNode(raw: JsonValue, index: number): NodeEntry {
  const object = isJsonObject(raw) ? raw : null;
  const rawId = object ? ownValue(object, "id") : undefined;
  const rawType = object ? ownValue(object, "type") : undefined;
  const rawParam = object ? ownValue(object, "param") : undefined;
  const id = typeof rawId === "string" ? rawId : null;
  const type = typeof rawType === "string" ? rawType : null;
  const dash = id === null ? -1 : id.indexOf("-");
  return {
    index,
    raw,
    id,
    rawId,
    rawType,
    type,
    known: isNodeTypeId(type) ? type : null,
    param: isJsonObject(rawParam) ? rawParam : null,
    rawParam,
    parentId: dash < 0 ? null : (id as string).slice(0, dash),
    childIndex: dash < 0 ? null : childIndexOf(id as string, dash),
    vertex: -1,
    textFields: null,
  };
}

function vertexIn(byId: ReadonlyMap<string, readonly NodeEntry[]>, id: string | null): number {
  const list = id === null ? undefined : byId.get(id);
  return list === undefined ? -1 : (list[0] as NodeEntry).vertex;
}

function buildEdge(raw: JsonValue, index: number, byId: ReadonlyMap<string, readonly NodeEntry[]>): EdgeEntry {
  const items = isArray(raw) ? raw : null;
  const source = typeof items?.[0] === "string" ? items[0] : null;
  const target = typeof items?.[2] === "string" ? items[2] : null;
  return {
    index,
    raw,
    source,
    target,
    port: items?.[1],
    usable: items !== null && items.length >= 3 && source !== null && target !== null,
    topLevel: source !== null && !source.includes("-"),
    sourceVertex: vertexIn(byId, source),
    targetVertex: vertexIn(byId, target),
  };
}

export function buildModel(value: JsonValue, floats: FloatLiterals | null = null): WorkflowModel {
  const root = isJsonObject(value) ? value : null;
  const nodesValue = root ? ownValue(root, "nodes_info") : undefined;
  const edgesValue = root ? ownValue(root, "edges") : undefined;
  // Nodes, their grouping by id and the vertex numbers in one loop (groupByKey's, without a key function per node).
  const nodes: NodeEntry[] = [];
  const byId = new Map<string, NodeEntry[]>();
  const ids: string[] = [];
  const lastNodes: NodeEntry[] = [];
  if (isArray(nodesValue)) {
    for (let i = 0; i < nodesValue.length; i += 1) {
      const node = buildNode(nodesValue[i] as JsonValue, i);
      nodes.push(node);
      const id = node.id;
      if (id === null) continue;
      const group = byId.get(id);
      if (group) {
        node.vertex = (group[0] as NodeEntry).vertex;
        group.push(node);
        lastNodes[node.vertex] = node;
      } else {
        node.vertex = ids.length;
        ids.push(id);
        lastNodes.push(node);
        byId.set(id, [node]);
      }
    }
  }
  const edges: EdgeEntry[] = [];
  if (isArray(edgesValue)) for (let i = 0; i < edgesValue.length; i += 1) edges.push(buildEdge(edgesValue[i] as JsonValue, i, byId));
  return { value, root, nodes, edges, byId, ids, lastNodes, floats };
}

/** The node's rewritten text fields with their values, read once for the param and reference checks. */
export function textFieldsOf(node: NodeEntry): readonly TextField[] {
  if (node.textFields === null) node.textFields = readTextFields(node);
  return node.textFields;
}

/** Per node type, the one-key path of each top-level text param, made once (diagnostics only read paths). */
const TEXT_KEY_PATHS = new Map<NodeTypeId, readonly ParamPath[]>();

function textKeyPaths(type: NodeTypeId): readonly ParamPath[] {
  let paths = TEXT_KEY_PATHS.get(type);
  if (paths === undefined) {
    paths = NODE_SPECS[type].textParams.map((key) => [key]);
    TEXT_KEY_PATHS.set(type, paths);
  }
  return paths;
}

/** textFieldPathsOf's fields with their values, each top-level key read once. */
function readTextFields(node: NodeEntry): TextField[] {
  const { known, param } = node;
  if (known === null || param === null) return [];
  const fields: TextField[] = [];
  const keyPaths = textKeyPaths(known);
  for (let i = 0; i < keyPaths.length; i += 1) {
    const path = keyPaths[i] as ParamPath;
    const value = ownValue(param, path[0] as string);
    if (value !== undefined) fields.push({ path, value });
  }
  const nested = NODE_SPECS[known].nestedTextPaths;
  if (nested === undefined) return fields;
  const paths = nested(param);
  for (let i = 0; i < paths.length; i += 1) fields.push({ path: paths[i] as ParamPath, value: valueAt(param, paths[i] as ParamPath) });
  return fields;
}

export function valueAt(param: JsonObject, path: ParamPath): JsonValue | undefined {
  let current: JsonValue | undefined = param;
  for (let i = 0; i < path.length; i += 1) {
    if (current === undefined || current === null || typeof current !== "object") return undefined;
    const part = path[i] as string | number;
    current = isArray(current) ? (typeof part === "number" ? current[part] : undefined) : ownValue(current, String(part));
  }
  return current;
}

/** The graph vertex of `id`, or -1 when no node has it. */
export function vertexOfId(model: WorkflowModel, id: string): number {
  const list = model.byId.get(id);
  return list === undefined ? -1 : (list[0] as NodeEntry).vertex;
}

/** The node a lookup by id finds: the last one with that id (the official registry keeps the latest). */
export function lastNodeWithId(model: WorkflowModel, id: string): NodeEntry | undefined {
  const list = model.byId.get(id);
  return list?.[list.length - 1];
}

/** The node registered under `id` just before position `beforeIndex` (what the converter resolves there). */
export function registeredBefore(model: WorkflowModel, id: string, beforeIndex: number): NodeEntry | undefined {
  const list = model.byId.get(id);
  if (!list) return undefined;
  for (let i = list.length - 1; i >= 0; i -= 1) {
    const node = list[i] as NodeEntry;
    if (node.index < beforeIndex) return node;
  }
  return undefined;
}

/** How to name a node in a message: `node "3" (llm)` or `nodes_info[4]` when it has no usable id. */
export function describeNode(node: NodeEntry): string {
  const type = node.type ?? "untyped";
  if (node.id !== null) return `node "${node.id}" (${type})`;
  return `nodes_info[${node.index}] (${type})`;
}

export function nodeLocation(node: NodeEntry, paramPath?: (string | number)[]): DiagnosticLocation {
  const location: DiagnosticLocation = {};
  if (node.id !== null) location.nodeId = node.id;
  else if (typeof node.rawId === "number" || typeof node.rawId === "boolean") location.nodeId = String(node.rawId);
  if (paramPath) location.paramPath = paramPath;
  return location;
}

export function edgeLocation(edge: EdgeEntry): DiagnosticLocation {
  return { edgeIndex: edge.index };
}

export function formatPath(path: readonly (string | number)[]): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? part : `.${part}`)).join("");
}

/** Items grouped by key, each group in item order; items without a key are left out. */
export function groupByKey<T>(items: readonly T[], keyOf: (item: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as T;
    const key = keyOf(item);
    if (key === null) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
