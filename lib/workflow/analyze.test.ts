import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "./diagnostic-codes";
import { analyzeValue, analyzeWorkflow, type AnalysisTurn } from "./analyze";
import { DIAGNOSTIC_CATEGORIES, type Diagnostic } from "./diagnostics";
import { officialVerdict } from "./official-verdict";
import type { JsonValue } from "./python-values";
import { parseResponse } from "./response";

type Workflow = { nodes_info: JsonValue[]; edges: JsonValue[] };

const TURN: AnalysisTurn = { inputVars: ["doc", "lang"], outputVars: ["result"], keyNodes: ["llm", "document-extractor"] };
const SELECTION = "Start, Document Extractor, LLM, End";

function translator(): Workflow {
  return {
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["doc", "file"], ["lang", "string"]] } },
      { id: "2", type: "document-extractor", param: { variable_selector: ["doc", "1"] } },
      { id: "3", type: "llm", param: { system: "", user: "Translate {{#'2'.text#}} into {{#1.lang#}}." } },
      { id: "4", type: "end", param: { outputs: [["result", ["text", "3"]]] } },
    ],
    edges: [
      ["1", 0, "2"],
      ["2", 0, "3"],
      ["3", 0, "4"],
    ],
  };
}

function iterating(): Workflow {
  return {
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["docs", "array[file]"]] } },
      { id: "2", type: "iteration", param: { iterator_selector: ["docs", "1"], output_selector: ["text", "2-3"] } },
      { id: "2-1", type: "iteration-start", param: {} },
      { id: "2-2", type: "document-extractor", param: { variable_selector: ["item", "2"] } },
      { id: "2-3", type: "llm", param: { system: "", user: "Summarise {{#'2-2'.text#}}" } },
      { id: "3", type: "end", param: { outputs: [["summaries", ["output", "2"]]] } },
    ],
    edges: [
      ["1", 0, "2"],
      ["2-1", 0, "2-2"],
      ["2-2", 0, "2-3"],
      ["2", 0, "3"],
    ],
  };
}

function analyse(workflow: JsonValue, options: { selection?: string | null; turn?: AnalysisTurn } = {}): Diagnostic[] {
  return analyzeValue(workflow, { nodeSelection: options.selection ?? SELECTION, turn: options.turn ?? TURN });
}

function only(diagnostics: Diagnostic[], code: string): Diagnostic[] {
  return diagnostics.filter((d) => d.code === code);
}

function one(diagnostics: Diagnostic[], code: string): Diagnostic {
  const found = only(diagnostics, code);
  expect(found, `expected one ${code} in ${JSON.stringify(diagnostics.map((d) => d.code))}`).toHaveLength(1);
  return found[0] as Diagnostic;
}

describe("the code registry", () => {
  it("uses stable kebab-case codes with a known category and severity", () => {
    for (const [code, spec] of Object.entries(DIAGNOSTIC_CODES)) {
      expect(code).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(DIAGNOSTIC_CATEGORIES).toContain(spec.category);
    }
  });
});

describe("well-formed workflows", () => {
  it("raise nothing for a correct linear workflow", () => {
    expect(analyse(translator())).toEqual([]);
  });

  it("raise nothing for a correct iteration", () => {
    const diagnostics = analyse(iterating(), {
      selection: "Start, Iteration, Iteration-Start, Document Extractor, LLM, End",
      turn: { inputVars: ["docs"], outputVars: ["summaries"], keyNodes: ["iteration"] },
    });
    expect(diagnostics).toEqual([]);
  });

  it("returns nothing when the JSON did not parse (step_1_1 is reported by the parser)", () => {
    const parsed = parseResponse({ nodeSelection: SELECTION, designPrinciple: "", workflow: "{ nope" });
    expect(parsed.diagnostics.length).toBeGreaterThan(0);
    expect(analyzeWorkflow(parsed, TURN)).toEqual([]);
  });
});

