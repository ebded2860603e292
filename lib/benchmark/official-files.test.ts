import { describe, expect, it } from "vitest";
import { answerFromFields, passRecord, reachedJudge, responseFile, sortPassRecords } from "./official-files";
import { parseResponse } from "@/lib/workflow/response";

describe("official files", () => {
  it("a response file lists the answers present in round order under answer1..N", () => {
    const items = responseFile(
      [
        { id: 1, category: "Research", task: "B", rounds: 3 },
        { id: 2, category: "AIGC", task: "A", rounds: 1 },
      ],
      new Map([
        ["B_3", "third"],
        ["B_1", "first"],
      ]),
    );
    expect(items).toEqual([
      { id: 1, category: "Research", task: "B", answer1: "first", answer3: "third" },
      { id: 2, category: "AIGC", task: "A" },
    ]);
    expect(Object.keys(items[0]!)).toEqual(["id", "category", "task", "answer1", "answer3"]);
  });

  it("rebuilt answers extract back to the recorded fields", () => {
    const fields = { nodeSelection: "Start, End", designPrinciple: "Keep it small.", workflow: '{"nodes_info": [], "edges": []}' };
    const parsed = parseResponse({ raw: answerFromFields(fields) });
    expect(parsed).toMatchObject({ nodeSelection: fields.nodeSelection, designPrinciple: fields.designPrinciple, workflowText: fields.workflow });
    expect(answerFromFields({ nodeSelection: null, designPrinciple: null, workflow: null })).toBe("");
  });

  it("pass records carry fail_step only when invalid and reason only when judged, sorted by task then round", () => {
    const base = { nodeSelection: "a", designPrinciple: "b", workflow: "{}", reason: "why" };
    const failed = passRecord({ ...base, task: "T", round: 2, valid: false, failStep: "step_1_2", judged: reachedJudge("step_1_2") });
    expect(failed).toEqual({ task: "T", round: 2, node_selection: "a", design_principle: "b", workflow: "{}", valid: false, has_been_judged: false, fail_step: "step_1_2" });
    const passed = passRecord({ ...base, task: "T", round: 1, valid: true, failStep: null, judged: reachedJudge(null) });
    expect(passed).toEqual({ task: "T", round: 1, node_selection: "a", design_principle: "b", workflow: "{}", valid: true, has_been_judged: true, reason: "why" });
    const other = passRecord({ ...base, task: "Apple", round: 10, valid: false, failStep: "step_1_4", judged: true });
    expect(sortPassRecords([failed, passed, other]).map((record) => `${record.task}_${record.round}`)).toEqual(["Apple_10", "T_1", "T_2"]);
  });
});
