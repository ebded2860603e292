import { describe, expect, it } from "vitest";
import type { TestInputValue } from "@/lib/benchmark/dataset";
import { convertWorkflow } from "@/lib/workflow/convert";
import type { JsonValue } from "@/lib/workflow/python-values";
import { MAX_TRACE_ARTIFACTS } from "./engine";
import { dryRunTestCase } from "./execute";
import { classIndexByOverlap, mockModel } from "./mock-model";
import { codeErrorIsCertain, codeOutputFailure } from "./nodes/code";
import { predictedOutcome } from "./turns";
import { PLACEHOLDER_PNG } from "./placeholder-png";
import type { ChartRenderer, ChartRequest, DocumentReader, DocumentText, FileMaker } from "./types";

const services = { model: mockModel, code: null, maxSteps: 500 };

function graphOf(workflow: JsonValue) {
  const converted = convertWorkflow(workflow);
  if (!converted.ok) throw new Error(converted.issues[0]?.message);
  return converted.value.graph;
}

const run = (workflow: JsonValue, test: Record<string, TestInputValue>, fileChecks: Record<string, string> = {}) =>
  dryRunTestCase({ graph: graphOf(workflow), test, fileChecks, caseFileExists: null, services });

const summarizer = (inputType: string, target = "pdf"): JsonValue => ({
  nodes_info: [
    { id: "1", type: "start", param: { variables: [["doc", inputType]] } },
    { id: "2", type: "document-extractor", param: { variable_selector: ["doc", "1"] } },
    { id: "3", type: "llm", param: { system: "", user: "Summarize {{#2.text#}}" } },
    { id: "4", type: "markdown-exporter", param: { target_type: target, md_text: "{{#3.text#}}" } },
    { id: "5", type: "end", param: { outputs: [["summary", ["text", "3"]], ["file", ["files", "4"]]] } },
  ],
  edges: [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"], ["4", 0, "5"]],
});

const pdf = { mime_type: "document/pdf", value: "paper.pdf" };

describe("dry run of a converted workflow", () => {
  it("completes, with the exporter's file type, and applies the resolve stage's file check", async () => {
    const passing = await run(summarizer("file"), { doc: pdf }, { file: ".pdf" });
    expect(passing.outcome).toBe("completed");
    expect(passing.outputs).toEqual({ summary: { kind: "text", extensions: [] }, file: { kind: "files", extensions: [".pdf"] } });
    expect(passing.fileCheck).toBe("passed");
    const wrongType = await run(summarizer("file", "docx"), { doc: pdf }, { file: ".pdf" });
    expect(wrongType.fileCheck).toBe("failed");
    expect(predictedOutcome(wrongType)).toBe("failed-before-judge");
  });

  it("rejects a file given to a string input before any node runs, as Dify's input check does", async () => {
    const workflow: JsonValue = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["doc", "string"]] } },
        { id: "2", type: "llm", param: { system: "", user: "Summarize {{#1.doc#}}" } },
        { id: "3", type: "end", param: { outputs: [["summary", ["text", "2"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"]],
    };
    const execution = await run(workflow, { doc: pdf });
    expect(execution.outcome).toBe("failed");
    expect(execution.reason).toBe("(type 'paragraph') doc in input form must be a string");
    expect(execution.trace).toHaveLength(0);
  });

  it("passes a case file's real text on as content, and fails the node on a file its reader cannot parse", async () => {
    const texts: Record<string, DocumentText> = {
      "paper.pdf": { ok: true, text: "Abstract. We study dry runs." },
      "broken.pdf": { ok: false, reason: "Failed to extract text from PDF: Invalid PDF structure." },
      "huge.pdf": { ok: false, reason: "Failed to extract text: text extraction ran over its 20 s limit.", ourLimit: true },
    };
    const documents: DocumentReader = { read: async (file) => (file.related_id ? texts[file.related_id] ?? null : null) };
    const withReader = (test: Record<string, TestInputValue>) =>
      dryRunTestCase({ graph: graphOf(summarizer("file")), test, fileChecks: {}, caseFileExists: null, services: { ...services, documents } });
    const read = await withReader({ doc: pdf });
    const extractor = read.trace.find((step) => step.type === "document-extractor");
    expect(extractor?.status).toBe("succeeded");
    expect(extractor?.mocked).toBe(false);
    expect(extractor?.outputs?.text).toBe("Abstract. We study dry runs.");
    const broken = await withReader({ doc: { mime_type: "document/pdf", value: "broken.pdf" } });
    expect(broken.outcome).toBe("failed");
    expect(broken.failedNode).toBe(extractor?.nodeId);
    expect(broken.reason).toBe("Failed to extract text from PDF: Invalid PDF structure.");
    // Our parser's time limit is not Dify's: the node is uncertain and the run goes on.
    const slow = await withReader({ doc: { mime_type: "document/pdf", value: "huge.pdf" } });
    expect(slow.outcome).toBe("completed");
    expect(slow.trace.find((step) => step.type === "document-extractor")?.status).toBe("uncertain");
    const unknown = await withReader({ doc: { mime_type: "document/pdf", value: "absent.pdf" } });
    expect(unknown.trace.find((step) => step.type === "document-extractor")?.mocked).toBe(true);
  });

  it("has an exporter's file written from the Markdown it renders, keeping its type and extension", async () => {
    const calls: { extension: string; markdown: string }[] = [];
    const files: FileMaker = { make: async (request) => (calls.push(request), { size: 1234 }) };
    const execution = await dryRunTestCase({ graph: graphOf(summarizer("file")), test: { doc: pdf }, fileChecks: { file: ".pdf" }, caseFileExists: null, services: { ...services, files } });
    expect(execution.fileCheck).toBe("passed");
    expect(execution.outputs.file).toEqual({ kind: "files", extensions: [".pdf"] });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.extension).toBe(".pdf");
    expect(calls[0]?.markdown).toMatch(/^\[mock answer of .+\]$/);
    // The trace lists the written file and keeps its (short) Markdown, so it can be written again for a download.
    const step = execution.trace.find((entry) => entry.type === "md_to_pdf");
    expect(step?.files).toEqual([{ name: expect.stringMatching(/\.pdf$/), extension: ".pdf", kind: "document", size: 1234, content: "written", markdown: calls[0]?.markdown }]);
  });

  it("keeps at most MAX_TRACE_ARTIFACTS characters of Markdown in a run's trace; later files are listed without it", async () => {
    const files: FileMaker = { make: async ({ markdown }) => ({ size: markdown.length }) };
    const exporters = Array.from({ length: 30 }, (_, index) => ({ id: String(index + 2), type: "markdown-exporter", param: { target_type: "md", md_text: "{{#1.text#}}" } }));
    const workflow: JsonValue = {
      nodes_info: [{ id: "1", type: "start", param: { variables: [["text", "string"]] } }, ...exporters, { id: "99", type: "end", param: { outputs: [["file", ["files", "31"]]] } }],
      edges: [...["1", ...exporters.map((node) => node.id)].map((id, index, ids) => [id, 0, ids[index + 1] ?? "99"])],
    };
    const text = "x".repeat(15_000);
    const execution = await dryRunTestCase({ graph: graphOf(workflow), test: { text }, fileChecks: {}, caseFileExists: null, services: { ...services, files } });
    const listed = execution.trace.flatMap((step) => step.files ?? []);
    expect(listed).toHaveLength(30);
    const kept = listed.filter((file) => file.markdown === text).length;
    expect(kept).toBe(Math.floor(MAX_TRACE_ARTIFACTS / text.length));
    expect(listed.slice(kept).map((file) => [file.content, file.size, "markdown" in file])).toEqual(Array.from({ length: 30 - kept }, () => ["written", text.length, false]));
  });

  it("fails an exporter the plugin fails (a spreadsheet without a table), uncertain on mocked Markdown", async () => {
    const files: FileMaker = { make: async () => ({ failure: "No available tables parsed from markdown text" }) };
    const execution = await dryRunTestCase({ graph: graphOf(summarizer("file", "xlsx")), test: { doc: pdf }, fileChecks: {}, caseFileExists: null, services: { ...services, files } });
    const step = execution.trace.find((entry) => entry.type === "md_to_xlsx");
    expect(step?.status).toBe("uncertain");
    expect(step?.reason).toContain("No available tables");
  });

  it("lists a file without bytes as such when no writer is given, and gives images a placeholder PNG", async () => {
    const unwritten = await run(summarizer("file", "pptx"), { doc: pdf });
    expect(unwritten.trace.find((entry) => entry.type === "md_to_pptx")?.files).toEqual([expect.objectContaining({ extension: ".pptx", size: 0, content: "none" })]);
    const image = await run(
      {
        nodes_info: [
          { id: "1", type: "start", param: { variables: [["idea", "string"]] } },
          { id: "2", type: "mermaid-converter", param: { mermaid_code: "graph TD; A-->B" } },
          { id: "3", type: "end", param: { outputs: [["diagram", ["files", "2"]]] } },
        ],
        edges: [["1", 0, "2"], ["2", 0, "3"]],
      },
      { idea: "x" },
      { diagram: ".png" },
    );
    expect(image.fileCheck).toBe("passed");
    expect(image.trace.find((entry) => entry.type === "mermaid_converter")?.files).toEqual([expect.objectContaining({ extension: ".png", kind: "image", size: PLACEHOLDER_PNG.byteLength, content: "placeholder" })]);
  });

  it("attaches the chart preview to the chart step, and the tool's output stays the ```echarts text", async () => {
    const requests: ChartRequest[] = [];
    const charts: ChartRenderer = { render: async (request) => (requests.push(request), { svg: "<svg/>", alt: "Pie chart" }) };
    const workflow: JsonValue = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["topic", "string"]] } },
        { id: "2", type: "echarts", param: { chart_type: "pie", chart_title: "Share of {{#1.topic#}}", data: "3;2;1", x_axisORcategories: "a;b;c" } },
        { id: "3", type: "end", param: { outputs: [["chart", ["text", "2"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"]],
    };
    const execution = await dryRunTestCase({ graph: graphOf(workflow), test: { topic: "<b>sales</b>" }, fileChecks: {}, caseFileExists: null, services: { ...services, charts } });
    expect(requests).toEqual([{ chart: "pie", title: "Share of <b>sales</b>", labels: ["a", "b", "c"], values: [3, 2, 1] }]);
    const step = execution.trace.find((entry) => entry.type === "pie_chart");
    expect(step?.chart).toEqual({ svg: "<svg/>", alt: "Pie chart" });
    expect(step?.outputs?.text).toMatch(/^```echarts\n/);
  });

  it("fails the document extractor on an uploaded image (an extension Dify cannot read)", async () => {
    const execution = await run(summarizer("file"), { doc: { mime_type: "image/jpg", value: "scan.jpg" } });
    expect(execution.outcome).toBe("failed");
    expect(execution.reason).toBe("Unsupported Extension Type: .jpg");
    const failedStep = execution.trace.find((step) => step.nodeId === execution.failedNode);
    expect(failedStep?.type).toBe("document-extractor");
  });

  it("takes a case without conditions (Python's all([]) is True) and skips the other branch", async () => {
    const workflow: JsonValue = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["q", "string"]] } },
        { id: "2", type: "if-else", param: { cases: [[null, [[["q", "1"], "contains", "never"]]], [null, []]] } },
        { id: "3", type: "llm", param: { system: "", user: "A {{#1.q#}}" } },
        { id: "4", type: "llm", param: { system: "", user: "B {{#1.q#}}" } },
        { id: "5", type: "variable-aggregator", param: { variables: [["text", "3"], ["text", "4"]] } },
        { id: "6", type: "end", param: { outputs: [["answer", ["output", "5"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"], ["2", 1, "4"], ["3", 0, "5"], ["4", 0, "5"], ["5", 0, "6"]],
    };
    const execution = await run(workflow, { q: "hello" });
    expect(execution.outcome).toBe("completed");
    const statuses = Object.fromEntries(execution.trace.map((step) => [step.title, step.status]));
    expect(statuses).toMatchObject({ LLM: "skipped", "LLM 2": "succeeded", "Variable Aggregator": "succeeded", End: "succeeded" });
  });

  it("does not predict a missing End node from a branch chosen on the mock model's text", async () => {
    const workflow: JsonValue = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["q", "string"]] } },
        { id: "2", type: "llm", param: { system: "", user: "{{#1.q#}}" } },
        { id: "3", type: "if-else", param: { cases: [[null, [[["text", "2"], "start with", "PASS"]]]] } },
        { id: "4", type: "end", param: { outputs: [["answer", ["text", "2"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"]],
    };
    const execution = await run(workflow, { q: "x" });
    expect(execution.outputs).toEqual({});
    expect(predictedOutcome(execution)).toBe("reached-judge");
  });
});

describe("iteration", () => {
  it("runs its inner nodes, from its start node, once per item and collects the output selector", async () => {
    const workflow: JsonValue = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["docs", "array[file]"]] } },
        { id: "2", type: "iteration", param: { iterator_selector: ["docs", "1"], output_selector: ["output", "2-3"] } },
        { id: "2-1", type: "iteration-start", param: {} },
        { id: "2-2", type: "document-extractor", param: { variable_selector: ["item", "2"] } },
        { id: "2-3", type: "template-transform", param: { variables: [["n", ["index", "2"]]], template: "doc {{ n }}" } },
        { id: "3", type: "end", param: { outputs: [["names", ["output", "2"]]] } },
      ],
      edges: [["1", 0, "2"], ["2-1", 0, "2-2"], ["2-2", 0, "2-3"], ["2", 0, "3"]],
    };
    const execution = await run(workflow, { docs: [pdf, pdf] });
    expect(execution.outcome).toBe("completed");
    expect(execution.trace.filter((step) => step.type === "template-transform").map((step) => [step.iteration, step.status])).toEqual([[0, "succeeded"], [1, "succeeded"]]);
    expect(execution.outputs.names).toEqual({ kind: "array", extensions: [] });
  });
});

describe("rules that hold whatever the model writes", () => {
  const iterate = (source: JsonValue, prompt: string): JsonValue => ({
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["topic", "string"]] } },
      source as never,
      { id: "3", type: "iteration", param: { iterator_selector: ["items", "2"], output_selector: ["text", "3-2"] } },
      { id: "3-1", type: "iteration-start", param: {} },
      { id: "3-2", type: "llm", param: { system: "", user: prompt } },
      { id: "4", type: "end", param: { outputs: [["parts", ["output", "3"]]] } },
    ],
    edges: [["1", 0, "2"], ["2", 0, "3"], ["3-1", 0, "3-2"], ["3", 0, "4"]],
  });
  const extractor = { id: "2", type: "parameter-extractor", param: { query: ["topic", "1"], parameters: [["the items", "items", "array[string]"]], instruction: "List them." } };

  it("fails an LLM prompt that names a variable its node does not have (the iteration-start has no item)", async () => {
    const execution = await run(iterate(extractor, "Write about {{#3-1.item#}}"), { topic: "tides" });
    expect(execution.outcome).toBe("failed");
    expect(execution.reason).toMatch(/^Iteration 1: Variable #\d+start\.item# not found$/);
    expect(predictedOutcome(execution)).toBe("failed-before-judge");
    // Read through the iteration itself, the same workflow completes.
    expect((await run(iterate(extractor, "Write about {{#3.item#}}"), { topic: "tides" })).outcome).toBe("completed");
  });

  it("fails a run whose code node declares a file output, which Dify's node data does not allow, before any node runs", async () => {
    const workflow: JsonValue = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["docs", "array[file]"]] } },
        { id: "2", type: "code", param: { variables: [["docs", ["docs", "1"]]], outputs: [["kept", "array[file]"]], code: "def main(docs):\n\treturn {'kept': docs}" } },
        { id: "3", type: "end", param: { outputs: [["kept", ["kept", "2"]]] } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"]],
    };
    const execution = await run(workflow, { docs: [pdf] });
    expect(execution.outcome).toBe("failed");
    expect(execution.reason).toMatch(/^invalid type for code output kept: .*actual array\[file\]$/);
    expect(execution.trace.map((step) => [step.type, step.status])).toEqual([["code", "failed"]]);
  });

  it("runs a node whose id names a parent that is no iteration at top level, as Dify's Graph.init keeps every node", async () => {
    const workflow: JsonValue = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["topic", "string"]] } },
        { id: "1-1", type: "llm", param: { system: "", user: "Write about {{#1.topic#}}" } },
        { id: "2", type: "template-transform", param: { variables: [["text", ["text", "1-1"]]], template: "{{ text }}" } },
        { id: "3", type: "end", param: { outputs: [["text", ["output", "2"]]] } },
      ],
      edges: [["1", 0, "1-1"], ["1-1", 0, "2"], ["2", 0, "3"]],
    };
    const execution = await run(workflow, { topic: "tides" });
    expect(execution.outcome).toBe("completed");
    expect(execution.trace.map((step) => [step.type, step.status])).toEqual([["start", "succeeded"], ["llm", "succeeded"], ["template-transform", "succeeded"], ["end", "succeeded"]]);
  });

  it("lets the mock classifier read a CamelCase class name as its words", () => {
    expect(classIndexByOverlap("Write a speech draft of the meeting", ["Minutes", "SpeechDraft"])).toBe(1);
  });

  it("fails an iteration over an LLM's text, which is a string whatever the model answers", async () => {
    const llm = { id: "2", type: "llm", param: { system: "", user: "List parts of {{#1.topic#}}" } };
    const workflow = iterate(llm, "Write about {{#3.item#}}") as { nodes_info: { param: Record<string, unknown> }[] };
    (workflow.nodes_info[2] as { param: Record<string, unknown> }).param.iterator_selector = ["text", "2"];
    const execution = await run(workflow as unknown as JsonValue, { topic: "tides" });
    expect(execution.outcome).toBe("failed");
    expect(execution.reason).toMatch(/^Invalid iterator value: .*please provide a list\.$/);
  });
});

describe("code node output validation (Dify's _transform_result)", () => {
  const declared = { summary: { type: "string" }, items: { type: "array[string]" } };
  it("accepts the declared outputs with their types", () => {
    expect(codeOutputFailure({ summary: "s", items: ["a"] }, declared)).toBeNull();
  });
  it("fails a missing output, a wrong type, a list past Dify's limit and an undeclared key", () => {
    expect(codeOutputFailure({ summary: "s" }, declared)).toBe("Output items is missing.");
    expect(codeOutputFailure({ summary: 3, items: [] }, declared)).toBe("Output variable `summary` must be a string");
    expect(codeOutputFailure({ summary: "s", items: Array.from({ length: 31 }, () => "x") }, declared)).toBe("The length of output variable `items` must be less than 30 elements.");
    expect(codeOutputFailure({ summary: "s", items: [], extra: 1 }, declared)).toBe("Not all output parameters are validated.");
  });
});

describe("code errors that happen whatever the inputs", () => {
  it("are a syntax error or an import of a module Dify's sandbox lacks, not one it has or one raised on content", () => {
    expect(codeErrorIsCertain("python3", 'File "<code>", line 2\n    return {\nSyntaxError: \'{\' was never closed')).toBe(true);
    expect(codeErrorIsCertain("python3", "ModuleNotFoundError: No module named 'pandas'")).toBe(true);
    expect(codeErrorIsCertain("python3", "ModuleNotFoundError: No module named 'requests'")).toBe(false);
    expect(codeErrorIsCertain("python3", "JSONDecodeError: Expecting value: line 1 column 1 (char 0)")).toBe(false);
    expect(codeErrorIsCertain("javascript", "SyntaxError: unexpected token")).toBe(false);
  });
});
