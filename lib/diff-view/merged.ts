// The merged canvas: the later workflow with the earlier one's removed nodes and edges added back under fresh ids,
// so one graph shows what was added, removed and kept while the later workflow's diagnostics stay anchored.

import type { NodeDiff, WorkflowDiff } from "../diff/types";
import { isJsonObject, ownValue, type JsonObject, type JsonValue } from "../workflow/python-values";
import { edgeKeyOf, marksFromStatuses, nodeKeyOf, type CanvasMarks, type EdgeStatusEntry, type NodeStatusEntry } from "./marks";

export interface MergedWorkflow {
  workflow: { nodes_info: JsonValue[]; edges: JsonValue[] };
  /** The merged canvas key of each `diff.nodes` entry (same order). */
  nodeKeys: string[];
  /** The merged canvas key of each `diff.edges` entry (same order). */
  edgeKeys: string[];
  marks: CanvasMarks;
}

/** Marks the id of a node that exists only in the earlier workflow. */
export const REMOVED_SUFFIX = "′";

function listOf(workflow: unknown, key: "nodes_info" | "edges"): JsonValue[] {
  if (!isJsonObject(workflow as JsonValue)) return [];
  const value = ownValue(workflow as JsonObject, key);
  return Array.isArray(value) ? value : [];
}

function idText(value: JsonValue | undefined): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

/** Normalised branch port (Python indexing) of a raw edge port, given how many ports the node had. */
function portNumber(port: JsonValue | undefined, count: number): number | null {
  const value = typeof port === "boolean" ? Number(port) : port;
  if (typeof value !== "number" || !Number.isInteger(value)) return null;
  const index = value < 0 ? value + count : value;
  return index >= 0 && index < count ? index : null;
}

export function mergeWorkflows(before: unknown, after: unknown, diff: WorkflowDiff): MergedWorkflow {
  const beforeNodes = listOf(before, "nodes_info");
  const beforeEdges = listOf(before, "edges");
  const afterNodes = listOf(after, "nodes_info");
  const afterEdges = listOf(after, "edges");

  const used = new Set<string>();
  for (const node of afterNodes) {
    const id = isJsonObject(node) ? idText(ownValue(node, "id")) : null;
    if (id !== null) used.add(id);
  }
  const fresh = (base: string): string => {
    let id = base;
    while (used.has(id)) id += REMOVED_SUFFIX;
    used.add(id);
    return id;
  };

  // Earlier id -> merged id: a matched node's later id, or a removed node's fresh id. Later entries win, as lookups do.
  const mergedId = new Map<string, string>();
  const diffByBeforeId = new Map<string, NodeDiff>();
  for (const node of diff.nodes) {
    if (node.before?.id != null) diffByBeforeId.set(node.before.id, node);
    if (node.before?.id != null && node.after?.id != null) mergedId.set(node.before.id, node.after.id);
  }

  const nodes: JsonValue[] = [...afterNodes];
  const nodeKeys: string[] = new Array<string>(diff.nodes.length);
  const statuses: NodeStatusEntry[] = [];
  const removed = diff.nodes.map((node, position) => ({ node, position })).filter(({ node }) => node.status === "removed" && node.before);
  // Containers before their children, so a child can be renamed into its container's fresh id.
  removed.sort((x, y) => Number(x.node.before?.parentId != null) - Number(y.node.before?.parentId != null));
  const removedKey = new Map<number, string>();
  for (const { node, position } of removed) {
    const ref = node.before as NonNullable<NodeDiff["before"]>;
    const raw = beforeNodes[ref.index];
    let copy: JsonValue = raw ?? null;
    if (ref.id !== null && isJsonObject(raw)) {
      let id: string;
      const parent = ref.parentId === null ? undefined : diffByBeforeId.get(ref.parentId);
      const rest = ref.parentId === null ? "" : ref.id.slice(ref.parentId.length + 1);
      if (parent && parent.status === "removed") id = fresh(`${mergedId.get(ref.parentId as string) ?? `${ref.parentId}${REMOVED_SUFFIX}`}-${rest}`);
      else if (parent?.after?.id != null) id = fresh(`${parent.after.id}-${rest}${REMOVED_SUFFIX}`);
      else id = fresh(`${ref.id}${REMOVED_SUFFIX}`);
      mergedId.set(ref.id, id);
      copy = { ...raw, id };
    }
    const key = `n${nodes.length}`;
    nodes.push(copy);
    removedKey.set(position, key);
  }
  diff.nodes.forEach((node, position) => {
    if (node.after) {
      const key = nodeKeyOf(node.after);
      nodeKeys[position] = key;
      const entry: NodeStatusEntry = { key, status: node.status };
      if (node.renamed && node.before) entry.renamedTo = { direction: "was", id: node.before.id };
      if (node.move) entry.moved = true;
      statuses.push(entry);
    } else {
      const key = removedKey.get(position) as string;
      nodeKeys[position] = key;
      statuses.push({ key, status: "removed" });
    }
  });

  const mapEndpoint = (value: JsonValue | undefined): JsonValue => {
    const id = idText(value);
    if (id === null) return value ?? null;
    return mergedId.get(id) ?? `${id}${REMOVED_SUFFIX}`;
  };
  const mapPort = (sourceId: string | null, port: JsonValue | undefined): JsonValue | undefined => {
    const branches = sourceId === null ? undefined : diffByBeforeId.get(sourceId)?.branches;
    if (!branches) return port;
    const count = branches.filter((branch) => branch.beforePort !== null).length;
    const index = portNumber(port, count);
    const match = index === null ? undefined : branches.find((branch) => branch.beforePort === index);
    return match && match.afterPort !== null ? match.afterPort : port;
  };

  const edges: JsonValue[] = [...afterEdges];
  const edgeKeys: string[] = new Array<string>(diff.edges.length);
  const edgeStatuses: EdgeStatusEntry[] = [];
  diff.edges.forEach((edge, position) => {
    if (edge.after) {
      edgeKeys[position] = edgeKeyOf(edge.after);
      edgeStatuses.push({ key: edgeKeyOf(edge.after), status: edge.status });
      return;
    }
    const ref = edge.before;
    const raw = ref ? beforeEdges[ref.index] : undefined;
    const key = `e${edges.length}`;
    if (Array.isArray(raw) && raw.length >= 2) {
      const copy = [...raw];
      const last = raw.length === 2 ? 1 : 2;
      copy[0] = mapEndpoint(raw[0]);
      copy[last] = mapEndpoint(raw[last]);
      if (raw.length > 2) copy[1] = mapPort(idText(raw[0]), raw[1]) ?? null;
      edges.push(copy);
    } else {
      edges.push(raw ?? null);
    }
    edgeKeys[position] = key;
    edgeStatuses.push({ key, status: "removed" });
  });

  return { workflow: { nodes_info: nodes, edges }, nodeKeys, edgeKeys, marks: marksFromStatuses(statuses, edgeStatuses) };
}
