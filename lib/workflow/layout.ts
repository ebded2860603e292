// The official top-level layout (§8): layers by longest path, rows by the mean row of placed parents.
// Deterministic (first appearance where the official code uses set order); the cell size is the platform's.
// Reading the edges fails like the official converters do (both read them the same way, before any node).

import type { Position } from "./dify-graph";
import { fail, idLabel } from "./nodes/failure";
import { describeKind, ownValue, preview, pyContains, pyHashKey, pyItem, pyIter, pySortBy, type JsonObject, type JsonValue } from "./python-values";

/** An edge of the workflow with its index; top-level when its source id has no `-`. */
export interface TopLevelEdge {
  edge: JsonValue;
  index: number;
  topLevel: boolean;
}

/** An endpoint value the layout can hash (Python: a str, int, float, bool or None). */
export type EndpointValue = string | number | boolean | null;

export interface TopEdge {
  source: EndpointValue;
  port: JsonValue;
  /** The target's key number (see TopLevelGraph). */
  target: number;
  /** Position of the edge in `edges`. */
  index: number;
}

/**
 * The top-level edges by endpoint key (pyHashKey, so 1, 1.0 and True are one key), each key numbered in order of
 * first appearance: the official layout's dict iteration order, kept in arrays instead of string-keyed maps.
 */
export interface TopLevelGraph {
  /** The endpoint value each key number stands for. */
  originals: EndpointValue[];
  /** Key numbers that start an edge, in order of first appearance as a source. */
  sources: number[];
  /** Outgoing edges by source key number (sorted by port once all are read). */
  outgoing: (TopEdge[] | undefined)[];
}

/** The grid a layout places nodes on: x = layer × width, y = row × height. */
export interface LayoutCell {
  width: number;
  height: number;
}

export const DIFY_CELL: Readonly<LayoutCell> = { width: 300, height: 200 };

/**
 * Layered grid: layer = longest path from a source (bounded on cycles), row order by the mean row of the
 * already placed parents. Layer-0 order is first appearance (the official code uses set order, which varies).
 */
