import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gradeResponse, KNOWN_SOURCES, measureGate, rubricMismatch, type ResponseFacts } from "./chat2workflow";
import { parseRubric, type Rubric } from "./rubric";

function loadProfile(): Rubric {
  const file = path.resolve(__dirname, "../../rubrics/chat2workflow.yaml");
  const parsed = parseRubric(file, readFileSync(file, "utf8"), KNOWN_SOURCES);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

const workflow = JSON.stringify({ nodes_info: [{ id: "1", type: "start" }, { id: "2", type: "llm" }, { id: "3", type: "end" }], edges: [["1", 0, "2"], ["2", 0, "3"]] });

function facts(overrides: Partial<ResponseFacts> = {}): ResponseFacts {
  return {
    responseId: "r1",
    turnKey: "Task_1",
    valid: true,
    failStep: null,
    nodeSelection: "Start, LLM, End",
    workflow,
    keyNodes: ["llm"],
    diagnostics: [],
    repairCount: 0,
    hasResolve: true,
    testCaseCount: 3,
    cases: [{ position: 1, verdict: true }, { position: 2, verdict: true }, { position: 3, verdict: true }],
    passJudges: [{ judge: "recorded", verdict: true }],
    latencyMs: null,
    tokens: null,
    retries: null,
    ...overrides,
  };
}

describe("Chat2Workflow profile", () => {
  const rubric = loadProfile();

  it("a clean, fully resolved response gets an A and passes; efficiency is not applicable with a reason", () => {
    const graded = gradeResponse(rubric, facts());
    expect(graded.ok).toBe(true);
    if (!graded.ok) return;
    const { result, judges } = graded.value;
    expect(result).toMatchObject({ grade: "A", passed: true, weighted_100: 100, gate_failures: [] });
    expect(result.criteria.filter((criterion) => !criterion.applicable).map((criterion) => [criterion.name, criterion.notApplicable])).toEqual([
      ["latency", "the run records no generation latency"],
      ["tokens", "the run records no token counts"],
      ["retries", "the run records no retry counts"],
    ]);
    expect(judges).toEqual([{ judge: "recorded", identity: null, promptFingerprint: null }]);
  });

  it("a split LLM panel withholds the A (§5.2 low judge disagreement); a unanimous one keeps it", () => {
    const split = gradeResponse(rubric, facts({ passJudges: [{ judge: "gpt", verdict: true, sampleIndex: 0 }, { judge: "gpt", verdict: true, sampleIndex: 1 }, { judge: "gpt", verdict: false, sampleIndex: 2 }] }));
    expect(split.ok && split.value.result.grade).toBe("B");
    expect(split.ok && split.value.result.reasons).toContain("a_withheld_judge_disagreement: 2 of 3 pass verdicts (1 judge) say pass: disagreement 0.33 > 0.1");
    const unanimous = gradeResponse(rubric, facts({ passJudges: [{ judge: "gpt", verdict: true }, { judge: "claude", verdict: true }] }));
    expect(unanimous.ok && unanimous.value.result.grade).toBe("A");
  });

  it("2 of 3 cases misses the correctness floor: capped at D, not passed", () => {
    const graded = gradeResponse(rubric, facts({ cases: [{ position: 1, verdict: true }, { position: 2, verdict: false }, { position: 3, verdict: true }] }));
    expect(graded.ok && graded.value.result).toMatchObject({ grade: "D", passed: false, floor_failures: ["resolve_ratio"] });
    if (graded.ok) expect(graded.value.result.weighted_100).toBe(83.33);
  });

  it("a step_1_3 failure fails the variable-consistency gate with the diagnostic as reason; later gates still report", () => {
    const graded = gradeResponse(
      rubric,
      facts({ valid: false, failStep: "step_1_3", cases: [], diagnostics: [{ code: "end-outputs-mismatch", severity: "error", message: "End outputs differ", officialStep: "step_1_3" }] }),
    );
    expect(graded.ok).toBe(true);
    if (!graded.ok) return;
    const { result } = graded.value;
    expect(result.grade).toBe("F");
    expect(result.gate_failures).toEqual(["variable_consistency"]);
    expect(result.gates.find((gate) => gate.name === "variable_consistency")?.reason).toBe("step_1_3 — end-outputs-mismatch: End outputs differ");
    expect(result.criteria.find((criterion) => criterion.name === "resolve_ratio")?.raw).toEqual({ passed: 0, total: 3 });
    expect(result.criteria.find((criterion) => criterion.name === "judge_verdict")?.notApplicable).toBe("the workflow did not reach the step 1_4 judge (failed step_1_3)");
  });

  it("gates after the failing step are 'not reached', not failures", () => {
    expect(measureGate("variable_consistency", facts({ valid: false, failStep: "step_1_1" }))).toEqual({ passed: null, reason: "not reached: the response failed step_1_1 first" });
    expect(measureGate("graph", facts({ valid: false, failStep: "step_1_4" }))).toEqual({ passed: true, reason: "passes step_1_2/step_1_5" });
  });

  it("key-node coverage fails when a key node is not declared", () => {
    const gate = measureGate("key_node_coverage", facts({ keyNodes: ["llm", "http-request"] }));
    expect(gate.passed).toBe(false);
    expect(gate.reason).toMatch(/http-request/);
  });

  it("an LLM judge's majority over samples is preferred to the recorded verdict and logged with its identity", () => {
    const graded = gradeResponse(
      rubric,
      facts({
        passJudges: [
          { judge: "recorded", verdict: true },
          { judge: "gpt-x", verdict: false, sampleIndex: 0, judgeIdentity: '{"model":"gpt-x"}', promptFingerprint: "p1" },
          { judge: "gpt-x", verdict: false, sampleIndex: 1, judgeIdentity: '{"model":"gpt-x"}', promptFingerprint: "p1" },
          { judge: "gpt-x", verdict: true, sampleIndex: 2, judgeIdentity: '{"model":"gpt-x"}', promptFingerprint: "p1" },
        ],
      }),
    );
    expect(graded.ok && graded.value.judges).toEqual([{ judge: "gpt-x", identity: '{"model":"gpt-x"}', promptFingerprint: "p1" }]);
    expect(graded.ok && graded.value.result.floor_failures).toEqual(["judge_verdict"]);
  });

  it("a run without resolve results leaves resolve_ratio not applicable", () => {
    const graded = gradeResponse(rubric, facts({ hasResolve: false, cases: [] }));
    expect(graded.ok && graded.value.result.criteria.find((criterion) => criterion.name === "resolve_ratio")?.notApplicable).toBe("the run carries no resolve-stage results");
  });

  it("diagnostics weigh errors 1 and warnings 0.25 against the SLO 0..4", () => {
    const graded = gradeResponse(rubric, facts({ diagnostics: [{ code: "a", severity: "error", message: "", officialStep: null }, { code: "b", severity: "warning", message: "", officialStep: null }, { code: "c", severity: "warning", message: "", officialStep: null }] }));
    const criterion = graded.ok ? graded.value.result.criteria.find((entry) => entry.name === "diagnostics_severity") : undefined;
    expect(criterion?.raw).toBe(1.5);
    expect(criterion?.norm).toBeCloseTo(2.5 / 4, 12);
  });
});

describe("rubric fit", () => {
  const profileB = (() => {
    const file = path.resolve(__dirname, "../../rubrics/profile_b_dag.yaml");
    const parsed = parseRubric(file, readFileSync(file, "utf8"), KNOWN_SOURCES);
    if (!parsed.ok) throw new Error("profile B must parse");
    return parsed.value;
  })();

  it("a profile whose criteria a stored run cannot supply alone is refused, naming the missing criteria", () => {
    expect(rubricMismatch(profileB)).toBe(
      "rubric profile_b_dag v1: a Chat2Workflow run supplies none of its weighted criteria (missing: correctness, completeness, tool_data_precision, documentation_quality, efficiency); give their judge or human scores in an evidence file (--evidence)",
    );
    expect(rubricMismatch(profileB, true)).toBeNull();
    expect(rubricMismatch(loadProfile())).toBeNull();
  });

  it("a Chat2Workflow response graded under Profile B: gates from the stored pass checks, criteria from evidence, the rest named missing", () => {
    const graded = gradeResponse(profileB, facts(), "r1", {
      id: "Task_1",
      gates: {},
      metrics: {},
      judge_scores: { correctness: [{ judge: "human", score: 5 }], completeness: [{ judge: "human", score: 4 }] },
    });
    expect(graded.ok).toBe(true);
    if (!graded.ok) return;
    const { result } = graded.value;
    expect(result.gates.map((gate) => [gate.name, gate.passed])).toEqual([["required_outputs_present", true], ["no_critical_step_failures", true], ["schema_contract_valid", true]]);
    // (0.35·1 + 0.25·0.75) / 0.6 = 89.58: the missing criteria leave the weights.
    expect(result.weighted_100).toBe(89.58);
    expect(result.criteria.filter((criterion) => !criterion.applicable).map((criterion) => criterion.name)).toEqual(["tool_data_precision", "documentation_quality", "efficiency"]);
    expect(result.criteria.find((criterion) => criterion.name === "efficiency")?.notApplicable).toMatch(/^missing: /);
  });
});
