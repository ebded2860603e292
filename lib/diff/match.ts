// Matches the nodes of two workflows: same canonical type only, scored by content (words of texts and names),
// references and neighbours mapped through the current matching, canvas parent, with a bonus for an equal id.
// Guarantees: deterministic; each node is in at most one pair; a maximum-total-score assignment per type (Hungarian).
//
// Why iterate: references and neighbours can only be compared once we know which nodes correspond. Round 0 guesses
// "same id and same type"; each round rescores with the previous round's matching, until it is stable (≤ 4 rounds).
// A pair needs a score of MATCH_THRESHOLD unless both nodes have the same id, or they are start / end nodes (a
// workflow's start and end stay "the same node" whatever changed in them).

import { maxWeightAssignment } from "./assignment";
import type { SideModel, SideNode } from "./side";

export interface NodePair {
  before: SideNode;
  after: SideNode;
  /** Content similarity in [0, 1] (the id bonus excluded). */
  similarity: number;
  /** Same id on both sides. */
  byId: boolean;
}

export interface NodeMatching {
  pairs: NodePair[];
  toAfter: Map<SideNode, SideNode>;
  toBefore: Map<SideNode, SideNode>;
}

export const MATCH_THRESHOLD = 0.35;
const ID_BONUS = 0.2;
const POSITION_WEIGHT = 0.02;
const WEIGHTS = { text: 0.5, refs: 0.25, neighbours: 0.2, parent: 0.1 } as const;
const ALWAYS_MATCHED_TYPES: ReadonlySet<string> = new Set(["start", "end"]);
const MAX_ROUNDS = 4;

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

