// What the diff pages draw on a canvas: a label per changed node and edge, and the unchanged ones to dim.

import type { NodeDiff, NodeRef, WorkflowDiff } from "../diff/types";

export type MarkTone = "neutral" | "good" | "bad" | "warn" | "info";

/** Structurally the viewer's NodeDecoration: a short label drawn on the node or the edge. */
export interface Mark {
  label: string;
  tone: MarkTone;
}

export interface CanvasMarks {
  /** Per node key. */
  nodes: Record<string, Mark>;
  /** Per edge key. */
  edges: Record<string, Mark>;
  /** Unchanged nodes and edges (node and edge keys never collide: `n…` vs `e…`). */
  dimmed: string[];
}

export type Side = "before" | "after";

export const MARKS = {
  added: { label: "added", tone: "good" },
  removed: { label: "removed", tone: "bad" },
  changed: { label: "changed", tone: "warn" },
  moved: { label: "moved", tone: "info" },
} as const satisfies Record<string, Mark>;

export const nodeKeyOf = (ref: Pick<NodeRef, "index">): string => `n${ref.index}`;
export const edgeKeyOf = (ref: { index: number }): string => `e${ref.index}`;

function idText(id: string | null): string {
  return id === null ? "no id" : JSON.stringify(id);
}

/** One node's status as a canvas shows it: `side` is the canvas the node is drawn on. */
export interface NodeStatusEntry {
  key: string;
  status: NodeDiff["status"];
  /** The id on the other side when the node was renumbered (shown as `was "4"` / `now "7"`). */
  renamedTo?: { direction: "was" | "now"; id: string | null };
  moved?: boolean;
}

export interface EdgeStatusEntry {
  key: string;
  status: "added" | "removed" | "unchanged";
}

function nodeMark(entry: NodeStatusEntry): Mark | null {
  if (entry.status === "added") return MARKS.added;
  if (entry.status === "removed") return MARKS.removed;
  if (entry.status === "modified") return MARKS.changed;
  if (entry.renamedTo) return { label: `${entry.renamedTo.direction} ${idText(entry.renamedTo.id)}`, tone: "info" };
  if (entry.moved) return MARKS.moved;
  return null;
}

export function marksFromStatuses(nodes: readonly NodeStatusEntry[], edges: readonly EdgeStatusEntry[]): CanvasMarks {
  const marks: CanvasMarks = { nodes: {}, edges: {}, dimmed: [] };
  for (const entry of nodes) {
    const mark = nodeMark(entry);
    if (mark) marks.nodes[entry.key] = mark;
    else marks.dimmed.push(entry.key);
  }
  for (const entry of edges) {
    if (entry.status === "unchanged") marks.dimmed.push(entry.key);
    else marks.edges[entry.key] = entry.status === "added" ? MARKS.added : MARKS.removed;
  }
  return marks;
}

/** The node entries of one side's canvas: nodes that exist on that side, with the status seen from there. */
export function sideNodeEntries(diff: WorkflowDiff, side: Side): NodeStatusEntry[] {
  const entries: NodeStatusEntry[] = [];
  for (const node of diff.nodes) {
    const own = node[side];
    if (!own) continue;
    const other = side === "before" ? node.after : node.before;
    const entry: NodeStatusEntry = { key: nodeKeyOf(own), status: node.status };
    if (node.renamed && other) entry.renamedTo = { direction: side === "before" ? "now" : "was", id: other.id };
    if (node.move) entry.moved = true;
    entries.push(entry);
  }
  return entries;
}

export function sideMarks(diff: WorkflowDiff, side: Side): CanvasMarks {
  const edges: EdgeStatusEntry[] = [];
  for (const edge of diff.edges) {
    const own = edge[side];
    if (own) edges.push({ key: edgeKeyOf(own), status: edge.status });
  }
  return marksFromStatuses(sideNodeEntries(diff, side), edges);
}

/**
 * Adds `label` to the nodes carrying any of the diagnostics `ids` (e.g. "new problem" on the later turn's canvas).
 * A dimmed node that gets the label is no longer dimmed: a new problem on an unchanged node is worth seeing.
 */
export function withProblemMarks(marks: CanvasMarks, nodeKeysOf: (id: number) => readonly string[], ids: readonly number[], label: string): CanvasMarks {
  const flagged = new Set<string>();
  for (const id of ids) for (const key of nodeKeysOf(id)) flagged.add(key);
  if (flagged.size === 0) return marks;
  const nodes = { ...marks.nodes };
  for (const key of flagged) {
    const existing = nodes[key];
    nodes[key] = { label: existing ? `${existing.label} · ${label}` : label, tone: "bad" };
  }
  return { nodes, edges: marks.edges, dimmed: marks.dimmed.filter((key) => !flagged.has(key)) };
}
