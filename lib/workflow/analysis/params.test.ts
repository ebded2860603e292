// checkParams skips the full selector check for plain [variable, nodeId] pairs of strings: the check must have
// nothing to report on any value the fast test lets through, in each selector shape.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../diagnostics";
import type { SelectorShape } from "../catalog";
import type { JsonValue } from "../python-values";
import { buildModel } from "./model";
import { checkParams, isPlainSelector } from "./params";

/** A node whose param holds `value` where a selector of `shape` stands, and the path of that place. */
const PLACES: Record<Exclude<SelectorShape, "child-selector">, (value: JsonValue) => { node: JsonValue; path: (string | number)[] }> = {
  selector: (value) => ({ node: { id: "2", type: "document-extractor", param: { variable_selector: value } }, path: ["variable_selector"] }),
  selectors: (value) => ({ node: { id: "2", type: "variable-aggregator", param: { variables: [value] } }, path: ["variables", 0] }),
  "named-selectors": (value) => ({ node: { id: "2", type: "end", param: { outputs: [["out", value]] } }, path: ["outputs", 0] }),
  conditions: (value) => ({ node: { id: "2", type: "if-else", param: { cases: [[null, [[value, "empty"]]]] } }, path: ["cases", 0, 1, 0] }),
};

const name = fc.constantFrom("text", "files", "file.type", "a.b.c", "x", "1", "");
const selectorLike: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.tuple(name, name),
  fc.tuple(name, name, name),
  fc.array(fc.oneof(name, fc.integer(), fc.constant(null), fc.tuple(name, name)), { maxLength: 3 }),
  name,
  fc.integer(),
);

/** The diagnostics at or below `path` (never empty: an empty path would match every diagnostic). */
function under(diagnostics: readonly Diagnostic[], path: readonly (string | number)[]): Diagnostic[] {
  expect(path.length).toBeGreaterThan(0);
  return diagnostics.filter((d) => path.every((part, i) => d.location?.paramPath?.[i] === part));
}

describe("isPlainSelector", () => {
  it("lets through only selectors the full check has nothing to report on", () => {
    let plain = 0;
    let reported = 0;
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(PLACES) as (keyof typeof PLACES)[])), selectorLike, (shape, value) => {
        const { node, path } = PLACES[shape](value);
        const out: Diagnostic[] = [];
        checkParams(buildModel({ nodes_info: [{ id: "1", type: "start", param: { variables: [] } }, node], edges: [] }), out);
        const found = under(out, path);
        if (isPlainSelector(value, shape)) {
          plain += 1;
          expect(found, JSON.stringify(value)).toEqual([]);
        } else if (found.length > 0) {
          reported += 1;
        }
      }),
      { numRuns: 600, seed: 11 },
    );
    expect(plain).toBeGreaterThan(50);
    expect(reported).toBeGreaterThan(200);
  });
});
