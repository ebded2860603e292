// The one vocabulary of the repair engine's codes, for both of its policies: `official` (the generation loop's four
// auto-repairs, Python semantics, repair-official.ts) and `studio` (the viewer's mechanical repairs, repair.ts).
// Codes are stored with generation attempts and shown on pages: never rename one.

export type RepairPolicy = "official" | "studio";

interface RepairCodeSpec {
  policy: RepairPolicy | "both";
  /** One sentence saying what the repair did. */
  summary: string;
  /** A short label for lists (the attempt timeline). */
  label: string;
}

export const REPAIR_CODES = {
  "strip-code-fence": {
    policy: "both",
    summary: "Removed a Markdown code fence left around the workflow JSON.",
    label: "Code fence stripped",
  },
  "json-repair": {
    policy: "both",
    summary: "Repaired invalid JSON (comments, trailing commas, mismatched brackets).",
    label: "JSON repaired",
  },
  "topological-order": {
    policy: "official",
    summary: "Reordered nodes_info as the official pipeline does (its topological sort, Python semantics).",
    label: "Nodes re-ordered (topological order)",
  },
  "node-selection": {
    policy: "official",
    summary: "Rewrote node_selection as the sorted raw node types, as the official pipeline does.",
    label: "node_selection rewritten to the sorted raw types",
  },
  "rename-node-type": {
    policy: "studio",
    summary: "Renamed a node type to its official id (template -> template-transform).",
    label: "Node type renamed",
  },
  "flatten-aggregator-entry": {
    policy: "studio",
    summary: "Turned [name, [variable, nodeId]] aggregator entries into flat [variable, nodeId] pairs.",
    label: "Aggregator entry flattened",
  },
  "nest-flattened-selector": {
    policy: "studio",
    summary: "Turned a flat [name, variable, nodeId] entry into [name, [variable, nodeId]].",
    label: "Flattened selector nested",
  },
  "retarget-iteration-start": {
    policy: "studio",
    summary: "Pointed item/index references at the iteration instead of its iteration-start.",
    label: "Iteration reference retargeted",
  },
  "inline-text-selector": {
    policy: "studio",
    summary: "Rewrote a text parameter given as [variable, nodeId] as an inline {{#'nodeId'.variable#}}.",
    label: "Text selector inlined",
  },
  "trim-edge": {
    policy: "studio",
    summary: "Dropped the extra elements of a top-level edge (edges are [source, port, target]).",
    label: "Edge trimmed",
  },
  "reorder-nodes": {
    policy: "studio",
    summary: "Reordered nodes_info topologically so that every node follows the nodes it reads.",
    label: "Nodes re-ordered",
  },
  "sync-node-selection": {
    policy: "studio",
    summary: "Rewrote node_selection as the node types the workflow uses.",
    label: "node_selection synced",
  },
} as const satisfies Record<string, RepairCodeSpec>;

export type AnyRepairCode = keyof typeof REPAIR_CODES;

type CodesOf<P extends RepairPolicy> = {
  [C in AnyRepairCode]: (typeof REPAIR_CODES)[C]["policy"] extends P | "both" ? C : never;
}[AnyRepairCode];

/** The codes the studio policy applies. */
export type RepairCode = CodesOf<"studio">;
/** The codes the official policy applies, in its order. */
export type AutofixCode = CodesOf<"official">;

export const AUTOFIX_CODES = ["strip-code-fence", "json-repair", "topological-order", "node-selection"] as const satisfies readonly AutofixCode[];

/** The short label of a stored code; an unknown one is shown as it is. */
export function repairLabel(code: string): string {
  return Object.hasOwn(REPAIR_CODES, code) ? REPAIR_CODES[code as AnyRepairCode].label : code;
}
