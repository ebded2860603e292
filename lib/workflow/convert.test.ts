import { describe, expect, it } from "vitest";
import { conversionFailure, convertWorkflow, findInlineReferences, readInlineIdToken, type Conversion, type DifyNode } from "./convert";
import { DIAGNOSTIC_CODES } from "./diagnostic-codes";
import type { Diagnostic } from "./diagnostics";
import { parsePyJson } from "./json-text";
import type { JsonValue } from "./python-values";

// -- builders ------------------------------------------------------------------------------------------------------

type Node = { id: JsonValue; type: JsonValue; param: JsonValue };

const START_VARS = [
  ["q", "string"],
  ["n", "number"],
  ["doc", "file"],
  ["docs", "array[file]"],
  ["flag", "boolean"],
];
const start = (variables: JsonValue = START_VARS): Node => ({ id: "1", type: "start", param: { variables } });
const llm = (id: string, user = "{{#'1'.q#}}"): Node => ({ id, type: "llm", param: { system: "", user } });
const end = (id: string, outputs: JsonValue): Node => ({ id, type: "end", param: { outputs } });
const code = (id: string, variables: JsonValue, outputs: JsonValue = [["out", "string"]]): Node => ({
  id,
  type: "code",
  param: { variables, outputs, code: "def main(x):\n\treturn {'out': x}" },
});

/** Top-level nodes chained in list order (children are left to the caller). */
function workflow(nodes: Node[], extraEdges: JsonValue[] = []): { nodes_info: Node[]; edges: JsonValue[] } {
  const top = nodes.filter((n) => typeof n.id === "string" && !n.id.includes("-")).map((n) => n.id as string);
  const edges: JsonValue[] = [];
  for (let i = 0; i + 1 < top.length; i++) edges.push([top[i] as string, 0, top[i + 1] as string]);
  return { nodes_info: nodes, edges: [...edges, ...extraEdges] };
}

/** An iteration "2" over start.docs with a document extractor and an llm inside, output ["text", "2-3"]. */
function iterationWorkflow(overrides: { inner?: Node[]; outputSelector?: JsonValue; iterator?: JsonValue } = {}): Node[] {
  return [
    start(),
    {
      id: "2",
      type: "iteration",
      param: {
        iterator_selector: overrides.iterator ?? ["docs", "1"],
        output_selector: "outputSelector" in overrides ? (overrides.outputSelector ?? null) : ["text", "2-3"],
      },
    },
    ...(overrides.inner ?? [
      { id: "2-1", type: "iteration-start", param: {} },
      { id: "2-2", type: "document-extractor", param: { variable_selector: ["item", "2"] } },
      llm("2-3", "Summarise {{#'2-2'.text#}}"),
    ]),
    end("3", [["summaries", ["output", "2"]]]),
  ];
}

function convertValue(value: unknown): ReturnType<typeof convertWorkflow> {
  return convertWorkflow(value as JsonValue);
}

/** Converts JSON text with the Python int/float distinction (as parseResponse hands it over). */
function convertText(text: string): ReturnType<typeof convertWorkflow> {
  const parsed = parsePyJson(text);
  if (!parsed.ok) throw new Error(parsed.problem.message);
  return convertWorkflow(parsed.value, { floats: parsed.floats });
}

function failure(result: ReturnType<typeof convertWorkflow>): Diagnostic {
  if (result.ok) throw new Error("expected the conversion to fail");
  expect(result.issues).toHaveLength(1);
  return result.issues[0] as Diagnostic;
}

function success(result: ReturnType<typeof convertWorkflow>): Conversion {
  if (!result.ok) throw new Error(`expected success, got ${result.issues[0]?.code}: ${result.issues[0]?.message}`);
  return result.value;
}

function nodeByTitle(conversion: Conversion, title: string): DifyNode {
  const node = conversion.graph.nodes.find((n) => n.data.title === title);
  if (!node) throw new Error(`no node titled ${title}`);
  return node;
}

// -- §3.2 failures -------------------------------------------------------------------------------------------------

interface FailureCase {
  name: string;
  value: unknown;
  code: string;
  location?: Record<string, unknown>;
  message?: RegExp;
}

