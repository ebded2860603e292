"use client";
// The workflow canvas: a laid-out workflow view drawn with React Flow, diagnostics as rings, badges, marked and
// dashed edges, with minimap, zoom controls, fit, and keyboard navigation between nodes. Read-only: nodes never move.
// It opens at a readable zoom (lib/viewer/viewport: titles ≥ 11 px), starting at the drawing's top-left when it
// overflows (pan to see the rest), brings the keyboard-focused or selected node into view, and keeps the minimap
// in its own strip beside the drawing so it never covers nodes.
//
// Props (the embedding API; the review queue and diff views use it too):
//   view             LaidOutView from lib/viewer (buildWorkflowView + layoutWorkflowView), e.g. computed on the server
//   selectedKey      the selected node's key (controlled; null for none)
//   onSelect         called with a node key when a node is clicked or chosen with Enter/Space, null on Escape/pane
//   hiddenCategories diagnostic categories whose marks are hidden
//   decorations      per node key, a label drawn on the node (e.g. "added", "changed")
//   edgeDecorations  per edge key, a label and colour on the edge (e.g. "added", "removed")
//   dimmedKeys       node and edge keys drawn faded (e.g. unchanged in a diff)
//   onUserMove       called with the viewport when the user pans or zooms this canvas (not for programmatic moves),
//                    so another canvas can mirror it with its handle's setViewport
//   ref              { focusNode(key), fitView(), fitBounds(rect), getViewport(), setViewport(viewport) }
//   label, className, height (default: tall enough for the drawing at the readable zoom), minimap (default true)
import "@xyflow/react/dist/style.css";
import "./workflow-canvas.css";
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useNodesInitialized,
  useReactFlow,
  type Rect,
  type Viewport,
} from "@xyflow/react";
import { useTheme } from "next-themes";
import { useCallback, useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type Ref } from "react";
import type { LaidOutView } from "@/lib/viewer/layout";
import { READABLE_ZOOM, canvasHeightFor, openingViewport, panIntoView, readableViewport, type Box } from "@/lib/viewer/viewport";
import { NAVIGATION_KEYS, neighbourOf } from "@/lib/viewer/navigation";
import { overlaysFor } from "@/lib/viewer/overlays";
import type { DiagnosticCategory } from "@/lib/workflow/diagnostics";
import { toFlowEdges, toFlowNodes } from "./flow-elements";
import { nodeTypes } from "./flow-nodes";
import type { EdgeDecoration, NodeDecoration, WorkflowFlowEdge, WorkflowFlowNode } from "./flow-types";
import { DECORATION_COLORS, FAMILY_ACCENTS, SEVERITY_COLORS } from "./palette";

export interface WorkflowCanvasHandle {
  /** Centres the node, focuses it for the keyboard (does not change the selection). */
  focusNode(key: string, options?: { focus?: boolean }): void;
  fitView(): void;
  /** Fits a rectangle of the canvas (flow coordinates) into the viewport, never below the readable zoom. */
  fitBounds(rect: Rect): void;
  getViewport(): Viewport;
  setViewport(viewport: Viewport): void;
}

export type { Rect, Viewport };

export interface WorkflowCanvasProps {
  view: LaidOutView;
  selectedKey?: string | null;
  onSelect?: (key: string | null) => void;
  hiddenCategories?: readonly DiagnosticCategory[];
  decorations?: Readonly<Record<string, NodeDecoration>>;
  edgeDecorations?: Readonly<Record<string, EdgeDecoration>>;
  /** Node and edge keys drawn faded. */
  dimmedKeys?: readonly string[];
  /** The user panned or zoomed this canvas (drag, wheel, zoom buttons, minimap, keyboard focus). */
  onUserMove?: (viewport: Viewport) => void;
  /** Accessible name of the canvas region. */
  label?: string;
  className?: string;
  /** CSS height of the canvas (default: the drawing's height at the readable zoom, 360–720 px). */
  height?: number | string;
  /** Show the minimap in a strip beside the drawing (wide screens only). */
  minimap?: boolean;
  ref?: Ref<WorkflowCanvasHandle>;
}

/** Performance mark set once the canvas has measured its nodes and painted (benchmarks read it). */
export const CANVAS_PAINTED_MARK = "workflow-canvas:painted";

