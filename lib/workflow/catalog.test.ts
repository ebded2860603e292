import { describe, expect, it } from "vitest";
import {
  CATALOG,
  exposedVariables,
  nodeFacts,
  officialElementType,
  officialVariableType,
  outputPorts,
  realVariableType,
  selectorRefs,
  textFieldPaths,
  validateParam,
  type FactsContext,
  type NodeFacts,
} from "./catalog";
import { NODE_TYPE_IDS } from "./node-types";
import type { JsonValue } from "./python-values";

function official(facts: NodeFacts, name: JsonValue): JsonValue | "error" {
  const lookup = officialVariableType(facts, name);
  return lookup.ok ? lookup.type : "error";
}

const noInputs: FactsContext = { inputType: () => undefined };

describe("CATALOG", () => {
  it("covers the 20 node types with their display info", () => {
    expect(Object.keys(CATALOG).sort()).toEqual([...NODE_TYPE_IDS].sort());
    expect(CATALOG["template-transform"].info.displayName).toBe("Template");
    expect(CATALOG["if-else"].branching).toBe(true);
    expect(CATALOG.llm.textParams).toEqual(["system", "user"]);
    expect(CATALOG["template-transform"].textParams).toEqual([]);
    expect(CATALOG["parameter-extractor"].requiredParams).toContain("instruction");
  });
});

describe("validateParam", () => {
  it("accepts the documented shapes", () => {
    expect(validateParam("end", { outputs: [["o", ["text", "2"]]] })).toEqual([]);
    expect(validateParam("list-operator", { variable: ["files", "1"], operator: ["filter_by", "empty", ""] })).toEqual([]);
    expect(validateParam("if-else", { cases: [[null, [[["q", "1"], "empty"]]], ["or", [[["n", "1"], ">", "3"]]]] })).toEqual([]);
    expect(validateParam("iteration-start", {})).toEqual([]);
  });

  it("locates shape problems with a path into param", () => {
    const nested = validateParam("variable-aggregator", { variables: [["answer", ["text", "2"]]] });
    expect(nested[0]?.path).toEqual(["variables", 0, 1]);
    const flattened = validateParam("code", { variables: [["x", "q", "1"]], outputs: [], code: "" });
    expect(flattened.map((i) => i.path)).toContainEqual(["variables", 0, 1]);
    expect(validateParam("llm", { system: "" }).map((i) => i.path)).toEqual([["user"]]);
    expect(validateParam("list-operator", { variable: ["f", "1"], operator: ["filter_by", "empty"] })).not.toEqual([]);
  });

  it("ignores unknown types", () => {
    expect(validateParam("template", {})).toEqual([]);
  });
});

describe("text fields and selectors present in a node", () => {
  it("lists rewritten text, including nested if-else values and string filter values", () => {
    expect(textFieldPaths({ type: "llm", param: { system: "", user: "x" } })).toEqual([["system"], ["user"]]);
    expect(textFieldPaths({ type: "if-else", param: { cases: [[null, [[["q", "1"], "is", "a"], [["q", "1"], "empty"]]]] } })).toEqual([
      ["cases", 0, 1, 0, 2],
    ]);
    expect(textFieldPaths({ type: "list-operator", param: { operator: ["filter_by", "=", "x"] } })).toEqual([["operator", 2]]);
    expect(textFieldPaths({ type: "list-operator", param: { operator: ["filter_by", "=", 3] } })).toEqual([]);
  });

  it("lists selectors with their paths", () => {
    const refs = selectorRefs({ type: "end", param: { outputs: [["a", ["text", "2"]], ["b", ["x", "3"]]] } });
    expect(refs.map((r) => [r.path, r.variable, r.nodeId])).toEqual([
      [["outputs", 0, 1], "text", "2"],
      [["outputs", 1, 1], "x", "3"],
    ]);
    expect(selectorRefs({ type: "iteration", param: { iterator_selector: ["f", "1"], output_selector: ["t", "2-2"] } }).map((r) => r.shape)).toEqual([
      "selector",
      "child-selector",
    ]);
  });
});