const TOP_LEVEL_AND_EDGES: FailureCase[] = [
  { name: "the JSON is an array", value: [], code: "workflow-not-object", message: /an array/ },
  { name: "the JSON is a number", value: 5, code: "workflow-not-object" },
  { name: "edges is missing", value: { nodes_info: [] }, code: "workflow-missing-edges" },
  { name: "nodes_info is missing", value: { edges: [] }, code: "workflow-missing-nodes" },
  { name: "edges is a number", value: { nodes_info: [], edges: 3 }, code: "workflow-missing-edges" },
  { name: "an edge is a number", value: { nodes_info: [], edges: [5] }, code: "malformed-edge", location: { edgeIndex: 0 } },
  { name: "an edge is empty", value: { nodes_info: [], edges: [[]] }, code: "malformed-edge" },
  { name: "an edge is an object", value: { nodes_info: [], edges: [{ source: "1" }] }, code: "malformed-edge" },
  {
    name: "an edge source is a number",
    value: { nodes_info: [start()], edges: [[1, 0, "2"]] },
    code: "malformed-edge",
    location: { edgeIndex: 0 },
  },
  {
    name: "a top-level edge has 4 elements",
    value: workflow([start(), llm("2")], [["2", 0, "1", 0]]),
    code: "malformed-edge",
    location: { edgeIndex: 1 },
    message: /4 elements/,
  },
  { name: "a top-level edge has 2 elements", value: { nodes_info: [start()], edges: [["1", "2"]] }, code: "malformed-edge" },
  {
    name: "an edge target is an array",
    value: { nodes_info: [start()], edges: [["1", 0, ["2"]]] },
    code: "malformed-edge",
  },
  {
    name: "an edge source is an array (no '-' in it, so it counts as top-level)",
    value: { nodes_info: [start()], edges: [[["1"], 0, "2"]] },
    code: "malformed-edge",
  },
  {
    name: "one source's ports mix numbers and strings",
    value: workflow([start(), llm("2"), llm("3")], [["1", "1", "3"]]),
    code: "edge-ports-incomparable",
  },
  {
    name: "one source's ports are both null (None < None raises)",
    value: { nodes_info: [start(), llm("2"), llm("3")], edges: [["1", null, "2"], ["1", null, "3"]] },
    code: "edge-ports-incomparable",
  },
  {
    name: "an edge target is a number (hashable, but it places no node id)",
    value: { nodes_info: [start(), llm("2")], edges: [["1", 0, 2]] },
    code: "node-without-edges",
    location: { nodeId: "2" },
  },
  {
    name: "a later edge is malformed after edges with string ports",
    value: { nodes_info: [start(), llm("2"), llm("3")], edges: [["1", "a", "2"], ["2", 0, "3"], ["3", 0]] },
    code: "malformed-edge",
    location: { edgeIndex: 2 },
  },
];

const NODE_STRUCTURE: FailureCase[] = [
  { name: "a node is a string", value: { nodes_info: ["1"], edges: [] }, code: "node-not-object" },
  { name: "a node has no type", value: workflow([{ id: "1", param: {} } as unknown as Node]), code: "node-missing-field" },
  { name: "a node has no param", value: workflow([{ id: "1", type: "start" } as unknown as Node]), code: "node-missing-field" },
  { name: "a node has no id", value: workflow([{ type: "start", param: { variables: [] } } as unknown as Node]), code: "node-missing-field" },
  {
    name: "a node id is a number",
    value: { nodes_info: [{ id: 1, type: "start", param: { variables: [] } }], edges: [["1", 0, "2"]] },
    code: "node-id-not-string",
  },
  {
    name: "a child id has no integer after the dash",
    value: workflow(iterationWorkflow({ inner: [{ id: "2-x", type: "iteration-start", param: {} }], outputSelector: null })),
    code: "malformed-child-id",
    location: { nodeId: "2-x" },
  },
  {
    name: "a top-level node is in no top-level edge",
    value: { nodes_info: [start(), llm("2"), llm("3")], edges: [["1", 0, "2"]] },
    code: "node-without-edges",
    location: { nodeId: "3" },
  },
  {
    name: "a top-level iteration has no output_selector",
    value: workflow([start(), { id: "2", type: "iteration", param: { iterator_selector: ["docs", "1"] } }]),
    code: "missing-param",
    location: { nodeId: "2", paramPath: ["output_selector"] },
  },
  {
    name: "a canvas child is listed before its parent",
    value: workflow([start(), { id: "3-1", type: "iteration-start", param: {} }, llm("3")]),
    code: "child-parent-missing",
    location: { nodeId: "3-1" },
  },
  {
    name: "a canvas child names a parent that does not exist",
    value: workflow([start(), llm("2"), { id: "9-1", type: "iteration-start", param: {} }]),
    code: "child-parent-missing",
    location: { nodeId: "9-1" },
  },
  {
    name: "a canvas child belongs to a node of unknown type",
    value: workflow([start(), { id: "2", type: "loop", param: {} }, { id: "2-1", type: "iteration-start", param: {} }]),
    code: "reference-unknown-type",
  },
  {
    name: "a canvas child has an unknown type (fails at once)",
    value: workflow(iterationWorkflow({ inner: [{ id: "2-1", type: "iteration-begin", param: {} }], outputSelector: null })),
    code: "unknown-node-type",
    location: { nodeId: "2-1" },
  },
  {
    name: "a top-level node has an unknown type and nobody references it (fails when its edges are emitted)",
    value: workflow([start(), { id: "2", type: "template", param: { template: "x", variables: [] } }]),
    code: "unknown-node-type",
    message: /template-transform|not a Chat2Workflow node type/,
  },
  {
    name: "a node references a top-level node of unknown type",
    value: workflow([start(), { id: "2", type: "template", param: {} }, end("3", [["o", ["output", "2"]]])]),
    code: "reference-unknown-type",
    location: { nodeId: "3", paramPath: ["outputs", 0, 1] },
  },
];

