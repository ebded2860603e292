// Colours and labels of the viewer's overlays: severity decides the ring (red, amber, blue), category the badge.
// Shared by the canvas, the legend, the minimap and the diagnostic list so they always agree.
import type { DiagnosticCategory, Severity } from "@/lib/workflow/diagnostics";
import type { ViewFamily } from "@/lib/viewer/model";

export const SEVERITY_COLORS: Readonly<Record<Severity, string>> = {
  error: "#dc2626",
  warning: "#d97706",
  info: "#2563eb",
};

export const SEVERITY_LABELS: Readonly<Record<Severity, string>> = { error: "Error", warning: "Warning", info: "Info" };

export const SEVERITY_RING: Readonly<Record<Severity, string>> = {
  error: "ring-4 ring-red-500/80",
  warning: "ring-4 ring-amber-500/80",
  info: "ring-4 ring-blue-500/70",
};

export const SEVERITY_TEXT: Readonly<Record<Severity, string>> = {
  error: "text-red-700 dark:text-red-400",
  warning: "text-amber-700 dark:text-amber-400",
  info: "text-blue-700 dark:text-blue-400",
};

export const CATEGORY_COLORS: Readonly<Record<DiagnosticCategory, string>> = {
  format: "#7c3aed",
  graph: "#0e7490",
  semantics: "#c026d3",
  consistency: "#047857",
};

export const CATEGORY_LABELS: Readonly<Record<DiagnosticCategory, string>> = {
  format: "Format",
  graph: "Graph",
  semantics: "Semantics",
  consistency: "Consistency",
};

export const CATEGORY_HINTS: Readonly<Record<DiagnosticCategory, string>> = {
  format: "The shape of the JSON and of node params",
  graph: "Ids, edges, branch ports, iteration containers and connectivity",
  semantics: "References between nodes and the types flowing through them",
  consistency: "Agreement with the task's inputs and outputs and with node_selection",
};

/** One letter per category for the compact badges on nodes and edges. */
export const CATEGORY_LETTERS: Readonly<Record<DiagnosticCategory, string>> = {
  format: "F",
  graph: "G",
  semantics: "S",
  consistency: "C",
};

export const FAMILY_ACCENTS: Readonly<Record<ViewFamily, string>> = {
  io: "#16a34a",
  model: "#4f46e5",
  logic: "#ea580c",
  transform: "#0d9488",
  container: "#64748b",
  tool: "#9333ea",
  unknown: "#78716c",
  missing: "#dc2626",
};

/** Colours of other features' marks (NodeDecoration tones) on edges and in the minimap. */
export const DECORATION_COLORS: Readonly<Record<"neutral" | "good" | "bad" | "warn" | "info", string>> = {
  neutral: "#475569",
  good: "#16a34a",
  bad: "#dc2626",
  warn: "#d97706",
  info: "#0284c7",
};

export const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };
