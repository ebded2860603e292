// Diffs two workflows (turn N vs N+1 of one model, or two models on one turn): node matching, node / edge /
// reference / I-O changes and an ordered change list. Total over any inputs; never throws; deterministic and
// symmetric (diff(a, b) mirrors diff(b, a): the matching is always computed in one canonical orientation).

import { NODE_TYPES, isNodeTypeId } from "../workflow/node-types";
import { formatPath } from "../workflow/analysis/model";
import { preview, type JsonValue } from "../workflow/python-values";
import { parseResponse, type ResponseInput } from "../workflow/response";
import { invertBranchMap, isBranching, matchBranches, type BranchMap } from "./branches";
import { diffEdges, type EdgeDiffEntry } from "./edges";
import { diffIo, diffSelection, diffTask } from "./io";
import { canonicalJson, keySpace, type KeySpace } from "./keys";
import { matchNodes, type NodeMatching, type NodePair } from "./match";
import { diffParams } from "./params";
import { diffReferences } from "./references";
import { buildSide, type SideModel, type SideNode } from "./side";
import {
  CHANGE_KINDS,
  type ChangeKind,
  type DiffChange,
  type DiffSide,
  type DiffSummary,
  type DiffTurn,
  type NodeDiff,
  type NodeRef,
  type ReferenceChange,
  type ReferenceInfo,
  type WorkflowDiff,
} from "./types";

/** A diff side from a model answer or a recorded run (parsed as the official step 1_1 does). */
export function diffSideFromResponse(input: ResponseInput, turn?: DiffTurn | null): DiffSide {
  const parsed = parseResponse(input);
  return { workflow: parsed.json.ok ? parsed.json.value : null, nodeSelection: parsed.nodeSelection, turn: turn ?? null };
}

// -- correspondence (canonical orientation) -----------------------------------------------------------------------

interface Correspondence {
  matching: NodeMatching;
  /** Branch maps keyed by the earlier side's node. */
  branches: Map<SideNode, BranchMap>;
}

function computeCorrespondence(x: SideModel, y: SideModel): Correspondence {
  const matching = matchNodes(x, y);
  const keys = keySpace(matching.toAfter);
  const branches = new Map<SideNode, BranchMap>();
  for (const pair of matching.pairs) {
    if (!isBranching(pair.before)) continue;
    branches.set(pair.before, matchBranches(pair.before, pair.after, keys, (id) => x.byId.get(id) ?? null, (id) => y.byId.get(id) ?? null));
  }
  return { matching, branches };
}

/** Any total order on workflows will do; native JSON text is the cheapest (canonical JSON for odd values). */
function orientationKey(side: SideModel): string {
  try {
    return JSON.stringify(side.model.value) ?? "";
  } catch {
    return canonicalJson(side.model.value);
  }
}

/**
 * Ties in the assignment could resolve differently in the two directions, so the correspondence is computed with
 * the sides in a fixed order (by their canonical JSON) and inverted when the caller asked for the other direction.
 */
function correspond(before: SideModel, after: SideModel): Correspondence {
  if (orientationKey(before) <= orientationKey(after)) return computeCorrespondence(before, after);
  const reversed = computeCorrespondence(after, before);
  const pairs: NodePair[] = reversed.matching.pairs
    .map((pair) => ({ before: pair.after, after: pair.before, similarity: pair.similarity, byId: pair.byId }))
    .sort((p, q) => p.after.entry.index - q.after.entry.index);
  const branches = new Map<SideNode, BranchMap>();
  for (const [node, map] of reversed.branches) {
    const partner = reversed.matching.toAfter.get(node);
    if (partner) branches.set(partner, invertBranchMap(map));
  }
  return { matching: { pairs, toAfter: reversed.matching.toBefore, toBefore: reversed.matching.toAfter }, branches };
}

// -- node diffs -------------------------------------------------------------------------------------------------

interface NodeItem {
  diff: NodeDiff;
  before: SideNode | null;
  after: SideNode | null;
}

function parentKey(node: SideNode, key: KeySpace["before"]): string {
  return node.ref.parentId === null ? "top" : key(node.parent, node.ref.parentId);
}

