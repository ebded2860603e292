// Reference changes of a matched node pair: selectors and inline {{#id.var#}} references added, removed or
// retargeted, targets compared through the node matching (a renumbered target is the same target). Total, pure.

import type { KeySpace } from "./keys";
import type { SideNode, SideReference } from "./side";
import type { ReferenceChange, ReferenceInfo } from "./types";

export function referenceInfo(ref: SideReference): ReferenceInfo {
  return { via: ref.via, path: ref.path, variable: ref.variable, nodeId: ref.nodeId, nodeLabel: ref.target?.ref.label ?? null };
}

/**
 * Pairs references in passes: same slot and same target; same target anywhere in the node (moved, not changed);
 * then what is left in the same slot (`outputs/answer`), then in the same top-level key, counts as retargeted.
 */
export function diffReferences(before: SideNode, after: SideNode, keys: KeySpace): ReferenceChange[] {
  const keyB = before.refs.map((ref) => `${ref.variable}@${keys.before(ref.target, ref.nodeId)}`);
  const keyA = after.refs.map((ref) => `${ref.variable}@${keys.after(ref.target, ref.nodeId)}`);
  const usedB = new Set<number>();
  const usedA = new Set<number>();
  const retargeted: [number, number][] = [];
  const pass = (same: (i: number, j: number) => boolean, record: boolean): void => {
    before.refs.forEach((_, i) => {
      if (usedB.has(i)) return;
      const j = after.refs.findIndex((__, k) => !usedA.has(k) && same(i, k));
      if (j < 0) return;
      usedB.add(i);
      usedA.add(j);
      if (record) retargeted.push([i, j]);
    });
  };
  const b = before.refs;
  const a = after.refs;
  pass((i, j) => keyB[i] === keyA[j] && b[i]?.slot === a[j]?.slot, false);
  pass((i, j) => keyB[i] === keyA[j], false);
  pass((i, j) => b[i]?.slot === a[j]?.slot, true);
  pass((i, j) => b[i]?.coarseSlot === a[j]?.coarseSlot, true);

  const out: ReferenceChange[] = [];
  const retargetByAfter = new Map(retargeted.map(([i, j]) => [j, i]));
  a.forEach((ref, j) => {
    const i = retargetByAfter.get(j);
    if (i !== undefined) out.push({ op: "retargeted", slot: ref.slot, before: referenceInfo(b[i] as SideReference), after: referenceInfo(ref) });
    else if (!usedA.has(j)) out.push({ op: "added", slot: ref.slot, after: referenceInfo(ref) });
  });
  b.forEach((ref, i) => {
    if (!usedB.has(i)) out.push({ op: "removed", slot: ref.slot, before: referenceInfo(ref) });
  });
  return out;
}
