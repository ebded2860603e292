import { describe, expect, it } from "vitest";
import { resolveRecordFile, withCases, withSetupFailure, type StoredTurn } from "./records";

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

  it("writes no testN for a case not judged, and the official outcome of a Dify setup failure", () => {
    const [record] = resolveRecordFile([
      turn({
        cases: [
          { position: 1, verdict: null, outputs: "text: hi", judgeReason: null, error: "Not judged: no resolve judge was chosen for its text outputs." },
          { position: 2, verdict: true, outputs: null, judgeReason: null, error: null },
          { position: 3, verdict: false, outputs: "text: no", judgeReason: "Wrong.", error: null },
        ],
      }),
    ]);
    expect(record).not.toHaveProperty("test1");
    expect(record).not.toHaveProperty("llm_output_test1");
    expect(record).toMatchObject({ test2: true, test3: false, llm_evaluate_reason_test3: "Wrong.", llm_output_test3: "text: no" });
    const base = { task: "T", round: 1, node_selection: "", design_principle: "", workflow: "", valid: true, has_been_judged: true };
    expect(withSetupFailure(base, "Other-Error")).toEqual({ ...base, api_key: "Other-Error", test1: false, test2: false, test3: false });
    expect(withSetupFailure(base, "step_1_5")).toEqual({ ...base, valid: false, fail_step: "step_1_5" });
    expect(Object.keys(withCases({ ...base, api_key: "app-…1234" }, [{ position: 1, verdict: true, outputs: "o", judgeReason: "r", error: null }]))).toEqual([
      ...Object.keys(base),
      "api_key",
      "test1",
      "llm_evaluate_reason_test1",
      "llm_output_test1",
    ]);
  });
});