function pairDiff(pair: NodePair, keys: KeySpace, before: SideModel, after: SideModel, branches: ReadonlyMap<SideNode, BranchMap>): NodeDiff {
  const resolveB = (id: string): SideNode | null => before.byId.get(id) ?? null;
  const resolveA = (id: string): SideNode | null => after.byId.get(id) ?? null;
  const fields = diffParams(pair.before, pair.after, keys.before, keys.after, resolveB, resolveA);
  const references = diffReferences(pair.before, pair.after, keys);
  const typeChanged = pair.before.entry.type !== pair.after.entry.type;
  const diff: NodeDiff = {
    status: fields.length > 0 || typeChanged ? "modified" : "unchanged",
    before: pair.before.ref,
    after: pair.after.ref,
    renamed: pair.before.id !== pair.after.id,
    similarity: Math.round(pair.similarity * 1000) / 1000,
    matchedById: pair.byId,
    fields,
    references,
  };
  if (typeChanged) diff.typeChange = { before: pair.before.entry.type, after: pair.after.entry.type };
  if (parentKey(pair.before, keys.before) !== parentKey(pair.after, keys.after)) {
    diff.move = { fromParent: pair.before.ref.parentId, toParent: pair.after.ref.parentId };
  }
  const branch = branches.get(pair.before);
  if (branch) diff.branches = branch.correspondences;
  return diff;
}

function unmatchedDiff(node: SideNode, side: "before" | "after"): NodeDiff {
  return {
    status: side === "before" ? "removed" : "added",
    before: side === "before" ? node.ref : null,
    after: side === "after" ? node.ref : null,
    renamed: false,
    similarity: null,
    matchedById: false,
    fields: [],
    references: [],
  };
}

/** Later-workflow order; a removed node goes right after the later position of its nearest matched predecessor. */
function orderedNodeItems(before: SideModel, after: SideModel, matching: NodeMatching, keys: KeySpace, branches: ReadonlyMap<SideNode, BranchMap>): NodeItem[] {
  const afterPosition = new Map<SideNode, number>();
  after.nodes.forEach((node, i) => afterPosition.set(node, i));
  const pairOfAfter = new Map<SideNode, NodePair>();
  for (const pair of matching.pairs) pairOfAfter.set(pair.after, pair);
  const sorted: { item: NodeItem; major: number; minor: number }[] = [];
  after.nodes.forEach((node, i) => {
    const pair = pairOfAfter.get(node);
    const diff = pair ? pairDiff(pair, keys, before, after, branches) : unmatchedDiff(node, "after");
    sorted.push({ item: { diff, before: pair?.before ?? null, after: node }, major: i, minor: -1 });
  });
  let anchor = -1;
  before.nodes.forEach((node, i) => {
    const partner = matching.toAfter.get(node);
    if (partner) {
      anchor = afterPosition.get(partner) ?? anchor;
      return;
    }
    sorted.push({ item: { diff: unmatchedDiff(node, "before"), before: node, after: null }, major: anchor, minor: i });
  });
  return sorted.sort((x, y) => x.major - y.major || x.minor - y.minor).map((entry) => entry.item);
}

// -- descriptions -------------------------------------------------------------------------------------------------

function typeName(type: string): string {
  return isNodeTypeId(type) ? NODE_TYPES[type].displayName : type;
}

function quoted(value: string): string {
  return JSON.stringify(value);
}

function parentLabel(side: SideModel, parentId: string): string {
  return side.byId.get(parentId)?.ref.label ?? `canvas "${parentId}"`;
}

function readsText(ref: ReferenceInfo): string {
  const from = ref.nodeLabel ?? (ref.nodeId === null ? "an unreadable id" : `"${ref.nodeId}" (no such node)`);
  return `${quoted(ref.variable)} of ${from}`;
}

function referenceDescription(node: NodeRef, change: ReferenceChange): string {
  const where = `${node.label} ${change.slot}`;
  if (change.op === "retargeted" && change.before && change.after) {
    return `${where}: reads ${readsText(change.after)} instead of ${readsText(change.before)}`;
  }
  if (change.op === "added" && change.after) return `${where}: now reads ${readsText(change.after)}`;
  return `${where}: no longer reads ${change.before ? readsText(change.before) : "anything"}`;
}

function modifiedDescription(diff: NodeDiff): string {
  const parts: string[] = [];
  if (diff.typeChange) parts.push(`type ${diff.typeChange.before ?? "none"} → ${diff.typeChange.after ?? "none"}`);
  const keys: string[] = [];
  for (const field of diff.fields) {
    const key = field.path.length === 0 ? "param" : formatPath(field.path.slice(0, 1));
    if (!keys.includes(key)) keys.push(key);
  }
  if (keys.length > 0) parts.push(keys.length > 4 ? `${keys.slice(0, 4).join(", ")}, …` : keys.join(", "));
  return `Changed ${(diff.after ?? diff.before)?.label ?? "a node"}: ${parts.join("; ")}`;
}

