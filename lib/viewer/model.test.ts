import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreResponse } from "../workflow/score";
import type { JsonValue } from "../workflow/python-values";
import { buildWorkflowView, findNodeKey, nodeAnchorOf, portRows, type ViewNode, type WorkflowView } from "./model";

const NO_TURN = { inputVars: [], outputVars: [], keyNodes: [] };

type Workflow = { nodes_info: JsonValue[]; edges: JsonValue[] };

function nodeById(view: WorkflowView, id: string): ViewNode {
  const node = view.nodes.find((n) => n.workflowId === id && n.index !== null);
  if (!node) throw new Error(`no node ${id}`);
  return node;
}

function scoredView(workflow: JsonValue, turn = NO_TURN): WorkflowView {
  const scored = scoreResponse({ nodeSelection: "Start, LLM, End", designPrinciple: "d", workflow: JSON.stringify(workflow) }, turn);
  return buildWorkflowView({ workflow: scored.parsed.json.ok ? scored.parsed.json.value : undefined, diagnostics: scored.diagnostics });
}

const ITERATION: Workflow = {
  nodes_info: [
    { id: "1", type: "start", param: { variables: [["files", "array[file]"]] } },
    { id: "2", type: "iteration", param: { iterator_selector: ["files", "1"], output_selector: ["text", "2-2"] } },
    { id: "2-1", type: "iteration-start", param: {} },
    { id: "2-2", type: "document-extractor", param: { variable_selector: ["item", "2"] } },
    { id: "3", type: "end", param: { outputs: [["texts", ["output", "2"]]] } },
  ],
  edges: [
    ["1", 0, "2"],
    ["2-1", 0, "2-2"],
    ["2", 0, "3"],
  ],
};

describe("buildWorkflowView: nodes", () => {
  it("puts iteration children inside their iteration, after it in the node list", () => {
    const view = buildWorkflowView({ workflow: ITERATION });
    const iteration = nodeById(view, "2");
    expect(iteration.container).toBe(true);
    expect(nodeById(view, "2-1").parentKey).toBe(iteration.key);
    expect(nodeById(view, "2-2").parentKey).toBe(iteration.key);
    expect(nodeById(view, "1").parentKey).toBeNull();
    const order = view.nodes.map((n) => n.workflowId);
    expect(order.indexOf("2")).toBeLessThan(order.indexOf("2-1"));
  });

  it("keeps children of a parent listed later inside it, parent first in the drawing order", () => {
    const workflow: Workflow = { nodes_info: [0, 2, 3, 1, 4].map((i) => ITERATION.nodes_info[i]!), edges: ITERATION.edges };
    const view = buildWorkflowView({ workflow });
    const order = view.nodes.map((n) => n.workflowId);
    expect(order).toEqual(["1", "2", "2-1", "2-2", "3"]);
  });

  it("summarises key params: prompt previews, code language and outputs, classes, cases, end outputs", () => {
    const view = buildWorkflowView({
      workflow: {
        nodes_info: [
          { id: "1", type: "llm", param: { system: "Be brief.", user: "Summarise {{#'0'.text#}}\n\nplease" } },
          { id: "2", type: "code", param: { variables: [], outputs: [["total", "number"]], code: "def main():\n    return {'total': 1}" } },
          { id: "3", type: "question-classifier", param: { query_variable_selector: ["text", "1"], classes: ["Refund", "Other"] } },
          { id: "4", type: "if-else", param: { cases: [[null, [[["total", "2"], ">", "3"]]]] } },
          { id: "5", type: "end", param: { outputs: [["answer", ["text", "1"]]] } },
        ],
        edges: [],
      },
    });
    expect(nodeById(view, "1").summary).toContainEqual({ label: "user", value: "Summarise {{#'0'.text#}} please" });
    expect(nodeById(view, "2").summary).toEqual(expect.arrayContaining([{ label: "language", value: "python3" }, { label: "outputs", value: "total: number", mono: true }]));
    expect(nodeById(view, "3").ports.map((p) => p.label)).toEqual(["Refund", "Other"]);
    expect(nodeById(view, "4").ports.map((p) => [p.label, p.detail])).toEqual([["IF", '2.total > "3"'], ["ELSE", undefined]]);
    expect(nodeById(view, "5").summary).toEqual([{ label: "outputs", value: "answer ← 1.text", mono: true }]);
    expect(nodeById(view, "5").ports).toEqual([]);
  });

  it("lists the variables a node reads and exposes with official and real types", () => {
    const view = buildWorkflowView({ workflow: ITERATION });
    const extractor = nodeById(view, "2-2");
    expect(extractor.references).toEqual([
      { via: "selector", path: ["variable_selector"], variable: "item", nodeId: "2", targetKey: nodeById(view, "2").key, official: "file", real: "file" },
    ]);
    // The official inference types an extractor's text as its input kind; the platform gives a string.
    expect(extractor.exposes).toEqual([expect.objectContaining({ name: "text", official: "file", real: "string" })]);
    expect(nodeById(view, "2").exposes.map((v) => [v.name, v.official])).toEqual([
      ["output", "array[file]"],
      ["item", "file"],
      ["index", "number"],
    ]);
  });
});

