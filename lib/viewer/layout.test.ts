import { describe, expect, it } from "vitest";
import type { JsonValue } from "../workflow/python-values";
import { HEADER_HEIGHT, portRowCenter } from "./geometry";
import { NODE_WIDTH } from "./geometry";
import { DEFAULT_MAX_ROW_WIDTH, layoutWorkflowView, wrapIntoRows, type LaidOutNode, type LaidOutView, type LayoutOptions } from "./layout";
import { buildWorkflowView } from "./model";
import { syntheticWorkflow } from "./synthetic";

function laidOut(workflow: JsonValue, options: LayoutOptions = {}): LaidOutView {
  return layoutWorkflowView(buildWorkflowView({ workflow }), options);
}

function byId(view: LaidOutView, id: string): LaidOutNode {
  const node = view.nodes.find((n) => n.workflowId === id && n.index !== null);
  if (!node) throw new Error(`no node ${id}`);
  return node;
}

function overlaps(a: LaidOutNode, b: LaidOutNode): boolean {
  return a.absolute.x < b.absolute.x + b.width && b.absolute.x < a.absolute.x + a.width && a.absolute.y < b.absolute.y + b.height && b.absolute.y < a.absolute.y + a.height;
}

const TWO_ITERATIONS: JsonValue = {
  nodes_info: [
    { id: "1", type: "start", param: { variables: [["files", "array[file]"]] } },
    { id: "2", type: "iteration", param: { iterator_selector: ["files", "1"], output_selector: ["text", "2-3"] } },
    { id: "2-1", type: "iteration-start", param: {} },
    { id: "2-2", type: "document-extractor", param: { variable_selector: ["item", "2"] } },
    { id: "2-3", type: "llm", param: { system: "", user: "{{#'2-2'.text#}}" } },
    { id: "3", type: "iteration", param: { iterator_selector: ["output", "2"], output_selector: ["text", "3-2"] } },
    { id: "3-1", type: "iteration-start", param: {} },
    { id: "3-2", type: "llm", param: { system: "", user: "{{#'3'.item#}}" } },
    { id: "4", type: "end", param: { outputs: [["out", ["output", "3"]]] } },
  ],
  edges: [
    ["1", 0, "2"],
    ["2-1", 0, "2-2"],
    ["2-2", 0, "2-3"],
    ["2", 0, "3"],
    ["3-1", 0, "3-2"],
    ["3", 0, "4"],
  ],
};

