// Maps a laid-out workflow view and its overlays to React Flow nodes and edges (no React; pure mapping).
import { MarkerType, Position } from "@xyflow/react";
import { handleSpecs, type HandleSide } from "@/lib/viewer/handles";
import type { LaidOutNode, LaidOutView } from "@/lib/viewer/layout";
import type { Overlays } from "@/lib/viewer/overlays";
import type { EdgeDecoration, FlowNodeData, NodeDecoration, WorkflowFlowEdge, WorkflowFlowNode } from "./flow-types";
import { CATEGORY_LABELS, DECORATION_COLORS, SEVERITY_COLORS } from "./palette";

const NOTHING_DIMMED: ReadonlySet<string> = new Set();

const HANDLE_SIZE = 7;
const SIDES: Readonly<Record<HandleSide, Position>> = { left: Position.Left, right: Position.Right, top: Position.Top, bottom: Position.Bottom };

/** Handle boxes relative to the node, as React Flow would measure them (edges render before any measuring). */
function flowHandles(node: LaidOutNode) {
  const half = HANDLE_SIZE / 2;
  return handleSpecs(node).map((spec) => ({
    id: spec.id,
    type: spec.type,
    position: SIDES[spec.side],
    width: HANDLE_SIZE,
    height: HANDLE_SIZE,
    x: spec.side === "left" ? -half : spec.side === "right" ? node.width - half : spec.offset - half,
    y: spec.side === "top" ? -half : spec.side === "bottom" ? node.height - half : spec.offset - half,
  }));
}

export function toFlowNodes(
  view: LaidOutView,
  overlays: Overlays,
  selectedKey: string | null,
  decorations: Readonly<Record<string, NodeDecoration>> = {},
  dimmed: ReadonlySet<string> = NOTHING_DIMMED,
): WorkflowFlowNode[] {
  return view.nodes.map((node) => {
    const data: FlowNodeData = {
      node,
      overlay: overlays.nodes[node.key] ?? null,
      selected: node.key === selectedKey,
      decoration: decorations[node.key] ?? null,
      dimmed: dimmed.has(node.key),
    };
    const problems = data.overlay ? `, ${data.overlay.ids.length} problem${data.overlay.ids.length === 1 ? "" : "s"}` : "";
    const flowNode = {
      id: node.key,
      type: node.family,
      position: node.position,
      width: node.width,
      height: node.height,
      // Sizes and handles are known from the layout: React Flow draws nodes, edges and the fitted viewport in the
      // first paint instead of measuring first (its resize observer still corrects any difference).
      measured: { width: node.width, height: node.height },
      handles: flowHandles(node),
      data,
      draggable: false,
      connectable: false,
      ariaLabel: `${node.title} ${node.workflowId ?? `#${node.index}`}${data.decoration ? `, ${data.decoration.label}` : ""}${problems}`,
      ...(data.dimmed ? { className: "workflow-node--dimmed" } : {}),
      // Containers stay under their children; selected nodes are not raised above them.
      zIndex: node.container ? 0 : 1,
      ...(node.parentKey !== null ? { parentId: node.parentKey, extent: "parent" as const } : {}),
    };
    return flowNode as WorkflowFlowNode;
  });
}

export function toFlowEdges(
  view: LaidOutView,
  overlays: Overlays,
  decorations: Readonly<Record<string, EdgeDecoration>> = {},
  dimmed: ReadonlySet<string> = NOTHING_DIMMED,
): WorkflowFlowEdge[] {
  return view.edges.map((edge) => {
    const overlay = overlays.edges[edge.key] ?? null;
    const decoration = decorations[edge.key] ?? null;
    const faded = dimmed.has(edge.key);
    // A decoration (a diff's added / removed) colours the edge; a problem on it still wins.
    const color = overlay
      ? SEVERITY_COLORS[overlay.severity]
      : decoration
        ? DECORATION_COLORS[decoration.tone]
        : edge.kind === "reference" || edge.dangling
          ? "#94a3b8"
          : "#64748b";
    const dashed = edge.kind === "reference" || edge.dangling || decoration?.tone === "bad";
    const problem = overlay ? overlay.categories.map((c) => CATEGORY_LABELS[c.category].toLowerCase()).join(", ") : "";
    // Branch names are on the node's port rows; an edge is labelled only when something is wrong with it or marked.
    const label = overlay
      ? [decoration?.label, edge.label, edge.kind === "flow" ? `⚠ ${problem}` : null].filter(Boolean).join(" · ")
      : decoration
        ? [decoration.label, edge.label].filter(Boolean).join(" · ")
        : edge.kind === "reference"
          ? (edge.label ?? "")
          : "";
    const flowEdge: WorkflowFlowEdge = {
      id: edge.key,
      source: edge.source,
      target: edge.target,
      sourceHandle: edge.sourceHandle,
      targetHandle: edge.kind === "reference" ? "ref-in" : "in",
      type: edge.kind === "reference" ? "default" : "smoothstep",
      data: { kind: edge.kind, overlay, dangling: edge.dangling, decoration, dimmed: faded },
      className: [
        "workflow-edge",
        overlay ? `workflow-edge--${overlay.severity}` : "",
        dashed ? "workflow-edge--dashed" : "",
        decoration ? `workflow-edge--marked workflow-edge--${decoration.tone}` : "",
        faded ? "workflow-edge--dimmed" : "",
      ]
        .filter(Boolean)
        .join(" "),
      style: { stroke: color, strokeWidth: overlay || decoration ? 2.5 : 1.5, ...(dashed ? { strokeDasharray: "6 4" } : {}), ...(faded ? { opacity: 0.3 } : {}) },
      markerEnd: { type: MarkerType.ArrowClosed, color, width: 16, height: 16 },
      focusable: false,
      selectable: false,
      // Above containers, so edges inside an iteration stay visible.
      zIndex: 2,
      ariaLabel: `${edge.kind === "reference" ? "Reference" : "Edge"} from ${edge.source} to ${edge.target}${decoration ? `, ${decoration.label}` : ""}${problem ? ` with ${problem} problems` : ""}`,
    };
    if (label) {
      flowEdge.label = label;
      flowEdge.labelStyle = { fill: overlay || decoration ? color : "#475569", fontSize: 11, fontWeight: overlay || decoration ? 600 : 400 };
      flowEdge.labelBgStyle = { fill: "white", fillOpacity: 0.9 };
      flowEdge.labelBgPadding = [4, 2];
      flowEdge.labelBgBorderRadius = 3;
    }
    return flowEdge;
  });
}