describe("format", () => {
  it("rejects a non-object workflow", () => {
    expect(one(analyse([1, 2]), "workflow-not-object")).toMatchObject({ category: "format", officialStep: "step_1_2" });
  });

  it("suggests template-transform for an unknown `template` type", () => {
    const wf = translator();
    (wf.nodes_info[2] as { type: string }).type = "template";
    const d = one(analyse(wf), "unknown-node-type");
    expect(d).toMatchObject({ category: "format", officialStep: "step_1_2", location: { nodeId: "3" } });
    expect(d.hint).toContain("template-transform");
  });

  it("flags a selector written as a string, with the pair it meant", () => {
    const wf = translator();
    (wf.nodes_info[1] as { param: object }).param = { variable_selector: "{{#1.doc#}}" };
    const d = one(analyse(wf), "selector-as-string");
    expect(d.location).toEqual({ nodeId: "2", paramPath: ["variable_selector"] });
    expect(d.hint).toContain('["doc", "1"]');
  });

  it("flags a flattened [name, variable, id] end output", () => {
    const wf = translator();
    (wf.nodes_info[3] as { param: object }).param = { outputs: [["result", "text", "3"]] };
    const d = one(analyse(wf), "flattened-selector");
    expect(d).toMatchObject({ officialStep: "step_1_2", location: { nodeId: "4", paramPath: ["outputs", 0] } });
    expect(d.hint).toContain('["result", ["text", "3"]]');
  });

  it("flags a text parameter given as a selector array", () => {
    const wf = translator();
    (wf.nodes_info[2] as { param: object }).param = { system: "", user: ["text", "2"] };
    const d = one(analyse(wf), "text-param-not-string");
    expect(d.location).toEqual({ nodeId: "3", paramPath: ["user"] });
    expect(d.hint).toContain("{{#'2'.text#}}");
  });

  it("flags nested aggregator entries and missing params", () => {
    const wf = translator();
    wf.nodes_info.splice(3, 0, { id: "5", type: "variable-aggregator", param: { variables: [["out", ["text", "3"]]] } });
    (wf.nodes_info[2] as { param: object }).param = { system: "" };
    const diagnostics = analyse(wf);
    expect(one(diagnostics, "nested-aggregator-entry").location).toEqual({ nodeId: "5", paramPath: ["variables", 0] });
    expect(one(diagnostics, "missing-param").location).toEqual({ nodeId: "3", paramPath: ["user"] });
  });

  it("flags malformed edges and non-integer branch ports", () => {
    const wf = translator();
    wf.edges[0] = ["1", 0, "2", 0];
    const d = one(analyse(wf), "malformed-edge");
    expect(d).toMatchObject({ officialStep: "step_1_2", location: { edgeIndex: 0 } });
    const branching = translator();
    branching.nodes_info.splice(3, 0, {
      id: "5",
      type: "if-else",
      param: { cases: [[null, [[["lang", "1"], "is", "English"]]]] },
    });
    branching.edges = [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "5"], ["5", "0", "4"], ["5", 1, "4"]];
    expect(one(analyse(branching), "edge-port-not-integer").location).toEqual({ edgeIndex: 3 });
  });
});

