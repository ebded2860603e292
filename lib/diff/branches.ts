// Branch identity for matched if-else and question-classifier nodes: which case / class of the later node is which
// of the earlier one, so edges compare by branch rather than by raw port number when cases are inserted or reordered.
// Deterministic; ELSE always corresponds to ELSE; unmatched branches correspond to nothing (added / removed).

import { maxWeightAssignment } from "./assignment";
import { bagSimilarity, type KeySpace } from "./keys";
import type { SideNode } from "./side";
import { CATALOG, outputPorts } from "../workflow/catalog";
import { isNodeTypeId } from "../workflow/node-types";
import { isJsonObject, ownValue, preview, type JsonValue } from "../workflow/python-values";
import type { BranchCorrespondence } from "./types";

export interface BranchMap {
  correspondences: BranchCorrespondence[];
  /** Earlier port index -> later port index (null: the branch is gone). */
  toAfter: Map<number, number | null>;
}

/** Python-style port reading: integers (and booleans) in range, negatives counting from the end. */
export function portIndex(port: JsonValue | undefined, count: number): number | null {
  const value = typeof port === "boolean" ? Number(port) : port;
  if (typeof value !== "number" || !Number.isInteger(value)) return null;
  const index = value < 0 ? value + count : value;
  return index >= 0 && index < count ? index : null;
}

export function isBranching(node: SideNode | null): boolean {
  return node !== null && isNodeTypeId(node.canonicalType) && CATALOG[node.canonicalType].branching;
}

function listParam(node: SideNode, key: string): JsonValue[] {
  const param = node.entry.rawParam;
  const value = isJsonObject(param) ? ownValue(param, key) : undefined;
  return Array.isArray(value) ? value : [];
}

/** Port labels of a branching node, by its type's port rule (if-else IF / ELIF k / ELSE; classifier: the class name). */
export function portLabels(node: SideNode): string[] {
  if (!isBranching(node)) return [];
  return outputPorts({ type: node.canonicalType, param: node.entry.rawParam }).map((port) => port.label);
}

const WORD = /[\p{L}\p{N}_]+/gu;

function wordBag(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const match of text.toLowerCase().matchAll(WORD)) out.set(match[0], (out.get(match[0]) ?? 0) + 1);
  return out;
}

/** Each condition of an if-else case as `selector|operator|value` and `selector` alone, ids in later terms. */
function caseBags(node: SideNode, keyOf: (node: SideNode | null, id: string | null) => string, resolve: (id: string) => SideNode | null): { full: Map<string, number>; selectors: Map<string, number>; exact: string }[] {
  return listParam(node, "cases").map((item) => {
    const conditions = Array.isArray(item) && Array.isArray(item[1]) ? item[1] : [];
    const full = new Map<string, number>();
    const selectors = new Map<string, number>();
    for (const condition of conditions) {
      const parts = Array.isArray(condition) ? condition : [condition];
      const selector = parts[0];
      let selectorKey = preview(selector ?? null, 60);
      if (Array.isArray(selector) && selector.length >= 2) {
        const id = typeof selector[1] === "string" || typeof selector[1] === "number" ? String(selector[1]) : null;
        selectorKey = `${preview(selector[0] ?? null, 40)}@${keyOf(id === null ? null : resolve(id), id)}`;
      }
      const fullKey = `${selectorKey}|${preview(parts[1] ?? null, 40)}|${preview(parts[2] ?? null, 80)}`;
      full.set(fullKey, (full.get(fullKey) ?? 0) + 1);
      selectors.set(selectorKey, (selectors.get(selectorKey) ?? 0) + 1);
    }
    const logic = Array.isArray(item) ? preview(item[0] ?? null, 10) : "";
    return { full, selectors, exact: `${logic}#${[...full.entries()].map(([k, n]) => `${k}*${n}`).sort().join("&")}` };
  });
}

