import { describe, expect, it } from "vitest";
import { officialVerdict } from "./official-verdict";
import type { JsonValue } from "./python-values";
import { nextReady, reorderNodes, repairResponse, tieRank } from "./repair";
import { parseResponse } from "./response";

const TURN = { inputVars: ["doc"], outputVars: ["result"], keyNodes: ["llm"] };

function record(workflow: unknown, nodeSelection = "Start, Document Extractor, LLM, End") {
  return parseResponse({
    nodeSelection,
    designPrinciple: "",
    workflow: typeof workflow === "string" ? workflow : JSON.stringify(workflow),
  });
}

function base() {
  return {
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["doc", "file"]] } },
      { id: "2", type: "document-extractor", param: { variable_selector: ["doc", "1"] } },
      { id: "3", type: "llm", param: { system: "", user: "Summarise {{#'2'.text#}}" } },
      { id: "4", type: "end", param: { outputs: [["result", ["text", "3"]]] } },
    ] as JsonValue[],
    edges: [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"]] as JsonValue[],
  };
}

function workflowOf(repaired: { workflow: string | null }): { nodes_info: { id: string; type: string; param: Record<string, JsonValue> }[]; edges: JsonValue[] } {
  return JSON.parse(repaired.workflow as string);
}

describe("repairResponse", () => {
  it("changes nothing in a correct response", () => {
    const parsed = record(base());
    const { repaired, applied } = repairResponse(parsed);
    expect(applied).toEqual([]);
    expect(repaired.workflow).toBe(parsed.workflowText);
  });

  it("does not mutate the parsed response it repairs", () => {
    const wf = base();
    (wf.nodes_info[2] as { type: string }).type = "template";
    const parsed = record(wf);
    const before = JSON.stringify(parsed.json.ok ? parsed.json.value : null);
    repairResponse(parsed);
    expect(JSON.stringify(parsed.json.ok ? parsed.json.value : null)).toBe(before);
  });

  it("strips a leftover fence and repairs invalid JSON, accepting only objects", () => {
    const fenced = repairResponse(record(`JSON\n${JSON.stringify(base())}\n\`\`\``));
    expect(fenced.applied.map((r) => r.code)).toEqual(["strip-code-fence"]);
    const commented = JSON.stringify(base()).replace('"edges"', '/* the edges */ "edges"');
    const repaired = repairResponse(record(commented));
    expect(repaired.applied.map((r) => r.code)).toEqual(["json-repair"]);
    expect(parseResponse(repaired.repaired).json.ok).toBe(true);
    const notObject = repairResponse(record("[1, 2,"));
    expect(notObject.applied).toEqual([]);
    expect(notObject.repaired.workflow).toBe("[1, 2,");
  });

  it("renames template to template-transform and syncs node_selection", () => {
    const wf = base();
    wf.nodes_info.splice(3, 0, { id: "5", type: "template", param: { variables: [["s", ["text", "3"]]], template: "{{ s }}" } });
    wf.edges = [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "5"], ["5", 0, "4"]];
    const { repaired, applied } = repairResponse(record(wf));
    expect(applied.map((r) => r.code)).toEqual(["rename-node-type", "sync-node-selection"]);
    expect(workflowOf(repaired).nodes_info[3]?.type).toBe("template-transform");
    expect(repaired.nodeSelection).toBe("document-extractor\nend\nllm\nstart\ntemplate-transform");
  });

  it("flattens nested aggregator entries, nests flat selectors and retargets iteration-start reads", () => {
    const wf = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["docs", "array[file]"]] } },
        { id: "2", type: "iteration", param: { iterator_selector: ["docs", "1"], output_selector: ["text", "2-2"] } },
        { id: "2-1", type: "iteration-start", param: {} },
        { id: "2-2", type: "llm", param: { system: "", user: "x", context: ["item", "2-1"] } },
        { id: "3", type: "variable-aggregator", param: { variables: [["out", ["output", "2"]]] } },
        { id: "4", type: "end", param: { outputs: [["result", "output", "3"]] } },
      ],
      edges: [["1", 0, "2"], ["2-1", 0, "2-2"], ["2", 0, "3"], ["3", 0, "4"]],
    };
    const { repaired, applied } = repairResponse(record(wf, "Start, Iteration, Iteration-Start, LLM, Variable Aggregator, End"));
    expect(applied.map((r) => r.code).sort()).toEqual(["flatten-aggregator-entry", "nest-flattened-selector", "retarget-iteration-start"]);
    const fixed = workflowOf(repaired);
    expect(fixed.nodes_info[4]?.param.variables).toEqual([["output", "2"]]);
    expect(fixed.nodes_info[5]?.param.outputs).toEqual([["result", ["output", "3"]]]);
    expect(fixed.nodes_info[3]?.param.context).toEqual(["item", "2"]);
  });

  it("inlines text parameters given as selectors and trims four-element edges", () => {
    const wf = base();
    (wf.nodes_info[2] as { param: object }).param = { system: "", user: ["text", "2"] };
    wf.edges[0] = ["1", 0, "2", 0];
    const parsed = record(wf);
    expect(officialVerdict(parsed, TURN).failStep).toBe("step_1_2");
    const { repaired, applied } = repairResponse(parsed);
    expect(applied.map((r) => r.code)).toEqual(["inline-text-selector", "trim-edge"]);
    expect(workflowOf(repaired).nodes_info[2]?.param.user).toBe("{{#'2'.text#}}");
    expect(officialVerdict(parseResponse(repaired), TURN).failStep).toBeNull();
  });

  it("fixes a forward reference by reordering, which the official verdict then accepts", () => {
    const wf = base();
    const [start, extractor, llm, end] = wf.nodes_info;
    wf.nodes_info = [start, end, llm, extractor] as JsonValue[];
    const parsed = record(wf);
    expect(officialVerdict(parsed, TURN).failStep).toBe("step_1_2");
    const { repaired, applied } = repairResponse(parsed);
    expect(applied.map((r) => r.code)).toEqual(["reorder-nodes"]);
    expect(workflowOf(repaired).nodes_info.map((n) => n.id)).toEqual(["1", "2", "3", "4"]);
    expect(officialVerdict(parseResponse(repaired), TURN).failStep).toBeNull();
  });

  it("leaves a response alone when the tags are missing", () => {
    const parsed = parseResponse({ raw: "no tags here" });
    expect(repairResponse(parsed)).toEqual({ repaired: { nodeSelection: null, designPrinciple: null, workflow: null }, applied: [], value: null });
  });
});

