import { describe, expect, it } from "vitest";
import { checkVariableNames, officialVerdict } from "./official-verdict";
import type { JsonValue } from "./python-values";
import { parseResponse } from "./response";

const startNode = (variables: JsonValue): JsonValue => ({ id: "1", type: "start", param: { variables } });
const endNode = (id: string, names: string[]): JsonValue => ({ id, type: "end", param: { outputs: names.map((n) => [n, ["text", "2"]]) } });
const wf = (...nodes: JsonValue[]): JsonValue => ({ nodes_info: nodes, edges: [] });

describe("checkVariableNames (official step_1_3)", () => {
  const turn = { inputVars: ["paper", "language"], outputVars: ["summary"] };

  it("passes with the inputs as a set and the outputs of one end node", () => {
    expect(checkVariableNames(wf(startNode([["language", "string"], ["paper", "file"], ["paper", "file"]]), endNode("3", ["summary"])), turn)).toEqual([]);
  });

  it("uses the first start node only", () => {
    const second = { id: "9", type: "start", param: { variables: [["paper", "file"], ["language", "string"]] } };
    const diagnostics = checkVariableNames(wf(startNode([["paper", "file"]]), second, endNode("3", ["summary"])), turn);
    expect(diagnostics.map((d) => d.code)).toEqual(["input-variables-mismatch"]);
    expect(diagnostics[0]?.message).toMatch(/missing language/);
  });

  it("ignores start entries that are not non-empty lists", () => {
    const diagnostics = checkVariableNames(wf(startNode([["paper", "file"], [], "language", ["language"]]), endNode("3", ["summary"])), turn);
    expect(diagnostics).toEqual([]);
  });

  it("fails without a start node", () => {
    const diagnostics = checkVariableNames(wf(endNode("3", ["summary"])), turn);
    expect(diagnostics[0]).toMatchObject({ code: "missing-start", category: "graph", officialStep: "step_1_3" });
  });

  it("names missing and extra inputs", () => {
    const [d] = checkVariableNames(wf(startNode([["paper", "file"], ["lang", "string"]]), endNode("3", ["summary"])), turn);
    expect(d?.message).toMatch(/missing language; unexpected lang/);
    expect(d?.location).toEqual({ nodeId: "1", paramPath: ["variables"] });
  });

  it("names each missing or extra input once, in order, with Python equality (1, 1.0 and True are one name)", () => {
    const variables = [["lang", "string"], [1, "number"], ["lang", "string"], [true, "boolean"], ["paper", "file"], [1.0, "number"]];
    const [d] = checkVariableNames(wf(startNode(variables), endNode("3", ["summary"])), { ...turn, inputVars: ["language", "paper", "language"] });
    expect(d?.message).toMatch(/: missing language; unexpected lang, 1\.$/);
  });

  it("requires exactly one end node for a single output group", () => {
    const diagnostics = checkVariableNames(wf(startNode([["paper", "file"], ["language", "string"]]), endNode("3", ["summary"]), endNode("4", ["summary"])), turn);
    expect(diagnostics.map((d) => d.code)).toContain("end-count-mismatch");
  });

  it("counts end nodes on iteration canvases", () => {
    const inner = { id: "2-3", type: "end", param: { outputs: [["summary", ["text", "2-2"]]] } };
    const diagnostics = checkVariableNames(wf(startNode([["paper", "file"], ["language", "string"]]), inner, endNode("3", ["summary"])), turn);
    expect(diagnostics.map((d) => d.code)).toContain("end-count-mismatch");
  });

  it("breaks equality on a repeated output name", () => {
    const diagnostics = checkVariableNames(wf(startNode([["paper", "file"], ["language", "string"]]), endNode("3", ["summary", "summary"])), turn);
    expect(diagnostics.map((d) => d.code)).toEqual(["duplicate-output-name"]);
    expect(diagnostics[0]?.message).toMatch(/End node "3" outputs summary more than once/);
  });

  it("matches several end nodes to nested groups in any order", () => {
    const nested = { inputVars: ["q"], outputVars: [["result"], ["result", "picture"]] };
    const start = startNode([["q", "string"]]);
    expect(checkVariableNames(wf(start, endNode("5", ["picture", "result"]), endNode("6", ["result"])), nested)).toEqual([]);
    const wrong = checkVariableNames(wf(start, endNode("5", ["result", "image"]), endNode("6", ["result"])), nested);
    expect(wrong).toHaveLength(1);
    expect(wrong[0]?.message).toMatch(/End node "5".*missing picture; unexpected image/);
  });

  it("sorts output names by code point as Python does, whatever their order or kind", () => {
    // U+FF5E sorts after U+1F600 in UTF-16 units but before it by code point.
    const names = ["\u{1F600}", "b", "\uFF5E", "a"];
    const target = { inputVars: ["q"], outputVars: ["a", "b", "\uFF5E", "\u{1F600}"] };
    const start = startNode([["q", "string"]]);
    expect(checkVariableNames(wf(start, endNode("3", names)), target)).toEqual([]);
    const [extra] = checkVariableNames(wf(start, endNode("3", [...names, "\uFF5E"])), target);
    expect(extra?.message).toBe("End node \"3\" outputs \uFF5E more than once.");
    const mixed = { id: "3", type: "end", param: { outputs: [["b", ["x", "2"]], [1, ["x", "2"]]] } };
    expect(checkVariableNames(wf(start, mixed), target)[0]?.message).toMatch(/mix names of different kinds/);
  });

  it("reads a null param or outputs entry as absent, and a param that is not an object as a failure", () => {
    const start = startNode([["q", "string"]]);
    const target = { inputVars: ["q"], outputVars: [] };
    expect(checkVariableNames(wf(start, { id: "3", type: "end", param: null }), target)[0]?.code).toBe("end-count-mismatch");
    expect(checkVariableNames(wf(start, { id: "3", type: "end", param: { outputs: null } }), target)[0]?.message).toMatch(/1 End node\(s\).*Found: End node "3": \(none\)/);
    expect(checkVariableNames(wf(start, { id: "3", type: "end", param: "x" }), target)[0]?.message).toBe("An end node's outputs are not a list.");
    expect(checkVariableNames(wf({ id: "1", type: "start", param: null }), { inputVars: [], outputVars: [] })).toEqual([]);
  });

  it("treats an empty output target as no end nodes", () => {
    expect(checkVariableNames(wf(startNode([["q", "string"]])), { inputVars: ["q"], outputVars: [] })).toEqual([]);
  });
});

