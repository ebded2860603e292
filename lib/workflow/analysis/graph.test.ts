// The graph index's upstream test against a plain backwards search, on random workflows (cycles, canvases, duplicate
// ids) and with the questions asked in random order, so that its one-node-at-a-time marks are re-made as needed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../python-values";
import type { Diagnostic } from "../diagnostics";
import { ancestorMasks, buildGraphIndex, checkGraph } from "./graph";
import { buildModel, lastNodeWithId, vertexOfId, type NodeEntry, type WorkflowModel } from "./model";

const IDS = ["1", "2", "3", "4", "4-1", "4-2", "4-3", "9", "9-1"];

/** Upstream by definition: reachable backwards over usable edges, or from a canvas child to its iteration. */
function naiveUpstream(model: WorkflowModel, ancestorId: string, node: NodeEntry): boolean {
  if (node.id === null || node.id === ancestorId || !model.byId.has(ancestorId)) return false;
  const seen = new Set<string>([node.id]);
  const stack = [node.id];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    const before: string[] = [];
    for (const edge of model.edges) {
      if (edge.usable && edge.target === current && model.byId.has(edge.source as string)) before.push(edge.source as string);
    }
    const parent = model.byId.get(current)?.[0]?.parentId;
    if (parent && model.byId.has(parent)) before.push(parent);
    for (const id of before) {
      if (id === ancestorId) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(id);
    }
  }
  return false;
}

const workflow = fc.record({
  nodes: fc.array(fc.constantFrom(...IDS), { minLength: 1, maxLength: 8 }),
  edges: fc.array(fc.tuple(fc.constantFrom(...IDS, "x"), fc.constantFrom(...IDS, "x")), { maxLength: 14 }),
  questions: fc.array(fc.tuple(fc.nat(20), fc.constantFrom(...IDS)), { minLength: 1, maxLength: 30 }),
});

describe("buildModel's vertex numbers", () => {
  it("number the distinct ids in list order, share one vertex per id and give nodes without an id none", () => {
    const model = buildModel({ nodes_info: [{ id: "1" }, { id: "2" }, { id: 3 }, { id: "1" }, "x", { id: "2-1" }] });
    expect(model.ids).toEqual(["1", "2", "2-1"]);
    expect(model.nodes.map((node) => node.vertex)).toEqual([0, 1, -1, 0, -1, 2]);
    expect(vertexOfId(model, "2-1")).toBe(2);
    expect(vertexOfId(model, "3")).toBe(-1);
  });
});

describe("buildModel's edge vertices and last nodes", () => {
  it("are what the id lookups they replace give, on random workflows with duplicate, missing and non-string ids", () => {
    let unknown = 0;
    fc.assert(
      fc.property(workflow, fc.array(fc.constantFrom<JsonValue>(3, null, ["1"], "1"), { maxLength: 3 }), ({ nodes, edges }, odd) => {
        const model = buildModel({
          nodes_info: nodes.map((id) => ({ id, type: "llm", param: {} })),
          edges: [...edges.map(([source, target]): JsonValue => [source, 0, target]), ...odd.map((end): JsonValue => [end, 0, end])],
        });
        for (const edge of model.edges) {
          expect(edge.sourceVertex).toBe(edge.source === null ? -1 : vertexOfId(model, edge.source));
          expect(edge.targetVertex).toBe(edge.target === null ? -1 : vertexOfId(model, edge.target));
          if (edge.targetVertex < 0) unknown += 1;
        }
        model.ids.forEach((id, vertex) => expect(model.lastNodes[vertex]).toBe(lastNodeWithId(model, id)));
      }),
      { numRuns: 300, seed: 13 },
    );
    expect(unknown).toBeGreaterThan(50);
  });
});

describe("buildGraphIndex", () => {
  it("answers isUpstream and isUpstreamVertex as a plain backwards search does, in any order of questions", () => {
    let upstream = 0;
    fc.assert(
      fc.property(workflow, ({ nodes, edges, questions }) => {
        const value: JsonValue = {
          nodes_info: nodes.map((id) => ({ id, type: "llm", param: {} })),
          edges: edges.map(([source, target]) => [source, 0, target]),
        };
        const model = buildModel(value);
        const graph = buildGraphIndex(model);
        for (const [at, ancestorId] of questions) {
          const node = model.nodes[at % model.nodes.length] as NodeEntry;
          const expected = naiveUpstream(model, ancestorId, node);
          if (expected) upstream += 1;
          expect(graph.isUpstream(ancestorId, node), `${ancestorId} upstream of ${node.id}`).toBe(expected);
          const ancestor = vertexOfId(model, ancestorId);
          if (ancestor >= 0) expect(graph.isUpstreamVertex(ancestor, node), `vertex of ${ancestorId} upstream of ${node.id}`).toBe(expected);
        }
      }),
      { numRuns: 400, seed: 5 },
    );
    expect(upstream).toBeGreaterThan(50);
  });
});

