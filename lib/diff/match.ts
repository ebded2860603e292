// Matches the nodes of two workflows: same canonical type only, scored by content (words of texts and names),
// references and neighbours mapped through the current matching, canvas parent, with a bonus for an equal id.
// Guarantees: deterministic; each node is in at most one pair; a maximum-total-score assignment per type (Hungarian).
//
// Why iterate: references and neighbours can only be compared once we know which nodes correspond, so each round
// rescores with the previous round's matching until it is stable (≤ 4 rounds). Two starting points (see matchNodes):
// "same id, same type", and a content-only guess that ignores ids; the better-explaining result wins.
// A pair needs a score of MATCH_THRESHOLD unless both nodes have the same id (or the same child slot "-k" on the
// canvases of two matched iterations), they are start / end nodes (a workflow's start and end stay "the same node"
// whatever changed in them), or they are the iteration-starts of two matched iterations.

import { isJsonObject, ownValue, preview, type JsonValue } from "../workflow/python-values";
import { maxWeightAssignment } from "./assignment";
import { bagSimilarity, keySpace, type KeySpace } from "./keys";
import { isBranching, portIndex, portLabels } from "./branches";
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
/**
 * What an agreeing id is worth when the two pipelines' results are compared: a tie-breaker, so that a matching that
 * explains both workflows better by content and structure beats coincidental id agreement after a renumbering.
 */
const OBJECTIVE_ID_BONUS = 0.05;
const POSITION_WEIGHT = 0.02;
const WEIGHTS = { text: 0.5, refs: 0.25, neighbours: 0.2, parent: 0.1 } as const;
const ALWAYS_MATCHED_TYPES: ReadonlySet<string> = new Set(["start", "end"]);
const MAX_ROUNDS = 4;
/** The key every node gets in the content-only first guess (references and neighbours compared blind). */
const BLIND = "*";

function bag(items: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
}

type Link = { node: SideNode | null; id: string | null; tag: string };

