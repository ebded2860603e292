// The graph index's upstream test against a plain backwards search, on random workflows (cycles, canvases, duplicate
// ids) and with the questions asked in random order, so that its one-node-at-a-time marks are re-made as needed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../python-values";
import { buildGraphIndex } from "./graph";
import { buildModel, type NodeEntry, type WorkflowModel } from "./model";

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

describe("buildGraphIndex", () => {
  it("answers isUpstream as a plain backwards search does, in any order of questions", () => {
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
        }
      }),
      { numRuns: 400, seed: 5 },
    );
    expect(upstream).toBeGreaterThan(50);
  });
});