export function layoutTopLevel({ originals, sources, outgoing }: TopLevelGraph, cell: LayoutCell = DIFY_CELL): Map<string, Position> {
  const n = originals.length;
  const layer = new Array<number>(n).fill(0);
  for (let round = 0; round < n; round++) {
    let changed = false;
    for (const source of sources) {
      const next = (layer[source] as number) + 1;
      for (const edge of outgoing[source] as TopEdge[]) {
        if ((layer[edge.target] as number) < next) {
          layer[edge.target] = next;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  const parents: number[][] = Array.from({ length: n }, () => []);
  for (const source of sources) for (const edge of outgoing[source] as TopEdge[]) (parents[edge.target] as number[]).push(source);
  // Keys by layer, each layer in order of first appearance.
  const byLayer = Array.from({ length: n }, (_, key) => key).sort((a, b) => (layer[a] as number) - (layer[b] as number) || a - b);
  const rows = new Array<number>(n).fill(-1);
  const positions = new Map<string, Position>();
  for (let start = 0; start < n; ) {
    const l = layer[byLayer[start] as number] as number;
    let end = start;
    while (end < n && layer[byLayer[end] as number] === l) end++;
    let group = byLayer.slice(start, end);
    if (l > 0 && group.length > 1) {
      const means = group.map((key) => meanParentRow(parents[key] as number[], rows));
      group = group
        .map((_, i) => i)
        .sort((a, b) => (means[a] as number) - (means[b] as number) || a - b)
        .map((i) => group[i] as number);
    }
    group.forEach((key, row) => {
      rows[key] = row;
      const original = originals[key];
      if (typeof original === "string") positions.set(original, { x: l * cell.width, y: row * cell.height });
    });
    start = end;
  }
  return positions;
}

export const UNPLACED: Readonly<Position> = { x: 0, y: 0 };

/**
 * What buildNodes needs of the layout when no graph is emitted: which ids are placed (all at the origin), after the
 * checks of readTopLevelGraph. Edges of the usual shape (string ends, number ports) cannot fail them, so only other
 * shapes go through the full reader.
 */
export function unplacedTopLevel(edges: readonly TopLevelEdge[]): Map<string, Readonly<Position>> {
  const positions = new Map<string, Readonly<Position>>();
  for (let i = 0; i < edges.length; i++) {
    const { edge, topLevel } = edges[i] as TopLevelEdge;
    if (!topLevel) continue;
    if (!Array.isArray(edge) || edge.length !== 3) return unplaced(readTopLevelGraph(edges).originals);
    const source = edge[0];
    const target = edge[2];
    const port = edge[1];
    if (typeof source !== "string" || typeof target !== "string" || (typeof port !== "number" && typeof port !== "boolean")) {
      return unplaced(readTopLevelGraph(edges).originals);
    }
    positions.set(source, UNPLACED);
    positions.set(target, UNPLACED);
  }
  return positions;
}

function unplaced(originals: readonly EndpointValue[]): Map<string, Readonly<Position>> {
  const positions = new Map<string, Readonly<Position>>();
  for (const original of originals) if (typeof original === "string") positions.set(original, UNPLACED);
  return positions;
}

/** The number of an endpoint key, numbering it when it is new. */
export function keyNumber(graph: TopLevelGraph, numbers: Map<string, number>, key: string, value: EndpointValue): number {
  let number = numbers.get(key);
  if (number === undefined) {
    number = graph.originals.length;
    numbers.set(key, number);
    graph.originals.push(value);
    graph.outgoing.push(undefined);
  }
  return number;
}

/** Mean row of the parents already placed (0 when none is); `rows` holds -1 for keys not placed yet. */
function meanParentRow(parents: readonly number[], rows: readonly number[]): number {
  let sum = 0;
  let count = 0;
  for (const parent of parents) {
    const row = rows[parent] as number;
    if (row >= 0) {
      sum += row;
      count++;
    }
  }
  return count ? sum / count : 0;
}

/** The official first pass over `edges` (both converters): every edge indexable, every source id a string. */
export function readEdges(root: JsonObject): TopLevelEdge[] {
  const edges = ownValue(root, "edges");
  if (edges === undefined) {
    fail({ code: "workflow-missing-edges", message: 'The workflow has no "edges" key; both "nodes_info" and "edges" are required.' });
  }
  const items = pyIter(edges);
  if (!items) {
    fail({ code: "workflow-missing-edges", message: `"edges" is ${describeKind(edges)}; expected an array of [source, port, target].` });
  }
  const edgesRead: TopLevelEdge[] = [];
  for (let index = 0; index < items.length; index++) {
    const edge = items[index] as JsonValue;
    const source = pyItem(edge, 0);
    if (source === undefined) {
      fail({
        code: "malformed-edge",
        message: `Edge ${index} is ${preview(edge)}; expected an array [source, port, target].`,
        location: { edgeIndex: index },
      });
    }
    const child = pyContains(source, "-");
    if (child === undefined) {
      fail({
        code: "malformed-edge",
        message: `Edge ${index} starts at ${preview(source)}, ${describeKind(source)}; node ids must be strings such as "2".`,
        location: { edgeIndex: index },
        hint: "Quote the ids in edges.",
      });
    }
    edgesRead.push({ edge, index, topLevel: !child });
  }
  return edgesRead;
}

/** The top-level edges as a graph: exactly three elements, hashable endpoints, ports sortable per source. */
export function readTopLevelGraph(edges: readonly TopLevelEdge[]): TopLevelGraph {
  const graph: TopLevelGraph = { originals: [], sources: [], outgoing: [] };
  const numbers = new Map<string, number>();
  for (const { edge, index, topLevel } of edges) {
    if (!topLevel) continue;
    const parts = pyIter(edge) ?? [];
    if (parts.length !== 3) {
      fail({
        code: "malformed-edge",
        message: `Top-level edge ${index} has ${parts.length} elements (${preview(edge)}); top-level edges must be exactly [source, port, target].`,
        location: { edgeIndex: index },
        hint: parts.length > 3 ? "Drop the extra element; the target port is not part of the format." : undefined,
      });
    }
    // Indexed, not destructured: destructuring walks an iterator, a cost per edge before the code is optimised.
    const source = parts[0] as JsonValue;
    const port = parts[1] as JsonValue;
    const target = parts[2] as JsonValue;
    const sourceKey = pyHashKey(source);
    const targetKey = pyHashKey(target);
    if (sourceKey === undefined || targetKey === undefined) {
      const bad = sourceKey === undefined ? source : target;
      fail({
        code: "malformed-edge",
        message: `Edge ${index} has ${describeKind(bad)} ${preview(bad)} as an endpoint; endpoints must be node id strings.`,
        location: { edgeIndex: index },
      });
    }
    const from = keyNumber(graph, numbers, sourceKey, source as EndpointValue);
    const to = keyNumber(graph, numbers, targetKey, target as EndpointValue);
    let list = graph.outgoing[from];
    if (!list) {
      list = [];
      graph.outgoing[from] = list;
      graph.sources.push(from);
    }
    list.push({ source: source as EndpointValue, port, target: to, index });
  }
  for (const from of graph.sources) {
    const list = graph.outgoing[from] as TopEdge[];
    if (list.length < 2) continue;
    const { sorted, raises } = pySortBy(list, (edge) => edge.port);
    if (raises) {
      const ports = list.map((edge) => preview(edge.port)).join(", ");
      fail({
        code: "edge-ports-incomparable",
        message: `The edges leaving ${idLabel(list[0]?.source ?? null)} have ports that cannot be ordered (${ports}); ports must all be integers.`,
        location: { edgeIndex: list[0]?.index ?? 0 },
        hint: "Use integer ports such as 0, not strings or null.",
      });
    }
    graph.outgoing[from] = sorted;
  }
  return graph;
}
