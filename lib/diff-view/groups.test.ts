import { describe, expect, it } from "vitest";
import { SIDES } from "../../test/support/diff-fixtures";
import { CHANGE_KINDS, diffWorkflows } from "../diff";
import { CHANGE_GROUPS, changeCounts, groupOf, kindLabel, kindTone, workflowChangesFirst } from "./groups";

describe("change groups", () => {
  it("puts every change kind in exactly one group", () => {
    for (const kind of CHANGE_KINDS) expect(CHANGE_GROUPS.filter((group) => group.kinds.includes(kind)), kind).toHaveLength(1);
    expect(CHANGE_GROUPS.flatMap((group) => group.kinds)).toHaveLength(CHANGE_KINDS.length);
    expect(groupOf("edge-added")).toBe("edges");
  });

  it("counts the diff's changes per kind, only kinds that occur, summing to the change count", () => {
    const diff = diffWorkflows(SIDES.before, SIDES.after);
    const counts = changeCounts(diff.summary);
    expect(counts.reduce((sum, group) => sum + group.total, 0)).toBe(diff.summary.changeCount);
    const nodes = counts.find((group) => group.id === "nodes")!;
    expect(nodes.kinds.map((entry) => [entry.kind, entry.count, entry.label])).toEqual([
      ["node-added", 4, "nodes added"],
      ["node-removed", 1, "node removed"],
      ["node-modified", 2, "nodes changed"],
      ["node-renamed", 1, "node renumbered"],
    ]);
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.flatMap((group) => group.kinds).map((entry) => entry.count).filter((count) => count <= 0)).toEqual([]);
    expect(counts.filter((group) => group.kinds.length === 0)).toEqual([]);
    expect(counts.find((group) => group.id === "task")).toBeUndefined();
  });

  it("words and colours kinds", () => {
    expect(kindLabel("reference-retargeted", 1)).toBe("reference retargeted");
    expect(kindLabel("reference-retargeted", 3)).toBe("references retargeted");
    expect(kindTone("node-added")).toBe("good");
    expect(kindTone("edge-removed")).toBe("bad");
    expect(kindTone("node-modified")).toBe("warn");
    expect(kindTone("node-renamed")).toBe("info");
  });
});

describe("workflowChangesFirst", () => {
  it("puts workflow changes before node_selection and task changes, keeping order within a group", () => {
    const order = workflowChangesFirst([
      { kind: "task-input-added" as const, id: 1 },
      { kind: "selection-added" as const, id: 2 },
      { kind: "edge-added" as const, id: 3 },
      { kind: "node-added" as const, id: 4 },
      { kind: "node-removed" as const, id: 5 },
    ]).map((change) => change.id);
    expect(order).toEqual([4, 5, 3, 2, 1]);
  });
});
