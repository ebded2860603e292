import { describe, expect, it } from "vitest";
import { AFTER } from "../../test/support/diff-fixtures";
import { layoutWorkflowView } from "@/lib/viewer/layout";
import { buildWorkflowView } from "@/lib/viewer/model";
import { overlaysFor } from "@/lib/viewer/overlays";
import type { JsonValue } from "@/lib/workflow/python-values";
import { toFlowEdges, toFlowNodes } from "./flow-elements";

const view = layoutWorkflowView(buildWorkflowView({ workflow: AFTER as unknown as JsonValue }));
const overlays = overlaysFor(view);

describe("toFlowNodes and toFlowEdges: marks from other features", () => {
  it("draws nothing extra without decorations or dimmed keys (the viewer's defaults)", () => {
    const nodes = toFlowNodes(view, overlays, null);
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.filter((node) => node.data.decoration !== null || node.data.dimmed || node.className !== undefined)).toEqual([]);
    const edges = toFlowEdges(view, overlays);
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.filter((edge) => edge.data?.decoration !== null || edge.data?.dimmed || edge.label !== undefined)).toEqual([]);
    expect(edges[0]!.style).toMatchObject({ stroke: "#64748b", strokeWidth: 1.5 });
  });

  it("labels decorated nodes and fades dimmed ones", () => {
    const nodes = toFlowNodes(view, overlays, null, { n2: { label: "added", tone: "good" } }, new Set(["n0"]));
    const byKey = Object.fromEntries(nodes.map((node) => [node.id, node]));
    expect(byKey.n2!.data.decoration).toEqual({ label: "added", tone: "good" });
    expect(byKey.n2!.ariaLabel).toContain("added");
    expect(byKey.n0!.data.dimmed).toBe(true);
    expect(byKey.n0!.className).toBe("workflow-node--dimmed");
    expect(byKey.n1!.className).toBeUndefined();
  });

  it("colours and labels decorated edges (removed ones dashed) and fades dimmed ones", () => {
    const edges = toFlowEdges(view, overlays, { e1: { label: "added", tone: "good" }, e2: { label: "removed", tone: "bad" } }, new Set(["e0"]));
    const byKey = Object.fromEntries(edges.map((edge) => [edge.id, edge]));
    expect(byKey.e1!.style).toMatchObject({ stroke: "#16a34a", strokeWidth: 2.5 });
    expect(byKey.e1!.label).toBe("added");
    expect(byKey.e1!.className).toContain("workflow-edge--good");
    expect(byKey.e2!.style).toMatchObject({ stroke: "#dc2626", strokeDasharray: "6 4" });
    expect(byKey.e2!.ariaLabel).toContain("removed");
    expect(byKey.e0!.style).toMatchObject({ opacity: 0.3 });
    expect(byKey.e0!.className).toContain("workflow-edge--dimmed");
  });
});
