import { describe, expect, it } from "vitest";
import { scoreResponse } from "../workflow/score";
import { buildWorkflowView } from "./model";
import { overlaysFor, visibleDiagnostics } from "./overlays";

// Node "2" reads a node listed later (semantics error) and node_selection declares Code, which no node uses.
const workflow = {
  nodes_info: [
    { id: "1", type: "start", param: { variables: [["q", "string"]] } },
    { id: "2", type: "llm", param: { system: "", user: "{{#'3'.text#}}" } },
    { id: "3", type: "llm", param: { system: "", user: "{{#'1'.q#}}" } },
    { id: "4", type: "end", param: { outputs: [["a", ["text", "2"]]] } },
    { id: "5", type: "llm", param: { system: "", user: "unreached" } },
  ],
  edges: [
    ["1", 0, "3"],
    ["3", 0, "2"],
    ["2", 0, "4"],
    ["5", 0, "7"],
  ],
};
const scored = scoreResponse({ nodeSelection: "Start, LLM, Code, End", designPrinciple: "", workflow: JSON.stringify(workflow) }, { inputVars: ["q"], outputVars: ["a"], keyNodes: [] });
const view = buildWorkflowView({ workflow: scored.parsed.json.ok ? scored.parsed.json.value : undefined, diagnostics: scored.diagnostics });
const key = (id: string) => view.nodes.find((n) => n.workflowId === id)!.key;

describe("overlaysFor", () => {
  it("rings a node with its worst severity and counts its diagnostics per category", () => {
    const overlays = overlaysFor(view);
    expect(overlays.nodes[key("2")]).toMatchObject({ severity: "error", categories: [{ category: "semantics", severity: "error" }] });
    // The unreached node only has warnings; its edge to a missing node is a graph error.
    expect(overlays.nodes[key("5")]?.severity).toBe("warning");
    expect(overlays.edges["e3"]).toMatchObject({ severity: "error", categories: [{ category: "graph", count: 1 }] });
    expect(overlays.nodes[key("1")]).toBeUndefined();
  });

  it("drops the marks of hidden categories everywhere", () => {
    const overlays = overlaysFor(view, ["semantics", "graph"]);
    expect(overlays.nodes[key("2")]).toBeUndefined();
    expect(overlays.edges["e3"]).toBeUndefined();
    expect(visibleDiagnostics(view, ["semantics", "graph"]).filter((d) => d.category === "semantics" || d.category === "graph")).toEqual([]);
    expect(visibleDiagnostics(view, ["semantics", "graph"]).some((d) => d.code === "declared-node-unused")).toBe(true);
  });
});