const SELECTORS: FailureCase[] = [
  {
    name: "a selector is a number",
    value: workflow([start(), { id: "2", type: "document-extractor", param: { variable_selector: 5 } }]),
    code: "malformed-selector",
  },
  {
    name: "a selector has one element",
    value: workflow([start(), { id: "2", type: "document-extractor", param: { variable_selector: ["doc"] } }]),
    code: "malformed-selector",
  },
  {
    name: "an aggregator entry is nested [name, [var, id]]",
    value: workflow([start(), llm("2"), { id: "3", type: "variable-aggregator", param: { variables: [["answer", ["text", "2"]]] } }]),
    code: "malformed-selector",
    location: { nodeId: "3", paramPath: ["variables", 0] },
  },
  {
    name: "a selector names a node that does not exist",
    value: workflow([start(), end("2", [["o", ["q", "9"]]])]),
    code: "reference-unknown-node",
    location: { nodeId: "2", paramPath: ["outputs", 0, 1] },
  },
  {
    name: "a selector has id and variable swapped",
    value: workflow([start(), end("2", [["o", ["1", "q"]]])]),
    code: "reference-unknown-node",
  },
  {
    name: "a selector names a node listed later (forward reference)",
    value: workflow([start(), end("2", [["o", ["text", "3"]]]), llm("3")]),
    code: "forward-reference",
    location: { nodeId: "2", paramPath: ["outputs", 0, 1] },
  },
  {
    name: "a selector reads from an end node",
    value: workflow([start(), end("2", [["o", ["q", "1"]]]), { id: "3", type: "variable-aggregator", param: { variables: [["o", "2"]] } }]),
    code: "reference-no-outputs",
  },
  {
    name: "a selector reads from an if-else node",
    value: workflow([
      start(),
      { id: "2", type: "if-else", param: { cases: [[null, [[["q", "1"], "empty"]]]] } },
      end("3", [["o", ["result", "2"]]]),
    ]),
    code: "reference-no-outputs",
  },
  {
    name: "a canvas child reads item from the iteration-start instead of the iteration",
    value: workflow(
      iterationWorkflow({
        inner: [
          { id: "2-1", type: "iteration-start", param: {} },
          { id: "2-2", type: "document-extractor", param: { variable_selector: ["item", "2-1"] } },
          llm("2-3"),
        ],
      }),
    ),
    code: "reference-no-outputs",
    location: { nodeId: "2-2", paramPath: ["variable_selector"] },
    message: /iteration-start/,
  },
  {
    name: "a selector reads an undeclared code output",
    value: workflow([start(), code("2", [["x", ["q", "1"]]]), end("3", [["o", ["result", "2"]]])]),
    code: "undeclared-code-output",
  },
  {
    name: "a canvas child reads item of an iteration whose input has no type",
    value: workflow([
      start(),
      { id: "2", type: "mermaid-converter", param: { mermaid_code: "graph TD; A-->B" } },
      { id: "3", type: "iteration", param: { iterator_selector: ["files", "2"], output_selector: ["text", "3-2"] } },
      { id: "3-1", type: "iteration-start", param: {} },
      llm("3-2", "Describe {{#'3'.item#}}"),
      { id: "3-3", type: "code", param: { variables: [["x", ["item", "3"]]], outputs: [["o", "string"]], code: "" } },
    ]),
    code: "iteration-item-untyped",
    location: { nodeId: "3-3" },
  },
  {
    name: "a code entry is flattened [name, var, id] (the string is indexed by character)",
    value: workflow([start(), code("2", [["x", "q", "1"]])]),
    code: "malformed-selector",
    message: /flattened/,
  },
  {
    name: "an end entry is flattened with a longer variable name",
    value: workflow([start(), end("2", [["o", "query", "1"]])]),
    code: "reference-unknown-node",
  },
  {
    name: "a code entry has one element",
    value: workflow([start(), code("2", [["x"]])]),
    code: "malformed-entry",
    location: { nodeId: "2", paramPath: ["variables", 0] },
  },
  {
    name: "an end entry is a string (its second character is read as the selector)",
    value: workflow([start(), end("2", ["ab"])]),
    code: "malformed-selector",
    location: { nodeId: "2", paramPath: ["outputs", 0, 1] },
  },
  {
    name: "a code output has one element",
    value: workflow([start(), code("2", [["x", ["q", "1"]]], [["out"]])]),
    code: "malformed-param",
    location: { nodeId: "2", paramPath: ["outputs", 0] },
  },
  {
    name: "a code output is a one-character string",
    value: workflow([start(), code("2", [["x", ["q", "1"]]], ["o"])]),
    code: "malformed-param",
    location: { nodeId: "2", paramPath: ["outputs", 0] },
  },
  {
    name: "a variable name has two dots",
    value: workflow([start(), end("2", [["o", ["doc.type.x", "1"]]])]),
    code: "variable-name-too-deep",
  },
  {
    name: "an aggregated variable name has two dots",
    value: workflow([start(), { id: "2", type: "variable-aggregator", param: { variables: [["q", "1"], ["doc.type.x", "1"]] } }]),
    code: "variable-name-too-deep",
    location: { nodeId: "2", paramPath: ["variables", 1, 0] },
  },
  {
    name: "a code input's variable is a list holding a dot (typed as a dotted name, then not a string)",
    value: workflow([start(), code("2", [["x", [["doc", "."], "1"]]])]),
    code: "variable-name-not-string",
    location: { nodeId: "2", paramPath: ["variables", 0, 1, 0] },
  },
];

