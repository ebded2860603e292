// The one registry of diagnostic codes, so an unregistered code does not compile and docs/diagnostics.md is
// generated from it; one long table on purpose, since splitting it would bring back the drift it prevents.

import type { Diagnostic, DiagnosticCategory, DiagnosticLocation, OfficialStep, Severity } from "./diagnostics";

export interface CodeSpec {
  category: DiagnosticCategory;
  severity: Severity;
  /** The step the official pipeline fails at when this problem is present (and no earlier step fails). */
  officialStep?: OfficialStep;
  /** One line for lists and legends. */
  title: string;
  /** What the problem is, why it matters and what the official pipeline does with it. */
  doc: string;
  /** A short fragment that raises it. */
  example: string;
}

const S11 = "step_1_1" as const;
const S12 = "step_1_2" as const;
const S13 = "step_1_3" as const;
const S14 = "step_1_4" as const;

/**
 * Category mapping: `format` = the response's text and the shape of the JSON and its params (what a schema would
 * reject); `graph` = ids, edges, ports, containers and connectivity; `semantics` = references and the types flowing
 * through them; `consistency` = agreement with the task (input/output variables) and with the node_selection.
 */
export const DIAGNOSTIC_CODES = {
  // -- format: the response text (step_1_1) ----------------------------------------------------------------------
  "missing-tag": {
    category: "format", severity: "error", officialStep: S11,
    title: "A tagged section is missing",
    doc: "The answer must contain `<node_selection>`, `<design_principle>` and `<workflow>` sections. The official pipeline extracts each with a case-insensitive, non-greedy pattern and fails the turn at step_1_1 when one is absent. Recorded runs store all three as null then, so which one was missing is not always known.",
    example: "<node_selection>Start, LLM, End</node_selection> and no <workflow> section",
  },
  "empty-workflow": {
    category: "format", severity: "error", officialStep: S11,
    title: "The workflow section is empty",
    doc: "The `<workflow>` tags are present but hold no JSON, so there is nothing to convert.",
    example: "<workflow>   </workflow>",
  },
  "json-comment": {
    category: "format", severity: "error", officialStep: S11,
    title: "A comment inside the JSON",
    doc: "JSON has no comments: the official `json.loads` rejects `//` and `/* */`. Explanations belong in `<design_principle>`.",
    example: '{"nodes_info": [] // the nodes',
  },
  "json-trailing-comma": {
    category: "format", severity: "error", officialStep: S11,
    title: "A trailing comma",
    doc: "A comma after the last element of an array or object is not JSON.",
    example: '["text", "1",]',
  },
  "json-mismatched-bracket": {
    category: "format", severity: "error", officialStep: S11,
    title: "Brackets that do not match",
    doc: "An array or object is closed with the other kind of bracket.",
    example: '{"edges": [["1", 0, "2"]}',
  },
  "json-unclosed-bracket": {
    category: "format", severity: "error", officialStep: S11,
    title: "An unclosed bracket",
    doc: "The text ends while an array or object is still open, usually because the answer was cut off.",
    example: '{"nodes_info": [',
  },
  "json-code-fence": {
    category: "format", severity: "error", officialStep: S11,
    title: "A code fence inside the workflow",
    doc: "A Markdown fence left inside the `<workflow>` section after the official cleaning step is not JSON.",
    example: "```json {...} ``` inside <workflow>",
  },
  "json-bad-escape": {
    category: "format", severity: "error", officialStep: S11,
    title: "An invalid escape in a string",
    doc: "Only the JSON escapes (backslash followed by one of `\" \\ / b f n r t` or `uXXXX`) are allowed inside strings.",
    example: '"C:\\data"',
  },
  "json-control-character": {
    category: "format", severity: "error", officialStep: S11,
    title: "A raw control character in a string",
    doc: "Newlines and tabs inside a string must be written as `\\n` and `\\t`; the official parser is strict about them.",
    example: "a string that spans two lines",
  },
  "json-single-quote": {
    category: "format", severity: "error", officialStep: S11,
    title: "Single-quoted strings",
    doc: "JSON strings and keys use double quotes.",
    example: "{'id': '1'}",
  },
  "json-unterminated-string": {
    category: "format", severity: "error", officialStep: S11,
    title: "A string that never ends",
    doc: "A string opens with a double quote that is never closed.",
    example: '{"id": "1}',
  },
  "json-missing-comma": {
    category: "format", severity: "error", officialStep: S11,
    title: "A missing comma",
    doc: "Two elements follow each other without a comma between them.",
    example: '["text" "1"]',
  },
  "json-too-deep": {
    category: "format", severity: "error", officialStep: S11,
    title: "Nesting too deep",
    doc: "The JSON nests deeper than the official parser's recursion limit.",
    example: "an array nested thousands of levels deep",
  },
  "json-extra-data": {
    category: "format", severity: "error", officialStep: S11,
    title: "Text after the JSON",
    doc: "Something other than whitespace follows the top-level JSON value.",
    example: '{"nodes_info": [], "edges": []} and more',
  },
  "json-syntax": {
    category: "format", severity: "error", officialStep: S11,
    title: "Another JSON syntax error",
    doc: "The workflow text is not JSON for a reason none of the more specific codes names.",
    example: "{nodes_info: []}",
  },
  "analysis-time-budget": {
    category: "format", severity: "error",
    title: "Not analysed within its time budget",
    doc: "Scoring or drawing this response took longer than its time budget (ANALYSIS_BUDGET_MS), so it was stopped; this app's verdict counts the response as failing. Not an official check: the official pipeline has no such limit.",
    example: "a response built to make a matcher rescan its text",
  },
  // -- format: top level and node shape ----------------------------------------------------------------------------
  "workflow-not-object": {
    category: "format", severity: "error", officialStep: S12,
    title: "The workflow is not an object",
    doc: "The workflow JSON must be an object with `nodes_info` and `edges`; the converter cannot read a list, string or number.",
    example: '[{"id": "1", "type": "start"}]',
  },
  "workflow-missing-nodes": {
    category: "format", severity: "error", officialStep: S12,
    title: "`nodes_info` is missing or not a list",
    doc: "The converter iterates `nodes_info`; without it (or when it is not a list) conversion fails.",
    example: '{"nodes": [...], "edges": [...]}',
  },
  "workflow-missing-edges": {
    category: "format", severity: "error", officialStep: S12,
    title: "`edges` is missing or not a list",
    doc: "The converter reads the edges first to lay out the graph; a missing key or a value that cannot be iterated fails conversion.",
    example: '{"nodes_info": [...]}',
  },
  "workflow-empty": {
    category: "format", severity: "error",
    title: "`nodes_info` is empty",
    doc: "A workflow with no nodes converts, but it cannot do anything; the variable check then fails for lack of a start node.",
    example: '{"nodes_info": [], "edges": []}',
  },
  "node-not-object": {
    category: "format", severity: "error", officialStep: S12,
    title: "A node is not an object",
    doc: "Every `nodes_info` entry must be an object with `id`, `type` and `param`.",
    example: '"nodes_info": [["1", "start"]]',
  },
  "node-missing-field": {
    category: "format", severity: "error", officialStep: S12,
    title: "A node lacks `id`, `type` or `param`",
    doc: "The converter reads all three keys of every node.",
    example: '{"id": "2", "type": "llm"}',
  },
  "node-id-not-string": {
    category: "format", severity: "error", officialStep: S12,
    title: "A node id is not a string",
    doc: "Node ids are strings such as \"2\" or \"3-1\"; the converter splits them on `-`, which fails on numbers.",
    example: '{"id": 2, "type": "llm", "param": {...}}',
  },
  "unknown-node-type": {
    category: "format", severity: "error", officialStep: S12,
    title: "An unknown node type",
    doc: "The type must be one of the 20 Chat2Workflow node types. \"template\" (the display name of template-transform) is the most common slip.",
    example: '{"id": "3", "type": "template", "param": {...}}',
  },
  "param-not-object": {
    category: "format", severity: "error", officialStep: S12,
    title: "`param` is not an object",
    doc: "A node's parameters are an object keyed by parameter name.",
    example: '{"id": "1", "type": "start", "param": []}',
  },
  "missing-param": {
    category: "format", severity: "error", officialStep: S12,
    title: "A required parameter is missing",
    doc: "The converter indexes this parameter key directly, so its absence makes conversion fail.",
    example: '{"id": "2", "type": "llm", "param": {"system": "..."}}  (no "user")',
  },
  "malformed-param": {
    category: "format", severity: "error", officialStep: S12,
    title: "A parameter the converter cannot read",
    doc: "A parameter is present but not the list or pair the converter iterates or indexes (for example a number where a list of entries is expected).",
    example: '"variables": 5',
  },
  // -- format: param shapes ----------------------------------------------------------------------------------------
  "selector-as-string": {
    category: "format", severity: "error", officialStep: S12,
    title: "A selector written as a string",
    doc: "Selectors are `[variable, nodeId]` pairs. A string is indexed character by character, so its second character is read as a node id; conversion only survives by accident.",
    example: '"variable_selector": "{{#\'1\'.text#}}"',
  },
  "flattened-selector": {
    category: "format", severity: "error", officialStep: S12,
    title: "A flattened named selector",
    doc: "Code, template and end entries are `[name, [variable, nodeId]]`; writing `[name, variable, nodeId]` puts a string where the selector should be.",
    example: '"outputs": [["result", "text", "2"]]',
  },
  "nested-aggregator-entry": {
    category: "format", severity: "error", officialStep: S12,
    title: "A nested variable-aggregator entry",
    doc: "Aggregator variables are flat `[variable, nodeId]` pairs, not `[name, [variable, nodeId]]` entries.",
    example: '"variables": [["out", ["text", "3"]]]',
  },
  "malformed-selector": {
    category: "format", severity: "error", officialStep: S12,
    title: "A selector that is not a pair of strings",
    doc: "A selector must be `[variable, nodeId]` with two strings; a list or number in the node-id position cannot be looked up.",
    example: '"variable_selector": ["text", ["2"]]',
  },
  "text-param-not-string": {
    category: "format", severity: "error", officialStep: S12,
    title: "A text parameter that is not a string",
    doc: "Prompts, templates, URLs and similar fields are text in which the converter rewrites `{{#id.var#}}` references; a list or number there fails conversion.",
    example: '"user": ["text", "1"]',
  },
  "variable-name-too-deep": {
    category: "format", severity: "error", officialStep: S12,
    title: "A variable name with more than one dot",
    doc: "One sub-field level is allowed (`file.type`); the converter splits on the dot and expects exactly two parts.",
    example: '["file.meta.type", "1"]',
  },
  "malformed-start-variable": {
    category: "format", severity: "error", officialStep: S12,
    title: "A start variable that is not `[name, type]`",
    doc: "Start variables are pairs of a name and a type such as `[\"query\", \"string\"]`.",
    example: '"variables": ["query"]',
  },
  "malformed-entry": {
    category: "format", severity: "error", officialStep: S12,
    title: "A named entry of the wrong shape",
    doc: "Code variables, template variables and end outputs are `[name, [variable, nodeId]]`.",
    example: '"outputs": [["answer"]]',
  },
  "malformed-if-else": {
    category: "format", severity: "error", officialStep: S12,
    title: "An if-else case or condition of the wrong shape",
    doc: "Cases are `[logical_operator, [[selector, operator, value], ...]]`; anything else cannot be unpacked by the converter.",
    example: '"cases": [["and", ["x", "1"]]]',
  },
  "if-else-value-not-string": {
    category: "format", severity: "error", officialStep: S12,
    title: "An if-else comparison value that is not a string",
    doc: "Comparison values are written as strings; the converter calls string methods on them.",
    example: '[["score", "1"], ">", 5]',
  },
  "malformed-list-operator": {
    category: "format", severity: "error", officialStep: S12,
    title: "A list-operator `operator` the converter cannot read",
    doc: "The operator is a list such as `[\"filter_by\", \"contains\", \"pdf\"]`, `[\"sort\", \"asc\"]` or `[\"limit\", 3]`.",
    example: '"operator": "filter"',
  },
  "malformed-parameter": {
    category: "format", severity: "error", officialStep: S12,
    title: "A parameter-extractor parameter that is too short",
    doc: "Each parameter is `[description, name, type]`; shorter entries cannot be indexed.",
    example: '"parameters": [["the city", "city"]]',
  },
  "empty-aggregator": {
    category: "format", severity: "error", officialStep: S12,
    title: "A variable-aggregator with no variables",
    doc: "The converter reads the type of the first variable to type the aggregator's output; an empty list fails.",
    example: '"variables": []',
  },
  "target-type-not-string": {
    category: "format", severity: "error", officialStep: S12,
    title: "A markdown-exporter `target_type` that is not a string",
    doc: "The target type names the output format (`pdf`, `docx`, ...) and must be a string.",
    example: '"target_type": ["pdf"]',
  },
  "param-shape": {
    category: "format", severity: "warning",
    title: "A parameter off the documented shape (tolerated)",
    doc: "The parameter deviates from the documented format but the converter happens to accept it; the workflow may still behave differently than intended.",
    example: '"system": null',
  },
  "invalid-option": {
    category: "format", severity: "warning",
    title: "A value outside the documented vocabulary",
    doc: "Type names, formats and operators have fixed vocabularies; other values convert but may not run on the platform.",
    example: '["query", "text"] as a start variable type',
  },
  // -- format: edges -----------------------------------------------------------------------------------------------
  "malformed-edge": {
    category: "format", severity: "error", officialStep: S12,
    title: "An edge that is not `[sourceId, port, targetId]`",
    doc: "Top-level edges are exactly three elements with string node ids; the layout step unpacks them and hashes the endpoints.",
    example: '["1", 0, "2", 0]',
  },
  "edge-port-not-integer": {
    category: "format", severity: "error", officialStep: S12,
    title: "A branch port that is not an integer",
    doc: "The port of an edge leaving an if-else or question-classifier indexes its branches, so it must be an integer (`1.0` fails as in Python).",
    example: '["3", "1", "4"] leaving an if-else',
  },
  "edge-ports-incomparable": {
    category: "format", severity: "error", officialStep: S12,
    title: "Ports that cannot be ordered",
    doc: "The layout sorts the edges leaving a node by port; mixing integers with strings or null cannot be sorted.",
    example: '["3", 0, "4"], ["3", "1", "5"]',
  },
  // -- graph -------------------------------------------------------------------------------------------------------
  "duplicate-node-id": {
    category: "graph", severity: "warning",
    title: "Two nodes share an id",
    doc: "Lookups resolve to the later node, so references and edges to the id silently reach only one of them.",
    example: 'two nodes with "id": "2"',
  },
  "malformed-child-id": {
    category: "graph", severity: "error", officialStep: S12,
    title: "A canvas child id that is not `<parent>-<k>`",
    doc: "Ids with a `-` name a node inside an iteration; the part after the first `-` must be an integer.",
    example: '{"id": "2-a", ...}',
  },
  "child-parent-missing": {
    category: "graph", severity: "error", officialStep: S12,
    title: "A canvas child whose parent is missing or listed later",
    doc: "A child `<parent>-<k>` is attached to its parent when it is built, so the parent must exist and come earlier in `nodes_info`.",
    example: '"3-1" listed before "3"',
  },
  "child-parent-not-iteration": {
    category: "graph", severity: "warning",
    title: "A canvas child whose parent is not an iteration",
    doc: "Only iterations hold child canvases; the child is marked as inside one anyway.",
    example: '"2-1" where "2" is an llm node',
  },
  "edge-unknown-node": {
    category: "graph", severity: "error", officialStep: S12,
    title: "An edge to or from a node that does not exist",
    doc: "Every edge endpoint must name a node in `nodes_info`.",
    example: '["1", 0, "9"] with no node "9"',
  },
  "branch-port-out-of-range": {
    category: "graph", severity: "error", officialStep: S12,
    title: "A branch port with no matching branch",
    doc: "An if-else has one port per case plus the else port; a classifier one per class. A larger port has nothing to attach to.",
    example: '["3", 2, "5"] from an if-else with one case',
  },
  "branch-not-connected": {
    category: "graph", severity: "info",
    title: "A branch with no outgoing edge",
    doc: "The branch converts, but inputs that take it end the run without output.",
    example: "an if-else whose else port has no edge",
  },
  "node-without-edges": {
    category: "graph", severity: "error", officialStep: S12,
    title: "A top-level node that no edge touches",
    doc: "The official layout only places nodes that appear in a top-level edge; any other top-level node makes conversion fail.",
    example: "a second end node that nothing connects to",
  },
  cycle: {
    category: "graph", severity: "error",
    title: "The edges form a cycle",
    doc: "Workflows are directed acyclic graphs; loops are expressed with an iteration.",
    example: '["2", 0, "3"], ["3", 0, "2"]',
  },
  "unreachable-node": {
    category: "graph", severity: "warning",
    title: "A node the start node cannot reach",
    doc: "No path of edges leads from the start node to it, so it never runs.",
    example: "a node that only has outgoing edges",
  },
  "cannot-reach-end": {
    category: "graph", severity: "warning",
    title: "A node from which no end node can be reached",
    doc: "Its result cannot contribute to the workflow's output.",
    example: "an llm node with no outgoing edge",
  },
  "edge-from-end": {
    category: "graph", severity: "warning",
    title: "An edge leaving an end node",
    doc: "An end node finishes the run; nodes after it never run.",
    example: '["5", 0, "6"] where "5" is an end node',
  },
  "missing-start": {
    category: "graph", severity: "error", officialStep: S13,
    title: "No start node",
    doc: "Without a start node the workflow has no inputs, so the official variable check (step_1_3) fails.",
    example: "nodes_info without a node of type start",
  },
  "multiple-start": {
    category: "graph", severity: "error",
    title: "More than one start node",
    doc: "A workflow has exactly one entry point.",
    example: 'two nodes of type "start"',
  },
  "start-id-not-1": {
    category: "graph", severity: "info",
    title: "The start node's id is not \"1\"",
    doc: "The documented format numbers the start node \"1\"; other ids work but read unusually.",
    example: '{"id": "0", "type": "start", ...}',
  },
  "missing-end": {
    category: "graph", severity: "error", officialStep: S13,
    title: "No end node",
    doc: "The workflow has no outputs, so the official variable check (step_1_3) fails.",
    example: "nodes_info without a node of type end",
  },
  "end-without-outputs": {
    category: "graph", severity: "error",
    title: "An end node with no outputs",
    doc: "An end node returns its `outputs`; an empty list returns nothing.",
    example: '{"type": "end", "param": {"outputs": []}}',
  },
  "iteration-start-missing": {
    category: "graph", severity: "error",
    title: "An iteration without its iteration-start",
    doc: "Each iteration's canvas begins at an iteration-start child with id `<iteration>-1`.",
    example: 'iteration "2" with no node "2-1"',
  },
  "iteration-start-misplaced": {
    category: "graph", severity: "warning",
    title: "An iteration-start in the wrong place",
    doc: "The iteration-start is the child `<iteration>-1`; elsewhere (or at top level) it starts no canvas.",
    example: '{"id": "2-3", "type": "iteration-start"}',
  },
  "iteration-output-not-child": {
    category: "graph", severity: "error", officialStep: S12,
    title: "An iteration output that is not a canvas child",
    doc: "`output_selector` must name a node `<iteration>-<k>` inside the iteration; the converter matches it while building that child.",
    example: '"output_selector": ["text", "3"] on iteration "2"',
  },
  "iteration-output-unknown": {
    category: "graph", severity: "error",
    title: "An iteration output naming no node",
    doc: "No child matches `output_selector`, so the iteration's `output` stays untyped and downstream nodes read nothing.",
    example: '"output_selector": ["text", "2-9"] with no node "2-9"',
  },
  "iteration-output-parent-missing": {
    category: "graph", severity: "error", officialStep: S12,
    title: "An iteration output child whose parent was not built",
    doc: "When the converter matches an iteration's output it looks the child's parent up by the part before `-`; that node must exist.",
    example: 'output child "7-2" with no node "7"',
  },
  "iteration-output-index": {
    category: "graph", severity: "error", officialStep: S12,
    title: "An iteration output child numbered past its position",
    doc: "The official converter finds the iteration by counting `k` nodes back from the child `<iteration>-<k>`; a child numbered higher than the nodes before it has nothing there.",
    example: '"2-9" as the output child when only four nodes precede it',
  },
  "edge-crosses-iteration": {
    category: "graph", severity: "warning",
    title: "An edge across an iteration's boundary",
    doc: "Nodes inside an iteration connect to each other; outside nodes connect to the iteration itself.",
    example: '["1", 0, "2-2"]',
  },
  "iteration-start-edge": {
    category: "graph", severity: "info",
    title: "An edge from an iteration to its own iteration-start",
    doc: "The iteration-start is attached to its iteration implicitly; the edge is redundant.",
    example: '["2", 0, "2-1"]',
  },
  // -- semantics ---------------------------------------------------------------------------------------------------
  "reference-unknown-node": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "A reference to a node that does not exist",
    doc: "Selectors and inline `{{#id.var#}}` references must name a node of `nodes_info`.",
    example: '["text", "9"] with no node "9"',
  },
  "reference-unknown-type": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "A reference to a node of unknown type",
    doc: "The referenced node exists but its type is not one of the 20 types, so the converter cannot tell what it exposes (or, for a canvas child, what its parent is).",
    example: '["output", "3"] where node "3" has type "template"',
  },
  "forward-reference": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "A reference to a node listed later",
    doc: "The converter registers nodes in `nodes_info` order, so a node can only read nodes listed before it, even when the edges run the other way.",
    example: 'node "2" reads ["text", "3"]',
  },
  "reference-iteration-start": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "A reference to the iteration-start",
    doc: "`item` and `index` are read from the iteration node itself; the iteration-start exposes nothing.",
    example: '["item", "2-1"]',
  },
  "reference-no-outputs": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "A reference to a node that exposes nothing",
    doc: "End, if-else and iteration-start nodes have no output variables; reading one fails conversion.",
    example: '["result", "5"] where "5" is an if-else',
  },
  "undeclared-code-output": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "A code output that is not declared",
    doc: "A code node exposes only the outputs it declares in `outputs`; the converter looks the type up there.",
    example: '["summary", "3"] where code node "3" declares only "result"',
  },
  "variable-name-not-string": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "A variable name that is not a string",
    doc: "The variable of a selector is looked up by name, so it must be a string.",
    example: '[["text"], "2"]',
  },
  "unknown-variable": {
    category: "semantics", severity: "warning",
    title: "A variable the node does not expose",
    doc: "The converter types unknown names on text-producing nodes as strings, so it converts, but the variable has no value at run time.",
    example: '["answer", "2"] where llm node "2" exposes "text"',
  },
  "malformed-inline-reference": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "An inline reference whose node id is not literal",
    doc: "In `{{#id.var#}}` the id must be a bare number or a quoted string; words such as `item`, `sys` or `self` name no node.",
    example: '"{{#item.text#}}"',
  },
  "reference-not-upstream": {
    category: "semantics", severity: "warning",
    title: "A reference to a node no edge path leads from",
    doc: "The referenced node is listed earlier but does not run before the reader, so its value may be missing at run time.",
    example: "reading a sibling branch's output",
  },
  "reference-into-iteration": {
    category: "semantics", severity: "warning",
    title: "A reference into an iteration from outside",
    doc: "Nodes inside an iteration run once per item; outside nodes read the iteration's `output` instead.",
    example: '["text", "2-2"] read by the end node',
  },
  "iteration-variable-outside": {
    category: "semantics", severity: "warning",
    title: "`item` or `index` read outside the iteration",
    doc: "The current item and index only exist while the iteration's canvas runs.",
    example: '["item", "2"] read by a top-level node',
  },
  "document-extractor-input-type": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "A document-extractor input that is not a file",
    doc: "The converter only accepts a `file` or `array[file]` input for the document extractor.",
    example: '"variable_selector": ["query", "1"] where query is a string',
  },
  "list-operator-input-untyped": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "A list-operator input of unknown type",
    doc: "The converter copies the input's type to the list operator; when it cannot infer one, conversion fails.",
    example: "a list operator over a mermaid-converter output",
  },
  "iteration-item-untyped": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "`item` of an iteration whose input type is unknown",
    doc: "The type of `item` is derived from the iteration's input; without one the converter fails when `item` is read.",
    example: '["item", "2"] where the iteration reads an untyped value',
  },
  "if-else-boolean-on-number": {
    category: "semantics", severity: "error", officialStep: S12,
    title: "An if-else comparing a number with true/false",
    doc: "The converter turns the comparison value into a number for number variables; 'true' and 'false' cannot be converted.",
    example: '[["count", "1"], "=", "true"]',
  },
  "inline-reference-not-rewritten": {
    category: "semantics", severity: "warning",
    title: "An inline reference in a field the converter leaves alone",
    doc: "`{{#id.var#}}` is only rewritten in prompt-like fields; in templates, code and instructions it stays literal text.",
    example: '"template": "{{#\'2\'.text#}}"',
  },
  "template-unknown-variable": {
    category: "semantics", severity: "warning",
    title: "A Jinja variable the template does not declare",
    doc: "Templates can only use the names listed in their `variables`.",
    example: '"template": "{{ summary }}" with only "text" declared',
  },
  "type-mismatch": {
    category: "semantics", severity: "warning",
    title: "A value of the wrong type for its use",
    doc: "The value's real type does not fit the parameter that reads it (for example a string where a list is iterated).",
    example: "an iteration over a string",
  },
  // -- consistency -------------------------------------------------------------------------------------------------
  "input-variable-missing": {
    category: "consistency", severity: "error", officialStep: S13,
    title: "A task input the start node does not declare",
    doc: "The official check compares the start node's variable names with the task's inputs.",
    example: 'task input "file", start declares only "query"',
  },
  "input-variable-extra": {
    category: "consistency", severity: "error", officialStep: S13,
    title: "A start variable the task does not ask for",
    doc: "The start variables must be exactly the task's inputs.",
    example: 'start declares "query" and "language"; the task asks for "query"',
  },
  "input-variables-mismatch": {
    category: "consistency", severity: "error", officialStep: S13,
    title: "Start variables that cannot be compared with the task",
    doc: "The start node's variables are not a list of names, so they cannot match the task's inputs.",
    example: '"variables": {"query": "string"}',
  },
  "end-count-mismatch": {
    category: "consistency", severity: "error", officialStep: S13,
    title: "The wrong number of end nodes",
    doc: "Tasks with several output groups expect one end node per group.",
    example: "two end nodes for a task with one output group",
  },
  "output-variables-mismatch": {
    category: "consistency", severity: "error", officialStep: S13,
    title: "End outputs that differ from the task",
    doc: "The official check compares each end node's output names with the task's outputs.",
    example: 'end outputs "answer"; the task requires "result"',
  },
  "duplicate-output-name": {
    category: "consistency", severity: "error", officialStep: S13,
    title: "An end node outputs a name twice",
    doc: "Output names of one end node must be unique.",
    example: '"outputs": [["text", ["text", "2"]], ["text", ["text", "3"]]]',
  },
  "instruction-variable-unused": {
    category: "consistency", severity: "warning",
    title: "A variable the instruction names is neither an input nor an output",
    doc: "The instruction names a variable in \"(variable X)\" form, but no start variable and no End output has that name. This check reads only the instruction's own words (never the hidden check files), so it is what feedback mode may tell a model; the official step_1_3 compares against the check files instead.",
    example: 'the instruction says "(variable summary)"; the End node outputs "result"',
  },
  "key-node-not-declared": {
    category: "consistency", severity: "error", officialStep: S14,
    title: "A key node missing from node_selection",
    doc: "The judge requires every key node type of the task to appear in `<node_selection>`.",
    example: "a translation task whose node_selection omits Document Extractor",
  },
  "node-type-undeclared": {
    category: "consistency", severity: "error", officialStep: S14,
    title: "A node type used but not selected",
    doc: "`<node_selection>` must list every node type the workflow uses.",
    example: "a workflow with a code node and node_selection without Code",
  },
  "declared-node-unused": {
    category: "consistency", severity: "error", officialStep: S14,
    title: "A selected node type the workflow does not use",
    doc: "`<node_selection>` must not list node types the workflow does not contain.",
    example: "node_selection lists HTTP Request but no node has that type",
  },
  "selection-fragment-unmapped": {
    category: "consistency", severity: "info",
    title: "A node_selection item that names no node type",
    doc: "The item could not be matched to any of the 20 node types and was ignored.",
    example: "<node_selection>Start, Magic, End</node_selection>",
  },
  // -- Coze export: why a workflow has no Coze package (never part of the official verdict) ------------------------
  "coze-no-equivalent": {
    category: "format", severity: "error",
    title: "A node type Coze has no node for",
    doc: "The official Coze converter has no equivalent for list-operator (and none for unknown types): a workflow that references one, nests one in an iteration, or contains one at all cannot be exported to Coze.",
    example: '{"id": "4", "type": "list-operator", ...}',
  },
  "coze-if-else-unvalued": {
    category: "format", severity: "error",
    title: "An if-else with no valued condition (Coze)",
    doc: "The official Coze converter takes the right-hand values of an if-else from its last valued condition; when every condition is empty / not empty / exists / not exists there is none, and the export fails. This is the most frequent reason a workflow converts for Dify but not for Coze.",
    example: '"cases": [[null, [[["text", "2"], "not empty"]]]]',
  },
  "coze-pie-data-not-integer": {
    category: "format", severity: "error",
    title: "Pie chart data Coze cannot read",
    doc: "For a pie chart the Coze export parses every `;`-separated piece of `data` as an integer and needs at least as many categories; a reference, a decimal or an empty piece fails.",
    example: '"chart_type": "pie", "data": "{{#\'3\'.values#}}"',
  },
  "coze-iteration-without-children": {
    category: "graph", severity: "error",
    title: "An iteration with no node inside (Coze)",
    doc: "A Coze batch links its first and last inner nodes to itself; an iteration whose canvas holds only its iteration-start has none, and the export fails.",
    example: 'iteration "2" whose only child is "2-1"',
  },
} as const satisfies Record<string, CodeSpec>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

export function isDiagnosticCode(code: string): code is DiagnosticCode {
  return Object.prototype.hasOwnProperty.call(DIAGNOSTIC_CODES, code);
}

export interface DiagnosticExtras {
  location?: DiagnosticLocation;
  targetNodeId?: string;
  hint?: string;
  /** Overrides the code's default severity (e.g. an unknown start variable is only a warning). */
  severity?: Severity;
  /** Overrides the default official step; `null` drops it (the condition does not fail here). */
  officialStep?: OfficialStep | null;
}

export function makeDiagnostic(code: DiagnosticCode, message: string, extras: DiagnosticExtras = {}): Diagnostic {
  const spec: CodeSpec = DIAGNOSTIC_CODES[code];
  const diagnostic: Diagnostic = { code, category: spec.category, severity: extras.severity ?? spec.severity, message };
  const step = extras.officialStep === undefined ? spec.officialStep : extras.officialStep;
  if (step) diagnostic.officialStep = step;
  if (extras.location) diagnostic.location = extras.location;
  if (extras.targetNodeId !== undefined) diagnostic.targetNodeId = extras.targetNodeId;
  if (extras.hint) diagnostic.hint = extras.hint;
  return diagnostic;
}
