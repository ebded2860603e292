// declaredVariable replaces find() in the start and parameter-extractor lookups: it must pick the same entry.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pyEq, type JsonValue } from "../python-values";
import type { DeclaredVariable } from "./types";
import { declaredVariable } from "./variables";

const name: fc.Arbitrary<JsonValue> = fc.constantFrom<JsonValue>("q", "n", "1", 1, 1.5, true, false, 0, null, "", Number.NaN, [1], ["q"], [true], { q: 1 });

describe("declaredVariable", () => {
  it("finds what find() finds, by Python equality and by identity", () => {
    let found = 0;
    fc.assert(
      fc.property(fc.array(fc.record({ name, type: fc.constantFrom<JsonValue>("string", "number", 3) }), { maxLength: 6 }), name, (variables: DeclaredVariable[], wanted) => {
        const python = variables.find((v) => pyEq(v.name, wanted));
        expect(declaredVariable(variables, wanted, true)).toBe(python);
        expect(declaredVariable(variables, wanted, false)).toBe(variables.find((v) => v.name === wanted));
        if (python) found += 1;
      }),
      { numRuns: 500, seed: 3 },
    );
    expect(found).toBeGreaterThan(80);
  });
});
