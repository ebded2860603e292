// Shared vocabulary of the diff: node keys in the later workflow's terms, canonical JSON and multiset similarity.
// Pure helpers; equal keys mean "the same node / the same value" once the node matching is applied.

import type { SideNode } from "./side";

/** Multiset Jaccard (Σmin / Σmax); null when both bags are empty (nothing to compare). */
export function bagSimilarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number | null {
  if (a.size === 0 && b.size === 0) return null;
  let shared = 0;
  let total = 0;
  for (const [key, count] of a) {
    const other = b.get(key) ?? 0;
    shared += Math.min(count, other);
    total += Math.max(count, other);
  }
  for (const [key, count] of b) if (!a.has(key)) total += count;
  return total === 0 ? 1 : shared / total;
}

/** How a node or an id is named in the later workflow's terms, given a before -> after mapping. */
export interface KeySpace {
  before(node: SideNode | null, id: string | null): string;
  after(node: SideNode | null, id: string | null): string;
}

export function keySpace(toAfter: ReadonlyMap<SideNode, SideNode>): KeySpace {
  return {
    before: (node, id) => {
      if (!node) return `?${id ?? ""}`;
      const partner = toAfter.get(node);
      return partner ? `#${partner.entry.index}` : `b${node.entry.index}`;
    },
    after: (node, id) => (node ? `#${node.entry.index}` : `?${id ?? ""}`),
  };
}

/** JSON with sorted object keys: equal values (up to key order) give equal strings. Total over non-JSON values. */
export function canonicalJson(value: unknown, cache?: WeakMap<object, string>): string {
  if (value === undefined) return "~";
  if (value === null || typeof value !== "object") {
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? JSON.stringify(value) : `!${String(value)}`;
  }
  const cached = cache?.get(value);
  if (cached !== undefined) return cached;
  let out: string;
  if (Array.isArray(value)) out = `[${value.map((item) => canonicalJson(item, cache)).join(",")}]`;
  else {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object).sort();
    out = `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined, cache)}`).join(",")}}`;
  }
  cache?.set(value, out);
  return out;
}
