import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mirrorProblems } from "../../test/support/diff-mirror";
import { NODE_TYPE_IDS } from "../workflow/node-types";
import { diffWorkflows } from "./diff";

// Workflow-like values: plausible shapes (selectors, inline references, cases, classes, child ids, duplicate ids)
// mixed with arbitrary JSON anywhere, so the diff meets both realistic and broken input.
const ID = fc.constantFrom("1", "2", "3", "4", "5", "5-1", "5-2", "6", "x-y");
const idLike = fc.oneof({ weight: 8, arbitrary: ID }, { weight: 1, arbitrary: fc.integer({ min: -1, max: 6 }) }, { weight: 1, arbitrary: fc.constant(null) });
const name = fc.constantFrom("text", "output", "query", "item", "a.b", "files");
const selector = fc.tuple(name, idLike);
const text = fc.oneof(
  fc.constantFrom("Summarise the text.", "Read {{#'2'.text#}} then {{#3.output#}}.", "Line one\nline two {{#'5-1'.item#}}", "{{#item#}} {{#'4'.x#}}", ""),
  fc.string({ maxLength: 30 }),
);
const param = fc.oneof(
  fc.record({ variables: fc.array(fc.tuple(name, fc.constantFrom("string", "file", "array[file]")), { maxLength: 3 }) }),
  fc.record({ system: text, user: text }),
  fc.record({ outputs: fc.array(fc.tuple(name, selector), { maxLength: 3 }) }),
  fc.record({ variables: fc.array(fc.tuple(name, selector), { maxLength: 3 }), template: text, code: text }),
  fc.record({ cases: fc.array(fc.tuple(fc.constantFrom(null, "and", "or"), fc.array(fc.tuple(selector, fc.constantFrom("contains", "is"), text), { maxLength: 2 })), { maxLength: 3 }) }),
  fc.record({ query_variable_selector: selector, classes: fc.array(fc.constantFrom("Billing", "Shipping", "Other", "other stuff"), { maxLength: 3 }) }),
  fc.record({ iterator_selector: selector, output_selector: selector }),
  fc.record({ variables: fc.array(selector, { maxLength: 3 }) }),
  fc.jsonValue({ maxDepth: 2 }),
);
const type = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...NODE_TYPE_IDS, "template") }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 0 }) });
const node = fc.oneof({ weight: 12, arbitrary: fc.record({ id: idLike, type, param }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) });
const edge = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(idLike, fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constant("0"), fc.constant(true)), idLike) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
);
const workflow = fc.oneof(
  { weight: 8, arbitrary: fc.record({ nodes_info: fc.array(node, { maxLength: 8 }), edges: fc.array(edge, { maxLength: 10 }) }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
const selection = fc.option(fc.constantFrom("Start, LLM, End", "Start, Iteration, Iteration-Start, LLM, End", "- Code\n- Template", ""), { nil: undefined });

describe("diffWorkflows on generated workflows", () => {
  it("never throws and reports no change between a workflow and itself", () => {
    fc.assert(
      fc.property(workflow, selection, (value, nodeSelection) => {
        const diff = diffWorkflows({ workflow: value, nodeSelection }, { workflow: value, nodeSelection });
        expect(diff.changes).toEqual([]);
        expect(diff.summary.identical).toBe(true);
      }),
      { numRuns: 400 },
    );
  }, 30_000);

  it("gives mirror images in the two directions", () => {
    fc.assert(
      fc.property(workflow, workflow, selection, selection, (a, b, sa, sb) => {
        const forward = diffWorkflows({ workflow: a, nodeSelection: sa }, { workflow: b, nodeSelection: sb });
        const backward = diffWorkflows({ workflow: b, nodeSelection: sb }, { workflow: a, nodeSelection: sa });
        expect(mirrorProblems(forward, backward)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  }, 30_000);

  it("keeps every node and edge exactly once, with unique change ids", () => {
    fc.assert(
      fc.property(workflow, workflow, (a, b) => {
        const diff = diffWorkflows({ workflow: a }, { workflow: b });
        const befores = diff.nodes.flatMap((n) => (n.before ? [n.before.index] : []));
        const afters = diff.nodes.flatMap((n) => (n.after ? [n.after.index] : []));
        expect(new Set(befores).size).toBe(befores.length);
        expect(new Set(afters).size).toBe(afters.length);
        const ids = diff.changes.map((c) => c.id);
        expect(new Set(ids).size).toBe(ids.length);
        const nodesOf = (value: unknown): number => {
          const list = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { nodes_info?: unknown }).nodes_info : undefined;
          return Array.isArray(list) ? list.filter((n) => typeof n === "object" && n !== null && !Array.isArray(n)).length : 0;
        };
        expect(befores.length).toBe(nodesOf(a));
        expect(afters.length).toBe(nodesOf(b));
      }),
      { numRuns: 300 },
    );
  }, 30_000);
});
