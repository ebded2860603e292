import { describe, expect, it } from "vitest";
import type { TestInputValue } from "@/lib/benchmark/dataset";
import { convertWorkflow } from "@/lib/workflow/convert";
import type { JsonValue } from "@/lib/workflow/python-values";
import { dryRunTestCase } from "./execute";
import { mockModel } from "./mock-model";
import { codeOutputFailure } from "./nodes/code";
import { predictedOutcome } from "./turns";

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
