// Where each change-list entry sits on the earlier, later and merged canvases, so stepping through changes can centre
// them; null where a change has nothing on that canvas.

import type { DiffChange, EdgeRef, NodeDiff, WorkflowDiff } from "../diff/types";
import { edgeKeyOf, nodeKeyOf } from "./marks";

export interface CanvasTarget {
  /** The node to centre and select. */
  nodeKey: string | null;
  /** The edge the change is about. */
  edgeKey: string | null;
}

export interface ChangeTarget {
  before: CanvasTarget;
  after: CanvasTarget;
  merged: CanvasTarget;
}

const NONE: CanvasTarget = { nodeKey: null, edgeKey: null };

interface Lookup {
  byBeforeIndex: Map<number, number>;
  byAfterIndex: Map<number, number>;
  byBeforeId: Map<string, number>;
  byAfterId: Map<string, number>;
  edgeByBeforeIndex: Map<number, number>;
  edgeByAfterIndex: Map<number, number>;
}

function lookup(diff: WorkflowDiff): Lookup {
  const result: Lookup = {
    byBeforeIndex: new Map(),
    byAfterIndex: new Map(),
    byBeforeId: new Map(),
    byAfterId: new Map(),
    edgeByBeforeIndex: new Map(),
    edgeByAfterIndex: new Map(),
  };
  diff.nodes.forEach((node, position) => {
    if (node.before) {
      result.byBeforeIndex.set(node.before.index, position);
      // Later nodes win on duplicate ids, as the official lookups (and the viewer) resolve them.
      if (node.before.id !== null) result.byBeforeId.set(node.before.id, position);
    }
    if (node.after) {
      result.byAfterIndex.set(node.after.index, position);
      if (node.after.id !== null) result.byAfterId.set(node.after.id, position);
    }
  });
  diff.edges.forEach((edge, position) => {
    if (edge.before) result.edgeByBeforeIndex.set(edge.before.index, position);
    if (edge.after) result.edgeByAfterIndex.set(edge.after.index, position);
  });
  return result;
}

/** The diff.nodes position of the node a change is about. */
function nodePosition(change: DiffChange, diff: WorkflowDiff, find: Lookup): number | null {
  if (change.node) {
    if (change.node.after) return find.byAfterIndex.get(change.node.after.index) ?? null;
    if (change.node.before) return find.byBeforeIndex.get(change.node.before.index) ?? null;
    return null;
  }
  if (change.edge) {
    // An edge change centres the node it leaves from (on both canvases, through the matching).
    const edge: EdgeRef | null = change.edge.after ?? change.edge.before;
    if (!edge || edge.source === null) return null;
    return (change.edge.after ? find.byAfterId.get(edge.source) : find.byBeforeId.get(edge.source)) ?? null;
  }
  const kind = change.kind;
  const wanted = kind.startsWith("input-") ? "start" : kind.startsWith("output-") ? "end" : null;
  if (wanted === null) return null;
  const position = diff.nodes.findIndex((node: NodeDiff) => (node.after ?? node.before)?.type === wanted);
  return position < 0 ? null : position;
}

export function changeTargets(diff: WorkflowDiff, merged?: { nodeKeys: readonly string[]; edgeKeys: readonly string[] } | null): ChangeTarget[] {
  const find = lookup(diff);
  return diff.changes.map((change) => {
    const position = nodePosition(change, diff, find);
    const node = position === null ? undefined : diff.nodes[position];
    let edgeBefore: string | null = null;
    let edgeAfter: string | null = null;
    let edgeMerged: string | null = null;
    if (change.edge) {
      if (change.edge.before) edgeBefore = edgeKeyOf(change.edge.before);
      if (change.edge.after) edgeAfter = edgeKeyOf(change.edge.after);
      const edgePosition = change.edge.after ? find.edgeByAfterIndex.get(change.edge.after.index) : change.edge.before ? find.edgeByBeforeIndex.get(change.edge.before.index) : undefined;
      if (merged && edgePosition !== undefined) edgeMerged = merged.edgeKeys[edgePosition] ?? null;
    }
    if (!node && !change.edge) return { before: NONE, after: NONE, merged: NONE };
    return {
      before: { nodeKey: node?.before ? nodeKeyOf(node.before) : null, edgeKey: edgeBefore },
      after: { nodeKey: node?.after ? nodeKeyOf(node.after) : null, edgeKey: edgeAfter },
      merged: { nodeKey: merged && position !== null ? (merged.nodeKeys[position] ?? null) : null, edgeKey: edgeMerged },
    };
  });
}

/** Matched nodes' keys across the canvases: earlier key -> later key and back. */
export function counterpartKeys(diff: WorkflowDiff): { toAfter: Record<string, string>; toBefore: Record<string, string> } {
  const toAfter: Record<string, string> = {};
  const toBefore: Record<string, string> = {};
  for (const node of diff.nodes) {
    if (!node.before || !node.after) continue;
    toAfter[nodeKeyOf(node.before)] = nodeKeyOf(node.after);
    toBefore[nodeKeyOf(node.after)] = nodeKeyOf(node.before);
  }
  return { toAfter, toBefore };
}

/** The first change whose node on `canvas` is `key` (a click on a node selects its first change); null when none. */
export function firstChangeAt(targets: readonly ChangeTarget[], canvas: keyof ChangeTarget, key: string): number | null {
  const index = targets.findIndex((target) => target[canvas].nodeKey === key);
  return index < 0 ? null : index;
}
