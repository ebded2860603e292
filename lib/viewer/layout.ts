// Nested left-to-right dagre layout of a workflow view, wrapping wide levels into rows of whole ranks so long chains
// stay readable at a normal zoom; deterministic, child positions relative to their container.

import dagre from "@dagrejs/dagre";
import { CONTAINER_PADDING, NODE_WIDTH, containerHeaderHeight, nodeBoxSize, type BoxContent, type Size } from "./geometry";
import { portRows, type ViewNode, type WorkflowView } from "./model";

export interface Point {
  x: number;
  y: number;
}

export interface LaidOutNode extends ViewNode {
  /** Top-left corner, relative to the container when `parentKey` is set (React Flow's convention). */
  position: Point;
  /** Top-left corner on the canvas. */
  absolute: Point;
  width: number;
  height: number;
  /** For containers: the height of the header band above the children. */
  headerHeight?: number;
}

export interface LaidOutView extends Omit<WorkflowView, "nodes"> {
  nodes: LaidOutNode[];
  /** Extent of the whole drawing. */
  bounds: { width: number; height: number };
}

export interface LayoutOptions {
  /** Gap between nodes of one rank (vertical, left to right layout). */
  nodeSeparation?: number;
  /** Gap between ranks (horizontal). */
  rankSeparation?: number;
  /** A level wider than this is wrapped into rows of whole ranks (Infinity: never wrap). */
  maxRowWidth?: number;
  /** Vertical gap between wrapped rows (room for the edges that run back to the next row's start). */
  rowGap?: number;
}

/** About three nodes and their gaps: what a laptop-width canvas shows at the readable zoom. */
export const DEFAULT_MAX_ROW_WIDTH = 1100;

