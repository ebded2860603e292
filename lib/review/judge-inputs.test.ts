import { describe, expect, it } from "vitest";
import { fileInputNames, judgedInputs, passJudgeSections, prettyWorkflow, resolveJudgeSections } from "./judge-inputs";

describe("pass-stage judge inputs", () => {
  const sections = passJudgeSections({
    nodeSelection: "\nStart\nDocument Extractor\nLLM\nEnd\n",
    designPrinciple: "Extract, then summarise.",
    workflow: '{"nodes_info":[{"id":"1","type":"start"}],"edges":[]}',
    keyNodes: ["document-extractor", "llm"],
  });

  it("names the four sections as the judge's message does", () => {
    expect(sections.map((section) => section.name)).toEqual(["node_selection", "design_principle", "workflow", "gt_nodes"]);
  });

  it("preprocesses node_selection like the official pipeline: outer newlines trimmed, inner ones become ', '", () => {
    expect(sections[0]!.text).toBe("Start, Document Extractor, LLM, End");
  });

  it("passes the workflow string unchanged and gt_nodes as a Python list", () => {
    expect(sections[2]!.text).toBe('{"nodes_info":[{"id":"1","type":"start"}],"edges":[]}');
    expect(sections[3]!.text).toBe("['document-extractor', 'llm']");
  });

  it("shows missing fields as empty text", () => {
    const empty = passJudgeSections({ nodeSelection: null, designPrinciple: null, workflow: null, keyNodes: [] });
    expect(empty.map((section) => section.text)).toEqual(["", "", "", "[]"]);
  });
});

describe("resolve-stage judge inputs", () => {
  const inputs = {
    language: "Chinese",
    num_questions: 5,
    empty: "",
    paper: { mime_type: "document/pdf", value: "a.pdf" },
    photos: [{ mime_type: "image/png", value: "b.png" }],
  };

  it("keeps only string and number inputs, as key: value lines, and drops empty strings", () => {
    expect(judgedInputs(inputs)).toBe("language: Chinese\nnum_questions: 5");
    expect(fileInputNames(inputs)).toEqual(["paper", "photos"]);
  });

  it("lists the instructions up to the round, the outputs and the reference answer", () => {
    const sections = resolveJudgeSections({ queries: ["first", "second", "third"], round: 2, inputs, outputs: "summary: ok", groundTruth: null });
    expect(sections.map((section) => [section.name, section.text])).toEqual([
      ["queries", "query1: first\nquery2: second"],
      ["input", "language: Chinese\nnum_questions: 5"],
      ["output", "summary: ok"],
      ["reference_answer", ""],
    ]);
  });
});

describe("workflow pretty-printing", () => {
  it("indents valid JSON", () => {
    expect(prettyWorkflow('{"a":[1,2]}')).toEqual({ ok: true, text: '{\n  "a": [\n    1,\n    2\n  ]\n}' });
  });

  it("keeps invalid JSON as it is, with the problem", () => {
    const result = prettyWorkflow('{"a": 1,}');
    expect(result.ok).toBe(false);
    expect(result.text).toBe('{"a": 1,}');
    if (!result.ok) expect(result.problem).toMatch(/^Not valid JSON/);
    expect(prettyWorkflow(null)).toEqual({ ok: false, text: "", problem: "The response has no workflow." });
  });
});