function moveDescription(diff: NodeDiff, before: SideModel, after: SideModel): string {
  const label = diff.after?.label ?? "a node";
  const move = diff.move as NonNullable<NodeDiff["move"]>;
  if (move.fromParent === null && move.toParent !== null) return `${label} moved into ${parentLabel(after, move.toParent)}`;
  if (move.fromParent !== null && move.toParent === null) return `${label} moved out of ${parentLabel(before, move.fromParent)} to the top level`;
  return `${label} moved from ${parentLabel(before, move.fromParent ?? "")} to ${parentLabel(after, move.toParent ?? "")}`;
}

function edgeDescription(entry: EdgeDiffEntry): string {
  const edge = entry.after ?? entry.before;
  if (!edge) return "An edge changed";
  const port = edge.portLabel === null ? "" : ` [${edge.portLabel}]`;
  return `${entry.status === "added" ? "Added" : "Removed"} edge ${edge.sourceLabel}${port} → ${edge.targetLabel}`;
}

// -- change list -------------------------------------------------------------------------------------------------

class ChangeList {
  readonly changes: DiffChange[] = [];
  private readonly ids = new Map<string, number>();

  add(kind: ChangeKind, ident: string, description: string, extra: Partial<DiffChange> = {}): void {
    const base = `${kind}:${ident}`;
    const seen = this.ids.get(base) ?? 0;
    this.ids.set(base, seen + 1);
    this.changes.push({ id: seen === 0 ? base : `${base}~${seen + 1}`, kind, description, ...extra });
  }
}

function nodeIdent(ref: NodeRef | null): string {
  if (!ref) return "-";
  return ref.id ?? `#${ref.index}`;
}

function addNodeChanges(list: ChangeList, item: NodeItem, before: SideModel, after: SideModel): void {
  const { diff } = item;
  const node = { before: diff.before, after: diff.after };
  const pairIdent = `${nodeIdent(diff.before)}>${nodeIdent(diff.after)}`;
  if (diff.status === "added" && diff.after) {
    const inside = diff.after.parentId === null ? "" : ` inside ${parentLabel(after, diff.after.parentId)}`;
    list.add("node-added", nodeIdent(diff.after), `Added ${diff.after.label}${inside}`, { node });
    return;
  }
  if (diff.status === "removed" && diff.before) {
    const inside = diff.before.parentId === null ? "" : ` from ${parentLabel(before, diff.before.parentId)}`;
    list.add("node-removed", nodeIdent(diff.before), `Removed ${diff.before.label}${inside}`, { node });
    return;
  }
  if (diff.renamed && diff.before && diff.after) {
    list.add("node-renamed", pairIdent, `${diff.before.label} is now ${diff.after.id === null ? diff.after.label : quoted(diff.after.id)}`, { node });
  }
  if (diff.move) list.add("node-moved", pairIdent, moveDescription(diff, before, after), { node });
  if (diff.status === "modified") list.add("node-modified", pairIdent, modifiedDescription(diff), { node, fields: diff.fields });
  const owner = (diff.after ?? diff.before) as NodeRef;
  for (const reference of diff.references) {
    const target = reference.after ?? reference.before;
    const ident = `${nodeIdent(owner)}:${reference.slot}:${target?.variable ?? ""}@${target?.nodeId ?? ""}`;
    list.add(`reference-${reference.op}`, ident, referenceDescription(owner, reference), { node, reference });
  }
}

function addEdgeChange(list: ChangeList, entry: EdgeDiffEntry): void {
  if (entry.status === "unchanged") return;
  const edge = (entry.after ?? entry.before) as NonNullable<EdgeDiffEntry["after"]>;
  const ident = `${edge.source ?? "?"}:${edge.portLabel ?? preview(edge.port, 12)}:${edge.target ?? "?"}`;
  list.add(entry.status === "added" ? "edge-added" : "edge-removed", ident, edgeDescription(entry), { edge: { before: entry.before, after: entry.after } });
}

function showType(type: JsonValue): string {
  return typeof type === "string" ? type : preview(type, 20);
}

