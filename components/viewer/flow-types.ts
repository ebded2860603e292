// React Flow node and edge types of the workflow canvas: one node type per family, typed as a union.
import type { Edge, Node } from "@xyflow/react";
import type { LaidOutNode } from "@/lib/viewer/layout";
import type { Overlay } from "@/lib/viewer/overlays";

/** A mark another feature puts on a node (e.g. "added" in a diff, "flagged" in a review queue). */
export interface NodeDecoration {
  label: string;
  tone: "neutral" | "good" | "bad" | "warn" | "info";
}

/** A mark another feature puts on an edge (e.g. "added" / "removed" in a diff); drawn in the tone's colour. */
export type EdgeDecoration = NodeDecoration;

export type FlowNodeData = {
  node: LaidOutNode;
  overlay: Overlay | null;
  selected: boolean;
  decoration: NodeDecoration | null;
  /** Drawn faded (e.g. unchanged in a diff). */
  dimmed: boolean;
};

export type IoFlowNode = Node<FlowNodeData, "io">;
export type ModelFlowNode = Node<FlowNodeData, "model">;
export type LogicFlowNode = Node<FlowNodeData, "logic">;
export type TransformFlowNode = Node<FlowNodeData, "transform">;
export type ToolFlowNode = Node<FlowNodeData, "tool">;
export type ContainerFlowNode = Node<FlowNodeData, "container">;
export type UnknownFlowNode = Node<FlowNodeData, "unknown">;
export type MissingFlowNode = Node<FlowNodeData, "missing">;

export type WorkflowFlowNode =
  | IoFlowNode
  | ModelFlowNode
  | LogicFlowNode
  | TransformFlowNode
  | ToolFlowNode
  | ContainerFlowNode
  | UnknownFlowNode
  | MissingFlowNode;

export type FlowEdgeData = {
  kind: "flow" | "reference";
  overlay: Overlay | null;
  dangling: boolean;
  decoration: EdgeDecoration | null;
  dimmed: boolean;
};
export type WorkflowFlowEdge = Edge<FlowEdgeData>;