function bag(items: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
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

interface Adjacency {
  incoming: Map<SideNode, { node: SideNode | null; id: string | null }[]>;
  outgoing: Map<SideNode, { node: SideNode | null; id: string | null }[]>;
  /** Canvas children of an iteration: part of its neighbourhood (the children identify the loop). */
  children: Map<SideNode, SideNode[]>;
}

function adjacency(side: SideModel): Adjacency {
  const incoming = new Map<SideNode, { node: SideNode | null; id: string | null }[]>();
  const outgoing = new Map<SideNode, { node: SideNode | null; id: string | null }[]>();
  const push = (map: typeof incoming, key: SideNode, value: { node: SideNode | null; id: string | null }): void => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  for (const edge of side.edges) {
    if (edge.source) push(outgoing, edge.source, { node: edge.target, id: edge.targetId });
    if (edge.target) push(incoming, edge.target, { node: edge.source, id: edge.sourceId });
  }
  const children = new Map<SideNode, SideNode[]>();
  for (const node of side.nodes) {
    if (!node.parent) continue;
    const list = children.get(node.parent);
    if (list) list.push(node);
    else children.set(node.parent, [node]);
  }
  return { incoming, outgoing, children };
}

interface Features {
  refs: Map<string, number>;
  neighbours: Map<string, number>;
  parent: string;
}

function features(node: SideNode, adj: Adjacency, key: (node: SideNode | null, id: string | null) => string): Features {
  const neighbours: string[] = [];
  for (const n of adj.incoming.get(node) ?? []) neighbours.push(`i${key(n.node, n.id)}`);
  for (const n of adj.outgoing.get(node) ?? []) neighbours.push(`o${key(n.node, n.id)}`);
  for (const child of adj.children.get(node) ?? []) neighbours.push(`c${key(child, child.id)}`);
  return {
    refs: bag(node.refs.map((ref) => `${ref.variable}@${key(ref.target, ref.nodeId)}`)),
    neighbours: bag(neighbours),
    parent: node.ref.parentId === null ? "top" : key(node.parent, node.ref.parentId),
  };
}

function combine(text: number | null, a: Features, b: Features): number {
  let sum = 0;
  let weights = 0;
  const add = (weight: number, value: number | null): void => {
    if (value === null) return;
    sum += weight * value;
    weights += weight;
  };
  add(WEIGHTS.text, text);
  add(WEIGHTS.refs, bagSimilarity(a.refs, b.refs));
  add(WEIGHTS.neighbours, bagSimilarity(a.neighbours, b.neighbours));
  add(WEIGHTS.parent, a.parent === b.parent ? 1 : 0);
  return weights === 0 ? 1 : sum / weights;
}

interface Group {
  type: string;
  before: SideNode[];
  after: SideNode[];
  /** Word similarity, computed once (it does not depend on the matching). */
  text: (number | null)[][];
}

function groups(before: SideModel, after: SideModel): Group[] {
  const byType = new Map<string, Group>();
  const group = (type: string): Group => {
    let found = byType.get(type);
    if (!found) {
      found = { type, before: [], after: [], text: [] };
      byType.set(type, found);
    }
    return found;
  };
  for (const node of before.nodes) group(node.canonicalType).before.push(node);
  for (const node of after.nodes) group(node.canonicalType).after.push(node);
  const out = [...byType.values()].filter((g) => g.before.length > 0 && g.after.length > 0);
  for (const g of out) g.text = g.before.map((b) => g.after.map((a) => bagSimilarity(b.words, a.words)));
  return out;
}

function relativePosition(node: SideNode, side: SideModel): number {
  return side.nodes.length <= 1 ? 0 : side.nodes.indexOf(node) / (side.nodes.length - 1);
}

function initialGuess(before: SideModel, after: SideModel): Map<SideNode, SideNode> {
  const guess = new Map<SideNode, SideNode>();
  for (const node of before.nodes) {
    if (node.id === null || before.byId.get(node.id) !== node) continue;
    const partner = after.byId.get(node.id);
    if (partner && partner.canonicalType === node.canonicalType) guess.set(node, partner);
  }
  return guess;
}

function sameMapping(a: ReadonlyMap<SideNode, SideNode>, b: ReadonlyMap<SideNode, SideNode>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

export function matchNodes(before: SideModel, after: SideModel): NodeMatching {
  const typeGroups = groups(before, after);
  const beforeAdj = adjacency(before);
  const afterAdj = adjacency(after);
  const afterFeatures = new Map<SideNode, Features>();
  const afterKey = keySpace(new Map()).after;
  for (const node of after.nodes) afterFeatures.set(node, features(node, afterAdj, afterKey));
  const positions = new Map<SideNode, number>();
  for (const node of before.nodes) positions.set(node, relativePosition(node, before));
  for (const node of after.nodes) positions.set(node, relativePosition(node, after));

  let mapping = initialGuess(before, after);
  let pairs: NodePair[] = [];
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const key = keySpace(mapping).before;
    const next = new Map<SideNode, SideNode>();
    pairs = [];
    for (const g of typeGroups) {
      const similarity: number[][] = [];
      const scores = g.before.map((b, i) => {
        const fb = features(b, beforeAdj, key);
        similarity[i] = [];
        return g.after.map((a, j) => {
          const sim = combine(g.text[i]?.[j] ?? null, fb, afterFeatures.get(a) as Features);
          (similarity[i] as number[])[j] = sim;
          const sameId = b.id !== null && b.id === a.id;
          if (!sameId && sim < MATCH_THRESHOLD && !ALWAYS_MATCHED_TYPES.has(g.type)) return null;
          const closeness = 1 - Math.abs((positions.get(b) ?? 0) - (positions.get(a) ?? 0));
          return sim + (sameId ? ID_BONUS : 0) + POSITION_WEIGHT * closeness + 1e-6;
        });
      });
      for (const { row, column } of maxWeightAssignment(scores)) {
        const b = g.before[row] as SideNode;
        const a = g.after[column] as SideNode;
        next.set(b, a);
        pairs.push({ before: b, after: a, similarity: similarity[row]?.[column] ?? 0, byId: b.id !== null && b.id === a.id });
      }
    }
    const stable = sameMapping(mapping, next);
    mapping = next;
    if (stable) break;
  }
  pairs.sort((x, y) => x.after.entry.index - y.after.entry.index);
  const toBefore = new Map<SideNode, SideNode>();
  for (const pair of pairs) toBefore.set(pair.after, pair.before);
  return { pairs, toAfter: mapping, toBefore };
}