const NO_CATEGORIES: readonly DiagnosticCategory[] = [];
// React Flow's default descriptions mention deleting and moving nodes, which this read-only canvas does not allow.
const ARIA_LABELS = {
  "node.a11yDescription.default": "Arrow keys move to the connected nodes, Enter or Space selects this node, Escape clears the selection.",
  "node.a11yDescription.keyboardDisabled": "Enter or Space selects this node, Escape clears the selection.",
  "controls.ariaLabel": "Zoom controls",
} as const;
const NO_DECORATIONS: Readonly<Record<string, NodeDecoration>> = {};
const NO_KEYS: readonly string[] = [];
/** A viewport change this soon after the user touched the canvas counts as theirs (zoom buttons animate). */
const USER_MOVE_WINDOW_MS = 400;

function nodeElement(root: HTMLElement | null, key: string): HTMLElement | null {
  return root?.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(key)}"]`) ?? null;
}

function CanvasInner({
  view,
  selectedKey = null,
  onSelect,
  hiddenCategories = NO_CATEGORIES,
  decorations = NO_DECORATIONS,
  edgeDecorations = NO_DECORATIONS,
  dimmedKeys = NO_KEYS,
  onUserMove,
  label = "Workflow graph",
  className = "",
  height: requestedHeight,
  minimap = true,
  ref,
}: WorkflowCanvasProps) {
  const flow = useReactFlow<WorkflowFlowNode, WorkflowFlowEdge>();
  const wrapper = useRef<HTMLDivElement>(null);
  const pane = useRef<HTMLDivElement>(null);
  const height = requestedHeight ?? canvasHeightFor(view.bounds);
  const helpId = useId();
  const { resolvedTheme } = useTheme();
  const overlays = useMemo(() => overlaysFor(view, hiddenCategories), [view, hiddenCategories]);
  const dimmed = useMemo(() => new Set(dimmedKeys), [dimmedKeys]);
  // React Flow owns the nodes (it stores their measured sizes); changes of the view, selection, filters and
  // decorations are merged into its store, keeping untouched nodes as they are so nothing is re-measured.
  const [initial] = useState(() => ({
    nodes: toFlowNodes(view, overlays, selectedKey, decorations, dimmed),
    edges: toFlowEdges(view, overlays, edgeDecorations, dimmed),
  }));
  const shownView = useRef(view);

  const screen = useCallback(() => ({ width: pane.current?.clientWidth ?? 0, height: pane.current?.clientHeight ?? 0 }), []);
  /** The readable fit of a rectangle (flow coordinates); a no-op before the pane has a size. */
  const showReadable = useCallback(
    (box: Box, duration = 0) => {
      const size = screen();
      if (size.width === 0 || size.height === 0) return;
      void flow.setViewport(readableViewport(box, size), { duration });
    },
    [flow, screen],
  );
  /** The opening view of the whole drawing: all of it when it fits at a still legible zoom, else readable. */
  const showOpening = useCallback(() => {
    const size = screen();
    if (size.width === 0 || size.height === 0) return;
    void flow.setViewport(openingViewport({ x: 0, y: 0, ...view.bounds }, size));
  }, [flow, screen, view.bounds]);
  /** The node's box on the canvas (absolute flow coordinates; tall containers count by their header). */
  const boxOf = useCallback(
    (key: string): Box | null => {
      const node = flow.getInternalNode(key);
      if (!node) return null;
      const { x, y } = node.internals.positionAbsolute;
      return { x, y, width: node.measured.width ?? node.width ?? 0, height: Math.min(node.measured.height ?? node.height ?? 0, 160) };
    },
    [flow],
  );
  /** Pans the least needed to show the node (keyboard focus, selection from a list); nothing if it is visible. */
  const revealNode = useCallback(
    (key: string) => {
      const box = boxOf(key);
      const size = screen();
      if (!box || size.width === 0) return;
      const next = panIntoView(flow.getViewport(), box, size);
      if (next) void flow.setViewport(next, { duration: 150 });
    },
    [boxOf, flow, screen],
  );

  useEffect(() => {
    const fresh = toFlowNodes(view, overlays, selectedKey, decorations, dimmed);
    flow.setNodes((current) => {
      const byId = new Map(current.map((node) => [node.id, node]));
      return fresh.map((node) => {
        const old = byId.get(node.id);
        if (!old || old.data.node !== node.data.node) return node;
        const same =
          old.data.overlay === node.data.overlay &&
          old.data.selected === node.data.selected &&
          old.data.decoration === node.data.decoration &&
          old.data.dimmed === node.data.dimmed;
        return same ? old : ({ ...old, data: node.data, className: node.className } as WorkflowFlowNode);
      });
    });
    const edges = toFlowEdges(view, overlays, edgeDecorations, dimmed);
    flow.setEdges((current) => {
      const byId = new Map(current.map((edge) => [edge.id, edge]));
      return edges.map((edge) => {
        const old = byId.get(edge.id);
        const same =
          old &&
          old.source === edge.source &&
          old.target === edge.target &&
          old.data?.overlay === edge.data?.overlay &&
          old.data?.decoration === edge.data?.decoration &&
          old.data?.dimmed === edge.data?.dimmed;
        return same ? old : edge;
      });
    });
    if (shownView.current !== view) {
      shownView.current = view;
      requestAnimationFrame(showOpening);
    }
  }, [flow, view, overlays, selectedKey, decorations, edgeDecorations, dimmed, showOpening]);

  // Moves count as the user's when they come with a pointer / wheel event, or follow a touch of this canvas
  // (zoom buttons, the minimap and keyboard focus move the viewport programmatically).
  const touchedAt = useRef(Number.NEGATIVE_INFINITY);
  const touched = useCallback(() => {
    touchedAt.current = performance.now();
  }, []);
  const onMove = useCallback(
    (event: MouseEvent | TouchEvent | null, viewport: Viewport) => {
      if (!onUserMove) return;
      if (event || performance.now() - touchedAt.current < USER_MOVE_WINDOW_MS) {
        if (!event) touchedAt.current = performance.now();
        onUserMove(viewport);
      }
    },
    [onUserMove],
  );

  const centerOn = useCallback(
    (key: string, duration: number) => {
      const node = flow.getInternalNode(key);
      if (!node) return;
      const { x, y } = node.internals.positionAbsolute;
      const width = node.measured.width ?? node.width ?? 0;
      // Tall containers: centre on their header, where the title and handles are.
      const height = Math.min(node.measured.height ?? node.height ?? 0, 120);
      void flow.setCenter(x + width / 2, y + height / 2, { zoom: Math.max(flow.getZoom(), READABLE_ZOOM), duration });
    },
    [flow],
  );

  // Moves asked for from outside (a change list, another canvas) are not the user's: forget the last touch.
  const fromOutside = useCallback(() => {
    touchedAt.current = Number.NEGATIVE_INFINITY;
  }, []);

  const focusNode = useCallback(
    (key: string, options?: { focus?: boolean }) => {
      fromOutside();
      centerOn(key, 250);
      if (options?.focus !== false) nodeElement(wrapper.current, key)?.focus({ preventScroll: true });
    },
    [centerOn, fromOutside],
  );

  useImperativeHandle(
    ref,
    () => ({
      focusNode,
      fitView: () => {
        fromOutside();
        void flow.fitView({ padding: 0.15, duration: 250 });
      },
      fitBounds: (rect: Rect) => {
        fromOutside();
        showReadable(rect);
      },
      getViewport: () => flow.getViewport(),
      setViewport: (viewport: Viewport) => {
        fromOutside();
        void flow.setViewport(viewport);
      },
    }),
    [focusNode, flow, fromOutside, showReadable],
  );

  const initialized = useNodesInitialized();
  const painted = useRef(false);
  const initialSelection = useRef(selectedKey);
  useEffect(() => {
    if (!initialized || painted.current) return;
    painted.current = true;
    // A page opened with a node selected (a link to `?node=`) starts centred on that node; otherwise at the
    // opening view of the whole drawing.
    const initialKey = initialSelection.current;
    if (initialKey !== null) centerOn(initialKey, 0);
    else showOpening();
    requestAnimationFrame(() => performance.mark(CANVAS_PAINTED_MARK));
  }, [initialized, centerOn, showOpening]);

  // A selection made elsewhere (the inspector's links, a diagnostic, the URL) is brought into view.
  const lastSelected = useRef(selectedKey);
  useEffect(() => {
    if (lastSelected.current === selectedKey) return;
    lastSelected.current = selectedKey;
    if (selectedKey !== null && painted.current) revealNode(selectedKey);
  }, [selectedKey, revealNode]);

  // Keyboard focus (Tab, arrow keys) follows into view; React Flow's own auto-pan misplaces nested nodes.
  const onFocusCapture = useCallback(
    (event: FocusEvent<HTMLDivElement>) => {
      const key = (event.target as HTMLElement).closest<HTMLElement>(".react-flow__node")?.dataset.id;
      if (key) revealNode(key);
    },
    [revealNode],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const target = (event.target as HTMLElement).closest<HTMLElement>(".react-flow__node");
      const key = target?.dataset.id ?? null;
      if (key === null) return;
      const direction = NAVIGATION_KEYS[event.key];
      if (direction) {
        const next = neighbourOf(view, key, direction);
        event.preventDefault();
        if (next) nodeElement(wrapper.current, next)?.focus();
        return;
      }
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onSelect?.(key);
      } else if (event.key === "Escape") {
        onSelect?.(null);
      }
    },
    [view, onSelect],
  );

  return (
    <div
      ref={wrapper}
      role="region"
      aria-label={label}
      aria-describedby={helpId}
      className={`workflow-canvas relative flex overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950 ${className}`}
      style={{ height }}
      onKeyDown={onKeyDown}
      onFocusCapture={onFocusCapture}
      onPointerDownCapture={touched}
      onWheelCapture={touched}
      onKeyDownCapture={touched}
      data-testid="workflow-canvas"
    >
      <p id={helpId} className="sr-only">
        Tab moves between nodes; arrow keys follow the edges (left, right) and switch branches (up, down); Home and End jump to the first and last node; Enter selects the focused node; Escape clears the selection. Drag or scroll to see the rest of a large graph.
      </p>
      <div ref={pane} className="relative min-w-0 flex-1" data-testid="workflow-canvas-pane">
        <ReactFlow<WorkflowFlowNode, WorkflowFlowEdge>
          defaultNodes={initial.nodes}
          defaultEdges={initial.edges}
          nodeTypes={nodeTypes}
          colorMode={resolvedTheme === "dark" ? "dark" : "light"}
          defaultViewport={{ x: 24, y: 24, zoom: 1 }}
          minZoom={0.08}
          maxZoom={2}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          nodesFocusable
          autoPanOnNodeFocus={false}
          edgesFocusable={false}
          deleteKeyCode={null}
          selectionKeyCode={null}
          multiSelectionKeyCode={null}
          onNodeClick={(_, node) => onSelect?.(node.id)}
          onPaneClick={() => onSelect?.(null)}
          onMove={onMove}
          ariaLabelConfig={ARIA_LABELS}
        >
          <Background gap={24} size={1} />
          <Controls showInteractive={false} position="bottom-left" fitViewOptions={{ padding: 0.08 }} />
        </ReactFlow>
      </div>
      {minimap ? (
        <div className="relative hidden w-44 shrink-0 border-l border-slate-200 bg-slate-50 lg:block dark:border-slate-800 dark:bg-slate-900" data-testid="workflow-minimap">
          <MiniMap
            pannable
            zoomable
            position="top-right"
            ariaLabel="Minimap"
            style={{ width: 144, height: 120, margin: 8 }}
            bgColor={resolvedTheme === "dark" ? "#0f172a" : "#ffffff"}
            maskColor={resolvedTheme === "dark" ? "rgba(2, 6, 23, 0.6)" : "rgba(226, 232, 240, 0.6)"}
            maskStrokeColor={resolvedTheme === "dark" ? "#60a5fa" : "#2563eb"}
            maskStrokeWidth={2}
            nodeColor={(node) => {
              const data = (node as WorkflowFlowNode).data;
              if (data.overlay) return SEVERITY_COLORS[data.overlay.severity];
              if (data.decoration) return DECORATION_COLORS[data.decoration.tone];
              return data.dimmed ? "#cbd5e1" : FAMILY_ACCENTS[data.node.family];
            }}
            nodeStrokeWidth={0}
          />
        </div>
      ) : null}
    </div>
  );
}

/** The workflow canvas with its own React Flow store. */
export function WorkflowCanvas(props: WorkflowCanvasProps) {
  return (
    <ReactFlowProvider>
      <CanvasInner {...props} />
    </ReactFlowProvider>
  );
}
