import { describe, expect, it } from "vitest";
import type { RunRecord } from "../benchmark/runs";
import type { TurnSpec } from "../benchmark/turn";
import { judgeItemsFor, passInputMaterial, passJudgeItems, reachedPassJudge, resolveJudgeItems } from "./items";

const turn: TurnSpec = {
  task: "PaperQA",
  round: 2,
  inputVars: ["paper", "question"],
  outputVars: ["answer"],
  keyNodes: ["llm", "document-extractor"],
  tests: [
    { inputs: { paper: { mime_type: "document/pdf", value: "a.pdf" }, question: "Why?" }, groundTruth: "Because." },
    { inputs: { paper: { mime_type: "document/pdf", value: "b.pdf" }, question: "" }, groundTruth: null },
    { inputs: { question: "How?" }, groundTruth: null },
  ],
  fileChecks: {},
};
const turns = new Map([["PaperQA_2", turn]]);
const queries = new Map([["PaperQA", ["Answer questions about the paper.", "Also cite the section."]]]);
const context = { turns, queries, systemPrompt: "SYSTEM" };

function record(overrides: Partial<RunRecord>): RunRecord {
  return {
    task: "PaperQA",
    round: 2,
    node_selection: "Start\nDocument Extractor\nLLM\nEnd",
    design_principle: "Extract, then answer.",
    workflow: '{"nodes_info": [], "edges": []}',
    valid: true,
    has_been_judged: true,
    ...overrides,
  };
}

describe("pass-stage items", () => {
  it("asks about every record that passed steps 1_1-1_3, with the recorded step 1_4 verdict", () => {
    const records = [
      record({}),
      record({ valid: false, fail_step: "step_1_4", round: 2 }),
      record({ valid: false, fail_step: "step_1_3" }),
      record({ valid: false, fail_step: "step_1_1", node_selection: null, design_principle: null, workflow: null }),
    ];
    expect(records.map(reachedPassJudge)).toEqual([true, true, false, false]);
    const { items, issues } = passJudgeItems([{ model: "m1", records }], context);
    expect(issues).toEqual([]);
    expect(items.map((item) => [item.key, item.stage, item.test, item.recorded])).toEqual([
      ["m1/PaperQA_2", "pass", null, true],
      ["m1/PaperQA_2", "pass", null, false],
    ]);
    expect(items[0]?.messages[0]).toEqual({ role: "system", content: "SYSTEM" });
    expect(items[0]?.messages[1]?.content).toContain("node_selection: Start, Document Extractor, LLM, End\n");
    expect(items[0]?.messages[1]?.content).toContain("gt_nodes: ['llm', 'document-extractor']\n");
    expect(items[0]?.inputMaterial).toBe(passInputMaterial(records[0]!.node_selection, records[0]!.design_principle, records[0]!.workflow, turn.keyNodes));
  });

  it("reports a record whose turn the benchmark lacks, and goes on", () => {
    const { items, issues } = passJudgeItems([{ model: "m1", records: [record({ task: "Unknown" }), record({})] }], context);
    expect(items).toHaveLength(1);
    expect(issues).toEqual([{ key: "m1/Unknown_2", problem: "the benchmark has no turn Unknown_2" }]);
  });
});

describe("resolve-stage items", () => {
  it("asks one question per test case with recorded non-file outputs, with the recorded test verdict", () => {
    const judged = record({ test1: true, test2: false, test3: false, llm_output_test1: "answer: Because.", llm_output_test3: "answer: 3.0" });
    const { items, issues } = resolveJudgeItems([{ model: "m2", records: [judged, record({ valid: false, fail_step: "step_1_4" })] }], context);
    expect(issues).toEqual([]);
    expect(items.map((item) => [item.key, item.test, item.recorded])).toEqual([
      ["m2/PaperQA_2/test1", 1, true],
      ["m2/PaperQA_2/test3", 3, false],
    ]);
    const user = items[0]?.messages[1]?.content ?? "";
    expect(user).toContain("<queries>\n    query1: Answer questions about the paper.\nquery2: Also cite the section.\n\n    </queries>");
    expect(user).toContain("<input>\n    question: Why?\n\n    </input>");
    expect(user).toContain("<reference_answer>\n    Because.\n    </reference_answer>");
    expect(judgeItemsFor("resolve", [{ model: "m2", records: [judged] }], context).items).toHaveLength(2);
  });
});
