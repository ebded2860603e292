import { describe, expect, it } from "vitest";
import { benchmarkDir } from "../../test/support/benchmark-dir";
import { AFTER, BEFORE } from "../../test/support/diff-fixtures";
import { loadRunCorpus } from "../../test/support/run-corpus";
import { READABLE_ZOOM } from "../viewer/viewport";
import { buildComparison, comparisonInputOf, layoutMerged, NEW_PROBLEM_LABEL, pairCanvasHeight, suggestLayout, type ComparisonResponseInput } from "./comparison";

const TURN_1 = { inputVars: ["topic"], outputVars: ["audio"], keyNodes: ["llm", "tts"] };
const TURN_2 = { inputVars: ["topic"], outputVars: ["notes"], keyNodes: ["llm", "iteration"] };

function record(workflow: string | null, nodeSelection: string, turn: ComparisonResponseInput["turn"]): ComparisonResponseInput {
  return { rawText: null, nodeSelection, designPrinciple: "Plan the workflow step by step.", workflow, turn };
}

const before = record(JSON.stringify(BEFORE), "Start, LLM, Text to Speech, End", TURN_1);
const after = record(JSON.stringify(AFTER), "Start, LLM, Code, Iteration, Iteration-Start, End", TURN_2);

describe("buildComparison", () => {
  it("re-scores, draws and diffs both turns, with marks, targets, counts and the merged graph", () => {
    const comparison = buildComparison({ before, after });
    expect(comparison.before.graph).toBe("original");
    expect(comparison.after.view?.nodes.filter((node) => node.index !== null)).toHaveLength(AFTER.nodes_info.length);
    expect(comparison.after.marks.nodes.n3).toEqual({ label: "added", tone: "good" });
    expect(comparison.before.marks.nodes.n2).toEqual({ label: "removed", tone: "bad" });
    expect(comparison.targets).toHaveLength(comparison.diff.changes.length);
    expect(comparison.counts.reduce((sum, group) => sum + group.total, 0)).toBe(comparison.diff.summary.changeCount);
    // The turn's requirements changed too (output audio -> notes, key node tts -> iteration).
    expect(comparison.diff.changes.some((change) => change.kind === "task-output-added")).toBe(true);
    const merged = layoutMerged(comparison);
    expect(merged?.view.nodes.filter((node) => node.index !== null)).toHaveLength(AFTER.nodes_info.length + 1);
    expect(merged?.marks.nodes[`n${AFTER.nodes_info.length}`]).toEqual({ label: "removed", tone: "bad" });
    expect(comparison.merged?.fromBefore).toMatchObject({ n0: "n0", n1: "n1", n2: `n${AFTER.nodes_info.length}`, n3: "n6" });
    // Plain data: survives a JSON round trip unchanged (what the server hands to the client).
    expect(JSON.parse(JSON.stringify(comparison))).toEqual(comparison);
  });

  it("finds the diagnostics that are new in the later turn and flags their nodes on the later canvas", () => {
    const broken = structuredClone(AFTER);
    broken.nodes_info[2]!.type = "template"; // not a node type: the Code node becomes a "template"
    const comparison = buildComparison({ before, after: record(JSON.stringify(broken), after.nodeSelection!, TURN_2) });
    const fresh = comparison.regressions.newDiagnosticIds.map((id) => comparison.after.diagnostics[id]!);
    expect(fresh.map((d) => d.code)).toContain("unknown-node-type");
    const flagged = fresh.find((d) => d.code === "unknown-node-type")!;
    for (const key of flagged.nodeKeys) expect(comparison.after.marks.nodes[key]?.label).toContain(NEW_PROBLEM_LABEL);
    // The later workflow keeps its keys on the merged graph, so the same nodes are flagged there.
    const merged = layoutMerged(comparison)!;
    for (const key of flagged.nodeKeys) expect(merged.marks.nodes[key]?.label).toContain(NEW_PROBLEM_LABEL);
    const conversion = comparison.regressions.checks.find((check) => check.check === "conversion")!;
    expect(conversion).toMatchObject({ before: true, after: false, regressed: true });
  });

  it("diffs a turn whose JSON does not parse through its repair, and shows where it breaks", () => {
    const text = JSON.stringify(AFTER, null, 2).replace('"nodes_info": [', '"nodes_info": [ /* the nodes */');
    const comparison = buildComparison({ before, after: record(text, after.nodeSelection!, TURN_2) });
    expect(comparison.after.parses).toBe(false);
    expect(comparison.after.graph).toBe("repaired");
    expect(comparison.after.repairs.length).toBeGreaterThan(0);
    expect(comparison.after.formatProblems[0]).toMatchObject({ line: 2 });
    expect(comparison.after.view).not.toBeNull();
    // The repair is the same workflow, so the diff is the same as with the clean text.
    expect(comparison.diff.summary).toEqual(buildComparison({ before, after }).diff.summary);
    expect(comparison.regressions.checks.find((check) => check.check === "format")).toMatchObject({ before: true, after: false, regressed: true });
  });

  it("diffs a side with no workflow as empty: everything removed, nothing drawn on that side", () => {
    const comparison = buildComparison({ before, after: record(null, "Start", TURN_2) });
    expect(comparison.after.graph).toBe("none");
    expect(comparison.after.view).toBeNull();
    expect(comparison.diff.nodes.length).toBeGreaterThan(0);
    expect(comparison.diff.nodes.filter((node) => node.status !== "removed")).toEqual([]);
    expect(comparison.diff.issues.after.map((issue) => issue.code)).toEqual(["no-workflow"]);
    expect(comparison.merged).not.toBeNull();
  });

  it("takes a stored response's texts and turn", () => {
    const input = comparisonInputOf({ texts: { rawText: "x", nodeSelection: null, designPrinciple: null, workflow: null }, turn: { ...TURN_1, extra: 1 } as typeof TURN_1 });
    expect(input).toEqual({ rawText: "x", nodeSelection: null, designPrinciple: null, workflow: null, turn: TURN_1 });
  });
});