const TEXT_FIELDS: FailureCase[] = [
  {
    name: "an llm prompt is a selector array",
    value: workflow([start(), { id: "2", type: "llm", param: { system: "", user: ["q", "1"] } }]),
    code: "text-param-not-string",
    location: { nodeId: "2", paramPath: ["user"] },
  },
  {
    name: "markdown md_text is an array",
    value: workflow([start(), llm("2"), { id: "3", type: "markdown-exporter", param: { target_type: "pdf", md_text: ["text", "2"] } }]),
    code: "text-param-not-string",
  },
  {
    name: "an inline reference names `item` instead of an id",
    value: workflow([start(), llm("2", "Use {{#item.name#}}")]),
    code: "malformed-inline-reference",
  },
  {
    name: "an inline reference names `sys`",
    value: workflow([start(), llm("2", "{{#sys.query#}}")]),
    code: "malformed-inline-reference",
  },
  {
    name: "a dot-less reference runs on into the next one",
    value: workflow([start(), llm("2", "{{#item#}} and {{#'1'.q#}}")]),
    code: "malformed-inline-reference",
  },
  {
    name: "an inline reference names an unknown node",
    value: workflow([start(), llm("2", "{{#'7'.text#}}")]),
    code: "reference-unknown-node",
  },
  {
    name: "an inline reference names a later node",
    value: workflow([start(), llm("2", "{{#'3'.text#}}"), llm("3")]),
    code: "forward-reference",
    location: { nodeId: "2", paramPath: ["user"], offset: 0 },
  },
  {
    name: "an inline reference names a node of unknown type",
    value: workflow([start(), { id: "2", type: "template", param: {} }, llm("3", "{{#'2'.output#}}")]),
    code: "reference-unknown-type",
  },
];

const TYPE_SPECIFIC: FailureCase[] = [
  {
    name: "parameter-extractor has no instruction",
    value: workflow([start(), { id: "2", type: "parameter-extractor", param: { query: ["q", "1"], parameters: [["d", "x", "string"]] } }]),
    code: "missing-param",
    location: { nodeId: "2", paramPath: ["instruction"] },
  },
  {
    name: "echarts has no x_axisORcategories",
    value: workflow([start(), { id: "2", type: "echarts", param: { chart_type: "bar", chart_title: "t", data: "1;2" } }]),
    code: "missing-param",
  },
  {
    name: "google-search has no query",
    value: workflow([start(), { id: "2", type: "google-search", param: {} }]),
    code: "missing-param",
  },
  {
    name: "param is an array",
    value: workflow([start(), { id: "2", type: "llm", param: [] }]),
    code: "param-not-object",
  },
  { name: "a start variable has one element", value: workflow([start([["q"]]), llm("2", "x")]), code: "malformed-start-variable" },
  { name: "a start variable is a number", value: workflow([start([5]), llm("2", "x")]), code: "malformed-start-variable" },
  {
    name: "a document extractor reads a string",
    value: workflow([start(), { id: "2", type: "document-extractor", param: { variable_selector: ["q", "1"] } }]),
    code: "document-extractor-input-type",
  },
  {
    name: "a document extractor reads a start variable declared `image`",
    value: workflow([start([["pic", "image"]]), { id: "2", type: "document-extractor", param: { variable_selector: ["pic", "1"] } }]),
    code: "document-extractor-input-type",
  },
  {
    name: "a list operator reads mermaid files (typed null officially)",
    value: workflow([
      start(),
      { id: "2", type: "mermaid-converter", param: { mermaid_code: "x" } },
      { id: "3", type: "list-operator", param: { variable: ["files", "2"], operator: ["extract_by", 1] } },
    ]),
    code: "list-operator-input-untyped",
  },
  {
    name: "a list operator has an empty operator",
    value: workflow([start(), { id: "2", type: "list-operator", param: { variable: ["docs", "1"], operator: [] } }]),
    code: "malformed-list-operator",
  },
  {
    name: "filter_by has two elements (even `empty` needs three)",
    value: workflow([start(), { id: "2", type: "list-operator", param: { variable: ["docs", "1"], operator: ["filter_by", "empty"] } }]),
    code: "malformed-list-operator",
  },
  {
    name: "extract_by has no count",
    value: workflow([start(), { id: "2", type: "list-operator", param: { variable: ["docs", "1"], operator: ["extract_by"] } }]),
    code: "malformed-list-operator",
  },
  {
    name: "an if-else case is a string",
    value: workflow([start(), { id: "2", type: "if-else", param: { cases: ["and"] } }]),
    code: "malformed-if-else",
  },
  {
    name: "an if-else condition is flattened with a one-letter variable (indexing the string fails)",
    value: workflow([start(), { id: "2", type: "if-else", param: { cases: [[null, [["q", "1", "empty"]]]] } }]),
    code: "malformed-if-else",
  },
  {
    name: "an if-else condition is empty",
    value: workflow([start(), { id: "2", type: "if-else", param: { cases: [[null, [[]]]] } }]),
    code: "malformed-if-else",
  },
  {
    name: "an if-else condition is flattened [var, id, op]",
    value: workflow([start(), { id: "2", type: "if-else", param: { cases: [[null, [["query", "1", "empty"]]]] } }]),
    code: "reference-unknown-node",
    message: /not \[variable, nodeId, operator\]/,
  },
  {
    name: "an if-else value is a number",
    value: workflow([start(), { id: "2", type: "if-else", param: { cases: [[null, [[["n", "1"], "=", 5]]]] } }]),
    code: "text-param-not-string",
    location: { nodeId: "2", paramPath: ["cases", 0, 1, 0, 2] },
  },
  {
    name: "a number variable is compared with 'true'",
    value: workflow([start(), { id: "2", type: "if-else", param: { cases: [[null, [[["n", "1"], "=", "true"]]]] } }]),
    code: "if-else-boolean-on-number",
  },
  {
    name: "a variable aggregator has no variables",
    value: workflow([start(), { id: "2", type: "variable-aggregator", param: { variables: [] } }]),
    code: "empty-aggregator",
  },
  {
    name: "a parameter entry has two elements",
    value: workflow([
      start(),
      { id: "2", type: "parameter-extractor", param: { query: ["q", "1"], parameters: [["desc", "x"]], instruction: "" } },
    ]),
    code: "malformed-parameter",
  },
  {
    name: "markdown target_type is not a string",
    value: workflow([start(), { id: "2", type: "markdown-exporter", param: { target_type: 3, md_text: "x" } }]),
    code: "target-type-not-string",
  },
];