function buildChanges(result: Omit<WorkflowDiff, "changes" | "summary">, items: NodeItem[], edges: EdgeDiffEntry[], before: SideModel, after: SideModel): DiffChange[] {
  const list = new ChangeList();
  const { task, selection, io } = result;
  if (task) {
    for (const name of task.inputs.added) list.add("task-input-added", name, `The task now requires input ${quoted(name)}`, { name });
    for (const name of task.inputs.removed) list.add("task-input-removed", name, `The task no longer requires input ${quoted(name)}`, { name });
    for (const name of task.outputs.added) list.add("task-output-added", name, `The task now requires output ${quoted(name)}`, { name });
    for (const name of task.outputs.removed) list.add("task-output-removed", name, `The task no longer requires output ${quoted(name)}`, { name });
    for (const name of task.keyNodes.added) list.add("task-key-node-added", name, `The task now requires a ${typeName(name)} node`, { name });
    for (const name of task.keyNodes.removed) list.add("task-key-node-removed", name, `The task no longer requires a ${typeName(name)} node`, { name });
  }
  if (selection) {
    for (const type of selection.added) list.add("selection-added", type, `node_selection now declares ${typeName(type)}`, { name: type });
    for (const type of selection.removed) list.add("selection-removed", type, `node_selection no longer declares ${typeName(type)}`, { name: type });
  }
  for (const name of io.inputs.added) {
    const type = after.startVariables.find((v) => v.name === name)?.type ?? null;
    list.add("input-added", name, `Start input ${quoted(name)} added (${showType(type)})`, { name });
  }
  for (const name of io.inputs.removed) list.add("input-removed", name, `Start input ${quoted(name)} removed`, { name });
  for (const { name, before: b, after: a } of io.inputs.retyped) {
    list.add("input-retyped", name, `Start input ${quoted(name)} changed type: ${showType(b)} → ${showType(a)}`, { name });
  }
  for (const name of io.outputs.added) list.add("output-added", name, `End output ${quoted(name)} added`, { name });
  for (const name of io.outputs.removed) list.add("output-removed", name, `End output ${quoted(name)} removed`, { name });

  // Edge changes follow the node they leave from; edges from no known node come last.
  const bySource = new Map<SideNode, EdgeDiffEntry[]>();
  const orphans: EdgeDiffEntry[] = [];
  for (const entry of edges) {
    if (entry.status === "unchanged") continue;
    const source = entry.status === "added" ? entry.afterEdge?.source : entry.beforeEdge?.source;
    if (!source) {
      orphans.push(entry);
      continue;
    }
    const listFor = bySource.get(source);
    if (listFor) listFor.push(entry);
    else bySource.set(source, [entry]);
  }
  for (const item of items) {
    addNodeChanges(list, item, before, after);
    for (const side of [item.before, item.after]) {
      if (!side) continue;
      for (const entry of bySource.get(side) ?? []) addEdgeChange(list, entry);
      bySource.delete(side);
    }
  }
  for (const entry of orphans) addEdgeChange(list, entry);
  return list.changes;
}

function summarise(items: NodeItem[], edges: EdgeDiffEntry[], changes: DiffChange[]): DiffSummary {
  const byKind = Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, 0])) as Record<ChangeKind, number>;
  for (const change of changes) byKind[change.kind] += 1;
  const count = (status: NodeDiff["status"]): number => items.filter((item) => item.diff.status === status).length;
  return {
    identical: changes.length === 0,
    changeCount: changes.length,
    byKind,
    nodes: {
      added: count("added"),
      removed: count("removed"),
      modified: count("modified"),
      unchanged: count("unchanged"),
      renamed: items.filter((item) => item.diff.renamed).length,
      moved: items.filter((item) => item.diff.move).length,
    },
    edges: {
      added: edges.filter((e) => e.status === "added").length,
      removed: edges.filter((e) => e.status === "removed").length,
      unchanged: edges.filter((e) => e.status === "unchanged").length,
    },
  };
}

// -- entry point ------------------------------------------------------------------------------------------------

export function diffWorkflows(beforeSide: DiffSide, afterSide: DiffSide): WorkflowDiff {
  const before = buildSide(beforeSide);
  const after = buildSide(afterSide);
  const { matching, branches } = correspond(before, after);
  const keys = keySpace(matching.toAfter);
  const items = orderedNodeItems(before, after, matching, keys, branches);
  const edgeEntries = diffEdges(before, after, keys, branches);
  const partial: Omit<WorkflowDiff, "changes" | "summary"> = {
    nodes: items.map((item) => item.diff),
    edges: edgeEntries.map(({ status, before: b, after: a }) => ({ status, before: b, after: a })),
    renames: items.filter((item) => item.diff.renamed).map((item) => ({ before: item.diff.before?.id ?? null, after: item.diff.after?.id ?? null })),
    selection: diffSelection(before, after),
    io: diffIo(before, after),
    task: diffTask(before, after),
    issues: { before: before.issues, after: after.issues },
  };
  const changes = buildChanges(partial, items, edgeEntries, before, after);
  return { ...partial, changes, summary: summarise(items, edgeEntries, changes) };
}
