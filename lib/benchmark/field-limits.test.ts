import { describe, expect, it } from "vitest";
import { MAX_FIELD_DEPTH, oversizedFields } from "./field-limits";

/** `{"a": {"a": … 1}}` nested `depth` levels, parsed from text as an import reads it. */
function nested(depth: number): unknown {
  return JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
}

describe("oversizedFields", () => {
  it("refuses a field nested 100,000 deep, naming the file, record and field, without overflowing the stack", () => {
    const records = [{ task: "T", round: 1 }, { task: "T", round: 2, llm_output_test1: nested(100_000) }];
    const issues = oversizedFields("runs/deep.json", records, 1000);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: "runs/deep.json", entry: "record 1", field: "llm_output_test1.a.a" });
    expect(issues[0]!.message).toContain(`nested deeper than ${MAX_FIELD_DEPTH} levels`);
  });

  it("accepts nesting up to the limit and names over-long texts by record and path", () => {
    expect(oversizedFields("runs/ok.json", [{ outputs: nested(MAX_FIELD_DEPTH - 1) }], 1000)).toEqual([]);
    const issues = oversizedFields("runs/long.json", [{ outputs: { text: ["short", "x".repeat(1001)] } }], 1000);
    expect(issues.map((found) => [found.entry, found.field])).toEqual([["record 0", "outputs.text[1]"]]);
  });

  it("finds a field exactly as deep or as long as the limits allow acceptable, and one more not, in lists too", () => {
    const list = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}1${"]".repeat(depth)}`);
    expect(oversizedFields("runs/a.json", [{ a: 1 }, { b: list(MAX_FIELD_DEPTH - 1) }], 10)).toEqual([]);
    expect(oversizedFields("runs/a.json", [{ a: 1 }, { b: list(MAX_FIELD_DEPTH) }], 10).map((found) => found.entry)).toEqual(["record 1"]);
    expect(oversizedFields("runs/a.json", { T_1: ["x".repeat(10)], T_2: { y: "z" } }, 10)).toEqual([]);
    expect(oversizedFields("runs/a.json", { T_1: ["x".repeat(10)], T_2: { y: "z".repeat(11) } }, 10).map((found) => found.field)).toEqual(["y"]);
    expect(oversizedFields("runs/a.json", "x".repeat(11), 10).map((found) => found.entry)).toEqual(["record 0"]);
    expect(oversizedFields("runs/a.json", null, 10)).toEqual([]);
  });

  it("names the top-level key of an object file (a dataset file) as the record", () => {
    const issues = oversizedFields("dataset/check_pass_stage.json", { PaperQA_1: { related_nodes: nested(200) } }, Number.POSITIVE_INFINITY);
    expect(issues[0]).toMatchObject({ entry: "PaperQA_1", field: "related_nodes.a.a" });
  });
});