describe("layoutWorkflowView", () => {
  it("places children inside their container, below its header, and sizes the container around them", () => {
    const view = laidOut(TWO_ITERATIONS);
    for (const containerId of ["2", "3"]) {
      const container = byId(view, containerId);
      const children = view.nodes.filter((n) => n.parentKey === container.key);
      expect(children.length).toBeGreaterThan(0);
      for (const child of children) {
        expect(Math.min(child.position.x, child.position.y - (container.headerHeight ?? HEADER_HEIGHT))).not.toBeLessThan(0);
        expect(child.position.x + child.width).toBeLessThanOrEqual(container.width);
        expect(child.position.y + child.height).toBeLessThanOrEqual(container.height);
        expect(child.absolute).toEqual({ x: container.absolute.x + child.position.x, y: container.absolute.y + child.position.y });
      }
    }
  });

  it("draws the flow left to right and nodes of one level never overlap", () => {
    const view = laidOut(TWO_ITERATIONS, { maxRowWidth: Infinity });
    expect(byId(view, "1").absolute.x).toBeLessThan(byId(view, "2").absolute.x);
    expect(byId(view, "2").absolute.x + byId(view, "2").width).toBeLessThan(byId(view, "3").absolute.x);
    expect(byId(view, "2-1").absolute.x).toBeLessThan(byId(view, "2-2").absolute.x);
    expect(byId(view, "2-2").absolute.x).toBeLessThan(byId(view, "2-3").absolute.x);
    const siblings = (parent: string | null) => view.nodes.filter((n) => n.parentKey === parent);
    for (const scope of [null, byId(view, "2").key, byId(view, "3").key]) {
      const members = siblings(scope);
      for (let i = 0; i < members.length; i++) for (let j = i + 1; j < members.length; j++) expect(overlaps(members[i]!, members[j]!)).toBe(false);
    }
  });

  it("wraps a long chain into rows no wider than the limit, in reading order, without overlaps", () => {
    const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
    const chain: JsonValue = {
      nodes_info: ids.map((id, i) => ({ id, type: i === 0 ? "start" : i === ids.length - 1 ? "end" : "template-transform", param: {} })),
      edges: ids.slice(1).map((id, i) => [ids[i]!, 0, id]),
    };
    const straight = laidOut(chain, { maxRowWidth: Infinity });
    expect(straight.bounds.width).toBeGreaterThan(DEFAULT_MAX_ROW_WIDTH * 2);
    const wrapped = laidOut(chain);
    expect(wrapped.bounds.width).toBeLessThanOrEqual(DEFAULT_MAX_ROW_WIDTH);
    expect(wrapped.bounds.width).toBeGreaterThanOrEqual(3 * NODE_WIDTH);
    expect(wrapped.bounds.height).toBeGreaterThan(straight.bounds.height * 3);
    // Reading order: along a row left to right, then the next row below.
    for (let i = 1; i < ids.length; i++) {
      const previous = byId(wrapped, ids[i - 1]!);
      const node = byId(wrapped, ids[i]!);
      const sameRow = node.absolute.y < previous.absolute.y + previous.height;
      if (sameRow) expect(node.absolute.x).toBeGreaterThan(previous.absolute.x);
      else expect(node.absolute.y).toBeGreaterThanOrEqual(previous.absolute.y + previous.height);
    }
    for (let i = 0; i < wrapped.nodes.length; i++) for (let j = i + 1; j < wrapped.nodes.length; j++) expect(overlaps(wrapped.nodes[i]!, wrapped.nodes[j]!)).toBe(false);
  });

  it("keeps a rank whole when wrapping (a rank wider than the limit gets its own row)", () => {
    const placed = wrapIntoRows(
      [
        { key: "a", x: 0, y: 0, width: 100, height: 50 },
        { key: "b", x: 150, y: 0, width: 100, height: 50 },
        { key: "c", x: 150, y: 80, width: 100, height: 50 },
        { key: "d", x: 300, y: 0, width: 400, height: 50 },
      ],
      260,
      20,
    );
    expect(placed.get("a")).toEqual({ x: 0, y: 0 });
    expect(placed.get("b")).toEqual({ x: 150, y: 0 });
    expect(placed.get("c")).toEqual({ x: 150, y: 80 });
    expect(placed.get("d")).toEqual({ x: 0, y: 150 });
  });

  it("makes room for a row per branch and places placeholders beside their readers", () => {
    const view = laidOut({
      nodes_info: [
        { id: "1", type: "start", param: { variables: [] } },
        { id: "2", type: "question-classifier", param: { query_variable_selector: ["x", "1"], classes: ["a", "b", "c"] } },
      ],
      edges: [
        ["1", 0, "2"],
        ["2", 0, "9"],
      ],
    });
    const classifier = byId(view, "2");
    expect(classifier.height).toBeGreaterThanOrEqual(portRowCenter(classifier.summary.length, 2) + 11);
    const placeholder = view.nodes.find((n) => n.key === "missing:9")!;
    expect(placeholder.absolute.x).toBeGreaterThan(classifier.absolute.x);
  });

  it("is deterministic and handles a 300-node workflow with iterations and branches", () => {
    const workflow = syntheticWorkflow(300) as unknown as JsonValue;
    const first = laidOut(workflow);
    const second = laidOut(workflow);
    expect(first.nodes.length).toBeGreaterThanOrEqual(300);
    expect(second.nodes.map((n) => n.absolute)).toEqual(first.nodes.map((n) => n.absolute));
    expect(first.nodes.some((n) => n.parentKey !== null)).toBe(true);
    const top = first.nodes.filter((n) => n.parentKey === null);
    const sorted = [...top].sort((a, b) => a.absolute.x - b.absolute.x);
    for (let i = 1; i < sorted.length; i++) {
      const a = sorted[i - 1]!;
      const b = sorted[i]!;
      if (a.absolute.x + a.width > b.absolute.x) expect(overlaps(a, b)).toBe(false);
    }
  });

  it("lays out an empty or undrawable workflow as nothing", () => {
    expect(laidOut({ nodes_info: [], edges: [] })).toMatchObject({ nodes: [], bounds: { width: 0, height: 0 } });
    expect(laidOut("not a workflow").nodes).toEqual([]);
  });
});