/** Exact keys first (in order), then a best-score assignment of the rest (score > minScore). */
function matchItems(beforeKeys: readonly string[], afterKeys: readonly string[], similarity: (i: number, j: number) => number, minScore: number): Map<number, number> {
  const out = new Map<number, number>();
  const usedAfter = new Set<number>();
  beforeKeys.forEach((key, i) => {
    const j = afterKeys.findIndex((other, k) => !usedAfter.has(k) && other === key);
    if (j >= 0) {
      out.set(i, j);
      usedAfter.add(j);
    }
  });
  const restBefore = beforeKeys.map((_, i) => i).filter((i) => !out.has(i));
  const restAfter = afterKeys.map((_, j) => j).filter((j) => !usedAfter.has(j));
  const longest = Math.max(beforeKeys.length, afterKeys.length, 1);
  const scores = restBefore.map((i) =>
    restAfter.map((j) => {
      const score = similarity(i, j);
      // Ties go to the closer position.
      return score <= minScore ? null : score + 0.001 * (1 - Math.abs(i - j) / longest);
    }),
  );
  for (const { row, column } of maxWeightAssignment(scores)) out.set(restBefore[row] as number, restAfter[column] as number);
  return out;
}

export function matchBranches(before: SideNode, after: SideNode, keys: KeySpace, resolveBefore: (id: string) => SideNode | null, resolveAfter: (id: string) => SideNode | null): BranchMap {
  const beforeLabels = portLabels(before);
  const afterLabels = portLabels(after);
  let pairs: Map<number, number>;
  if (before.canonicalType === "if-else") {
    const b = caseBags(before, keys.before, resolveBefore);
    const a = caseBags(after, keys.after, resolveAfter);
    pairs = matchItems(
      b.map((c) => c.exact),
      a.map((c) => c.exact),
      (i, j) => {
        const x = b[i] as (typeof b)[number];
        const y = a[j] as (typeof a)[number];
        return 0.5 * (bagSimilarity(x.full, y.full) ?? 1) + 0.5 * (bagSimilarity(x.selectors, y.selectors) ?? 1);
      },
      0.2,
    );
    // ELSE is the port after the last case on both sides.
    pairs.set(beforeLabels.length - 1, afterLabels.length - 1);
  } else {
    const b = beforeLabels.map(wordBag);
    const a = afterLabels.map(wordBag);
    pairs = matchItems(
      beforeLabels.map((label) => label.trim().toLowerCase()),
      afterLabels.map((label) => label.trim().toLowerCase()),
      (i, j) => bagSimilarity(b[i] as Map<string, number>, a[j] as Map<string, number>) ?? 0,
      0.3,
    );
  }
  const correspondences: BranchCorrespondence[] = [];
  const toAfter = new Map<number, number | null>();
  const matchedAfter = new Set(pairs.values());
  beforeLabels.forEach((label, i) => {
    const j = pairs.get(i);
    toAfter.set(i, j ?? null);
    correspondences.push({ beforePort: i, afterPort: j ?? null, beforeLabel: label, afterLabel: j === undefined ? null : (afterLabels[j] ?? null) });
  });
  afterLabels.forEach((label, j) => {
    if (!matchedAfter.has(j)) correspondences.push({ beforePort: null, afterPort: j, beforeLabel: null, afterLabel: label });
  });
  correspondences.sort(compareCorrespondences);
  return { correspondences, toAfter };
}

/** The same correspondence seen from the other side (used when the matching was computed the other way round). */
export function invertBranchMap(map: BranchMap): BranchMap {
  const correspondences = map.correspondences
    .map((c) => ({ beforePort: c.afterPort, afterPort: c.beforePort, beforeLabel: c.afterLabel, afterLabel: c.beforeLabel }))
    .sort(compareCorrespondences);
  const toAfter = new Map<number, number | null>();
  for (const c of correspondences) if (c.beforePort !== null) toAfter.set(c.beforePort, c.afterPort);
  return { correspondences, toAfter };
}

/** Later-side port order; branches that exist only on the earlier side go after the later port they followed. */
function compareCorrespondences(x: BranchCorrespondence, y: BranchCorrespondence): number {
  const px = x.afterPort ?? (x.beforePort ?? 0) - 0.5;
  const py = y.afterPort ?? (y.beforePort ?? 0) - 0.5;
  return px - py || (x.beforePort ?? -1) - (y.beforePort ?? -1);
}