describe("reorderNodes", () => {
  const node = (id: string, type: string, param: JsonValue = {}): JsonValue => ({ id, type, param });

  it("is stable: start first, end last, otherwise original order among ready nodes", () => {
    const nodes = [node("9", "end", { outputs: [["r", ["text", "5"]]] }), node("5", "llm", { user: "{{#'3'.text#}}" }), node("3", "llm", {}), node("1", "start")];
    expect(reorderNodes(nodes)?.map((n) => (n as { id: string }).id)).toEqual(["1", "3", "5", "9"]);
  });

  it("puts children after their parent and ignores the iteration's own output_selector", () => {
    const nodes = [
      node("1", "start"),
      node("2-2", "llm", { user: "{{#'2'.item#}}" }),
      node("2", "iteration", { iterator_selector: ["docs", "1"], output_selector: ["text", "2-2"] }),
      node("2-1", "iteration-start"),
    ];
    expect(reorderNodes(nodes)?.map((n) => (n as { id: string }).id)).toEqual(["1", "2", "2-2", "2-1"]);
  });

  it("returns null when nothing depends on a later node or when dependencies form a cycle", () => {
    expect(reorderNodes([node("1", "start"), node("2", "llm", { user: "{{#1.x#}}" })])).toBeNull();
    const cyclic = [node("1", "start"), node("3", "llm", { user: "{{#'2'.text#}}" }), node("2", "llm", { user: "{{#'3'.text#}}" })];
    expect(reorderNodes(cyclic)).toBeNull();
  });
});

describe("the ordering tie rule both policies share", () => {
  it("places start first, end last, then the earliest position, and the first of a full tie", () => {
    const ready = [
      { type: "end", at: 0 },
      { type: "llm", at: 5 },
      { type: "code", at: 2 },
      { type: "start", at: 9 },
    ];
    const pick = (list: typeof ready) => nextReady(list, (item) => tieRank(item.type), (item) => item.at);
    expect(pick(ready)).toBe(3);
    expect(pick(ready.slice(0, 3))).toBe(2);
    expect(pick([ready[0]!, { type: "end", at: 0 }])).toBe(0);
    expect(pick([])).toBe(-1);
  });
});
