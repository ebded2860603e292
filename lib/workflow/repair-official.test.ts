import { describe, expect, it } from "vitest";
import { applyOfficialAutofixes, pyJsonDumps, repairWorkflowJson, reorderWorkflowNodes, stripWorkflowFences, syncNodeSelection } from "./repair-official";
import type { JsonValue } from "@/lib/workflow/python-values";
import { officialValidation, type ValidationIssue } from "@/lib/generation/validate";

const codesOf = (text: string) => {
  const result = officialValidation(text);
  return result.ok ? result.issues.map((issue: ValidationIssue) => issue.code) : [`raises ${result.raises}`];
};
const order = (nodes: JsonValue[], edges: JsonValue = []) => {
  const fixed = reorderWorkflowNodes(workflow(JSON.stringify({ nodes_info: nodes, edges })));
  return fixed === null ? null : (JSON.parse(fixed.split("<workflow>")[1]!.split("</workflow>")[0]!) as { nodes_info: { id: string }[] }).nodes_info.map((node) => node.id);
};

const workflow = (body: string, selection = "start, end") => `<node_selection>${selection}</node_selection>\n<design_principle>why</design_principle>\n<workflow>${body}</workflow>`;
const simple = '{"nodes_info": [{"id": "1", "type": "start", "param": {"variables": [["q", "string"]]}}, {"id": "2", "type": "end", "param": {"outputs": [["a", ["q", "1"]]]}}], "edges": [["1", 0, "2"]]}';

describe("fence stripping", () => {
  it("removes a ```json fence and its closing fence, rewriting the body between newlines", () => {
    const fixed = stripWorkflowFences(workflow("\n```json\n" + simple + "\n```\n"));
    expect(fixed).toBe(workflow("\n" + simple + "\n"));
  });
  it("removes the json``` and bare ``` variants and leaves an unfenced body alone", () => {
    expect(stripWorkflowFences(workflow("json```\n" + simple + "```"))).toBe(workflow("\n" + simple + "\n"));
    expect(stripWorkflowFences(workflow("```\n" + simple + "\n```"))).toBe(workflow("\n" + simple + "\n"));
    expect(stripWorkflowFences(workflow(simple))).toBeNull();
  });
  it("matches <workflow> case-sensitively, as the official code does", () => {
    expect(stripWorkflowFences("<WORKFLOW>```json\n{}\n```</WORKFLOW>")).toBeNull();
  });
});

describe("JSON repair", () => {
  it("repairs a trailing comma and re-serialises in one line with Python's separators, ASCII-escaped", () => {
    const fixed = repairWorkflowJson(workflow('{"nodes_info": [{"id": "1", "type": "start", "param": {"note": "café"}},], "edges": []}'));
    expect(fixed).toBe(workflow('\n{"nodes_info": [{"id": "1", "type": "start", "param": {"note": "caf\\u00e9"}}], "edges": []}\n'));
  });
  it("leaves JSON that Python parses (NaN included) untouched and rejects repairs that are not objects", () => {
    expect(repairWorkflowJson(workflow('{"a": NaN}'))).toBeNull();
    expect(repairWorkflowJson(workflow('[1, 2,]'))).toBeNull();
  });
});

describe("topological order", () => {
  it("moves a node after the node it references, start first and end last among ready nodes", () => {
    const nodes: JsonValue[] = [
      { id: "1", type: "start", param: {} },
      { id: "3", type: "end", param: { outputs: [["text", ["text", "2"]]] } },
      { id: "2", type: "llm", param: { user: "{{#1.q#}}" } },
    ];
    expect(order(nodes)).toEqual(["1", "2", "3"]);
  });
  it("counts edges, {{#'id'.var#}} references and iteration parents, and ignores an iteration's output_selector", () => {
    const nodes: JsonValue[] = [
      { id: "2-2", type: "llm", param: { user: "{{#'2-1'.item#}}" } },
      { id: "2", type: "iteration", param: { output_selector: ["text", "2-2"], iterator_selector: ["list", "1"] } },
      { id: "1", type: "start", param: {} },
      { id: "2-1", type: "iteration-start", param: {} },
    ];
    expect(order(nodes, [["1", 0, "2"]])).toEqual(["1", "2", "2-1", "2-2"]);
  });
  it("keeps the original order on a cycle", () => {
    const nodes = [
      { id: "1", type: "llm", param: { user: "{{#2.text#}}" } },
      { id: "2", type: "llm", param: { user: "{{#1.text#}}" } },
    ];
    expect(order(nodes)).toBeNull();
  });
  it("re-serialises the whole workflow on one line (non-ASCII kept) only when the order changed", () => {
    const body = '{"nodes_info": [{"id": "2", "type": "end", "param": {"outputs": [["é", ["q", "1"]]]}}, {"id": "1", "type": "start", "param": {"n": 1.0}}], "edges": []}';
    const fixed = reorderWorkflowNodes(workflow(body));
    expect(fixed).toBe(workflow('\n{"nodes_info": [{"id": "1", "type": "start", "param": {"n": 1.0}}, {"id": "2", "type": "end", "param": {"outputs": [["é", ["q", "1"]]]}}], "edges": []}\n'));
    expect(reorderWorkflowNodes(workflow(simple))).toBeNull();
  });
});