describe("suggestLayout", () => {
  it("stacks wide drawings and puts compact ones side by side", () => {
    expect(suggestLayout([{ bounds: { width: 2400, height: 300 } }, null])).toBe("stacked");
    expect(suggestLayout([{ bounds: { width: 800, height: 600 } }, { bounds: { width: 900, height: 500 } }])).toBe("side-by-side");
    expect(suggestLayout([null, null])).toBe("side-by-side");
  });

  it("sizes stacked canvases to the fitted drawing, within bounds", () => {
    expect(pairCanvasHeight("side-by-side", [{ bounds: { width: 2400, height: 300 } }])).toBe(560);
    expect(pairCanvasHeight("stacked", [{ bounds: { width: 2400, height: 300 } }])).toBe(Math.round(300 * READABLE_ZOOM) + 60);
    expect(pairCanvasHeight("stacked", [{ bounds: { width: 4000, height: 100 } }])).toBe(280);
    expect(pairCanvasHeight("stacked", [{ bounds: { width: 1300, height: 900 } }, null])).toBe(560);
  });
});

describe.skipIf(!benchmarkDir)("buildComparison on the shared benchmark", () => {
  it("marks the iteration deepseek-v3.1 adds to StudyPlanner in round 2, with its children, as added", () => {
    const corpus = loadRunCorpus(benchmarkDir);
    const run = corpus.runs.find((r) => r.model === "deepseek_v3d1")!;
    const [first, second] = [1, 2].map((round) => run.records.find((r) => r.task === "StudyPlanner" && r.round === round)!);
    const input = (r: typeof first) => record(r!.workflow, r!.node_selection ?? "", corpus.turns.get(`StudyPlanner_${r!.round}`)!);
    const comparison = buildComparison({ before: input(first), after: input(second) });
    const iteration = comparison.after.view!.nodes.find((node) => node.type === "iteration")!;
    expect(comparison.after.marks.nodes[iteration.key]?.label).toBe("added");
    const children = comparison.after.view!.nodes.filter((node) => node.parentKey === iteration.key);
    expect(children.length).toBeGreaterThanOrEqual(2);
    for (const child of children) expect(comparison.after.marks.nodes[child.key]?.label).toMatch(/^added/);
    expect(comparison.diff.summary.byKind["node-added"]).toBeGreaterThanOrEqual(3);
  });
});
