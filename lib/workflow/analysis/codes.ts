// The registry of every diagnostic code the workflow analysis emits: category, default severity, official step.
// One table so codes stay stable, the category mapping is documented in one place, and emitters cannot drift.

import type { Diagnostic, DiagnosticCategory, DiagnosticLocation, OfficialStep, Severity } from "../diagnostics";

export interface CodeSpec {
  category: DiagnosticCategory;
  severity: Severity;
  /** The step the official pipeline fails at when this problem is present (and no earlier step fails). */
  officialStep?: OfficialStep;
  /** One line for documentation and legends. */
  summary: string;
}

const S12 = "step_1_2" as const;
const S13 = "step_1_3" as const;
const S14 = "step_1_4" as const;

/**
 * Category mapping: `format` = the shape of the JSON and its params (what a schema would reject); `graph` = ids,
 * edges, ports, containers and connectivity; `semantics` = references and the types flowing through them;
 * `consistency` = agreement with the task (input/output variables) and with the node_selection.
 */
export const ANALYSIS_CODES = {
  // -- format: top level and node shape -------------------------------------------------------------------------
  "workflow-not-object": { category: "format", severity: "error", officialStep: S12, summary: "The workflow JSON is not an object." },
  "workflow-missing-nodes": { category: "format", severity: "error", officialStep: S12, summary: "`nodes_info` is missing or not a list." },
  "workflow-missing-edges": { category: "format", severity: "error", officialStep: S12, summary: "`edges` is missing or not a list." },
  "workflow-empty": { category: "format", severity: "error", summary: "`nodes_info` is empty." },
  "node-not-object": { category: "format", severity: "error", officialStep: S12, summary: "A nodes_info entry is not an object." },
  "node-missing-field": { category: "format", severity: "error", officialStep: S12, summary: "A node lacks `id`, `type` or `param`." },
  "node-id-not-string": { category: "format", severity: "error", officialStep: S12, summary: "A node id is not a string." },
  "unknown-node-type": { category: "format", severity: "error", officialStep: S12, summary: "A node type outside the 20 known types." },
  "param-not-object": { category: "format", severity: "error", officialStep: S12, summary: "A node's `param` is not an object." },
  "missing-param": { category: "format", severity: "error", officialStep: S12, summary: "A param key the converter reads is missing." },
  // -- format: param shapes ----------------------------------------------------------------------------------------
  "selector-as-string": { category: "format", severity: "error", officialStep: S12, summary: "A selector written as a string instead of [variable, nodeId]." },
  "flattened-selector": { category: "format", severity: "error", officialStep: S12, summary: "[name, variable, nodeId] where [name, [variable, nodeId]] is required." },
  "nested-aggregator-entry": { category: "format", severity: "error", officialStep: S12, summary: "Aggregator entry [name, [variable, nodeId]] instead of a flat pair." },
  "malformed-selector": { category: "format", severity: "error", officialStep: S12, summary: "A selector that is not a [variable, nodeId] pair of strings." },
  "text-param-not-string": { category: "format", severity: "error", officialStep: S12, summary: "A text parameter given as an array or number instead of a string." },
  "variable-name-too-deep": { category: "format", severity: "error", officialStep: S12, summary: "A variable name with more than one dot (a.b.c)." },
  "malformed-start-variable": { category: "format", severity: "error", officialStep: S12, summary: "A start variable that is not [name, type]." },
  "malformed-entry": { category: "format", severity: "error", officialStep: S12, summary: "A code/template/end entry that is not [name, [variable, nodeId]]." },
  "malformed-if-else": { category: "format", severity: "error", officialStep: S12, summary: "An if-else case or condition of the wrong shape." },
  "if-else-value-not-string": { category: "format", severity: "error", officialStep: S12, summary: "An if-else comparison value that is not a string." },
  "malformed-list-operator": { category: "format", severity: "error", officialStep: S12, summary: "A list-operator `operator` the converter cannot read." },
  "malformed-parameter": { category: "format", severity: "error", officialStep: S12, summary: "A parameter-extractor parameter shorter than [description, name, type]." },
  "empty-aggregator": { category: "format", severity: "error", officialStep: S12, summary: "A variable-aggregator with no variables." },
  "target-type-not-string": { category: "format", severity: "error", officialStep: S12, summary: "A markdown-exporter `target_type` that is not a string." },
  "param-shape": { category: "format", severity: "warning", summary: "A param that deviates from the documented shape (the converter tolerates it)." },
  "invalid-option": { category: "format", severity: "warning", summary: "A value outside the documented vocabulary (type names, formats, operators)." },
  // -- format: edges -------------------------------------------------------------------------------------------------
  "malformed-edge": { category: "format", severity: "error", officialStep: S12, summary: "An edge that is not [sourceId, port, targetId]." },
  "edge-port-not-integer": { category: "format", severity: "error", officialStep: S12, summary: "A branch port that is not an integer." },
  "edge-ports-incomparable": { category: "format", severity: "error", officialStep: S12, summary: "Ports of one source that cannot be sorted together (0 and \"0\")." },
  // -- graph ---------------------------------------------------------------------------------------------------------
  "duplicate-node-id": { category: "graph", severity: "warning", summary: "Two nodes share an id (the later one wins in lookups)." },
  "malformed-child-id": { category: "graph", severity: "error", officialStep: S12, summary: "A child id whose part after `-` is not an integer." },
  "child-parent-missing": { category: "graph", severity: "error", officialStep: S12, summary: "A child id whose parent is missing or listed later." },
  "child-parent-not-iteration": { category: "graph", severity: "warning", summary: "A child id whose parent is not an iteration." },
  "edge-unknown-node": { category: "graph", severity: "error", officialStep: S12, summary: "An edge endpoint that names no node." },
  "branch-port-out-of-range": { category: "graph", severity: "error", officialStep: S12, summary: "An if-else/classifier port with no matching branch." },
  "branch-not-connected": { category: "graph", severity: "info", summary: "An if-else or classifier branch with no outgoing edge." },
  "node-without-edges": { category: "graph", severity: "error", officialStep: S12, summary: "A top-level node that appears in no top-level edge." },
  "cycle": { category: "graph", severity: "error", summary: "The edges form a cycle." },
  "unreachable-node": { category: "graph", severity: "warning", summary: "A node that cannot be reached from the start node." },
  "cannot-reach-end": { category: "graph", severity: "warning", summary: "A node from which no End node can be reached." },
  "edge-from-end": { category: "graph", severity: "warning", summary: "An edge leaving an End node." },
  "missing-start": { category: "graph", severity: "error", officialStep: S13, summary: "No start node." },
  "multiple-start": { category: "graph", severity: "error", summary: "More than one start node." },
  "start-id-not-1": { category: "graph", severity: "info", summary: "The start node's id is not \"1\"." },
  "missing-end": { category: "graph", severity: "error", officialStep: S13, summary: "No end node." },
  "end-without-outputs": { category: "graph", severity: "error", summary: "An end node with no outputs." },
  "iteration-start-missing": { category: "graph", severity: "error", summary: "An iteration without its `<id>-1` iteration-start child." },
  "iteration-start-misplaced": { category: "graph", severity: "warning", summary: "An iteration-start that is not `<iteration>-1` or sits at top level." },
  "iteration-output-not-child": { category: "graph", severity: "error", officialStep: S12, summary: "An output_selector that does not point at a direct child." },
  "iteration-output-unknown": { category: "graph", severity: "error", summary: "An output_selector naming no node (the output stays untyped)." },
  "edge-crosses-iteration": { category: "graph", severity: "warning", summary: "An edge crossing an iteration's canvas boundary." },
  "iteration-start-edge": { category: "graph", severity: "info", summary: "An edge from an iteration to its own iteration-start." },
  // -- semantics -----------------------------------------------------------------------------------------------------
  "reference-unknown-node": { category: "semantics", severity: "error", officialStep: S12, summary: "A reference to a node id that does not exist." },
  "forward-reference": { category: "semantics", severity: "error", officialStep: S12, summary: "A reference to a node listed later in nodes_info." },
  "reference-iteration-start": { category: "semantics", severity: "error", officialStep: S12, summary: "A reference to the iteration-start instead of the iteration." },
  "reference-no-outputs": { category: "semantics", severity: "error", officialStep: S12, summary: "A reference to an end or if-else node, which expose nothing." },
  "undeclared-code-output": { category: "semantics", severity: "error", officialStep: S12, summary: "A reference to a code output the code node does not declare." },
  "variable-name-not-string": { category: "semantics", severity: "error", officialStep: S12, summary: "A selector whose variable name is not a string." },
  "unknown-variable": { category: "semantics", severity: "warning", summary: "A reference to a variable the node does not expose." },
  "malformed-inline-reference": { category: "semantics", severity: "error", officialStep: S12, summary: "An inline {{#id.var#}} whose id token is not a literal (item, sys, self)." },
  "reference-not-upstream": { category: "semantics", severity: "warning", summary: "A reference to a node that no edge path leads from." },
  "reference-into-iteration": { category: "semantics", severity: "warning", summary: "A reference into an iteration canvas from outside it." },
  "iteration-variable-outside": { category: "semantics", severity: "warning", summary: "`item`/`index` read outside the iteration's canvas." },
  "document-extractor-input-type": { category: "semantics", severity: "error", officialStep: S12, summary: "A document-extractor input that is not file or array[file]." },
  "list-operator-input-untyped": { category: "semantics", severity: "error", officialStep: S12, summary: "A list-operator input whose type the converter cannot infer." },
  "iteration-item-untyped": { category: "semantics", severity: "error", officialStep: S12, summary: "`item` of an iteration whose input type is unknown." },
  "if-else-boolean-on-number": { category: "semantics", severity: "error", officialStep: S12, summary: "An if-else comparing a number variable with 'true'/'false'." },
  "inline-reference-not-rewritten": { category: "semantics", severity: "warning", summary: "{{#id.var#}} in a field the converter does not rewrite (template, code, instruction)." },
  "template-unknown-variable": { category: "semantics", severity: "warning", summary: "A Jinja {{ name }} that is not one of the template's variables." },
  "type-mismatch": { category: "semantics", severity: "warning", summary: "A value whose real type does not fit where it is used." },
  // -- consistency ---------------------------------------------------------------------------------------------------
  "input-variable-missing": { category: "consistency", severity: "error", officialStep: S13, summary: "A task input variable the start node does not declare." },
  "input-variable-extra": { category: "consistency", severity: "error", officialStep: S13, summary: "A start variable the task does not ask for." },
  "input-variables-mismatch": { category: "consistency", severity: "error", officialStep: S13, summary: "The start variables cannot be compared with the task's inputs (not a list of names)." },
  // The three output codes are produced by the official step_1_3 check (official-verdict.ts) and passed through.
  "end-count-mismatch": { category: "consistency", severity: "error", officialStep: S13, summary: "The number of end nodes differs from the task's output groups." },
  "output-variables-mismatch": { category: "consistency", severity: "error", officialStep: S13, summary: "An end node's output names differ from the task's." },
  "duplicate-output-name": { category: "consistency", severity: "error", officialStep: S13, summary: "An end node outputs the same name twice." },
  "key-node-not-declared": { category: "consistency", severity: "error", officialStep: S14, summary: "A key node type of the task missing from node_selection." },
  "node-type-undeclared": { category: "consistency", severity: "error", officialStep: S14, summary: "A node type used in the workflow but not in node_selection." },
  "declared-node-unused": { category: "consistency", severity: "error", officialStep: S14, summary: "A node type in node_selection that the workflow does not use." },
  "selection-fragment-unmapped": { category: "consistency", severity: "info", summary: "A node_selection item that names no node type." },
} as const satisfies Record<string, CodeSpec>;

export type AnalysisCode = keyof typeof ANALYSIS_CODES;

export interface DiagnosticExtras {
  location?: DiagnosticLocation;
  targetNodeId?: string;
  hint?: string;
  /** Overrides the code's default severity (e.g. an unknown start variable is only a warning). */
  severity?: Severity;
  /** Overrides the default official step; `null` drops it (the condition does not fail here). */
  officialStep?: OfficialStep | null;
}

export function makeDiagnostic(code: AnalysisCode, message: string, extras: DiagnosticExtras = {}): Diagnostic {
  const spec: CodeSpec = ANALYSIS_CODES[code];
  const diagnostic: Diagnostic = { code, category: spec.category, severity: extras.severity ?? spec.severity, message };
  const step = extras.officialStep === undefined ? spec.officialStep : extras.officialStep;
  if (step) diagnostic.officialStep = step;
  if (extras.location) diagnostic.location = extras.location;
  if (extras.targetNodeId !== undefined) diagnostic.targetNodeId = extras.targetNodeId;
  if (extras.hint) diagnostic.hint = extras.hint;
  return diagnostic;
}