describe("buildWorkflowView: edges", () => {
  const branching: Workflow = {
    nodes_info: [
      { id: "1", type: "start", param: { variables: [] } },
      { id: "2", type: "if-else", param: { cases: [[null, []], ["or", []]] } },
      { id: "3", type: "question-classifier", param: { query_variable_selector: ["x", "1"], classes: ["A", "B"] } },
      { id: "4", type: "end", param: { outputs: [] } },
    ],
    edges: [
      ["1", 0, "2"],
      ["2", 0, "3"],
      ["2", 2, "4"],
      ["2", -1, "4"],
      ["3", 1, "4"],
      ["3", 5, "4"],
      ["4", 0, "1"],
    ],
  };

  it("leaves a branching node from the handle of its case, ELSE or class", () => {
    const view = buildWorkflowView({ workflow: branching });
    const handles = view.edges.map((e) => [e.key, e.sourceHandle, e.label ?? null]);
    expect(handles).toEqual([
      ["e0", "p0", null],
      ["e1", "p0", "IF"],
      ["e2", "p2", "ELSE"],
      ["e3", "p2", "ELSE"],
      ["e4", "p1", "B"],
      ["e5", "x:5", "port 5"],
      ["e6", "x:out", null],
    ]);
    // An out-of-range port gets its own (invalid) row; an End node's outgoing edge too.
    expect(portRows(nodeById(view, "3")).map((p) => p.kind)).toEqual(["class", "class", "invalid"]);
    expect(portRows(nodeById(view, "4")).map((p) => p.label)).toEqual(["out (End nodes have no outputs)"]);
  });

  it("draws a dangling edge to a placeholder for an id no node has", () => {
    const view = scoredView({ nodes_info: branching.nodes_info.slice(0, 1), edges: [["1", 0, "10"]] });
    const edge = view.edges.find((e) => e.kind === "flow");
    expect(edge).toMatchObject({ source: "n0", target: "missing:10", dangling: true });
    const placeholder = view.nodes.find((n) => n.key === "missing:10");
    expect(placeholder).toMatchObject({ family: "missing", urlValue: "missing:10" });
    const unknown = view.diagnostics.find((d) => d.code === "edge-unknown-node");
    expect(unknown?.edgeKey).toBe("e0");
    expect(edge?.diagnostics).toContain(unknown?.id);
    expect(placeholder?.diagnostics).toContain(unknown?.id);
  });
});

describe("buildWorkflowView: diagnostics", () => {
  const forward: Workflow = {
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["q", "string"]] } },
      { id: "2", type: "llm", param: { system: "", user: "Use {{#'3'.text#}}" } },
      { id: "3", type: "llm", param: { system: "", user: "{{#'1'.q#}}" } },
      { id: "4", type: "end", param: { outputs: [["a", ["text", "2"]], ["b", ["text", "9"]]] } },
    ],
    edges: [
      ["1", 0, "3"],
      ["3", 0, "2"],
      ["2", 0, "4"],
    ],
  };

  it("rings the reading node and draws a dashed reference from the node read too early", () => {
    const view = scoredView(forward);
    const diagnostic = view.diagnostics.find((d) => d.code === "forward-reference");
    expect(diagnostic).toBeDefined();
    const reader = nodeById(view, "2");
    expect(diagnostic?.nodeKeys).toEqual([reader.key]);
    expect(reader.diagnostics).toContain(diagnostic?.id);
    const edge = view.edges.find((e) => e.key === diagnostic?.edgeKey);
    expect(edge).toMatchObject({ kind: "reference", source: nodeById(view, "3").key, target: reader.key, dangling: false });
  });

  it("draws a reference to a node that does not exist to a placeholder", () => {
    const view = scoredView(forward);
    const diagnostic = view.diagnostics.find((d) => d.targetNodeId === "9");
    expect(diagnostic?.code).toBe("reference-unknown-node");
    const edge = view.edges.find((e) => e.key === diagnostic?.edgeKey);
    expect(edge).toMatchObject({ kind: "reference", source: "missing:9", target: nodeById(view, "4").key, dangling: true });
    expect(nodeAnchorOf(view, diagnostic!)).toBe(nodeById(view, "4").key);
  });

  it("anchors text diagnostics to their field and leaves task-level ones unanchored", () => {
    const scored = scoreResponse(
      { nodeSelection: "Start, LLM, Code, End", designPrinciple: "d", workflow: JSON.stringify(forward) },
      { inputVars: ["question"], outputVars: ["a", "b"], keyNodes: ["llm"] },
    );
    const view = buildWorkflowView({ workflow: scored.parsed.json.ok ? scored.parsed.json.value : undefined, diagnostics: scored.diagnostics });
    const unused = view.diagnostics.find((d) => d.code === "declared-node-unused");
    expect(unused).toMatchObject({ textField: "node_selection", nodeKeys: [], edgeKey: null });
    expect(nodeAnchorOf(view, unused!)).toBeNull();
  });

  it("anchors a JSON syntax error to the workflow text when nothing can be drawn", () => {
    const scored = scoreResponse({ nodeSelection: "Start", designPrinciple: "d", workflow: '{"nodes_info": [], /* no */ "edges": []}' }, NO_TURN);
    const view = buildWorkflowView({ workflow: undefined, diagnostics: scored.diagnostics });
    expect(view.drawable).toBe(false);
    expect(view.diagnostics[0]).toMatchObject({ code: "json-comment", textField: "workflow" });
  });
});