describe("officialVerdict", () => {
  const turn = { inputVars: ["q"], outputVars: ["answer"] };
  const record = (workflow: string | null) => parseResponse({ nodeSelection: "x", designPrinciple: "y", workflow });

  const good = JSON.stringify({
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["q", "string"]] } },
      { id: "2", type: "llm", param: { system: "", user: "{{#'1'.q#}}" } },
      { id: "3", type: "end", param: { outputs: [["answer", ["text", "2"]]] } },
    ],
    edges: [
      ["1", 0, "2"],
      ["2", 0, "3"],
    ],
  });

  it("passes a consistent workflow through to step_1_4", () => {
    const verdict = officialVerdict(record(good), turn);
    expect(verdict.failStep).toBeNull();
    expect(verdict.diagnostics).toEqual([]);
    expect(verdict.conversion?.ok).toBe(true);
  });

  it("stops at the first failing step", () => {
    expect(officialVerdict(record("{"), turn).failStep).toBe("step_1_1");
    expect(officialVerdict(record(good.replace('"llm"', '"template"')), turn).failStep).toBe("step_1_2");
    expect(officialVerdict(record(good), { inputVars: ["question"], outputVars: ["answer"] }).failStep).toBe("step_1_3");
    expect(officialVerdict(parseResponse({ nodeSelection: null, designPrinciple: null, workflow: null }), turn).failStep).toBe("step_1_1");
  });

  it("returns the step's diagnostics", () => {
    const verdict = officialVerdict(record(good.replace('"llm"', '"template"')), turn);
    expect(verdict.diagnostics.map((d) => [d.code, d.officialStep])).toEqual([["reference-unknown-type", "step_1_2"]]);
  });
});
