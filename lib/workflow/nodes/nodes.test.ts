// The node specs are complete and are what the converter and the analysis use: one module per type, its schema
// backing the analysis, and its Dify conversion producing the official node data.
import { describe, expect, it } from "vitest";
import { analyzeValue } from "../analyze";
import { CATALOG } from "../catalog";
import { convertWorkflow } from "../convert";
import { NODE_TYPE_IDS, NODE_TYPES } from "../node-types";
import type { JsonObject, JsonValue } from "../python-values";
import { NODE_SPECS } from ".";

describe("NODE_SPECS", () => {
  it("has one spec per node type, keyed by its own type, and is what the catalog exposes", () => {
    expect(Object.keys(NODE_SPECS).sort()).toEqual([...NODE_TYPE_IDS].sort());
    for (const type of NODE_TYPE_IDS) {
      expect(NODE_SPECS[type].type).toBe(type);
      expect(NODE_SPECS[type].info).toBe(NODE_TYPES[type]);
      expect(CATALOG[type]).toBe(NODE_SPECS[type]);
    }
  });

  it("marks exactly if-else and question-classifier as branching", () => {
    expect(NODE_TYPE_IDS.filter((type) => NODE_SPECS[type].branching).sort()).toEqual(["if-else", "question-classifier"]);
  });
});

describe("the analysis uses each spec", () => {
  const workflow = (aggregatorParam: JsonValue): JsonObject & { nodes_info: JsonObject[] } => ({
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["q", "string"]] } },
      { id: "2", type: "llm", param: { system: "", user: "{{#'1'.q#}}" } },
      { id: "3", type: "variable-aggregator", param: aggregatorParam },
      { id: "4", type: "end", param: { outputs: [["out", ["output", "3"]]] } },
    ],
    edges: [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"]],
  });

  it("reports a deviation only the documented schema catches as a param-shape warning at its path", () => {
    // A three-element aggregator entry converts (only [0] and [1] are read) but is not the documented pair.
    const diagnostics = analyzeValue(workflow({ variables: [["text", "2", "extra"]] }), {});
    const shape = diagnostics.filter((d) => d.code === "param-shape");
    expect(shape).toHaveLength(1);
    expect(shape[0]?.location).toMatchObject({ nodeId: "3", paramPath: ["variables", 0] });
    expect(shape[0]?.severity).toBe("warning");
  });

  it("adds nothing for a well-shaped param", () => {
    expect(analyzeValue(workflow({ variables: [["text", "2"]] }), {}).filter((d) => d.code === "param-shape")).toEqual([]);
  });

  it("runs a type's own checks (start variable types)", () => {
    const value = workflow({ variables: [["text", "2"]] });
    (value.nodes_info[0] as JsonObject).param = { variables: [["q", "text"]] };
    const invalid = analyzeValue(value, {}).filter((d) => d.code === "invalid-option");
    expect(invalid.map((d) => d.location?.paramPath)).toEqual([["variables", 0, 1]]);
  });
});

describe("the Dify conversion of a spec", () => {
  it("emits the official aggregator data through the driver", () => {
    const converted = convertWorkflow({
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["q", "string"]] } },
        { id: "2", type: "variable-aggregator", param: { variables: [["q", "1"]] } },
        { id: "3", type: "end", param: { outputs: [["out", ["output", "2"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"]],
    });
    expect(converted.ok).toBe(true);
    if (!converted.ok) return;
    const aggregator = converted.value.graph.nodes[1]?.data;
    expect(aggregator).toMatchObject({ type: "variable-aggregator", output_type: "string", title: "Variable Aggregator" });
    expect(aggregator?.variables).toEqual([[converted.value.difyIds.get("1"), "q"]]);
  });
});
