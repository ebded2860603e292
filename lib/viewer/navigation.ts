// Keyboard navigation between nodes along the graph's edges, on positions and edges only, so it is tested without
// a browser.

import type { LaidOutNode, LaidOutView } from "./layout";

export type Direction = "right" | "left" | "up" | "down" | "first" | "last";

export const NAVIGATION_KEYS: Readonly<Record<string, Direction>> = {
  ArrowRight: "right",
  ArrowLeft: "left",
  ArrowUp: "up",
  ArrowDown: "down",
  Home: "first",
  End: "last",
};

interface Center {
  node: LaidOutNode;
  x: number;
  y: number;
}

function centerOf(node: LaidOutNode): Center {
  // Containers count from their header, where their title and handles are.
  const height = node.headerHeight ?? node.height;
  return { node, x: node.absolute.x + node.width / 2, y: node.absolute.y + height / 2 };
}

/** The candidate closest to `from` in `direction`: distance along the axis plus a penalty for drifting off it. */
function nearest(from: Center, candidates: readonly Center[], direction: "right" | "left" | "up" | "down"): LaidOutNode | null {
  let best: { node: LaidOutNode; score: number } | null = null;
  for (const candidate of candidates) {
    if (candidate.node.key === from.node.key) continue;
    const dx = candidate.x - from.x;
    const dy = candidate.y - from.y;
    const along = direction === "right" ? dx : direction === "left" ? -dx : direction === "down" ? dy : -dy;
    const across = direction === "right" || direction === "left" ? Math.abs(dy) : Math.abs(dx);
    if (along <= 0.5) continue;
    const score = along + 2 * across;
    if (!best || score < best.score || (score === best.score && candidate.node.key < best.node.key)) best = { node: candidate.node, score };
  }
  return best?.node ?? null;
}

export function neighbourOf(view: Pick<LaidOutView, "nodes" | "edges">, fromKey: string | null, direction: Direction): string | null {
  const nodes = view.nodes;
  if (nodes.length === 0) return null;
  if (direction === "first") return (nodes[0] as LaidOutNode).key;
  if (direction === "last") return (nodes[nodes.length - 1] as LaidOutNode).key;
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  const from = fromKey === null ? undefined : byKey.get(fromKey);
  if (!from) return (nodes[0] as LaidOutNode).key;
  const origin = centerOf(from);
  if (direction === "right" || direction === "left") {
    // Along the graph first: successors (or predecessors) through flow edges, nearest to the current row.
    const linked = view.edges
      .filter((edge) => edge.kind === "flow" && (direction === "right" ? edge.source === from.key : edge.target === from.key))
      .map((edge) => byKey.get(direction === "right" ? edge.target : edge.source))
      .filter((node): node is LaidOutNode => node !== undefined && node.key !== from.key)
      .map(centerOf)
      .sort((a, b) => Math.abs(a.y - origin.y) - Math.abs(b.y - origin.y) || a.x - b.x);
    if (linked[0]) return linked[0].node.key;
    // Into a container from its header, or out of it to its container.
    if (direction === "right" && from.container) {
      const firstChild = nodes.filter((node) => node.parentKey === from.key).map(centerOf).sort((a, b) => a.x - b.x || a.y - b.y)[0];
      if (firstChild) return firstChild.node.key;
    }
    if (direction === "left" && from.parentKey !== null && byKey.has(from.parentKey)) return from.parentKey;
  } else {
    // Between alternatives first: the other targets of the edges that lead here (branches of one if-else).
    const predecessors = new Set(view.edges.filter((edge) => edge.kind === "flow" && edge.target === from.key).map((edge) => edge.source));
    const siblings = [...new Set(view.edges.filter((edge) => edge.kind === "flow" && predecessors.has(edge.source)).map((edge) => edge.target))]
      .map((siblingKey) => byKey.get(siblingKey))
      .filter((node): node is LaidOutNode => node !== undefined && node.key !== from.key)
      .map(centerOf)
      .filter((candidate) => (direction === "down" ? candidate.y > origin.y : candidate.y < origin.y))
      .sort((a, b) => (direction === "down" ? a.y - b.y : b.y - a.y) || a.x - b.x);
    if (siblings[0]) return siblings[0].node.key;
  }
  return nearest(origin, nodes.map(centerOf), direction)?.key ?? null;
}
