import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KNOWN_SOURCES } from "./chat2workflow";
import { evidenceJsonSchema, gradeEvidenceFile, parseEvidence, type EvidenceGrade } from "./evidence";
import { parseRubric, type Rubric } from "./rubric";

const root = path.resolve(__dirname, "../..");

function profile(name: string): Rubric {
  const parsed = parseRubric(name, readFileSync(path.join(root, "rubrics", `${name}.yaml`), "utf8"), KNOWN_SOURCES);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

function gradeFixture(name: string): EvidenceGrade[] {
  const file = path.join(root, "test/fixtures/evidence", `${name}.json`);
  const evidence = parseEvidence(file, JSON.parse(readFileSync(file, "utf8")));
  if (!evidence.ok) throw new Error(evidence.issues.join("\n"));
  const graded = gradeEvidenceFile(profile(name), evidence.value);
  if (!graded.ok) throw new Error(graded.issues.join("\n"));
  return graded.value;
}

describe("Profile A evidence (SWE-style)", () => {
  const [green, nine] = gradeFixture("profile_a_code_repair");

  it("derives both test gates from the metrics and grades the green patch by hand: 0.6·1 + 0.25·0.875 + 0.1·0.8 + 0.05·0.6 = 92.88", () => {
    expect(green!.result.gates.find((gate) => gate.name === "fail_to_pass_all_green")).toMatchObject({ passed: true, reason: "fail_to_pass = 1 (10 of 10), meets fail_to_pass == 1" });
    expect(green!.result.gates.find((gate) => gate.name === "pass_to_pass_threshold_met")).toMatchObject({ passed: true, reason: "pass_to_pass = 0.95 (19 of 20), meets pass_to_pass >= 0.95" });
    expect(green!.result).toMatchObject({ weighted_100: 92.88, grade: "A", passed: true });
    expect(green!.missing).toEqual({ gates: [], criteria: [] });
  });

  it("fail_to_pass = 0.9 grades F with the FAIL_TO_PASS gate named, the weighted score kept for diagnostics", () => {
    expect(nine!.result.grade).toBe("F");
    expect(nine!.result.passed).toBe(false);
    expect(nine!.result.gate_failures).toEqual(["fail_to_pass_all_green"]);
    expect(nine!.result.reasons).toContain("hard_gate_failure: fail_to_pass_all_green (fail_to_pass = 0.9, misses fail_to_pass == 1)");
    expect(nine!.result.weighted_100).toBe(86.88);
  });

  it("a stated gate that contradicts its derived rule is refused, naming the gate and the metric", () => {
    const graded = gradeEvidenceFile(profile("profile_a_code_repair"), {
      responses: [{ id: "x", gates: { fail_to_pass_all_green: { passed: true } }, metrics: { fail_to_pass: 0.5 }, judge_scores: {} }],
    });
    expect(graded.ok ? [] : graded.issues).toEqual(['responses[0] (id "x"): gate fail_to_pass_all_green: stated passed, but fail_to_pass = 0.5 misses == 1']);
  });
});

describe("Profiles B–D grade their own example evidence", () => {
  it("B: judge scores and efficiency, 0.35·0.75 + 0.25·1 + 0.2·0.5 + 0.1·0.75 + 0.1·0.5 = 73.75 (C); a correctness mean of 3.5 misses the floor (D)", () => {
    const [pipeline, router] = gradeFixture("profile_b_dag");
    expect(pipeline!.result).toMatchObject({ weighted_100: 73.75, grade: "C", passed: true });
    // correctness (3 + 4)/2 = 3.5 → 0.625 < floor 0.7; the rest are perfect: 0.35·0.625 + 0.65 = 86.88, capped at D.
    expect(router!.result).toMatchObject({ weighted_100: 86.88, band_grade: "B", grade: "D", passed: false, floor_failures: ["correctness"] });
  });

  it("C: 0.35·1 + 0.25·0.75 + 0.2·0.9 + 0.1·0.6 + 0.1·0.8 = 85.75 (B); a missing citation fails its gate", () => {
    const [refund, shipping] = gradeFixture("profile_c_rag");
    expect(refund!.result).toMatchObject({ weighted_100: 85.75, grade: "B", passed: true });
    expect(shipping!.result).toMatchObject({ grade: "F", gate_failures: ["citations_present_for_claims"] });
    expect(shipping!.result.reasons).toContain("hard_gate_failure: citations_present_for_claims (claim 3 has no citation)");
  });

  it("D: ratios feed 0..1 criteria; 0.25·0.9 + 0.25·0.8 + 0.2·1 + 0.2·(11/3 − 1)/4·… = 90.83 (A); split judges and a thin floor withhold the A", () => {
    const [first, second] = gradeFixture("profile_d_agentic");
    // final_task_correctness mean 14/3 → (14/3 − 1)/4 = 0.9167; 0.225 + 0.2 + 0.2 + 0.18333 + 0.1 = 0.90833.
    expect(first!.result).toMatchObject({ weighted_100: 90.83, grade: "A", passed: true });
    expect(first!.result.placement.map((check) => check.holds)).toEqual([true, true]);
    // Scores 5 and 3: mean 4 → 0.75 (floor 0.7 + 0.1 not cleared), spread 0.5 > 0.25; weighted 95 yet B.
    expect(second!.result).toMatchObject({ weighted_100: 95, band_grade: "A", grade: "B" });
    expect(second!.result.reasons).toEqual(
      expect.arrayContaining(["a_withheld_floor_margin: final_task_correctness 0.75 < floor 0.7 + 0.1", "a_withheld_judge_disagreement: final_task_correctness scores 5, 3: disagreement 0.5 > 0.25"]),
    );
    expect(second!.result.operations).toEqual({ latency_ms: 9000, cost: 0.06 });
  });
});

describe("evidence files", () => {
  it("name the entry and field of a bad value", () => {
    const parsed = parseEvidence("e.json", { responses: [{ id: "a", metrics: { fail_to_pass: "0.9" } }] });
    expect(parsed.ok ? [] : parsed.issues[0]).toMatch(/^e\.json › responses\[0\] \(id "a"\) › metrics\.fail_to_pass: /);
    const repeated = parseEvidence("e.json", { responses: [{ id: "a" }, { id: "a" }] });
    expect(repeated.ok ? [] : repeated.issues).toEqual(['e.json › responses[1] (id "a") › id: repeats an earlier response']);
  });

  it("are refused for another rubric, and missing criteria are named", () => {
    const file = parseEvidence("b.json", JSON.parse(readFileSync(path.join(root, "test/fixtures/evidence/profile_b_dag.json"), "utf8")));
    if (!file.ok) throw new Error("fixture must parse");
    expect(gradeEvidenceFile(profile("profile_c_rag"), file.value)).toEqual({ ok: false, issues: ["the evidence was written for rubric profile_b_dag, not profile_c_rag"] });
    const partial = gradeEvidenceFile(profile("profile_c_rag"), { responses: [{ id: "x", gates: {}, metrics: { context_precision: 1 }, judge_scores: {} }] });
    expect(partial.ok && partial.value[0]!.missing).toEqual({
      gates: ["answer_grounded", "citations_present_for_claims", "no_high_severity_hallucination"],
      criteria: ["faithfulness", "response_relevance", "context_recall", "efficiency"],
    });
  });

  it("the published JSON Schema is the one generated from the zod schema", () => {
    const published = JSON.parse(readFileSync(path.join(root, "docs/evidence.schema.json"), "utf8"));
    expect(published).toEqual(evidenceJsonSchema());
    expect(published.properties.responses.items.required).toEqual(["id"]);
  });
});