const ITERATION_OUTPUT: FailureCase[] = [
  {
    name: "output_selector points at a top-level node",
    value: workflow([...iterationWorkflow({ outputSelector: ["text", "4"] }), llm("4")]),
    code: "iteration-output-not-child",
    location: { nodeId: "4" },
  },
  {
    name: "output_selector points at the iteration itself",
    value: workflow(iterationWorkflow({ outputSelector: ["output", "2"] })),
    code: "iteration-output-not-child",
  },
  {
    name: "output_selector reads an undeclared output of the child",
    value: workflow(
      iterationWorkflow({
        outputSelector: ["missing", "2-2"],
        inner: [{ id: "2-1", type: "iteration-start", param: {} }, code("2-2", [["x", ["item", "2"]]])],
      }),
    ),
    code: "undeclared-code-output",
  },
  {
    name: "output_selector's child index reaches before the first node",
    value: workflow(
      iterationWorkflow({
        outputSelector: ["text", "2-9"],
        inner: [{ id: "2-1", type: "iteration-start", param: {} }, llm("2-9")],
      }),
    ),
    code: "iteration-output-index",
  },
  {
    name: "output_selector is an empty list",
    value: workflow(iterationWorkflow({ outputSelector: [] })),
    code: "malformed-selector",
  },
];

const EDGES_AFTER_NODES: FailureCase[] = [
  {
    name: "a canvas edge names an unknown node",
    value: workflow(iterationWorkflow(), [["2-2", 0, "2-7"]]),
    code: "edge-unknown-node",
    location: { edgeIndex: 2 },
  },
  {
    name: "a classifier edge uses a port past the last class",
    value: workflow(
      [start(), { id: "2", type: "question-classifier", param: { query_variable_selector: ["q", "1"], classes: ["a", "b"] } }, llm("3")],
      [["2", 2, "3"]],
    ),
    code: "branch-port-out-of-range",
    message: /ports 0\.\.1/,
  },
  {
    name: "an if-else edge uses the port string \"0\"",
    value: {
      nodes_info: [start(), { id: "2", type: "if-else", param: { cases: [[null, [[["q", "1"], "empty"]]]] } }, llm("3")],
      edges: [["1", 0, "2"], ["2", "0", "3"]],
    },
    code: "edge-port-not-integer",
  },
];

describe("convertWorkflow: every official failure condition (§3.2)", () => {
  const groups: [string, FailureCase[]][] = [
    ["top level and edges, before any node", TOP_LEVEL_AND_EDGES],
    ["node structure", NODE_STRUCTURE],
    ["selectors", SELECTORS],
    ["text fields", TEXT_FIELDS],
    ["type-specific", TYPE_SPECIFIC],
    ["iteration output matching", ITERATION_OUTPUT],
    ["edges after all nodes", EDGES_AFTER_NODES],
  ];
  for (const [group, cases] of groups) {
    describe(group, () => {
      it.each(cases.map((c) => [c.name, c] as const))("fails when %s", (_name, c) => {
        const diagnostic = failure(convertValue(c.value));
        expect(diagnostic.code).toBe(c.code);
        expect(diagnostic.officialStep).toBe("step_1_2");
        expect(diagnostic.severity).toBe("error");
        // The category is the registry's for the code, the same whoever emits it.
        expect(diagnostic.category).toBe(DIAGNOSTIC_CODES[diagnostic.code].category);
        if (c.location) expect(diagnostic.location).toMatchObject(c.location);
        if (c.message) expect(diagnostic.message).toMatch(c.message);
        expect(diagnostic.message).not.toContain("\n");
      });
      it.each(cases.map((c) => [c.name, c] as const))("fails the check-only conversion the same way when %s", (_name, c) => {
        expect(conversionFailure(c.value as JsonValue)).toEqual(failure(convertValue(c.value)));
      });
    });
  }

  it("passes in check-only mode what the full conversion converts, whatever the edges' ports and ends", () => {
    const nodes = [start(), llm("2"), llm("3"), llm("4")];
    const shapes: [string, JsonValue[]][] = [
      ["number and boolean ports", [["1", 0, "2"], ["1", true, "3"], ["1", 1.5, "4"]]],
      ["string ports of one source", [["1", "b", "2"], ["1", "a", "3"], ["3", 0, "4"]]],
    ];
    for (const [shape, edges] of shapes) {
      const value = { nodes_info: nodes, edges } as unknown as JsonValue;
      expect(convertWorkflow(value).ok, shape).toBe(true);
      expect(conversionFailure(value), shape).toBeNull();
    }
  });

  it("rejects a branch port written as a float literal, which Python cannot use as a list index", () => {
    const text = (port: string): string =>
      `{"nodes_info":[{"id":"1","type":"start","param":{"variables":[["q","string"]]}},` +
      `{"id":"2","type":"if-else","param":{"cases":[[null,[[["q","1"],"empty"]]]]}},` +
      `{"id":"3","type":"llm","param":{"system":"","user":"x"}}],` +
      `"edges":[["1",0,"2"],["2",${port},"3"]]}`;
    expect(failure(convertText(text("1.0"))).code).toBe("edge-port-not-integer");
    expect(failure(convertText(text("1e0"))).code).toBe("edge-port-not-integer");
    expect(success(convertText(text("1"))).edgeHandles[1]).toBe("false");
  });

  it("reports the first failing condition in processing order (edges before nodes)", () => {
    const value = { nodes_info: [{ id: "1", type: "template", param: {} }], edges: [["1", 0, "2", 0]] };
    expect(failure(convertValue(value)).code).toBe("malformed-edge");
  });

  it("reports the first failing node in nodes_info order", () => {
    const value = workflow([start(), llm("2", "{{#item.x#}}"), end("3", [["o", ["q", "9"]]])]);
    const diagnostic = failure(convertValue(value));
    expect(diagnostic.code).toBe("malformed-inline-reference");
    expect(diagnostic.location?.nodeId).toBe("2");
  });

  it("names the target of a dangling or forward reference", () => {
    const diagnostic = failure(convertValue(workflow([start(), end("2", [["o", ["text", "3"]]]), llm("3")])));
    expect(diagnostic.targetNodeId).toBe("3");
    expect(diagnostic.message).toMatch(/defined later/);
  });
});

