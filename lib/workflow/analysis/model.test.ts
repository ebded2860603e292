// The model's text fields against the catalog's text-field paths they replace (each path read with valueAt).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textFieldPathsOf } from "../catalog";
import { NODE_SPECS } from "../nodes";
import { NODE_TYPE_IDS } from "../node-types";
import type { JsonObject, JsonValue } from "../python-values";
import { buildModel, textFieldsOf, valueAt, type NodeEntry } from "./model";

const fieldValue = fc.oneof(fc.constant(undefined), fc.string({ maxLength: 6 }), fc.integer(), fc.constant(null), fc.constant<JsonValue>(["text", "1"]));

const param = fc.record({
  type: fc.constantFrom(...NODE_TYPE_IDS),
  values: fc.array(fieldValue, { minLength: 8, maxLength: 8 }),
  cases: fc.array(fc.tuple(fc.constantFrom(null, "and"), fc.array(fc.array(fieldValue.map((v) => v ?? "x"), { maxLength: 4 }), { maxLength: 3 })), { maxLength: 3 }),
  operator: fc.constantFrom<JsonValue[]>(["filter_by", "contains", "pdf"], ["filter_by", "=", 3], ["extract_by", 1]),
});

describe("textFieldsOf", () => {
  it("finds the fields textFieldPathsOf names, in its order, with the values at those paths", () => {
    let fields = 0;
    let nested = 0;
    fc.assert(
      fc.property(param, ({ type, values, cases, operator }) => {
        const built: JsonObject = { cases: cases as JsonValue, operator };
        NODE_SPECS[type].textParams.forEach((key, i) => {
          const value = values[i % values.length];
          if (value !== undefined) built[key] = value;
        });
        const node = buildModel({ nodes_info: [{ id: "1", type, param: built }], edges: [] }).nodes[0] as NodeEntry;
        const expected = textFieldPathsOf(type, built).map((path) => ({ path, value: valueAt(built, path) }));
        expect(textFieldsOf(node)).toEqual(expected);
        fields += expected.length;
        nested += expected.filter((field) => field.path.length > 1).length;
      }),
      { numRuns: 600, seed: 11 },
    );
    expect(fields).toBeGreaterThan(200);
    expect(nested).toBeGreaterThan(10);
  });
});