describe("node_selection", () => {
  it("rewrites a natural-language selection to the sorted raw type ids", () => {
    const body = '{"nodes_info": [{"id": "1", "type": "start"}, {"id": "2", "type": "template-transform"}, {"id": "3", "type": "llm"}, {"id": "4", "type": "end"}]}';
    const fixed = syncNodeSelection(workflow(body, "Start, Template, LLM (2 instances), End"));
    expect(fixed).toBe(workflow(body, "\nend\nllm\nstart\ntemplate-transform\n"));
  });
  it("leaves a selection equal as a lower-cased set alone", () => {
    expect(syncNodeSelection(workflow(simple, "End; START"))).toBeNull();
  });
  it("inserts a missing tag before <design_principle>", () => {
    const text = `<design_principle>x</design_principle><workflow>${simple}</workflow>`;
    expect(syncNodeSelection(text)).toBe(`<node_selection>\nend\nstart\n</node_selection>\n\n${text}`);
  });
});

describe("all four in order", () => {
  it("records each repair with its before and after text, and the result validates", () => {
    const raw = workflow('```json\n{"nodes_info": [{"id": "2", "type": "end", "param": {"outputs": [["a", ["q", "1"]]]}}, {"id": "1", "type": "start", "param": {"variables": [["q", "string"]]}},], "edges": [["1", 0, "2"]]}\n```', "Start node, End node");
    const result = applyOfficialAutofixes(raw);
    if (!result.ok) throw new Error("the repairs raised");
    const { text, applied } = result;
    expect(applied.map((repair) => repair.code)).toEqual(["strip-code-fence", "json-repair", "topological-order", "node-selection"]);
    expect(applied[0]?.before).toBe(raw);
    expect(applied[3]?.after).toBe(text);
    expect(officialValidation(text)).toEqual({ ok: true, issues: [] });
  });
  it("Python json.dumps of nested values", () => {
    expect(pyJsonDumps({ a: [1, "x\n", null, true] }, true)).toBe('{"a": [1, "x\\n", null, true]}');
  });
});

describe("static validation", () => {
  it("reports a forward reference and a mismatched selection with the official codes", () => {
    const body = '{"nodes_info": [{"id": "1", "type": "start", "param": {}}, {"id": "3", "type": "end", "param": {"outputs": [["t", ["text", "2"]]]}}, {"id": "2", "type": "llm", "param": {}}], "edges": []}';
    expect(codesOf(workflow(body, "start, end, code"))).toEqual(["NODE_SELECTION_MISMATCH", "NODE_SELECTION_EXTRA", "TOPOLOGICAL_ORDER"]);
  });
  it("stops at missing or invalid JSON", () => {
    expect(codesOf("<design_principle>x</design_principle>")).toEqual(["MISSING_JSON"]);
    expect(codesOf(workflow("{oops"))).toEqual(["INVALID_JSON"]);
  });
});

describe("parity with the official validation and repairs", () => {
  it("reads a numeric start id 1 as \"1\" and numeric reference ids as node ids, as Python's str() does", () => {
    const body = '{"nodes_info": [{"id": 1, "type": "start", "param": {}}, {"id": "2", "type": "end", "param": {"outputs": [["a", ["text", 3]]]}}, {"id": 3, "type": "llm", "param": {}}], "edges": [[1, 0, 3], [3, 0, "2"]]}';
    expect(codesOf(workflow(body, "start, llm, end"))).toEqual(["TOPOLOGICAL_ORDER"]);
    expect(codesOf(workflow(body.replace('"id": 1,', '"id": 1.0,'), "start, llm, end"))).toContain("START_ID_WRONG");
    const repaired = applyOfficialAutofixes(workflow(body, "start, llm, end"));
    expect(repaired.ok && repaired.applied.map((fix) => fix.code)).toEqual(["topological-order"]);
    expect(codesOf(repaired.ok ? repaired.text : "")).toEqual([]);
  });
  it("says where the official code raises: a workflow that is a JSON list, a null edge list, a node type that is a number", () => {
    expect(applyOfficialAutofixes(workflow("[1, 2]"))).toMatchObject({ ok: false, raises: "AttributeError", at: "topological-order" });
    expect(applyOfficialAutofixes(workflow('{"nodes_info": [{"id": "1"}], "edges": null}'))).toMatchObject({ ok: false, raises: "TypeError", at: "topological-order" });
    expect(applyOfficialAutofixes(workflow('{"nodes_info": [{"id": "1", "type": 5}], "edges": []}'))).toMatchObject({ ok: false, raises: "TypeError", at: "node-selection" });
    expect(codesOf(workflow('{"nodes_info": null, "edges": []}'))).toEqual(["raises TypeError"]);
  });
});