// -- §3.3 accepted -------------------------------------------------------------------------------------------------

describe("convertWorkflow: what the official converter silently accepts (§3.3)", () => {
  it("accepts duplicate ids, the later node winning lookups", () => {
    const result = success(convertValue(workflow([start(), llm("2"), code("2", [["x", ["q", "1"]]]), end("3", [["o", ["out", "2"]]])])));
    const endNode = nodeByTitle(result, "End");
    const codeNode = nodeByTitle(result, "Code");
    expect((endNode.data.outputs as { value_selector: string[] }[])[0]?.value_selector).toEqual([codeNode.id, "out"]);
  });

  it("accepts unknown variable names on llm, template, classifier, http, start and parameter-extractor", () => {
    const nodes: Node[] = [
      start(),
      llm("2"),
      { id: "3", type: "template-transform", param: { variables: [["a", ["nope", "2"]]], template: "{{a}}" } },
      { id: "4", type: "question-classifier", param: { query_variable_selector: ["nope", "3"], classes: ["x", "y"] } },
      { id: "5", type: "http-request", param: { url: ["nope", "1"] } },
      { id: "6", type: "parameter-extractor", param: { query: ["nope", "5"], parameters: [["d", "p", "string"]], instruction: "" } },
      end("7", [["a", ["nope", "6"]], ["b", ["nope", "1"]]]),
    ];
    const result = success(convertValue(workflow(nodes)));
    const outputs = nodeByTitle(result, "End").data.outputs as { value_type: unknown }[];
    // Unknown names on parameter-extractor and start resolve to a null type, not an error.
    expect(outputs.map((o) => o.value_type)).toEqual([null, null]);
  });

  it("accepts operator strings outside the vocabulary and start types outside the list", () => {
    const nodes: Node[] = [
      start([["q", "paragraph"], ["x", "text"]]),
      { id: "2", type: "if-else", param: { cases: [[null, [[["q", "1"], "resembles", "foo"]]]] } },
      llm("3"),
    ];
    success(convertValue(workflow(nodes)));
  });

  it("accepts non-zero ports on non-branching nodes", () => {
    success(convertValue({ nodes_info: [start(), llm("2")], edges: [["1", 7, "2"]] }));
  });

  it("accepts an iteration -> iteration-start edge and edges crossing the canvas", () => {
    success(convertValue(workflow(iterationWorkflow(), [["2", 0, "2-1"], ["2-1", 0, "2-2"], ["2-3", 0, "3"]])));
  });

  it("accepts an output_selector that is null (output type stays null)", () => {
    const result = success(convertValue(workflow(iterationWorkflow({ outputSelector: null }))));
    expect(nodeByTitle(result, "Iteration").data.output_type).toBeNull();
  });

  it("accepts an iteration whose output child was built before it (output type stays null)", () => {
    const nodes: Node[] = [
      ...iterationWorkflow().slice(0, -1),
      { id: "4", type: "iteration", param: { iterator_selector: ["docs", "1"], output_selector: ["text", "2-3"] } },
      end("3", [["a", ["output", "2"]], ["b", ["output", "4"]]]),
    ];
    const result = success(convertValue(workflow(nodes)));
    expect(nodeByTitle(result, "Iteration 2").data.output_type).toBeNull();
    expect(nodeByTitle(result, "Iteration").data.output_type).toBe("array[string]");
  });

  it("accepts an if-else case with an empty condition list as an extra case", () => {
    const result = success(
      convertValue(
        workflow(
          [start(), { id: "2", type: "if-else", param: { cases: [[null, [[["q", "1"], "empty"]]], [null, []]] } }, llm("3"), llm("4"), llm("5")],
          [["2", 1, "4"], ["2", 2, "5"]],
        ),
      ),
    );
    expect(result.edgeHandles.slice(-3)).toHaveLength(3);
    expect(result.edgeHandles.at(-1)).toBe("false");
  });

  it("accepts an iteration-start at top level", () => {
    success(convertValue(workflow([start(), { id: "2", type: "iteration-start", param: {} }])));
  });

  it("accepts nested iterations, ignoring the inner output_selector", () => {
    const nodes: Node[] = [
      start(),
      { id: "2", type: "iteration", param: { iterator_selector: ["docs", "1"], output_selector: ["output", "2-2"] } },
      { id: "2-1", type: "iteration-start", param: {} },
      { id: "2-2", type: "iteration", param: { iterator_selector: ["docs", "1"], output_selector: ["nonsense", "9-9"] } },
      end("3", [["o", ["output", "2"]]]),
    ];
    success(convertValue(workflow(nodes)));
  });

  it("accepts a workflow without start or end nodes", () => {
    success(convertValue(workflow([llm("1", "hello"), llm("2", "{{#'1'.text#}}")])));
  });

  it("accepts a negative branch port (Python indexing: -1 is ELSE) and True as port 1", () => {
    const result = success(
      convertValue({
        nodes_info: [
          start(),
          { id: "2", type: "if-else", param: { cases: [[null, [[["q", "1"], "empty"]]], ["or", [[["n", "1"], ">", "3"]]]] } },
          llm("3"),
          llm("4"),
        ],
        edges: [["1", 0, "2"], ["2", -1, "3"], ["2", true, "4"]],
      }),
    );
    const ifElse = nodeByTitle(result, "If-Else");
    const cases = ifElse.data.cases as { case_id: string }[];
    expect(result.edgeHandles).toEqual(["source", "false", cases[1]?.case_id]);
  });

  it("accepts references written with double quotes, bare integers and quoted hyphenated ids", () => {
    const nodes = iterationWorkflow({
      inner: [
        { id: "2-1", type: "iteration-start", param: {} },
        { id: "2-2", type: "document-extractor", param: { variable_selector: ["item", "2"] } },
        llm("2-3", `{{#"1".q#}} {{#1.q#}} {{#'2-2'.text#}} {{#"2-2".text#}} {{#2-2.text#}} {{#'2'.index#}}`),
      ],
    });
    const result = success(convertValue(workflow(nodes)));
    const user = (nodeByTitle(result, "LLM").data.prompt_template as { text: string }[])[1]?.text;
    const startId = nodeByTitle(result, "Start").id;
    const extractorId = nodeByTitle(result, "Document Extractor").id;
    expect(user).toBe(
      `{{#${startId}.q#}} {{#${startId}.q#}} {{#${extractorId}.text#}} {{#${extractorId}.text#}} {{#${extractorId}.text#}} {{#${nodeByTitle(result, "Iteration").id}.index#}}`,
    );
  });
});

