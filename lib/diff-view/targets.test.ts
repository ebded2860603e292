import { describe, expect, it } from "vitest";
import { AFTER, BEFORE, SIDES } from "../../test/support/diff-fixtures";
import { diffWorkflows } from "../diff";
import type { ChangeKind } from "../diff/types";
import { mergeWorkflows } from "./merged";
import { changeTargets, counterpartKeys, firstChangeAt } from "./targets";

describe("changeTargets", () => {
  const diff = diffWorkflows({ ...SIDES.before, nodeSelection: "Start, LLM, TTS, End" }, { ...SIDES.after, nodeSelection: "Start, LLM, Code, Iteration, End" });
  const merged = mergeWorkflows(BEFORE, AFTER, diff);
  const targets = changeTargets(diff, merged);
  const at = (kind: ChangeKind, contains = "") => {
    const index = diff.changes.findIndex((change) => change.kind === kind && change.description.includes(contains));
    expect(index, `${kind} ${contains}`).not.toBe(-1);
    return targets[index]!;
  };

  it("gives one target per change", () => {
    expect(targets).toHaveLength(diff.changes.length);
  });

  it("centres a changed node on both canvases, an added one only on the later and a removed one only on the earlier", () => {
    expect(at("node-modified", "LLM")).toEqual({ before: { nodeKey: "n1", edgeKey: null }, after: { nodeKey: "n1", edgeKey: null }, merged: { nodeKey: "n1", edgeKey: null } });
    expect(at("node-added", "Code")).toMatchObject({ before: { nodeKey: null }, after: { nodeKey: "n2" }, merged: { nodeKey: "n2" } });
    expect(at("node-removed")).toMatchObject({ before: { nodeKey: "n2" }, after: { nodeKey: null }, merged: { nodeKey: `n${AFTER.nodes_info.length}` } });
    // A renumbered End: "4" (position 3) on the earlier canvas, "5" (position 6) on the later.
    expect(at("node-renamed")).toMatchObject({ before: { nodeKey: "n3" }, after: { nodeKey: "n6" } });
  });

  it("centres an edge change on the node it leaves from, on both canvases, and names the edge", () => {
    expect(at("edge-removed", "Text to Speech \"3\" →")).toEqual({
      before: { nodeKey: "n2", edgeKey: "e2" },
      after: { nodeKey: null, edgeKey: null },
      merged: { nodeKey: `n${AFTER.nodes_info.length}`, edgeKey: `e${AFTER.edges.length + 1}` },
    });
    // LLM "2" -> Code "3" is new, but LLM "2" exists on both sides.
    expect(at("edge-added", "LLM \"2\" → Code")).toEqual({ before: { nodeKey: "n1", edgeKey: null }, after: { nodeKey: "n1", edgeKey: "e1" }, merged: { nodeKey: "n1", edgeKey: "e1" } });
  });

  it("centres start inputs and end outputs on their node, and has nothing to centre for node_selection", () => {
    expect(at("output-added")).toMatchObject({ before: { nodeKey: "n3" }, after: { nodeKey: "n6" } });
    expect(at("selection-added")).toEqual({ before: { nodeKey: null, edgeKey: null }, after: { nodeKey: null, edgeKey: null }, merged: { nodeKey: null, edgeKey: null } });
  });

  it("leaves merged keys empty without a merged workflow", () => {
    const targets = changeTargets(diff);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => target.merged.nodeKey !== null || target.merged.edgeKey !== null)).toEqual([]);
  });
});

describe("counterpartKeys and firstChangeAt", () => {
  const diff = diffWorkflows(SIDES.before, SIDES.after);
  it("maps matched nodes both ways and leaves added and removed ones out", () => {
    const { toAfter, toBefore } = counterpartKeys(diff);
    expect(toAfter).toEqual({ n0: "n0", n1: "n1", n3: "n6" });
    expect(toBefore).toEqual({ n0: "n0", n1: "n1", n6: "n3" });
  });

  it("finds the first change about a clicked node, and none for an unchanged one", () => {
    const targets = changeTargets(diff);
    const index = firstChangeAt(targets, "after", "n6");
    expect(index).not.toBeNull();
    expect(diff.changes[index!]!.description).toContain("End");
    expect(firstChangeAt(targets, "after", "n0")).toBeNull();
  });
});
