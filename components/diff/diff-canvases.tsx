"use client";
// The diff's graphs: the earlier and later workflows side by side, panning and zooming together (each canvas's user
// moves are mirrored onto the other with setViewport), or one merged graph. Nodes and edges carry the diff's marks.
import { useCallback, useEffect, useImperativeHandle, useRef, type ReactNode, type Ref } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { WorkflowCanvas, type Viewport, type WorkflowCanvasHandle } from "@/components/viewer/workflow-canvas";
import { pairCanvasHeight } from "@/lib/diff-view/comparison";
import type { CanvasMarks } from "@/lib/diff-view/marks";
import type { ChangeTarget } from "@/lib/diff-view/targets";
import type { LaidOutView } from "@/lib/viewer/layout";
import type { DiagnosticCategory } from "@/lib/workflow/diagnostics";

export interface CanvasSide {
  view: LaidOutView | null;
  marks: CanvasMarks;
  label: string;
  /** Shown instead of the canvas when there is no graph. */
  emptyText: string;
  /** The drawing is of a mechanically repaired workflow. */
  repaired: boolean;
}

export type CanvasName = keyof ChangeTarget;

export interface DiffCanvasesHandle {
  /** Centres the change's node on every canvas shown (without moving the keyboard focus). */
  focus(target: ChangeTarget): void;
  /** Centres one canvas on a node. */
  focusOn(canvas: CanvasName, key: string): void;
  fitAll(): void;
}

export type CanvasLayout = "side-by-side" | "stacked" | "merged";

export interface DiffCanvasesProps {
  layout: CanvasLayout;
  before: CanvasSide;
  after: CanvasSide;
  merged: { view: LaidOutView; marks: CanvasMarks } | null;
  sync: boolean;
  selected: Readonly<Record<CanvasName, string | null>>;
  onSelect: (canvas: CanvasName, key: string | null) => void;
  hiddenCategories: readonly DiagnosticCategory[];
  height?: number;
  ref?: Ref<DiffCanvasesHandle>;
}

function unionRect(views: readonly (LaidOutView | null)[]) {
  let width = 0;
  let height = 0;
  for (const view of views) {
    if (!view) continue;
    width = Math.max(width, view.bounds.width);
    height = Math.max(height, view.bounds.height);
  }
  return { x: 0, y: 0, width: Math.max(width, 1), height: Math.max(height, 1) };
}

function Pane({ side, canvas, children }: { side: CanvasSide; canvas: CanvasName; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1" data-testid="diff-pane" data-canvas={canvas}>
      <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold">
        {side.label}
        {side.repaired ? <span className="rounded bg-amber-100 px-1.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200">repaired graph — not what the model wrote</span> : null}
      </h3>
      {side.view ? children : <EmptyState title="No graph">{side.emptyText}</EmptyState>}
    </div>
  );
}

export function DiffCanvases({ layout, before, after, merged, sync, selected, onSelect, hiddenCategories, height: requested, ref }: DiffCanvasesProps) {
  const height = requested ?? (layout === "merged" ? 560 : pairCanvasHeight(layout, [before.view, after.view]));
  const left = useRef<WorkflowCanvasHandle>(null);
  const right = useRef<WorkflowCanvasHandle>(null);
  const single = useRef<WorkflowCanvasHandle>(null);
  const syncing = useRef(sync);
  useEffect(() => {
    syncing.current = sync;
  }, [sync]);

  const fitPair = useCallback(() => {
    const rect = unionRect([before.view, after.view]);
    left.current?.fitBounds(rect);
    right.current?.fitBounds(rect);
  }, [before.view, after.view]);

  // Both canvases start on the same viewport (the larger drawing fitted), so positions line up from the first move.
  useEffect(() => {
    if (layout === "merged" || !sync) return;
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(fitPair);
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, [layout, sync, fitPair]);

  const mirrorToRight = useCallback((viewport: Viewport) => {
    if (syncing.current) right.current?.setViewport(viewport);
  }, []);
  const mirrorToLeft = useCallback((viewport: Viewport) => {
    if (syncing.current) left.current?.setViewport(viewport);
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      focus(target) {
        if (layout === "merged") {
          if (target.merged.nodeKey) single.current?.focusNode(target.merged.nodeKey, { focus: false });
          return;
        }
        if (target.before.nodeKey) left.current?.focusNode(target.before.nodeKey, { focus: false });
        if (target.after.nodeKey) right.current?.focusNode(target.after.nodeKey, { focus: false });
      },
      focusOn(canvas, key) {
        const handle = canvas === "before" ? left : canvas === "after" ? right : single;
        handle.current?.focusNode(key, { focus: false });
      },
      fitAll() {
        if (layout === "merged") single.current?.fitView();
        else if (syncing.current) fitPair();
        else {
          left.current?.fitView();
          right.current?.fitView();
        }
      },
    }),
    [layout, fitPair],
  );

  if (layout === "merged") {
    if (!merged) return <EmptyState title="Nothing to draw">Neither workflow has nodes to draw.</EmptyState>;
    return (
      <div data-testid="diff-pane" data-canvas="merged">
        <WorkflowCanvas
          ref={single}
          view={merged.view}
          decorations={merged.marks.nodes}
          edgeDecorations={merged.marks.edges}
          dimmedKeys={merged.marks.dimmed}
          selectedKey={selected.merged}
          onSelect={(key) => onSelect("merged", key)}
          hiddenCategories={hiddenCategories}
          label={`Merged graph: ${after.label} with what ${before.label} had and it removed`}
          height={height}
        />
      </div>
    );
  }
  // One pane per side; moving either graph moves the other while they are synced.
  const pane = (side: typeof before, canvas: "before" | "after") => (
    <Pane side={side} canvas={canvas}>
      {side.view ? (
        <WorkflowCanvas
          ref={canvas === "before" ? left : right}
          view={side.view}
          decorations={side.marks.nodes}
          edgeDecorations={side.marks.edges}
          dimmedKeys={side.marks.dimmed}
          selectedKey={selected[canvas]}
          onSelect={(key) => onSelect(canvas, key)}
          onUserMove={canvas === "before" ? mirrorToRight : mirrorToLeft}
          hiddenCategories={hiddenCategories}
          label={`${side.label} graph`}
          height={height}
          minimap={layout === "stacked"}
        />
      ) : null}
    </Pane>
  );
  return (
    <div className={layout === "side-by-side" ? "grid gap-3 xl:grid-cols-2" : "grid gap-3"} data-testid="diff-pair" data-layout={layout}>
      {pane(before, "before")}
      {pane(after, "after")}
    </div>
  );
}
