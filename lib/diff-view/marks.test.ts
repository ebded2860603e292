import { describe, expect, it } from "vitest";
import { AFTER, BEFORE, SIDES } from "../../test/support/diff-fixtures";
import { diffWorkflows } from "../diff";
import { marksFromStatuses, sideMarks, withProblemMarks } from "./marks";

describe("sideMarks", () => {
  const diff = diffWorkflows(SIDES.before, SIDES.after);

  it("marks the later canvas: added nodes and edges, changed nodes, unchanged ones dimmed", () => {
    const marks = sideMarks(diff, "after");
    // nodes_info positions: 0 start, 1 llm, 2 code, 3 iteration, 4 iteration-start, 5 llm in the iteration, 6 end
    expect(marks.nodes).toEqual({
      n1: { label: "changed", tone: "warn" },
      n2: { label: "added", tone: "good" },
      n3: { label: "added", tone: "good" },
      n4: { label: "added", tone: "good" },
      n5: { label: "added", tone: "good" },
      n6: { label: "changed", tone: "warn" },
    });
    expect(marks.edges).toEqual({
      e1: { label: "added", tone: "good" },
      e2: { label: "added", tone: "good" },
      e3: { label: "added", tone: "good" },
      e4: { label: "added", tone: "good" },
    });
    expect(marks.dimmed.sort()).toEqual(["e0", "n0"]);
  });

  it("marks the earlier canvas: removed nodes and edges, the same changed nodes, nothing added", () => {
    const marks = sideMarks(diff, "before");
    expect(marks.nodes).toEqual({ n1: { label: "changed", tone: "warn" }, n2: { label: "removed", tone: "bad" }, n3: { label: "changed", tone: "warn" } });
    expect(marks.edges).toEqual({ e1: { label: "removed", tone: "bad" }, e2: { label: "removed", tone: "bad" } });
    expect(marks.dimmed.sort()).toEqual(["e0", "n0"]);
  });

  it("covers every node and edge of each side exactly once (marked or dimmed)", () => {
    for (const [side, workflow] of [["before", BEFORE], ["after", AFTER]] as const) {
      const marks = sideMarks(diff, side);
      const nodeKeys = [...Object.keys(marks.nodes), ...marks.dimmed.filter((k) => k.startsWith("n"))].sort();
      const edgeKeys = [...Object.keys(marks.edges), ...marks.dimmed.filter((k) => k.startsWith("e"))].sort();
      expect(nodeKeys).toEqual(workflow.nodes_info.map((_, i) => `n${i}`).sort());
      expect(edgeKeys).toEqual(workflow.edges.map((_, i) => `e${i}`).sort());
    }
  });

  it("shows a pure renumbering as the other side's id, not as a change, and identical workflows fully dimmed", () => {
    const renumbered = structuredClone(BEFORE);
    renumbered.nodes_info[3]!.id = "9";
    renumbered.edges[2] = ["3", 0, "9"];
    const diff2 = diffWorkflows({ workflow: BEFORE }, { workflow: renumbered });
    expect(sideMarks(diff2, "after").nodes).toEqual({ n3: { label: 'was "4"', tone: "info" } });
    expect(sideMarks(diff2, "before").nodes).toEqual({ n3: { label: 'now "9"', tone: "info" } });
    const same = sideMarks(diffWorkflows({ workflow: BEFORE }, { workflow: BEFORE }), "after");
    expect(same.nodes).toEqual({});
    expect(same.edges).toEqual({});
    expect(same.dimmed).toHaveLength(BEFORE.nodes_info.length + BEFORE.edges.length);
  });
});

describe("marksFromStatuses and withProblemMarks", () => {
  it("marks moved nodes and keeps edges' statuses", () => {
    const marks = marksFromStatuses(
      [
        { key: "n0", status: "unchanged", moved: true },
        { key: "n1", status: "unchanged" },
      ],
      [{ key: "e0", status: "removed" }],
    );
    expect(marks).toEqual({ nodes: { n0: { label: "moved", tone: "info" } }, edges: { e0: { label: "removed", tone: "bad" } }, dimmed: ["n1"] });
  });

  it("adds the label to nodes with new diagnostics, in red, and undims them", () => {
    const marks = marksFromStatuses(
      [
        { key: "n0", status: "added" },
        { key: "n1", status: "unchanged" },
        { key: "n2", status: "unchanged" },
      ],
      [],
    );
    const keys: Record<number, string[]> = { 0: ["n0"], 1: ["n1"], 2: [] };
    const flagged = withProblemMarks(marks, (id) => keys[id] ?? [], [0, 1, 2], "new problem");
    expect(flagged.nodes).toEqual({ n0: { label: "added · new problem", tone: "bad" }, n1: { label: "new problem", tone: "bad" } });
    expect(flagged.dimmed).toEqual(["n2"]);
    expect(withProblemMarks(marks, () => [], [0], "new problem")).toBe(marks);
  });
});
