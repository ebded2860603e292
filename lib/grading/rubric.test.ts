import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KNOWN_SOURCES } from "./chat2workflow";
import { formatRubricIssue, parseRubric } from "./rubric";

const rubricsDir = path.resolve(__dirname, "../../rubrics");

const minimal = `
rubric_id: demo
version: 2
title: Demo
criteria:
  - name: correctness
    definition: Output satisfies the requirements.
    evidence_required: [mapping]
    scale: [1, 5]
    weight: 0.35
    critical_floor: 3
    anchors: { "1": a, "2": b, "3": c, "4": d, "5": e }
`;

function messages(text: string): string[] {
  const parsed = parseRubric("rubrics/demo.yaml", text, KNOWN_SOURCES);
  return parsed.ok ? [] : parsed.issues.map(formatRubricIssue);
}

describe("rubric YAML", () => {
  it("parses the guide's shape, infers the formula from the scale and moves the floor onto 0..1", () => {
    const parsed = parseRubric("rubrics/demo.yaml", minimal);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toMatchObject({ rubric_id: "demo", version: 2, pass_threshold: 70, hard_gates: [] });
    expect(parsed.value.criteria[0]).toMatchObject({ formula: "likert_1_5", critical_floor_raw: 3, critical_floor: 0.5 });
  });

  it("names file, criterion and field for a missing field or a wrong type", () => {
    expect(messages(minimal.replace("    weight: 0.35\n", ""))).toEqual([
      'rubrics/demo.yaml: criterion "correctness" (criteria[0]): field weight: Invalid input: expected number, received undefined',
    ]);
    expect(messages(minimal.replace("weight: 0.35", 'weight: "heavy"'))[0]).toMatch(/^rubrics\/demo\.yaml: criterion "correctness" \(criteria\[0\]\): field weight: /);
  });

  it("requires an anchor for every point of a Likert scale", () => {
    expect(messages(minimal.replace(', "4": d', ""))).toEqual(['rubrics/demo.yaml: criterion "correctness" (criteria[0]): field anchors: missing anchor for "4"']);
  });

  it("refuses a floor outside the scale, a scale with no implied formula, and unknown measures", () => {
    expect(messages(minimal.replace("critical_floor: 3", "critical_floor: 7"))[0]).toMatch(/field critical_floor: 7 lies outside the scale/);
    expect(messages(minimal.replace("scale: [1, 5]", "scale: [0, 10]"))[0]).toMatch(/field formula: scale \[0, 10\] implies no formula/);
    expect(messages(minimal.replace("    weight: 0.35", "    source: vibes\n    weight: 0.35"))[0]).toMatch(/field source: unknown measure "vibes"/);
  });

  it("refuses lower_is_better without SLOs and reports bad YAML and a missing version", () => {
    const slo = minimal.replace("scale: [1, 5]", "scale: [0, 60]\n    formula: lower_is_better").replace("critical_floor: 3", "critical_floor: 30");
    expect(messages(slo)).toContain('rubrics/demo.yaml: criterion "correctness" (criteria[0]): field params: lower_is_better needs params {slo_good, slo_bad}');
    expect(messages("criteria: [")[0]).toMatch(/^rubrics\/demo\.yaml: field \(yaml\): /);
    expect(messages(minimal.replace("version: 2\n", ""))[0]).toMatch(/^rubrics\/demo\.yaml: field version: /);
  });

  it("ships profiles A–D and the Chat2Workflow profile, all valid, with the guide's weights summing to 1", () => {
    const files = readdirSync(rubricsDir).filter((file) => file.endsWith(".yaml")).sort();
    expect(files).toEqual(["chat2workflow.yaml", "profile_a_code_repair.yaml", "profile_b_dag.yaml", "profile_c_rag.yaml", "profile_d_agentic.yaml"]);
    for (const file of files) {
      const parsed = parseRubric(file, readFileSync(path.join(rubricsDir, file), "utf8"), KNOWN_SOURCES);
      expect(parsed.ok ? "ok" : parsed.issues.map(formatRubricIssue).join("\n")).toBe("ok");
      if (!parsed.ok) continue;
      expect(parsed.value.criteria.reduce((sum, criterion) => sum + criterion.weight, 0)).toBeCloseTo(1, 9);
    }
  });

  it("Profile B's correctness floor 3.8 on 1..5 is the guide's 0.70 after normalisation", () => {
    const parsed = parseRubric("profile_b_dag.yaml", readFileSync(path.join(rubricsDir, "profile_b_dag.yaml"), "utf8"));
    expect(parsed.ok && parsed.value.criteria.find((criterion) => criterion.name === "correctness")?.critical_floor).toBeCloseTo(0.7, 12);
  });
});
