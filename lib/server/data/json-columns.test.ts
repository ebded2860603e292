import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseColumn, readTurnVariables } from "./json-columns";

describe("stored JSON columns", () => {
  it("reads a turn's variables, flat or per-branch output variables, and key nodes", () => {
    expect(readTurnVariables({ inputVars: '["paper"]', outputVars: '[["summary"],["answer"]]', keyNodes: '["llm","iteration"]' })).toEqual({
      inputVars: ["paper"],
      outputVars: [["summary"], ["answer"]],
      keyNodes: ["llm", "iteration"],
    });
  });

  it("falls back to empty values for null, text that is not JSON, and JSON of another shape", () => {
    expect(readTurnVariables({ inputVars: "not json", outputVars: '{"a":1}', keyNodes: "[1,2]" })).toEqual({ inputVars: [], outputVars: [], keyNodes: [] });
    expect(parseColumn(null, z.record(z.string(), z.string()), {})).toEqual({});
    expect(parseColumn('{"report":"pdf"}', z.record(z.string(), z.string()), {})).toEqual({ report: "pdf" });
  });
});
