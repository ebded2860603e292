import { describe, expect, it } from "vitest";
import { HEADER_HEIGHT, portRowCenter } from "./geometry";
import { handleSpecs } from "./handles";
import { layoutWorkflowView } from "./layout";
import { buildWorkflowView } from "./model";

const view = layoutWorkflowView(
  buildWorkflowView({
    workflow: {
      nodes_info: [
        { id: "1", type: "start", param: { variables: [] } },
        { id: "2", type: "if-else", param: { cases: [[null, []], [null, []]] } },
        { id: "3", type: "iteration", param: { iterator_selector: ["x", "1"], output_selector: ["y", "3-2"] } },
        { id: "4", type: "end", param: { outputs: [] } },
      ],
      edges: [
        ["1", 0, "2"],
        ["2", 5, "3"],
        ["3", 0, "4"],
        ["4", 0, "1"],
      ],
    },
  }),
);
const node = (id: string) => view.nodes.find((n) => n.workflowId === id)!;

describe("handleSpecs", () => {
  it("gives a branching node one output per case, ELSE and invalid port, on its rows", () => {
    const specs = handleSpecs(node("2")).filter((s) => s.type === "source" && s.side === "right");
    expect(specs.map((s) => s.id)).toEqual(["p0", "p1", "p2", "x:5"]);
    expect(specs.map((s) => s.offset)).toEqual([0, 1, 2, 3].map((row) => portRowCenter(node("2").summary.length, row)));
    for (const spec of specs) expect(spec.offset).toBeLessThan(node("2").height);
  });

  it("puts the input and the single output of a plain node at its middle, of a container at its header", () => {
    const start = handleSpecs(node("1"));
    expect(start.find((s) => s.id === "in")?.offset).toBe(node("1").height / 2);
    expect(start.find((s) => s.id === "p0")).toMatchObject({ side: "right", offset: node("1").height / 2 });
    const iteration = handleSpecs(node("3"));
    expect(iteration.find((s) => s.id === "p0")?.offset).toBe(HEADER_HEIGHT / 2);
  });

  it("gives every edge of the view a handle at both ends", () => {
    for (const edge of view.edges) {
      const source = view.nodes.find((n) => n.key === edge.source)!;
      const target = view.nodes.find((n) => n.key === edge.target)!;
      expect(handleSpecs(source).some((s) => s.id === edge.sourceHandle && s.type === "source")).toBe(true);
      expect(handleSpecs(target).some((s) => s.id === (edge.kind === "reference" ? "ref-in" : "in") && s.type === "target")).toBe(true);
    }
  });
});
