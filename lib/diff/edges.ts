// Edge changes: each edge keyed by (source, branch, target) in the later workflow's terms — endpoints mapped through
// the node matching, if-else / classifier ports through branch identity — then compared as multisets. Total, pure.

import { preview } from "../workflow/python-values";
import { isBranching, portIndex, portLabels, type BranchMap } from "./branches";
import { canonicalJson, type KeySpace } from "./keys";
import type { SideEdge, SideModel, SideNode } from "./side";
import type { EdgeDiff, EdgeRef } from "./types";

export interface EdgeDiffEntry extends EdgeDiff {
  /** The sides' edge records (for ordering the change list by source node). */
  beforeEdge: SideEdge | null;
  afterEdge: SideEdge | null;
}

function endpointLabel(node: SideNode | null, id: string | null): string {
  return node ? node.ref.label : id === null ? "an unreadable id" : `"${id}" (no such node)`;
}

export function edgeRef(edge: SideEdge): EdgeRef {
  let portLabel: string | null = null;
  if (isBranching(edge.source)) {
    const labels = portLabels(edge.source as SideNode);
    const index = portIndex(edge.port, labels.length);
    portLabel = index === null ? `port ${preview(edge.port ?? null, 20)}` : (labels[index] ?? null);
  }
  return {
    index: edge.index,
    source: edge.sourceId,
    target: edge.targetId,
    port: edge.port ?? null,
    portLabel,
    sourceLabel: endpointLabel(edge.source, edge.sourceId),
    targetLabel: endpointLabel(edge.target, edge.targetId),
  };
}

function portKey(edge: SideEdge, branch: BranchMap | undefined, side: "before" | "after"): string {
  if (!isBranching(edge.source)) return "-";
  const index = portIndex(edge.port, portLabels(edge.source as SideNode).length);
  if (index === null) return `raw:${canonicalJson(edge.port)}`;
  if (side === "after" || !branch) return `p${index}`;
  const mapped = branch.toAfter.get(index);
  return mapped === null || mapped === undefined ? `gone${index}` : `p${mapped}`;
}

export function diffEdges(before: SideModel, after: SideModel, keys: KeySpace, branches: ReadonlyMap<SideNode, BranchMap>): EdgeDiffEntry[] {
  const keyOf = (edge: SideEdge, side: "before" | "after"): string => {
    const key = side === "before" ? keys.before : keys.after;
    const branch = side === "before" && edge.source ? branches.get(edge.source) : undefined;
    return `${key(edge.source, edge.sourceId)}|${portKey(edge, branch, side)}|${key(edge.target, edge.targetId)}|${edge.rawKinds}`;
  };
  const waiting = new Map<string, SideEdge[]>();
  for (const edge of after.edges) {
    const key = keyOf(edge, "after");
    const list = waiting.get(key);
    if (list) list.push(edge);
    else waiting.set(key, [edge]);
  }
  const partnerOfAfter = new Map<SideEdge, SideEdge>();
  const removed: SideEdge[] = [];
  for (const edge of before.edges) {
    const partner = waiting.get(keyOf(edge, "before"))?.shift();
    if (partner) partnerOfAfter.set(partner, edge);
    else removed.push(edge);
  }
  const out: EdgeDiffEntry[] = after.edges.map((edge) => {
    const partner = partnerOfAfter.get(edge) ?? null;
    return {
      status: partner ? "unchanged" : "added",
      before: partner ? edgeRef(partner) : null,
      after: edgeRef(edge),
      beforeEdge: partner,
      afterEdge: edge,
    };
  });
  for (const edge of removed) out.push({ status: "removed", before: edgeRef(edge), after: null, beforeEdge: edge, afterEdge: null });
  return out;
}