describe("graph", () => {
  it("flags duplicate and non-string ids", () => {
    const wf = translator();
    wf.nodes_info.push({ id: "3", type: "llm", param: { system: "", user: "again" } });
    wf.nodes_info.push({ id: 9, type: "llm", param: { system: "", user: "x" } });
    const diagnostics = analyse(wf);
    expect(one(diagnostics, "duplicate-node-id")).toMatchObject({ severity: "warning", location: { nodeId: "3" } });
    expect(one(diagnostics, "node-id-not-string")).toMatchObject({ officialStep: "step_1_2", location: { nodeId: "9" } });
  });

  it("flags edges to unknown nodes, isolated nodes and cycles", () => {
    const wf = translator();
    wf.edges.push(["3", 0, "7"], ["3", 0, "2"]);
    wf.nodes_info.push({ id: "6", type: "llm", param: { system: "", user: "alone" } });
    const diagnostics = analyse(wf);
    expect(one(diagnostics, "edge-unknown-node")).toMatchObject({ targetNodeId: "7", location: { edgeIndex: 3 } });
    expect(one(diagnostics, "node-without-edges")).toMatchObject({ officialStep: "step_1_2", location: { nodeId: "6" } });
    expect(one(diagnostics, "cycle").message).toContain('"2" → "3"');
  });

  it("flags unreachable nodes and nodes that lead to no End", () => {
    const wf = translator();
    wf.nodes_info.push({ id: "5", type: "llm", param: { system: "", user: "side" } });
    wf.nodes_info.push({ id: "6", type: "llm", param: { system: "", user: "dead end" } });
    wf.edges.push(["5", 0, "4"], ["3", 0, "6"]);
    const diagnostics = analyse(wf);
    expect(one(diagnostics, "unreachable-node").location).toEqual({ nodeId: "5" });
    expect(one(diagnostics, "cannot-reach-end").location).toEqual({ nodeId: "6" });
  });

  it("checks branch ports: ELSE is len(cases), a classifier has no else", () => {
    const wf = translator();
    wf.nodes_info.splice(3, 0, { id: "5", type: "question-classifier", param: { query_variable_selector: ["lang", "1"], classes: ["a", "b"] } });
    wf.edges = [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "5"], ["5", 0, "4"], ["5", 1, "4"], ["5", 2, "4"]];
    const d = one(analyse(wf), "branch-port-out-of-range");
    expect(d).toMatchObject({ officialStep: "step_1_2", location: { edgeIndex: 5 } });
    expect(d.hint).toContain("no else");
  });

  it("checks start and end nodes", () => {
    const wf = translator();
    wf.nodes_info.push({ id: "5", type: "start", param: { variables: [] } });
    (wf.nodes_info[3] as { param: object }).param = { outputs: [] };
    wf.edges.push(["5", 0, "2"]);
    const diagnostics = analyse(wf, { turn: { ...TURN, outputVars: [] } });
    expect(one(diagnostics, "multiple-start").location).toEqual({ nodeId: "5" });
    expect(one(diagnostics, "end-without-outputs").location).toEqual({ nodeId: "4", paramPath: ["outputs"] });
    const noStart = translator();
    noStart.nodes_info.shift();
    expect(one(analyse(noStart), "missing-start").officialStep).toBe("step_1_3");
  });

  it("checks the iteration canvas", () => {
    const turn = { inputVars: ["docs"], outputVars: ["summaries"], keyNodes: [] };
    const selection = "Start, Iteration, Iteration-Start, Document Extractor, LLM, End";
    const crossing = iterating();
    crossing.edges.push(["1", 0, "2-2"], ["2", 0, "2-1"]);
    const diagnostics = analyse(crossing, { turn, selection });
    expect(one(diagnostics, "edge-crosses-iteration")).toMatchObject({ severity: "warning", location: { edgeIndex: 4 } });
    expect(one(diagnostics, "iteration-start-edge")).toMatchObject({ severity: "info", location: { edgeIndex: 5 } });

    const noStart = iterating();
    noStart.nodes_info.splice(2, 1);
    noStart.edges = noStart.edges.filter((edge) => (edge as string[])[0] !== "2-1");
    expect(one(analyse(noStart, { turn, selection }), "iteration-start-missing").location).toEqual({ nodeId: "2" });

    const outside = iterating();
    (outside.nodes_info[1] as { param: { output_selector: string[] } }).param.output_selector = ["summaries", "3"];
    expect(one(analyse(outside, { turn, selection }), "iteration-output-not-child")).toMatchObject({
      officialStep: "step_1_2",
      targetNodeId: "3",
      location: { nodeId: "2", paramPath: ["output_selector"] },
    });
  });
});

