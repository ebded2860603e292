// Test helpers for the workflow diff: whether diff(b, a) is the mirror image of diff(a, b), described as the list of
// differences found (empty when it is), so a failing property names what broke.
import type { ChangeKind, WorkflowDiff } from "../../lib/diff/types";

const MIRROR_KIND: Partial<Record<ChangeKind, ChangeKind>> = {
  "task-input-added": "task-input-removed",
  "task-output-added": "task-output-removed",
  "task-key-node-added": "task-key-node-removed",
  "selection-added": "selection-removed",
  "input-added": "input-removed",
  "output-added": "output-removed",
  "node-added": "node-removed",
  "reference-added": "reference-removed",
  "edge-added": "edge-removed",
};

function mirrorKind(kind: ChangeKind): ChangeKind {
  for (const [a, b] of Object.entries(MIRROR_KIND) as [ChangeKind, ChangeKind][]) {
    if (kind === a) return b;
    if (kind === b) return a;
  }
  return kind;
}

const sorted = (items: string[]): string[] => [...items].sort();

function same(label: string, x: string[], y: string[], out: string[]): void {
  const a = sorted(x);
  const b = sorted(y);
  if (a.length !== b.length || a.some((item, i) => item !== b[i])) out.push(`${label}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
}

/** The ways `backward` (= diff(b, a)) fails to mirror `forward` (= diff(a, b)); [] when it mirrors it. */
export function mirrorProblems(forward: WorkflowDiff, backward: WorkflowDiff): string[] {
  const out: string[] = [];
  const nodePairs = (d: WorkflowDiff, flip: boolean): string[] =>
    d.nodes.map((n) => {
      const b = n.before ? `b${n.before.index}` : "-";
      const a = n.after ? `a${n.after.index}` : "-";
      const status = flip ? ({ added: "removed", removed: "added" } as Record<string, string>)[n.status] ?? n.status : n.status;
      const move = n.move ? (flip ? `${n.move.toParent}>${n.move.fromParent}` : `${n.move.fromParent}>${n.move.toParent}`) : "";
      return `${flip ? `${a.replace("a", "b")}~${b.replace("b", "a")}` : `${b}~${a}`} ${status} ${n.renamed} ${move} refs:${n.references.length}`;
    });
  same("nodes", nodePairs(forward, false), nodePairs(backward, true), out);
  const edgePairs = (d: WorkflowDiff, flip: boolean): string[] =>
    d.edges.map((e) => {
      const b = e.before ? `${e.before.index}` : "-";
      const a = e.after ? `${e.after.index}` : "-";
      const status = flip ? ({ added: "removed", removed: "added" } as Record<string, string>)[e.status] ?? e.status : e.status;
      return flip ? `${a}~${b} ${status}` : `${b}~${a} ${status}`;
    });
  same("edges", edgePairs(forward, false), edgePairs(backward, true), out);
  for (const [kind, count] of Object.entries(forward.summary.byKind) as [ChangeKind, number][]) {
    const other = backward.summary.byKind[mirrorKind(kind)];
    if (other !== count) out.push(`${kind}: ${count} vs ${mirrorKind(kind)}: ${other}`);
  }
  return out;
}