describe("buildWorkflowView: broken workflows", () => {
  it("draws unknown types, missing ids, duplicate ids and non-object entries", () => {
    const view = buildWorkflowView({
      workflow: {
        nodes_info: [
          { id: "1", type: "start", param: { variables: [] } },
          { id: "2", type: "template", param: { template: "x" } },
          { type: "llm", param: { system: "", user: "" } },
          { id: "4", type: "llm", param: { system: "", user: "" } },
          { id: "4", type: "end", param: { outputs: [] } },
          "not a node",
          { id: 7, type: "code", param: "oops" },
        ],
        edges: [["1", 0, "2"], ["2", 0, "4"], "bad edge", [1, 0, "4"]],
      },
    });
    expect(view.nodes.map((n) => [n.key, n.family, n.title])).toEqual([
      ["n0", "io", "Start"],
      ["n1", "unknown", "template"],
      ["n2", "model", "LLM"],
      ["n3", "model", "LLM"],
      ["n4", "io", "End"],
      ["n5", "unknown", "Not a node object"],
      ["n6", "transform", "Code"],
      ["missing:1", "missing", "Missing node 1"],
    ]);
    // Ids double as URL values only when unique; the others are addressed by position.
    expect(view.nodes.map((n) => n.urlValue)).toEqual(["1", "2", "#2", "#3", "#4", "#5", "7", "missing:1"]);
    expect(findNodeKey(view, "4")).toBe("n4");
    expect(findNodeKey(view, "#3")).toBe("n3");
    expect(findNodeKey(view, "7")).toBe("n6");
    expect(findNodeKey(view, "nope")).toBeNull();
    // A lookup by a duplicated id finds the last node with it, as the official converter does.
    expect(view.edges.find((e) => e.key === "e1")?.target).toBe("n4");
    // A numeric endpoint names no node (ids are strings).
    expect(view.edges.find((e) => e.key === "e3")).toMatchObject({ source: "missing:1", dangling: true });
  });

  it("never throws and keeps the drawing consistent for any JSON", () => {
    const nodeArb = fc.record({
      id: fc.oneof(fc.constantFrom("1", "2", "3", "2-1", "2-2", "x-y", ""), fc.integer(), fc.constant(null)),
      type: fc.oneof(fc.constantFrom("start", "end", "llm", "if-else", "question-classifier", "iteration", "iteration-start", "tool"), fc.jsonValue()),
      param: fc.oneof(fc.jsonValue(), fc.record({ cases: fc.jsonValue(), classes: fc.jsonValue(), outputs: fc.jsonValue() })),
    });
    const edgeArb = fc.oneof(
      fc.tuple(fc.constantFrom("1", "2", "3", "2-1", "2-2", "9"), fc.oneof(fc.integer({ min: -3, max: 4 }), fc.jsonValue()), fc.constantFrom("1", "2", "3", "2-2", "7")),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.oneof(fc.record({ nodes_info: fc.array(fc.oneof(nodeArb, fc.jsonValue()), { maxLength: 8 }), edges: fc.array(edgeArb, { maxLength: 8 }) }), fc.jsonValue()), (workflow) => {
        const view = buildWorkflowView({ workflow: workflow as JsonValue });
        const keys = new Set(view.nodes.map((n) => n.key));
        expect(keys.size).toBe(view.nodes.length);
        const seen = new Set<string>();
        for (const node of view.nodes) {
          if (node.parentKey !== null) expect(seen.has(node.parentKey)).toBe(true);
          seen.add(node.key);
        }
        for (const edge of view.edges) {
          expect(keys.has(edge.source) && keys.has(edge.target)).toBe(true);
          const source = view.nodes.find((n) => n.key === edge.source)!;
          if (edge.kind === "flow") expect(source.ports.some((p) => p.id === edge.sourceHandle)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