describe("officialVariableType reproduces the official inference and its quirks (§2.6)", () => {
  it("types a dotted name as string, whatever the node", () => {
    expect(official({ type: "end" }, "file.type")).toBe("string");
  });

  it("reads start variables with the Dify input-kind round trip", () => {
    const facts: NodeFacts = {
      type: "start",
      variables: [
        { name: "a", type: "string" },
        { name: "b", type: "paragraph" },
        { name: "c", type: "file-list" },
        { name: "d", type: 5 },
      ],
    };
    expect(["a", "b", "c", "d", "zzz"].map((n) => official(facts, n))).toEqual(["string", "string", "array[file]", 5, null]);
  });

  it("types llm, classifier, http and template outputs as string for any name", () => {
    for (const type of ["llm", "question-classifier", "http-request", "template-transform"] as const) {
      expect(official({ type }, "anything")).toBe("string");
    }
  });

  it("errors on undeclared code outputs", () => {
    const facts: NodeFacts = { type: "code", outputs: new Map([["sresult", { name: "result", type: "array[string]" }]]) };
    expect(official(facts, "result")).toBe("array[string]");
    expect(official(facts, "other")).toBe("error");
  });

  it("types document-extractor text as the extractor's input kind, not string", () => {
    expect(official({ type: "document-extractor", isArrayFile: false }, "text")).toBe("file");
    expect(official({ type: "document-extractor", isArrayFile: true }, "text")).toBe("array[file]");
  });

  it("types iteration item by character stripping and errors when the input is untyped", () => {
    const iteration = (inputType: JsonValue): NodeFacts => ({ type: "iteration", inputType, outputType: null });
    expect(official(iteration("array[string]"), "item")).toBe("string");
    expect(official(iteration("file"), "item")).toBe("file");
    expect(official(iteration("array"), "item")).toBe("");
    expect(official(iteration(null), "item")).toBe("error");
    expect(official(iteration(null), "index")).toBe("number");
    expect(official({ type: "iteration", inputType: "array[file]", outputType: "array[string]" }, "output")).toBe("array[string]");
    expect(officialElementType("array[any]")).toBe("ny");
  });

  it("types list-operator records as the element type", () => {
    const facts: NodeFacts = { type: "list-operator", varType: "array[file]" };
    expect(official(facts, "result")).toBe("array[file]");
    expect(official(facts, "first_record")).toBe("file");
  });

  it("gives array[file] for text2image, tts and markdown, and null for mermaid, google and echarts", () => {
    const tool = (nodeType: "tts" | "text2image" | "markdown-exporter" | "mermaid-converter" | "google-search" | "echarts", toolName: string): NodeFacts => ({
      type: "tool",
      nodeType,
      toolName,
    });
    expect(official(tool("tts", "tts"), "files")).toBe("array[file]");
    expect(official(tool("text2image", "z_image_text_2_image"), "x")).toBe("array[file]");
    expect(official(tool("markdown-exporter", "md_to_pdf"), "files")).toBe("array[file]");
    expect(official(tool("mermaid-converter", "mermaid_converter"), "files")).toBeNull();
    expect(official(tool("google-search", "google_search"), "json")).toBeNull();
    expect(official(tool("echarts", "bar_chart"), "text")).toBeNull();
  });

  it("errors on end, if-else and iteration-start, and on non-string names", () => {
    for (const type of ["end", "if-else", "iteration-start"] as const) expect(official({ type }, "x")).toBe("error");
    expect(official({ type: "llm" }, 5)).toBe("error");
  });
});

describe("real types and exposed variables", () => {
  it("shows both the official and the real type where a quirk makes them differ", () => {
    const ctx: FactsContext = { inputType: (selector) => (JSON.stringify(selector) === '["paper","1"]' ? "file" : undefined) };
    const exposed = exposedVariables({ type: "document-extractor", param: { variable_selector: ["paper", "1"] } }, ctx);
    expect(exposed).toEqual([expect.objectContaining({ name: "text", officialType: "file", realType: "string", quirk: expect.any(String) })]);
    const mermaid = exposedVariables({ type: "mermaid-converter", param: { mermaid_code: "x" } }, noInputs);
    expect(mermaid[0]).toMatchObject({ name: "files", officialType: null, realType: "array[file]" });
  });

  it("lists declared names for start, code and parameter-extractor", () => {
    expect(exposedVariables({ type: "start", param: { variables: [["q", "string"], ["f", "file"]] } }, noInputs).map((v) => [v.name, v.realType])).toEqual([
      ["q", "string"],
      ["f", "file"],
    ]);
    const extractor = nodeFacts({ type: "parameter-extractor", param: { parameters: [["d", "count", "number"]] } }, noInputs);
    expect(extractor && realVariableType(extractor, "count")).toBe("number");
    expect(exposedVariables({ type: "end", param: { outputs: [] } }, noInputs)).toEqual([]);
  });

  it("types a file variable's sub-field as a string in reality too", () => {
    const facts = nodeFacts({ type: "start", param: { variables: [["f", "file"]] } }, noInputs);
    expect(facts && realVariableType(facts, "f.type")).toBe("string");
  });
});

describe("outputPorts", () => {
  it("gives if-else cases then ELSE, one port per class, none for end", () => {
    expect(outputPorts({ type: "if-else", param: { cases: [[null, []], [null, []]] } }).map((p) => [p.index, p.kind])).toEqual([
      [0, "case"],
      [1, "case"],
      [2, "else"],
    ]);
    expect(outputPorts({ type: "question-classifier", param: { classes: ["a", "b"] } }).map((p) => p.label)).toEqual(["a", "b"]);
    expect(outputPorts({ type: "end", param: {} })).toEqual([]);
    expect(outputPorts({ type: "llm", param: {} })).toEqual([{ index: 0, label: "source", kind: "source" }]);
  });
});