describe("semantics", () => {
  it("flags forward references with the node they point at", () => {
    const wf = translator();
    const [start, extractor, llm, end] = wf.nodes_info;
    wf.nodes_info = [start, llm, extractor, end] as JsonValue[];
    const d = one(analyse(wf), "forward-reference");
    expect(d).toMatchObject({ category: "semantics", officialStep: "step_1_2", targetNodeId: "2", location: { nodeId: "3", paramPath: ["user"] } });
  });

  it("flags references to unknown nodes and swapped selectors", () => {
    const wf = translator();
    (wf.nodes_info[3] as { param: object }).param = { outputs: [["result", ["3", "text"]]] };
    const d = one(analyse(wf), "reference-unknown-node");
    expect(d.hint).toContain('["text", "3"]');
  });

  it("flags an undeclared code output as a conversion error and an unknown start variable as a warning", () => {
    const wf = translator();
    wf.nodes_info.splice(3, 0, {
      id: "5",
      type: "code",
      param: { variables: [["t", ["text", "3"]]], outputs: [["clean", "string"]], code: "def main(t):\n  return {'clean': t}" },
    });
    (wf.nodes_info[4] as { param: object }).param = { outputs: [["result", ["cleaned", "5"]]] };
    (wf.nodes_info[2] as { param: object }).param = { system: "", user: "{{#'2'.text#}} {{#1.language#}}" };
    wf.edges = [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "5"], ["5", 0, "4"]];
    const diagnostics = analyse(wf);
    expect(one(diagnostics, "undeclared-code-output")).toMatchObject({ severity: "error", officialStep: "step_1_2", targetNodeId: "5" });
    const unknown = one(diagnostics, "unknown-variable");
    expect(unknown).toMatchObject({ severity: "warning", targetNodeId: "1" });
    expect(unknown.officialStep).toBeUndefined();
    expect(unknown.hint).toContain('"doc"');
  });

  it("flags references that no edge path supports", () => {
    const wf = translator();
    wf.edges = [["1", 0, "3"], ["1", 0, "2"], ["2", 0, "4"], ["3", 0, "4"]];
    const d = one(analyse(wf), "reference-not-upstream");
    expect(d).toMatchObject({ severity: "warning", targetNodeId: "2", location: { nodeId: "3" } });
  });

  it("flags reads from the iteration-start and malformed inline ids", () => {
    const turn = { inputVars: ["docs"], outputVars: ["summaries"], keyNodes: [] };
    const selection = "Start, Iteration, Iteration-Start, Document Extractor, LLM, End";
    const wf = iterating();
    (wf.nodes_info[3] as { param: object }).param = { variable_selector: ["item", "2-1"] };
    (wf.nodes_info[4] as { param: object }).param = { system: "{{#sys.query#}}", user: "Summarise {{#item.text#}}" };
    const diagnostics = analyse(wf, { turn, selection });
    const start = one(diagnostics, "reference-iteration-start");
    expect(start).toMatchObject({ officialStep: "step_1_2", location: { nodeId: "2-2", paramPath: ["variable_selector"] } });
    expect(start.hint).toContain('["item", "2"]');
    const inline = only(diagnostics, "malformed-inline-reference");
    expect(inline.map((d) => d.location?.paramPath)).toEqual([["system"], ["user"]]);
    expect(inline.map((d) => d.officialStep)).toEqual(["step_1_2", "step_1_2"]);
  });

  it("checks inferred input types of document extractors and list operators", () => {
    const wf = translator();
    (wf.nodes_info[1] as { param: object }).param = { variable_selector: ["lang", "1"] };
    expect(one(analyse(wf), "document-extractor-input-type").officialStep).toBe("step_1_2");
    const lists = translator();
    lists.nodes_info.splice(3, 0, { id: "5", type: "mermaid-converter", param: { mermaid_code: "{{#'3'.text#}}" } }, {
      id: "6",
      type: "list-operator",
      param: { variable: ["files", "5"], operator: ["extract_by", 1] },
    });
    lists.edges = [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "5"], ["5", 0, "6"], ["6", 0, "4"]];
    expect(one(analyse(lists), "list-operator-input-untyped").location).toEqual({ nodeId: "6", paramPath: ["variable"] });
  });

  it("names the template's unknown Jinja names and lists its variables, then its for/set/macro bindings", () => {
    const template = "{% for x, i in items %}{{ x }}{{ loop.index }}{{missing}}{% endfor %}{%- set y = 1 %}{{ y }}{{ doc }}{{ other }}{% macro m() %}{% endmacro %}{{ m }}";
    const wf: Workflow = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["doc", "string"], ["items", "array[string]"]] } },
        { id: "2", type: "template-transform", param: { variables: [["doc", ["doc", "1"]], ["loop", ["doc", "1"]], ["items", ["items", "1"]]], template } },
        // Jinja's globals (range) need no declaration, and a template without {% binds nothing.
        { id: "3", type: "template-transform", param: { variables: [["doc", ["doc", "1"]]], template: "{{ doc }} {{ range }}" } },
        { id: "4", type: "end", param: { outputs: [["out", ["output", "2"]], ["b", ["output", "3"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"]],
    };
    const d = one(analyzeValue(wf), "template-unknown-variable");
    expect(d.message).toBe('node "2" (template-transform) uses {{ missing }}, {{ other }}, which are not among its variables ("doc", "items", "x", "i", "y", "m").');
    expect(d.location).toEqual({ nodeId: "2", paramPath: ["template"] });
  });
});

