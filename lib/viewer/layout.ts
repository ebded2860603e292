// Lays out a workflow view left to right with dagre, nested: each iteration's children are laid out first, the
// container is sized around them, then the enclosing level is laid out with containers as single boxes.
// Pure and deterministic (same view, same positions); child positions are relative to their container.
//
// Public API:
//   layoutWorkflowView(view, options?) -> LaidOutView
//   nodeContent(node) -> BoxContent      what the box must make room for (summary lines, port rows)

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
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const member of scope.members) {
      const placed = graph.node(member.key) as { x: number; y: number; width: number; height: number };
      const left = placed.x - placed.width / 2;
      const top = placed.y - placed.height / 2;
      relative.set(member.key, { x: left, y: top });
      minX = Math.min(minX, left);
      minY = Math.min(minY, top);
      maxX = Math.max(maxX, left + placed.width);
      maxY = Math.max(maxY, top + placed.height);
    }
    // Normalise so the scope's drawing starts at (0, 0).
    for (const member of scope.members) {
      const point = relative.get(member.key) as Point;
      relative.set(member.key, { x: Math.round(point.x - minX), y: Math.round(point.y - minY) });
    }
    return { width: Math.round(maxX - minX), height: Math.round(maxY - minY) };
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