interface Adjacency {
  incoming: Map<SideNode, Link[]>;
  outgoing: Map<SideNode, Link[]>;
  /** Canvas children of an iteration: part of its neighbourhood (the children identify the loop). */
  children: Map<SideNode, SideNode[]>;
  /** Who reads this node, and in which slot: tells apart identical nodes (four equal list filters feeding four outputs). */
  readers: Map<SideNode, { node: SideNode; slot: string }[]>;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * What an edge's port says without ids: the branch's content (an if-else case's conditions without node ids, ELSE,
 * a class name), so that identical nodes on different branches differ and inserting a case changes nothing.
 */
function portTag(source: SideNode | null, port: JsonValue | undefined): string {
  if (!source || !isBranching(source)) return "";
  const labels = portLabels(source);
  const index = portIndex(port, labels.length);
  if (index === null) return `raw:${preview(port ?? null, 20)}`;
  if (source.canonicalType !== "if-else") return `class:${labels[index] ?? ""}`;
  if (index === labels.length - 1) return "else";
  const cases = isJsonObject(source.entry.rawParam) ? ownValue(source.entry.rawParam, "cases") : undefined;
  const conditions = Array.isArray(cases) && Array.isArray(cases[index]) ? (cases[index] as JsonValue[])[1] : undefined;
  if (!Array.isArray(conditions)) return "case";
  // Each condition without the node id of its selector: [variable, operator, value].
  const withoutIds = conditions.map((condition): JsonValue => {
    if (!Array.isArray(condition)) return condition;
    const selector = condition[0];
    return [Array.isArray(selector) ? (selector[0] ?? null) : (selector ?? null), ...condition.slice(1)];
  });
  return `case:${withoutIds.map((condition) => preview(condition, 80)).join("&")}`;
}

function adjacency(side: SideModel): Adjacency {
  const incoming = new Map<SideNode, Link[]>();
  const outgoing = new Map<SideNode, Link[]>();
  for (const edge of side.edges) {
    const tag = portTag(edge.source, edge.port);
    if (edge.source) pushTo(outgoing, edge.source, { node: edge.target, id: edge.targetId, tag });
    if (edge.target) pushTo(incoming, edge.target, { node: edge.source, id: edge.sourceId, tag });
  }
  const children = new Map<SideNode, SideNode[]>();
  const readers = new Map<SideNode, { node: SideNode; slot: string }[]>();
  for (const node of side.nodes) {
    if (node.parent) pushTo(children, node.parent, node);
    for (const ref of node.refs) if (ref.target) pushTo(readers, ref.target, { node, slot: ref.slot });
  }
  return { incoming, outgoing, children, readers };
}

interface Features {
  refs: Map<string, number>;
  neighbours: Map<string, number>;
  parent: string;
}

function features(node: SideNode, adj: Adjacency, key: (node: SideNode | null, id: string | null) => string): Features {
  const neighbours: string[] = [];
  for (const n of adj.incoming.get(node) ?? []) neighbours.push(`i${key(n.node, n.id)}${n.tag}`);
  for (const n of adj.outgoing.get(node) ?? []) neighbours.push(`o${key(n.node, n.id)}${n.tag}`);
  for (const child of adj.children.get(node) ?? []) neighbours.push(`c${key(child, child.id)}`);
  for (const reader of adj.readers.get(node) ?? []) neighbours.push(`r${key(reader.node, reader.node.id)}:${reader.slot}`);
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

/** "2" of a child id "5-2" (null for top-level ids). */
function childSuffix(id: string | null): string | null {
  const dash = id === null ? -1 : id.indexOf("-");
  return dash < 0 ? null : (id as string).slice(dash + 1);
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

interface Round {
  mapping: Map<SideNode, SideNode>;
  pairs: NodePair[];
  /** Σ (similarity + OBJECTIVE_ID_BONUS where ids agree) over the pairs: how well the matching explains both sides. */
  objective: number;
}

interface Context {
  typeGroups: Group[];
  beforeAdj: Adjacency;
  positions: Map<SideNode, number>;
}

/** One assignment per type with features read through `key`; `useIds` false ignores ids altogether. */
function assignRound(ctx: Context, key: KeySpace["before"], afterFeatures: ReadonlyMap<SideNode, Features>, useIds: boolean): Round {
  const mapping = new Map<SideNode, SideNode>();
  const pairs: NodePair[] = [];
  let objective = 0;
  for (const g of ctx.typeGroups) {
    const similarity: number[][] = [];
    const bonus: number[][] = [];
    const scores = g.before.map((b, i) => {
      const fb = features(b, ctx.beforeAdj, key);
      similarity[i] = [];
      bonus[i] = [];
      return g.after.map((a, j) => {
        const fa = afterFeatures.get(a) as Features;
        const sim = combine(g.text[i]?.[j] ?? null, fb, fa);
        (similarity[i] as number[])[j] = sim;
        // Children of matched iterations: "5-2" under a renumbered "4" is the same slot as "4-2".
        const sameCanvas = b.ref.parentId !== null && fb.parent === fa.parent && fb.parent !== BLIND;
        const sameId = (b.id !== null && b.id === a.id) || (sameCanvas && childSuffix(b.id) === childSuffix(a.id));
        // The objective always credits agreeing ids; only the id-led pipeline lets them steer the assignment.
        (bonus[i] as number[])[j] = sameId ? ID_BONUS : 0;
        const idLed = useIds && sameId;
        const eligible = idLed || sim >= MATCH_THRESHOLD || ALWAYS_MATCHED_TYPES.has(g.type) || (useIds && sameCanvas && g.type === "iteration-start");
        if (!eligible) return null;
        const closeness = 1 - Math.abs((ctx.positions.get(b) ?? 0) - (ctx.positions.get(a) ?? 0));
        return sim + (idLed ? ID_BONUS : 0) + POSITION_WEIGHT * closeness + 1e-6;
      });
    });
    for (const { row, column } of maxWeightAssignment(scores)) {
      const b = g.before[row] as SideNode;
      const a = g.after[column] as SideNode;
      const sim = similarity[row]?.[column] ?? 0;
      mapping.set(b, a);
      pairs.push({ before: b, after: a, similarity: sim, byId: b.id !== null && b.id === a.id });
      objective += sim + ((bonus[row]?.[column] ?? 0) > 0 ? OBJECTIVE_ID_BONUS : 0);
    }
  }
  return { mapping, pairs, objective };
}

/** Rescores with the previous round's matching until the matching is stable (or MAX_ROUNDS). */
function iterate(ctx: Context, start: Map<SideNode, SideNode>, afterFeatures: ReadonlyMap<SideNode, Features>, useIds: boolean): Round {
  let mapping = start;
  let round: Round = { mapping, pairs: [], objective: 0 };
  for (let i = 0; i < MAX_ROUNDS; i += 1) {
    round = assignRound(ctx, keySpace(mapping).before, afterFeatures, useIds);
    const stable = sameMapping(mapping, round.mapping);
    mapping = round.mapping;
    if (stable) break;
  }
  return round;
}

/**
 * Two starting points, because iterating from a wrong guess can settle on a wrong but self-consistent matching:
 * "same id, same type" (right unless ids were renumbered), refined with ids steering the assignment; and a
 * content-only guess (ids ignored, references and neighbours read blind), refined with content and structure alone.
 * The matching with the larger objective (similarity, plus a small credit wherever ids agree) wins; ids on ties.
 */
export function matchNodes(before: SideModel, after: SideModel): NodeMatching {
  const beforeAdj = adjacency(before);
  const afterAdj = adjacency(after);
  const positions = new Map<SideNode, number>();
  for (const node of before.nodes) positions.set(node, relativePosition(node, before));
  for (const node of after.nodes) positions.set(node, relativePosition(node, after));
  const ctx: Context = { typeGroups: groups(before, after), beforeAdj, positions };
  const afterFeatures = new Map<SideNode, Features>();
  const afterKey = keySpace(new Map()).after;
  for (const node of after.nodes) afterFeatures.set(node, features(node, afterAdj, afterKey));

  const byIds = iterate(ctx, initialGuess(before, after), afterFeatures, true);
  let best = byIds;
  // Renumbering is only a question when some same-type pair disagrees with the id guess.
  if (byIds.pairs.some((pair) => !pair.byId) || byIds.pairs.length < Math.min(before.nodes.length, after.nodes.length)) {
    const blind = (): string => BLIND;
    const blindAfter = new Map<SideNode, Features>();
    for (const node of after.nodes) blindAfter.set(node, features(node, afterAdj, blind));
    const byContent = iterate(ctx, assignRound(ctx, blind, blindAfter, false).mapping, afterFeatures, false);
    if (byContent.objective > byIds.objective + 1e-9) best = byContent;
  }
  const pairs = best.pairs.sort((x, y) => x.after.entry.index - y.after.entry.index);
  const toBefore = new Map<SideNode, SideNode>();
  for (const pair of pairs) toBefore.set(pair.after, pair.before);
  return { pairs, toAfter: best.mapping, toBefore };
}
