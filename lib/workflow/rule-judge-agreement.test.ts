// The agreement report the judge:agreement CLI prints: which records count, and the figures on the shared runs.
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { loadRunCorpus } from "../../test/support/run-corpus";
import type { RunRecord } from "../benchmark/runs";
import { agreementRate, matrixTotal } from "./rule-judge";
import { ruleJudgeAgreement } from "./rule-judge-agreement";

const WORKFLOW = JSON.stringify({
  nodes_info: [
    { id: "1", type: "start", param: { variables: [["q", "string"]] } },
    { id: "2", type: "llm", param: { system: "", user: "{{#'1'.q#}}" } },
    { id: "3", type: "end", param: { outputs: [["o", ["text", "2"]]] } },
  ],
  edges: [["1", 0, "2"], ["2", 0, "3"]],
});

function record(overrides: Partial<RunRecord>): RunRecord {
  return { task: "T", round: 1, node_selection: "Start, LLM, End", design_principle: "", workflow: WORKFLOW, valid: true, has_been_judged: true, ...overrides };
}

describe("ruleJudgeAgreement", () => {
  it("compares only records that reached step 1_4 and classifies a disagreement", () => {
    const report = ruleJudgeAgreement(
      [{ model: "m", records: [record({}), record({ valid: false, fail_step: "step_1_4", reason: "no" }), record({ valid: false, fail_step: "step_1_2" })] }],
      () => ["llm"],
    );
    expect(matrixTotal(report.overall)).toBe(2);
    expect(report.overall).toMatchObject({ tt: 1, tf: 1 });
    expect(report.disagreements.map((d) => d.kind)).toHaveLength(1);
    expect(report.perModel.get("m")).toEqual(report.overall);
  });
});

describe.skipIf(!benchmarkDir)(`rule judge agreement on the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("covers the 637 judged records and agrees on at least 93%", () => {
    const corpus = loadRunCorpus(benchmarkDir);
    const report = ruleJudgeAgreement(corpus.runs, (task, round) => corpus.turns.get(`${task}_${round}`)?.keyNodes ?? []);
    expect(matrixTotal(report.overall)).toBe(637);
    expect(agreementRate(report.overall)).toBeGreaterThanOrEqual(0.93);
  });
});