// -- the emitted graph ---------------------------------------------------------------------------------------------

describe("convertWorkflow: the Dify graph", () => {
  it("contains canvas children in their iteration with the official handles, ids and positions", () => {
    const result = success(convertValue(workflow(iterationWorkflow(), [["2-1", 0, "2-2"], ["2-2", 0, "2-3"]])));
    const iteration = nodeByTitle(result, "Iteration");
    const iterationStart = result.graph.nodes.find((n) => n.type === "custom-iteration-start");
    expect(iterationStart).toMatchObject({
      id: `${iteration.id}start`,
      parentId: iteration.id,
      zIndex: 1002,
      draggable: false,
      selectable: false,
      position: { x: 24, y: 68 },
      data: { type: "iteration-start", title: "", isInIteration: true },
    });
    expect(iterationStart).not.toHaveProperty("selected");
    const extractor = nodeByTitle(result, "Document Extractor");
    expect(extractor).toMatchObject({
      parentId: iteration.id,
      zIndex: 1002,
      position: { x: 100, y: 68 },
      data: { isInIteration: true, iteration_id: iteration.id, is_array_file: false },
    });
    expect(iteration.position.y).toBe(-400);
    expect(iteration.data).toMatchObject({
      start_node_id: `${iteration.id}start`,
      iterator_input_type: "array[file]",
      output_selector: [nodeByTitle(result, "LLM").id, "text"],
      output_type: "array[string]",
    });
    const innerEdge = result.graph.edges.find((e) => e.source === iterationStart?.id);
    expect(innerEdge).toMatchObject({ zIndex: 1002, data: { isInIteration: true, iteration_id: iteration.id }, sourceHandle: "source" });
    const outerEdge = result.graph.edges.find((e) => e.source === iteration.id);
    expect(outerEdge).toMatchObject({ zIndex: 0, data: { isInIteration: false, sourceType: "iteration", targetType: "end" } });
    expect(outerEdge?.id).toBe(`${iteration.id}-source-${outerEdge?.target}-target`);
  });

  it("uses case ids and 'false' as if-else handles and class ids as classifier handles", () => {
    const nodes: Node[] = [
      start(),
      { id: "2", type: "question-classifier", param: { query_variable_selector: ["q", "1"], classes: ["math", "art", "other"] } },
      { id: "3", type: "if-else", param: { cases: [["and", [[["n", "1"], ">", "{{#'1'.n#}}"]]]] } },
      llm("4"),
      llm("5"),
    ];
    const result = success(convertValue({ nodes_info: nodes, edges: [["1", 0, "2"], ["2", 0, "3"], ["2", 2, "4"], ["3", 0, "4"], ["3", 1, "5"]] }));
    const classes = nodeByTitle(result, "Question Classifier").data.classes as { id: string; name: string }[];
    const cases = nodeByTitle(result, "If-Else").data.cases as { case_id: string; id: string; conditions: Record<string, unknown>[] }[];
    expect(result.edgeHandles).toEqual(["source", classes[0]?.id, classes[2]?.id, cases[0]?.case_id, "false"]);
    expect(cases[0]?.id).toBe(cases[0]?.case_id);
    expect(cases[0]?.conditions[0]).toMatchObject({ varType: "number", numberVarType: "variable", comparison_operator: ">" });
  });

  it("titles repeated types with a counter and tool nodes by tool name", () => {
    const nodes: Node[] = [
      start(),
      llm("2"),
      llm("3"),
      { id: "4", type: "markdown-exporter", param: { target_type: "pdf", md_text: "{{#'3'.text#}}" } },
      { id: "5", type: "echarts", param: { chart_type: "pie", chart_title: "t", data: "1;2", x_axisORcategories: "a;b" } },
      { id: "6", type: "text2image", param: { prompt: "x" } },
    ];
    const result = success(convertValue(workflow(nodes)));
    expect(result.graph.nodes.map((n) => n.data.title)).toEqual(["Start", "LLM", "LLM 2", "md_to_pdf", "pie_chart", "Z-Image Text to Image"]);
    const pie = nodeByTitle(result, "pie_chart").data.tool_parameters as Record<string, unknown>;
    expect(Object.keys(pie).sort()).toEqual(["categories", "data", "title"]);
  });

  it("types values as the official inference does, quirks included", () => {
    const nodes: Node[] = [
      start(),
      { id: "2", type: "document-extractor", param: { variable_selector: ["docs", "1"] } },
      { id: "3", type: "google-search", param: { query: "{{#'1'.q#}}" } },
      { id: "4", type: "list-operator", param: { variable: ["docs", "1"], operator: ["filter_by", "in", "image"] } },
      end("5", [["t", ["text", "2"]], ["g", ["json", "3"]], ["f", ["first_record", "4"]], ["s", ["doc.type", "1"]]]),
    ];
    const result = success(convertValue(workflow(nodes)));
    const outputs = nodeByTitle(result, "End").data.outputs as { value_type: unknown; value_selector: unknown[] }[];
    expect(outputs.map((o) => o.value_type)).toEqual(["array[file]", null, "file", "string"]);
    expect(outputs[3]?.value_selector).toEqual([nodeByTitle(result, "Start").id, "doc", "type"]);
    expect(nodeByTitle(result, "List Operator").data.filter_by).toEqual({
      enabled: true,
      conditions: [{ comparison_operator: "in", key: "type", value: ["image"] }],
    });
  });

  it("gives stable output for the same input and id source", () => {
    const value = workflow(iterationWorkflow());
    expect(convertValue(value)).toEqual(convertValue(value));
  });

  it("lays out top-level nodes in layers 300 apart", () => {
    const result = success(
      convertValue({ nodes_info: [start(), llm("2"), llm("3"), end("4", [])], edges: [["1", 0, "2"], ["1", 0, "3"], ["2", 0, "4"], ["3", 0, "4"]] }),
    );
    expect(result.graph.nodes.map((n) => n.position)).toEqual([
      { x: 0, y: 0 },
      { x: 300, y: 0 },
      { x: 300, y: 200 },
      { x: 600, y: 0 },
    ]);
  });

  it("does not mutate the parsed workflow", () => {
    const value = workflow([start(), { id: "2", type: "if-else", param: { cases: [[null, [[["q", "1"], "is", "{{#'1'.q#}}"]]]] } }, llm("3")]);
    const before = JSON.stringify(value);
    success(convertValue(value));
    expect(JSON.stringify(value)).toBe(before);
  });
});

describe("inline references", () => {
  it("reads id tokens like the official eval", () => {
    expect(readInlineIdToken("'3'")).toBe("3");
    expect(readInlineIdToken('"3"')).toBe("3");
    expect(readInlineIdToken("3")).toBe("3");
    expect(readInlineIdToken("'2-1'")).toBe("2-1");
    expect(readInlineIdToken("2-1")).toBe("2-1");
    expect(readInlineIdToken("item")).toBeNull();
    expect(readInlineIdToken("03")).toBeNull();
    expect(readInlineIdToken(" 3")).toBe("3");
  });

  it("reads a token seen before the same way, a failed read included", () => {
    for (let pass = 0; pass < 2; pass += 1) {
      expect(readInlineIdToken("'7'")).toBe("7");
      expect(readInlineIdToken("item")).toBeNull();
      expect(readInlineIdToken("007")).toBeNull();
    }
  });

  it("finds matches with the official regex, including run-on ones", () => {
    const refs = findInlineReferences("a {{#'1'.q#}} b {{#item#}} c {{#'2'.x#}}");
    expect(refs.map((r) => [r.token, r.variable, r.nodeId])).toEqual([
      ["'1'", "q", "1"],
      ["item#}} c {{#'2'", "x", null],
    ]);
  });
});