interface PlacedBox {
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Splits boxes laid out left to right into rows of whole ranks (boxes sharing a centre x), each row no wider than
 * `maxRowWidth` (a single rank wider than that gets a row of its own), rows stacked top to bottom `rowGap` apart.
 * Returns top-left corners normalised to start at (0, 0); boxes that already fit keep their places.
 */
export function wrapIntoRows(boxes: readonly PlacedBox[], maxRowWidth: number, rowGap: number): Map<string, Point> {
  const result = new Map<string, Point>();
  if (boxes.length === 0) return result;
  const ranks = new Map<number, PlacedBox[]>();
  for (const box of boxes) {
    const centre = Math.round(box.x + box.width / 2);
    const list = ranks.get(centre);
    if (list) list.push(box);
    else ranks.set(centre, [box]);
  }
  const ordered = [...ranks.entries()].sort((a, b) => a[0] - b[0]).map(([, members]) => members);
  const rows: PlacedBox[][] = [];
  let current: PlacedBox[] = [];
  let rowLeft = Infinity;
  for (const rank of ordered) {
    const left = Math.min(...rank.map((box) => box.x));
    const right = Math.max(...rank.map((box) => box.x + box.width));
    if (current.length > 0 && right - Math.min(rowLeft, left) > maxRowWidth) {
      rows.push(current);
      current = [];
      rowLeft = Infinity;
    }
    current.push(...rank);
    rowLeft = Math.min(rowLeft, left);
  }
  if (current.length > 0) rows.push(current);
  let top = 0;
  for (const row of rows) {
    const minX = Math.min(...row.map((box) => box.x));
    const minY = Math.min(...row.map((box) => box.y));
    const maxY = Math.max(...row.map((box) => box.y + box.height));
    for (const box of row) result.set(box.key, { x: Math.round(box.x - minX), y: Math.round(box.y - minY + top) });
    top += maxY - minY + rowGap;
  }
  return result;
}

export function nodeContent(node: Pick<ViewNode, "summary" | "ports" | "branching" | "family">): BoxContent {
  if (node.family === "missing") return { lines: 0, portRows: 0, placeholder: true };
  return { lines: node.summary.length, portRows: portRows(node).length };
}

interface Scope {
  key: string | null;
  members: ViewNode[];
}

export function layoutWorkflowView(view: WorkflowView, options: LayoutOptions = {}): LaidOutView {
  const nodesep = options.nodeSeparation ?? 28;
  const ranksep = options.rankSeparation ?? 64;
  const maxRowWidth = options.maxRowWidth ?? DEFAULT_MAX_ROW_WIDTH;
  const rowGap = options.rowGap ?? 72;
  const byKey = new Map(view.nodes.map((node) => [node.key, node]));
  const membersOf = new Map<string | null, ViewNode[]>();
  for (const node of view.nodes) {
    const scope = node.parentKey !== null && byKey.has(node.parentKey) ? node.parentKey : null;
    const list = membersOf.get(scope);
    if (list) list.push(node);
    else membersOf.set(scope, [node]);
  }
  const sizes = new Map<string, Size & { headerHeight?: number }>();
  const relative = new Map<string, Point>();

  /** The member of `scope` that contains `key` (itself, or its container chain up to the scope). */
  const memberIn = (key: string, scope: string | null): string | null => {
    let current: ViewNode | undefined = byKey.get(key);
    const seen = new Set<string>();
    while (current && !seen.has(current.key)) {
      seen.add(current.key);
      const parent = current.parentKey !== null && byKey.has(current.parentKey) ? current.parentKey : null;
      if (parent === scope) return current.key;
      if (parent === null) return null;
      current = byKey.get(parent);
    }
    return null;
  };

  const layoutScope = (scope: Scope): Size => {
    // Containers inside this scope first: their size depends on their own children.
    for (const member of scope.members) {
      if (member.container) sizes.set(member.key, containerSize(member, layoutScope({ key: member.key, members: membersOf.get(member.key) ?? [] })));
      else sizes.set(member.key, nodeBoxSize(nodeContent(member)));
    }
    if (scope.members.length === 0) return { width: 0, height: 0 };
    const graph = new dagre.graphlib.Graph({ multigraph: false });
    graph.setGraph({ rankdir: "LR", nodesep, ranksep, edgesep: 12, marginx: 0, marginy: 0 });
    graph.setDefaultEdgeLabel(() => ({}));
    for (const member of scope.members) {
      const size = sizes.get(member.key) as Size;
      graph.setNode(member.key, { width: size.width, height: size.height });
    }
    for (const edge of view.edges) {
      // Reference edges only place placeholders; between real nodes they would distort the flow's ranks.
      if (edge.kind === "reference" && !edge.dangling) continue;
      const source = memberIn(edge.source, scope.key);
      const target = memberIn(edge.target, scope.key);
      if (source === null || target === null || source === target) continue;
      const existing = graph.edge(source, target) as { weight?: number } | undefined;
      const weight = edge.kind === "reference" ? 1 : 2;
      graph.setEdge(source, target, { weight: (existing?.weight ?? 0) + weight, minlen: 1 });
    }
    dagre.layout(graph);
    const boxes: PlacedBox[] = scope.members.map((member) => {
      const placed = graph.node(member.key) as { x: number; y: number; width: number; height: number };
      return { key: member.key, x: placed.x - placed.width / 2, y: placed.y - placed.height / 2, width: placed.width, height: placed.height };
    });
    const placed = wrapIntoRows(boxes, maxRowWidth, rowGap);
    let width = 0;
    let height = 0;
    for (const box of boxes) {
      const point = placed.get(box.key) as Point;
      relative.set(box.key, point);
      width = Math.max(width, point.x + box.width);
      height = Math.max(height, point.y + box.height);
    }
    return { width: Math.round(width), height: Math.round(height) };
  };

  const containerSize = (container: ViewNode, inner: Size): Size & { headerHeight: number } => {
    const headerHeight = containerHeaderHeight(container.summary.length);
    // Children sit below the header, inside the padding.
    for (const child of membersOf.get(container.key) ?? []) {
      const point = relative.get(child.key);
      if (point) relative.set(child.key, { x: point.x + CONTAINER_PADDING.left, y: point.y + headerHeight + CONTAINER_PADDING.top });
    }
    const empty = inner.width === 0 && inner.height === 0;
    return {
      width: Math.max(NODE_WIDTH, inner.width + CONTAINER_PADDING.left + CONTAINER_PADDING.right),
      height: headerHeight + (empty ? 48 : inner.height + CONTAINER_PADDING.top + CONTAINER_PADDING.bottom),
      headerHeight,
    };
  };

  const bounds = layoutScope({ key: null, members: membersOf.get(null) ?? [] });

  const absolute = new Map<string, Point>();
  const absoluteOf = (node: ViewNode): Point => {
    const cached = absolute.get(node.key);
    if (cached) return cached;
    const own = relative.get(node.key) ?? { x: 0, y: 0 };
    const parent = node.parentKey !== null ? byKey.get(node.parentKey) : undefined;
    const base = parent ? absoluteOf(parent) : { x: 0, y: 0 };
    const point = { x: base.x + own.x, y: base.y + own.y };
    absolute.set(node.key, point);
    return point;
  };

  const nodes: LaidOutNode[] = view.nodes.map((node) => {
    const size: Size & { headerHeight?: number } = sizes.get(node.key) ?? nodeBoxSize(nodeContent(node));
    const laid: LaidOutNode = {
      ...node,
      position: relative.get(node.key) ?? { x: 0, y: 0 },
      absolute: absoluteOf(node),
      width: size.width,
      height: size.height,
    };
    if (size.headerHeight !== undefined) laid.headerHeight = size.headerHeight;
    return laid;
  });
  return { ...view, nodes, bounds };
}
