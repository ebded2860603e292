// What the canvas draws on each node and edge for the diagnostics of the visible categories (ring colour, badges).

import { DIAGNOSTIC_CATEGORIES, type DiagnosticCategory, type Severity } from "../workflow/diagnostics";
import type { ViewDiagnostic, WorkflowView } from "./model";

export interface CategoryCount {
  category: DiagnosticCategory;
  count: number;
  /** The worst severity among this category's diagnostics here. */
  severity: Severity;
}

export interface Overlay {
  severity: Severity;
  categories: CategoryCount[];
  /** Visible diagnostic ids. */
  ids: number[];
}

export interface Overlays {
  nodes: Record<string, Overlay>;
  edges: Record<string, Overlay>;
}

const RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

function overlayOf(ids: readonly number[], byId: ReadonlyMap<number, ViewDiagnostic>): Overlay | null {
  const visible = ids.map((id) => byId.get(id)).filter((d): d is ViewDiagnostic => d !== undefined);
  if (visible.length === 0) return null;
  let severity: Severity = "info";
  const perCategory = new Map<DiagnosticCategory, CategoryCount>();
  for (const diagnostic of visible) {
    if (RANK[diagnostic.severity] < RANK[severity]) severity = diagnostic.severity;
    const entry = perCategory.get(diagnostic.category);
    if (!entry) perCategory.set(diagnostic.category, { category: diagnostic.category, count: 1, severity: diagnostic.severity });
    else {
      entry.count += 1;
      if (RANK[diagnostic.severity] < RANK[entry.severity]) entry.severity = diagnostic.severity;
    }
  }
  const categories = DIAGNOSTIC_CATEGORIES.map((category) => perCategory.get(category)).filter((c): c is CategoryCount => c !== undefined);
  return { severity, categories, ids: visible.map((d) => d.id) };
}

export function visibleDiagnostics(view: Pick<WorkflowView, "diagnostics">, hidden: readonly DiagnosticCategory[] = []): ViewDiagnostic[] {
  return view.diagnostics.filter((diagnostic) => !hidden.includes(diagnostic.category));
}

export function overlaysFor(view: Pick<WorkflowView, "nodes" | "edges" | "diagnostics">, hidden: readonly DiagnosticCategory[] = []): Overlays {
  const byId = new Map(visibleDiagnostics(view, hidden).map((d) => [d.id, d]));
  const nodes: Record<string, Overlay> = {};
  const edges: Record<string, Overlay> = {};
  for (const node of view.nodes) {
    const overlay = overlayOf(node.diagnostics, byId);
    if (overlay) nodes[node.key] = overlay;
  }
  for (const edge of view.edges) {
    const overlay = overlayOf(edge.diagnostics, byId);
    if (overlay) edges[edge.key] = overlay;
  }
  return { nodes, edges };
}
