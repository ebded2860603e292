import { describe, expect, it } from "vitest";
import { layoutWorkflowView, type LaidOutView } from "./layout";
import { buildWorkflowView } from "./model";
import { neighbourOf } from "./navigation";

const view: LaidOutView = layoutWorkflowView(
  buildWorkflowView({
    workflow: {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [] } },
        { id: "2", type: "if-else", param: { cases: [[null, []]] } },
        { id: "3", type: "llm", param: { system: "", user: "a" } },
        { id: "4", type: "llm", param: { system: "", user: "b" } },
        { id: "5", type: "iteration", param: { iterator_selector: ["x", "1"], output_selector: ["text", "5-2"] } },
        { id: "5-1", type: "iteration-start", param: {} },
        { id: "5-2", type: "llm", param: { system: "", user: "c" } },
        { id: "6", type: "end", param: { outputs: [] } },
      ],
      edges: [
        ["1", 0, "2"],
        ["2", 0, "3"],
        ["2", 1, "4"],
        ["3", 0, "5"],
        ["4", 0, "6"],
        ["5", 0, "6"],
        ["5-1", 0, "5-2"],
      ],
    },
  }),
);

const key = (id: string): string => view.nodes.find((n) => n.workflowId === id)!.key;

describe("neighbourOf", () => {
  it("follows edges to the right and left", () => {
    expect(neighbourOf(view, key("1"), "right")).toBe(key("2"));
    expect(neighbourOf(view, key("2"), "left")).toBe(key("1"));
    expect([key("3"), key("4")]).toContain(neighbourOf(view, key("2"), "right"));
    expect(neighbourOf(view, key("6"), "right")).toBeNull();
  });

  it("moves between the branches of one node with up and down", () => {
    const upper = view.nodes.find((n) => n.key === key("3"))!.absolute.y < view.nodes.find((n) => n.key === key("4"))!.absolute.y ? "3" : "4";
    const lower = upper === "3" ? "4" : "3";
    expect(neighbourOf(view, key(upper), "down")).toBe(key(lower));
    expect(neighbourOf(view, key(lower), "up")).toBe(key(upper));
  });

  it("enters an iteration from its header and leaves to it from the first child", () => {
    expect(neighbourOf(view, key("5-1"), "right")).toBe(key("5-2"));
    expect(neighbourOf(view, key("5-1"), "left")).toBe(key("5"));
  });

  it("jumps to the ends and starts from the first node without a focus", () => {
    expect(neighbourOf(view, null, "right")).toBe(view.nodes[0]!.key);
    expect(neighbourOf(view, key("4"), "first")).toBe(view.nodes[0]!.key);
    expect(neighbourOf(view, key("4"), "last")).toBe(view.nodes[view.nodes.length - 1]!.key);
    expect(neighbourOf({ nodes: [], edges: [] }, null, "down")).toBeNull();
  });
});
