// The diagnostic record every check in the scoring core emits: a registered code, a category, a severity, a human
// message and where the problem is. The codes themselves live in diagnostic-codes.ts (the registry).

import type { DiagnosticCode } from "./diagnostic-codes";

export const DIAGNOSTIC_CATEGORIES = ["format", "graph", "semantics", "consistency"] as const;
export type DiagnosticCategory = (typeof DIAGNOSTIC_CATEGORIES)[number];

export const SEVERITIES = ["error", "warning", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const OFFICIAL_STEPS = ["step_1_1", "step_1_2", "step_1_3", "step_1_4"] as const;
export type OfficialStep = (typeof OFFICIAL_STEPS)[number];

/** Which text of the response a position refers to. */
export type ResponseField = "raw" | "node_selection" | "design_principle" | "workflow";

export interface DiagnosticLocation {
  /** Id of the node the problem sits on (as written in the workflow JSON). */
  nodeId?: string;
  /** Index into the workflow's `edges` array. */
  edgeIndex?: number;
  /** Path inside the node's `param` object, e.g. ["variables", 0, 1]. */
  paramPath?: (string | number)[];
  /** Text position (1-based line and column, 0-based offset) inside `field`. */
  field?: ResponseField;
  line?: number;
  column?: number;
  offset?: number;
  length?: number;
}

export interface Diagnostic {
  /** A registered code (diagnostic-codes.ts), kebab-case, e.g. "forward-reference". */
  code: DiagnosticCode;
  category: DiagnosticCategory;
  severity: Severity;
  message: string;
  location?: DiagnosticLocation;
  /** The official pass-stage step this problem makes fail, when it does. */
  officialStep?: OfficialStep;
  /** Node id a reference points to (for dangling or forward references drawn on the canvas). */
  targetNodeId?: string;
  /** A short suggestion for fixing it. */
  hint?: string;
}
