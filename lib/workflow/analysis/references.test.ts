// The reference check reads a variable's types straight from its node type's rules when the name has no dot: those
// rules must give what the catalog's general lookups give, for every node type and for names declared or not.
import { describe, expect, it } from "vitest";
import { CATALOG, exposedNames, officialVariableType, realVariableType, type FactsContext } from "../catalog";
import { NODE_TYPE_IDS } from "../node-types";
import type { JsonObject } from "../python-values";

const typedInputs: FactsContext = { inputType: (selector) => (JSON.stringify(selector) === '["files","1"]' ? "array[file]" : undefined) };

/** Params under which each type declares or infers something (plus the empty param for every type). */
const PARAMS: JsonObject[] = [
  {},
  { variables: [["q", "string"], ["files", "file-list"], ["n", 3]] },
  { outputs: [["result", "array[string]"], ["count", "number"]], variables: [], code: "" },
  { parameters: [["the count", "count", "number"], ["names", "names", "array[string]"]] },
  { variable_selector: ["files", "1"], iterator_selector: ["files", "1"], variable: ["files", "1"] },
  { variables: [["text", "2"], ["text", "3"]], output_type: "string" },
];

const NAMES = ["text", "result", "count", "names", "item", "index", "output", "files", "first_record", "last_record", "q", "n", "json", "body", "constructor", "__proto__", ""];

describe("reference resolution by a type's own variable rules", () => {
  it("gives the catalog's official and real types for every type, param and plain name", () => {
    let compared = 0;
    for (const type of NODE_TYPE_IDS) {
      const rules = CATALOG[type].variables;
      for (const param of PARAMS) {
        const facts = rules.facts(param, typedInputs);
        for (const name of [...NAMES, ...exposedNames(facts)]) {
          expect(rules.officialType(facts, name), `${type} ${name}`).toEqual(officialVariableType(facts, name));
          expect(rules.realType(facts, name), `${type} ${name}`).toBe(realVariableType(facts, name));
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(NODE_TYPE_IDS.length * PARAMS.length * NAMES.length - 1);
  });
});
