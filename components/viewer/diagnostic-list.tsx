"use client";
// The list of a response's diagnostics: severity, category, code, message, hint and where it is. An entry on the
// graph is a button that focuses its node; an entry in the text links to the highlighted position. Each entry links
// to its code's documentation on the diagnostics reference page.
import type { ViewDiagnostic } from "@/lib/viewer/model";
import { formatPath } from "@/lib/workflow/analysis/model";
import { CATEGORY_COLORS, CATEGORY_LABELS, SEVERITY_COLORS, SEVERITY_LABELS, SEVERITY_TEXT } from "./palette";

const FIELD_LABELS: Readonly<Record<string, string>> = {
  raw: "the raw answer",
  node_selection: "node_selection",
  design_principle: "design_principle",
  workflow: "the workflow JSON",
};

/** Where a diagnostic points, in words: `node "3" · outputs[1][1]`, `edges[2]`, `workflow JSON line 4, column 9`. */
export function describeLocation(diagnostic: ViewDiagnostic): string | null {
  const location = diagnostic.location;
  if (!location) return null;
  const parts: string[] = [];
  if (location.nodeId !== undefined) parts.push(`node ${JSON.stringify(location.nodeId)}`);
  if (location.paramPath && location.paramPath.length > 0) parts.push(formatPath(location.paramPath));
  if (location.edgeIndex !== undefined) parts.push(`edges[${location.edgeIndex}]`);
  if (location.field !== undefined && location.nodeId === undefined && location.edgeIndex === undefined) {
    const where = FIELD_LABELS[location.field] ?? location.field;
    parts.push(location.line !== undefined ? `${where}, line ${location.line}, column ${location.column ?? 1}` : where);
  }
  if (diagnostic.targetNodeId !== undefined) parts.push(`→ ${JSON.stringify(diagnostic.targetNodeId)}`);
  return parts.length ? parts.join(" · ") : null;
}

/** The code's entry in the diagnostics reference page (its anchor is the code itself). */
export function diagnosticReferenceHref(code: string): string {
  return `/diagnostics#${encodeURIComponent(code)}`;
}

export function CategoryChip({ category }: { category: ViewDiagnostic["category"] }) {
  return (
    <span className="inline-flex items-center rounded px-1.5 text-[11px] font-semibold leading-5 text-white" style={{ background: CATEGORY_COLORS[category] }}>
      {CATEGORY_LABELS[category]}
    </span>
  );
}

export function SeverityDot({ severity }: { severity: ViewDiagnostic["severity"] }) {
  return <span aria-hidden="true" className="mt-1.5 inline-block h-2.5 w-2.5 shrink-0 rounded-full" style={{ background: SEVERITY_COLORS[severity] }} />;
}

function Entry({ diagnostic, active }: { diagnostic: ViewDiagnostic; active: boolean }) {
  const where = describeLocation(diagnostic);
  return (
    <span className={`flex gap-2 rounded-md p-2 text-left text-sm ${active ? "bg-brand-50 dark:bg-slate-800" : ""}`}>
      <SeverityDot severity={diagnostic.severity} />
      <span className="min-w-0 flex-1">
        <span className="flex flex-wrap items-center gap-1.5">
          <span className={`text-xs font-semibold ${SEVERITY_TEXT[diagnostic.severity]}`}>{SEVERITY_LABELS[diagnostic.severity]}</span>
          <CategoryChip category={diagnostic.category} />
          <code className="text-xs text-slate-600 dark:text-slate-300">{diagnostic.code}</code>
          {diagnostic.officialStep ? <span className="text-[11px] text-slate-500">fails {diagnostic.officialStep}</span> : null}
        </span>
        <span className="mt-0.5 block break-words text-slate-800 dark:text-slate-200">{diagnostic.message}</span>
        {diagnostic.hint ? <span className="mt-0.5 block text-xs text-slate-600 dark:text-slate-400">Fix: {diagnostic.hint}</span> : null}
        {where ? <span className="mt-0.5 block font-mono text-[11px] text-slate-500">{where}</span> : null}
      </span>
    </span>
  );
}

export interface DiagnosticListProps {
  diagnostics: readonly ViewDiagnostic[];
  /** Whether a diagnostic can be shown on the graph (then its entry is a button). */
  focusable?: (diagnostic: ViewDiagnostic) => boolean;
  onFocus?: (diagnostic: ViewDiagnostic) => void;
  /** Diagnostics to highlight (those of the selected node). */
  activeIds?: ReadonlySet<number>;
  emptyText?: string;
  label?: string;
}

export function DiagnosticList({ diagnostics, focusable, onFocus, activeIds, emptyText = "No problems found.", label = "Diagnostics" }: DiagnosticListProps) {
  if (diagnostics.length === 0) return <p className="p-2 text-sm text-slate-600 dark:text-slate-400">{emptyText}</p>;
  return (
    <ul aria-label={label} className="space-y-1" data-testid="diagnostic-list">
      {diagnostics.map((diagnostic) => {
        const active = activeIds?.has(diagnostic.id) ?? false;
        const onGraph = focusable?.(diagnostic) ?? false;
        return (
          <li key={diagnostic.id} data-testid="diagnostic-item" data-code={diagnostic.code} data-category={diagnostic.category}>
            {onGraph && onFocus ? (
              <button
                type="button"
                onClick={() => onFocus(diagnostic)}
                className="block w-full rounded-md hover:bg-slate-100 dark:hover:bg-slate-800"
              >
                {/* The visible text stays in the button's name, after what it does. */}
                <span className="sr-only">Show on the graph: </span>
                <Entry diagnostic={diagnostic} active={active} />
              </button>
            ) : diagnostic.textField !== null && diagnostic.location?.offset !== undefined ? (
              <a href={`#diag-mark-${diagnostic.id}`} className="block rounded-md hover:bg-slate-100 dark:hover:bg-slate-800">
                <Entry diagnostic={diagnostic} active={active} />
              </a>
            ) : (
              <Entry diagnostic={diagnostic} active={active} />
            )}
            {/* Beside the entry, not inside it: an entry may itself be a button or a link. */}
            <a href={diagnosticReferenceHref(diagnostic.code)} className="ml-6 text-[11px] text-slate-500 underline-offset-2 hover:underline">
              About <code>{diagnostic.code}</code>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
