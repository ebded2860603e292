import { describe, expect, it } from "vitest";
import { AFTER, BEFORE, SIDES } from "../../test/support/diff-fixtures";
import { diffWorkflows } from "../diff";
import { buildWorkflowView } from "../viewer/model";
import { mergeWorkflows, REMOVED_SUFFIX } from "./merged";

type MergedNode = { id: string; type: string };

function ids(merged: ReturnType<typeof mergeWorkflows>): string[] {
  return (merged.workflow.nodes_info as MergedNode[]).map((node) => node.id);
}

describe("mergeWorkflows", () => {
  it("keeps the later workflow in place and adds the removed node back under a fresh id", () => {
    const diff = diffWorkflows(SIDES.before, SIDES.after);
    const merged = mergeWorkflows(BEFORE, AFTER, diff);
    // The later workflow first, unchanged, so its keys (n0…, e0…) and diagnostics still apply.
    expect(merged.workflow.nodes_info.slice(0, AFTER.nodes_info.length)).toEqual(AFTER.nodes_info);
    expect(merged.workflow.edges.slice(0, AFTER.edges.length)).toEqual(AFTER.edges);
    // The TTS node "3" is gone; "3" now names the new Code node, so the TTS node gets a fresh id.
    expect(ids(merged).slice(AFTER.nodes_info.length)).toEqual([`3${REMOVED_SUFFIX}`]);
    expect(new Set(ids(merged)).size).toBe(ids(merged).length);
    // Its edges follow it: LLM "2" -> TTS, and TTS -> the End node, which is "5" in the later workflow.
    expect(merged.workflow.edges.slice(AFTER.edges.length)).toEqual([
      ["2", 0, `3${REMOVED_SUFFIX}`],
      [`3${REMOVED_SUFFIX}`, 0, "5"],
    ]);
  });

  it("gives every diff entry a merged key and marks added, removed, changed and unchanged", () => {
    const diff = diffWorkflows(SIDES.before, SIDES.after);
    const merged = mergeWorkflows(BEFORE, AFTER, diff);
    expect(merged.nodeKeys).toHaveLength(diff.nodes.length);
    expect(merged.edgeKeys).toHaveLength(diff.edges.length);
    const removedAt = diff.nodes.findIndex((node) => node.status === "removed");
    expect(merged.nodeKeys[removedAt]).toBe(`n${AFTER.nodes_info.length}`);
    expect(merged.marks.nodes[`n${AFTER.nodes_info.length}`]).toEqual({ label: "removed", tone: "bad" });
    expect(merged.marks.nodes.n2).toEqual({ label: "added", tone: "good" });
    expect(merged.marks.nodes.n6).toEqual({ label: "changed", tone: "warn" });
    expect(merged.marks.edges[`e${AFTER.edges.length}`]).toEqual({ label: "removed", tone: "bad" });
    expect(merged.marks.dimmed.sort()).toEqual(["e0", "n0"]);
  });

  it("renames a removed iteration's children into its fresh id, so they stay inside it on the canvas", () => {
    // The other way round: the iteration and its children are removed, and "4" is taken by the End node.
    const diff = diffWorkflows(SIDES.after, SIDES.before);
    const merged = mergeWorkflows(AFTER, BEFORE, diff);
    const added = ids(merged).slice(BEFORE.nodes_info.length).sort();
    expect(added).toEqual([`3${REMOVED_SUFFIX}`, `4${REMOVED_SUFFIX}`, `4${REMOVED_SUFFIX}-1`, `4${REMOVED_SUFFIX}-2`].sort());
    const view = buildWorkflowView({ workflow: merged.workflow });
    const container = view.nodes.find((node) => node.workflowId === `4${REMOVED_SUFFIX}`);
    expect(container?.container).toBe(true);
    const children = view.nodes.filter((node) => node.parentKey === container?.key).map((node) => node.workflowId);
    expect(children.sort()).toEqual([`4${REMOVED_SUFFIX}-1`, `4${REMOVED_SUFFIX}-2`]);
    // The removed edge inside the iteration connects the renamed children; no edge dangles.
    expect(view.edges.filter((edge) => edge.dangling)).toEqual([]);
  });

  it("maps a removed branch edge's port through the branch correspondence", () => {
    const classifier = (classes: string[]) => ({ query_variable_selector: ["topic", "1"], classes });
    const before = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["topic", "string"]] } },
        { id: "2", type: "question-classifier", param: classifier(["sports", "science"]) },
        { id: "3", type: "llm", param: { system: "Sports writer.", user: "{{#'1'.topic#}}" } },
        { id: "4", type: "llm", param: { system: "Science writer.", user: "{{#'1'.topic#}}" } },
      ],
      edges: [["1", 0, "2"], ["2", 0, "3"], ["2", 1, "4"]],
    };
    // A class is inserted first and the science writer is dropped: its edge left from port 1, which is port 2 now.
    const after = {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["topic", "string"]] } },
        { id: "2", type: "question-classifier", param: classifier(["music", "sports", "science"]) },
        { id: "3", type: "llm", param: { system: "Sports writer.", user: "{{#'1'.topic#}}" } },
      ],
      edges: [["1", 0, "2"], ["2", 1, "3"]],
    };
    const diff = diffWorkflows({ workflow: before }, { workflow: after });
    const merged = mergeWorkflows(before, after, diff);
    expect(merged.workflow.edges.slice(after.edges.length)).toEqual([["2", 2, `4${REMOVED_SUFFIX}`]]);
  });

  it("is total: no workflow on either side gives an empty merge, broken entries are kept as they are", () => {
    const empty = mergeWorkflows(null, "not a workflow", diffWorkflows({ workflow: null }, { workflow: "not a workflow" }));
    expect(empty.workflow).toEqual({ nodes_info: [], edges: [] });
    const onlyBefore = mergeWorkflows(BEFORE, null, diffWorkflows({ workflow: BEFORE }, { workflow: null }));
    expect(onlyBefore.workflow.nodes_info).toHaveLength(BEFORE.nodes_info.length);
    const marks = Object.values(onlyBefore.marks.nodes);
    expect(marks).toHaveLength(BEFORE.nodes_info.length);
    expect(marks.filter((mark) => mark.label !== "removed")).toEqual([]);
  });
});