/** Upstream vertices by a plain backwards search over predecessor lists and container links. */
function naiveAncestors(predecessors: readonly (readonly number[])[], containers: readonly number[], vertex: number): Set<number> {
  const seen = new Set<number>();
  const stack = [vertex];
  while (stack.length > 0) {
    const current = stack.pop() as number;
    const before = [...(predecessors[current] as number[])];
    if ((containers[current] as number) >= 0) before.push(containers[current] as number);
    for (const next of before) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return seen;
}

/** A graph whose links all come from earlier vertices, as ancestorMasks takes in one pass. */
const forwardGraph = fc.integer({ min: 1, max: 32 }).chain((count) =>
  fc.record({
    predecessors: fc.array(fc.array(fc.nat(), { maxLength: 4 }), { minLength: count, maxLength: count }),
    containers: fc.array(fc.integer({ min: -1, max: 40 }), { minLength: count, maxLength: count }),
  }),
);

describe("ancestorMasks", () => {
  it("marks the vertices a backwards search reaches, for forward graphs of up to 32 vertices", () => {
    let marked = 0;
    fc.assert(
      fc.property(forwardGraph, ({ predecessors, containers }) => {
        const preds = predecessors.map((list, vertex) => (vertex === 0 ? [] : list.map((source) => source % vertex)));
        const links = containers.map((container, vertex) => (container < 0 || vertex === 0 ? -1 : container % vertex));
        const masks = ancestorMasks(preds, links);
        expect(masks).not.toBeNull();
        for (let vertex = 0; vertex < preds.length; vertex += 1) {
          const expected = naiveAncestors(preds, links, vertex);
          for (let other = 0; other < preds.length; other += 1) {
            expect((((masks as number[])[vertex] as number) & (1 << other)) !== 0, `${other} upstream of ${vertex}`).toBe(expected.has(other));
          }
          marked += expected.size;
        }
      }),
      { numRuns: 120, seed: 7 },
    );
    expect(marked).toBeGreaterThan(1000);
  });

  it("leaves graphs with a link from a later vertex, or more than 32 vertices, to the search", () => {
    expect(ancestorMasks([[], [1]], [-1, -1])).toBeNull();
    expect(ancestorMasks([[], []], [1, -1])).toBeNull();
    expect(ancestorMasks([[], [], [0]], [-1, -1, -1])).toEqual([0, 0, 1]);
    const chain = (count: number) => Array.from({ length: count }, (_, vertex) => (vertex === 0 ? [] : [vertex - 1]));
    expect(ancestorMasks(chain(32), new Array<number>(32).fill(-1))?.[31]).toBe(-1 >>> 1);
    expect(ancestorMasks(chain(33), new Array<number>(33).fill(-1))).toBeNull();
  });
});

/** Whether some canvas holds a cycle: a usable edge back to its own source within one canvas, by plain search. */
function naiveHasCycle(model: WorkflowModel): boolean {
  const canvasOf = (id: string) => model.byId.get(id)?.[0]?.parentId ?? null;
  const next = (id: string) =>
    model.edges.filter((e) => e.usable && e.source === id && model.byId.has(e.target as string) && canvasOf(e.target as string) === canvasOf(id)).map((e) => e.target as string);
  for (const start of model.byId.keys()) {
    const seen = new Set<string>();
    const stack = next(start);
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (id === start) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...next(id));
    }
  }
  return false;
}

describe("checkGraph's cycle check", () => {
  it("reports a cycle exactly when a canvas has one, and none on graphs whose edges all lead forward", () => {
    let forward = 0;
    let cyclic = 0;
    fc.assert(
      fc.property(workflow, ({ nodes, edges }) => {
        const model = buildModel({ nodes_info: nodes.map((id) => ({ id, type: "llm", param: {} })), edges: edges.map(([source, target]) => [source, 0, target]) });
        const graph = buildGraphIndex(model);
        const out: Diagnostic[] = [];
        checkGraph(model, graph, out);
        const reported = out.some((d) => d.code === "cycle");
        expect(reported).toBe(naiveHasCycle(model));
        if (graph.forward) {
          forward += 1;
          expect(reported).toBe(false);
        }
        if (reported) cyclic += 1;
      }),
      { numRuns: 400, seed: 9 },
    );
    expect(forward).toBeGreaterThan(40);
    expect(cyclic).toBeGreaterThan(40);
  });
});
