"use client";
// The response page's workflow viewer: legend and category filter, the canvas, and a side panel with the selected
// node's details and the diagnostic list (a click on a diagnostic centres and selects its node). The selected node
// is kept in the URL (`?node=<id>`), so a link can point at a node.
import { useCallback, useMemo, useRef, useState } from "react";
import type { LaidOutView } from "@/lib/viewer/layout";
import { findNodeKey, nodeAnchorOf, type ViewDiagnostic } from "@/lib/viewer/model";
import { visibleDiagnostics } from "@/lib/viewer/overlays";
import { DIAGNOSTIC_CATEGORIES, SEVERITIES, type DiagnosticCategory } from "@/lib/workflow/diagnostics";
import { buttonStyles } from "@/components/ui/styles";
import { DiagnosticList } from "./diagnostic-list";
import type { NodeDecoration } from "./flow-types";
import { NodeInspector } from "./node-inspector";
import { CATEGORY_COLORS, CATEGORY_HINTS, CATEGORY_LABELS, SEVERITY_COLORS, SEVERITY_LABELS } from "./palette";
import { WorkflowCanvas, type WorkflowCanvasHandle } from "./workflow-canvas";
import { canvasHeightFor } from "@/lib/viewer/viewport";

export interface WorkflowViewerProps {
  view: LaidOutView;
  /** The `?node=` value the page was opened with. */
  initialNode?: string | null;
  /** Write the selection into the URL (`?node=`). */
  syncUrl?: boolean;
  label: string;
  decorations?: Readonly<Record<string, NodeDecoration>>;
}

function writeNodeParam(value: string | null): void {
  const url = new URL(window.location.href);
  if (value === null) url.searchParams.delete("node");
  else url.searchParams.set("node", value);
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
}

export function Legend({ counts, hidden, onToggle }: { counts: Record<DiagnosticCategory, number>; hidden: readonly DiagnosticCategory[]; onToggle: (category: DiagnosticCategory) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm" data-testid="viewer-legend">
      <span className="flex items-center gap-3" aria-label="Ring colours">
        <span className="text-xs font-semibold uppercase tracking-wide text-slate-500">Ring</span>
        {SEVERITIES.map((severity) => (
          <span key={severity} className="flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-3 w-3 rounded-full border-2" style={{ borderColor: SEVERITY_COLORS[severity] }} />
            {SEVERITY_LABELS[severity]}
          </span>
        ))}
        <span className="flex items-center gap-1 text-slate-600 dark:text-slate-400">
          <svg aria-hidden="true" width="28" height="8">
            <line x1="0" y1="4" x2="28" y2="4" stroke="#dc2626" strokeWidth="2" strokeDasharray="5 3" />
          </svg>
          reference problem / missing node
        </span>
      </span>
      <fieldset className="flex flex-wrap items-center gap-3">
        <legend className="sr-only">Show diagnostics of these categories</legend>
        <span aria-hidden="true" className="text-xs font-semibold uppercase tracking-wide text-slate-500">Show</span>
        {DIAGNOSTIC_CATEGORIES.map((category) => (
          <label key={category} className="flex cursor-pointer items-center gap-1.5" title={CATEGORY_HINTS[category]}>
            <input type="checkbox" checked={!hidden.includes(category)} onChange={() => onToggle(category)} className="h-4 w-4 accent-slate-700" />
            <span className="rounded px-1 text-xs font-bold text-white" style={{ background: CATEGORY_COLORS[category] }} aria-hidden="true">
              {CATEGORY_LABELS[category][0]}
            </span>
            {CATEGORY_LABELS[category]} <span className="tabular-nums text-slate-500">({counts[category]})</span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}

export function WorkflowViewer({ view, initialNode = null, syncUrl = true, label, decorations }: WorkflowViewerProps) {
  const [selectedKey, setSelectedKey] = useState<string | null>(() => findNodeKey(view, initialNode));
  const [hidden, setHidden] = useState<readonly DiagnosticCategory[]>([]);
  const canvas = useRef<WorkflowCanvasHandle>(null);
  const canvasHeight = canvasHeightFor(view.bounds, 480, 720);

  const select = useCallback(
    (key: string | null) => {
      setSelectedKey(key);
      if (syncUrl) writeNodeParam(key === null ? null : (view.nodes.find((n) => n.key === key)?.urlValue ?? null));
    },
    [syncUrl, view],
  );

  const counts = useMemo(() => {
    const result = Object.fromEntries(DIAGNOSTIC_CATEGORIES.map((c) => [c, 0])) as Record<DiagnosticCategory, number>;
    for (const diagnostic of view.diagnostics) result[diagnostic.category] += 1;
    return result;
  }, [view]);
  const shown = useMemo(() => visibleDiagnostics(view, hidden), [view, hidden]);
  const selected = selectedKey !== null ? view.nodes.find((n) => n.key === selectedKey) : undefined;
  const activeIds = useMemo(() => new Set(selected?.diagnostics ?? []), [selected]);

  const focusDiagnostic = useCallback(
    (diagnostic: ViewDiagnostic) => {
      const key = nodeAnchorOf(view, diagnostic);
      if (key === null) return;
      select(key);
      canvas.current?.focusNode(key);
    },
    [view, select],
  );

  const toggle = (category: DiagnosticCategory) => setHidden((current) => (current.includes(category) ? current.filter((c) => c !== category) : [...current, category]));

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Legend counts={counts} hidden={hidden} onToggle={toggle} />
        <button type="button" className={buttonStyles.secondary} onClick={() => canvas.current?.fitView()}>
          Fit graph
        </button>
      </div>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_380px]">
        <WorkflowCanvas ref={canvas} view={view} selectedKey={selectedKey} onSelect={select} hiddenCategories={hidden} decorations={decorations} label={label} height={canvasHeight} />
        <aside aria-label="Node details and diagnostics" style={{ maxHeight: canvasHeight }} className="space-y-4 overflow-y-auto rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
          {selected ? <NodeInspector view={view} node={selected} diagnostics={view.diagnostics} onSelect={select} /> : <p className="text-sm text-slate-600 dark:text-slate-400">Select a node (click it, or Tab to it and press Enter) to see its parameters, the variables it reads and exposes, and its problems.</p>}
          <div>
            <h3 className="mb-1 text-sm font-semibold">
              All diagnostics <span className="font-normal text-slate-500">({shown.length}{shown.length !== view.diagnostics.length ? ` of ${view.diagnostics.length}` : ""})</span>
            </h3>
            <DiagnosticList
              diagnostics={shown}
              focusable={(diagnostic) => nodeAnchorOf(view, diagnostic) !== null}
              onFocus={focusDiagnostic}
              activeIds={activeIds}
              emptyText={view.diagnostics.length ? "All diagnostics are hidden by the category filter." : "No problems found."}
            />
          </div>
        </aside>
      </div>
    </div>
  );
}
