import { describe, expect, it } from "vitest";
import { resolveRecordFile, type StoredTurn } from "./records";

const turn = (overrides: Partial<StoredTurn>): StoredTurn => ({
  task: "Summary",
  round: 1,
  nodeSelection: "Start, LLM, End",
  designPrinciple: "A single LLM call.",
  workflow: '{"nodes_info": [], "edges": []}',
  valid: true,
  failStep: null,
  passReason: "Rules hold.",
  cases: [],
  ...overrides,
});

describe("the official resolve record file", () => {
  it("sorts by (task, round) in code-point order and writes each field only when the official stage would", () => {
    const records = resolveRecordFile([
      turn({ task: "summary", round: 1 }),
      turn({
        task: "Summary",
        round: 2,
        cases: [
          { position: 2, verdict: false, outputs: null, judgeReason: null, error: "File check: output \"pdf\" is missing." },
          { position: 1, verdict: true, outputs: "text: hello", judgeReason: "Meets the instruction.", error: null },
          { position: 3, verdict: true, outputs: null, judgeReason: null, error: null },
        ],
      }),
      turn({ task: "Summary", round: 1, valid: false, failStep: "step_1_2", passReason: null }),
    ]);
    expect(records.map((record) => `${record.task}_${record.round}`)).toEqual(["Summary_1", "Summary_2", "summary_1"]);
    expect(records[0]).toEqual({
      task: "Summary",
      round: 1,
      node_selection: "Start, LLM, End",
      design_principle: "A single LLM call.",
      workflow: '{"nodes_info": [], "edges": []}',
      valid: false,
      has_been_judged: false,
      fail_step: "step_1_2",
    });
    expect(records[1]).toMatchObject({ valid: true, has_been_judged: true, reason: "Rules hold.", test1: true, test2: false, test3: true, llm_output_test1: "text: hello", llm_evaluate_reason_test1: "Meets the instruction." });
    expect(records[1]).not.toHaveProperty("llm_output_test2");
    expect(records[1]).not.toHaveProperty("api_key");
    expect(records[2]).not.toHaveProperty("test1");
  });

  it("marks Dify setup failures as the official Other-Error key and a step_1_5 failure as invalid after judging", () => {
    const failing = { verdict: false, outputs: null, judgeReason: null, error: "Dify publish failed (HTTP 500: boom)." };
    const [other, refused] = resolveRecordFile([
      turn({ cases: [1, 2, 3].map((position) => ({ position, ...failing })) }),
      turn({ round: 2, valid: false, failStep: "step_1_5" }),
    ]);
    expect(other).toMatchObject({ api_key: "Other-Error", test1: false, test2: false, test3: false });
    expect(refused).toMatchObject({ valid: false, fail_step: "step_1_5", has_been_judged: true, reason: "Rules hold." });
    expect(refused).not.toHaveProperty("test1");
  });
});