describe("consistency", () => {
  it("explains input mismatches per variable", () => {
    const wf = translator();
    (wf.nodes_info[0] as { param: object }).param = { variables: [["file", "file"], ["lang", "string"]] };
    (wf.nodes_info[1] as { param: object }).param = { variable_selector: ["file", "1"] };
    const diagnostics = analyse(wf);
    expect(one(diagnostics, "input-variable-missing")).toMatchObject({ officialStep: "step_1_3", category: "consistency" });
    const extra = one(diagnostics, "input-variable-extra");
    expect(extra.location).toEqual({ nodeId: "1", paramPath: ["variables", 0] });
    expect(extra.hint).toBe('Rename "file" to "doc".');
  });

  it("explains output and end-count mismatches", () => {
    const wf = translator();
    (wf.nodes_info[3] as { param: object }).param = { outputs: [["translation", ["text", "3"]]] };
    expect(one(analyse(wf), "output-variables-mismatch").message).toContain("missing result");
    const twoEnds = translator();
    twoEnds.nodes_info.push({ id: "5", type: "end", param: { outputs: [["result", ["text", "3"]]] } });
    twoEnds.edges.push(["3", 0, "5"]);
    expect(one(analyse(twoEnds), "end-count-mismatch").officialStep).toBe("step_1_3");
  });

  it("compares node_selection with the used types and the key nodes", () => {
    const missing = analyse(translator(), { selection: "Start, LLM, End" });
    expect(one(missing, "key-node-not-declared")).toMatchObject({ officialStep: "step_1_4", location: { field: "node_selection" } });
    expect(one(missing, "node-type-undeclared").location).toEqual({ nodeId: "2" });
    const text = "Start, Document Extractor, LLM, Template, End";
    const unused = one(analyse(translator(), { selection: text }), "declared-node-unused");
    expect(unused.location).toMatchObject({ field: "node_selection", offset: text.indexOf("Template"), length: 8, line: 1 });
  });
});

describe("official steps on string selectors", () => {
  it("claims step_1_2 only when the converter's character indexing cannot land on an earlier node", () => {
    const failing = translator();
    (failing.nodes_info[1] as { param: object }).param = { variable_selector: "doc" };
    expect(one(analyse(failing), "selector-as-string").officialStep).toBe("step_1_2");
    // "x1"[1] is "1", the start node: the official converter resolves it and the workflow converts.
    const lucky = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["url", "string"]] } },
        { id: "2", type: "http-request", param: { url: "x1" } },
        { id: "3", type: "end", param: { outputs: [["result", ["body", "2"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"]],
    };
    const parsed = parseResponse({ nodeSelection: "Start, HTTP Request, End", designPrinciple: "", workflow: JSON.stringify(lucky) });
    expect(officialVerdict(parsed, { inputVars: ["url"], outputVars: ["result"] }).failStep).toBeNull();
    const d = one(analyzeWorkflow(parsed), "selector-as-string");
    expect(d.severity).toBe("error");
    expect(d.officialStep).toBeUndefined();
  });
});
