// The change list's counts per change kind, grouped and worded for people, from the diff's own summary.

import type { ChangeKind, DiffSummary } from "../diff/types";
import type { MarkTone } from "./marks";

/** Singular and plural wording of each change kind ("1 node added", "5 nodes added"). */
export const CHANGE_KIND_WORDS: Readonly<Record<ChangeKind, readonly [string, string]>> = {
  "task-input-added": ["task input added", "task inputs added"],
  "task-input-removed": ["task input removed", "task inputs removed"],
  "task-output-added": ["task output added", "task outputs added"],
  "task-output-removed": ["task output removed", "task outputs removed"],
  "task-key-node-added": ["key node added", "key nodes added"],
  "task-key-node-removed": ["key node removed", "key nodes removed"],
  "selection-added": ["type declared", "types declared"],
  "selection-removed": ["type no longer declared", "types no longer declared"],
  "input-added": ["start input added", "start inputs added"],
  "input-removed": ["start input removed", "start inputs removed"],
  "input-retyped": ["start input retyped", "start inputs retyped"],
  "output-added": ["end output added", "end outputs added"],
  "output-removed": ["end output removed", "end outputs removed"],
  "node-added": ["node added", "nodes added"],
  "node-removed": ["node removed", "nodes removed"],
  "node-modified": ["node changed", "nodes changed"],
  "node-renamed": ["node renumbered", "nodes renumbered"],
  "node-moved": ["node moved", "nodes moved"],
  "reference-added": ["reference added", "references added"],
  "reference-removed": ["reference removed", "references removed"],
  "reference-retargeted": ["reference retargeted", "references retargeted"],
  "edge-added": ["edge added", "edges added"],
  "edge-removed": ["edge removed", "edges removed"],
};

export function kindLabel(kind: ChangeKind, count: number): string {
  const [one, many] = CHANGE_KIND_WORDS[kind];
  return count === 1 ? one : many;
}

export const CHANGE_GROUPS: readonly { id: string; label: string; kinds: readonly ChangeKind[] }[] = [
  { id: "nodes", label: "Nodes", kinds: ["node-added", "node-removed", "node-modified", "node-renamed", "node-moved"] },
  { id: "edges", label: "Edges", kinds: ["edge-added", "edge-removed"] },
  { id: "references", label: "References", kinds: ["reference-added", "reference-removed", "reference-retargeted"] },
  { id: "io", label: "Inputs and outputs", kinds: ["input-added", "input-removed", "input-retyped", "output-added", "output-removed"] },
  { id: "selection", label: "node_selection", kinds: ["selection-added", "selection-removed"] },
  {
    id: "task",
    label: "Task requirements",
    kinds: ["task-input-added", "task-input-removed", "task-output-added", "task-output-removed", "task-key-node-added", "task-key-node-removed"],
  },
];

export interface ChangeGroupCount {
  id: string;
  label: string;
  total: number;
  kinds: { kind: ChangeKind; label: string; count: number; tone: MarkTone }[];
}

export function kindTone(kind: ChangeKind): MarkTone {
  if (kind.endsWith("-added")) return "good";
  if (kind.endsWith("-removed")) return "bad";
  if (kind === "node-modified" || kind === "input-retyped" || kind === "reference-retargeted") return "warn";
  return "info";
}

export function changeCounts(summary: Pick<DiffSummary, "byKind">): ChangeGroupCount[] {
  const groups: ChangeGroupCount[] = [];
  for (const group of CHANGE_GROUPS) {
    const kinds = group.kinds
      .map((kind) => ({ kind, label: kindLabel(kind, summary.byKind[kind] ?? 0), count: summary.byKind[kind] ?? 0, tone: kindTone(kind) }))
      .filter((entry) => entry.count > 0);
    if (kinds.length > 0) groups.push({ id: group.id, label: group.label, total: kinds.reduce((sum, entry) => sum + entry.count, 0), kinds });
  }
  return groups;
}

/** Every change kind belongs to exactly one group (checked by the tests against CHANGE_KINDS). */
export function groupOf(kind: ChangeKind): string {
  return CHANGE_GROUPS.find((group) => group.kinds.includes(kind))?.id ?? "other";
}

const GROUP_RANK = new Map(CHANGE_GROUPS.map((group, rank) => [group.id, rank]));

/**
 * The change list's order: changes of the workflow (nodes, edges, references, inputs and outputs) before
 * node_selection text and the task's own requirements, keeping the diff's order within a group.
 */
export function workflowChangesFirst<T extends { kind: ChangeKind }>(changes: readonly T[]): T[] {
  const rank = (change: T) => GROUP_RANK.get(groupOf(change.kind)) ?? CHANGE_GROUPS.length;
  return changes
    .map((change, index) => ({ change, index }))
    .sort((a, b) => rank(a.change) - rank(b.change) || a.index - b.index)
    .map((entry) => entry.change);
}
