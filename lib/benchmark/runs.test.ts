import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { consecutiveTurns, parseGenerationFile, parseRunFile, recordLabel } from "./runs";

const base = { task: "BatchFiles", round: 2, node_selection: "a", design_principle: "b", workflow: "{}", valid: false, has_been_judged: true, fail_step: "step_1_2" };

describe("parseRunFile", () => {
  it("accepts records with optional judge and test fields", () => {
    const parsed = parseRunFile("runs/m.json", [base, { ...base, round: 3, valid: true, fail_step: undefined, api_key: "k", test1: true, test2: false, test3: true }]);
    expect(parsed.ok).toBe(true);
  });

  it("names the record and field of a bad value", () => {
    const parsed = parseRunFile("runs/m.json", [base, base, { ...base, round: "x" }, { ...base, round: 4, fail_step: "step_9" }]);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const messages = parsed.issues.map((i) => i.message);
    expect(messages).toContain("runs/m.json › record 2 (BatchFiles round 2) › round: duplicate turn BatchFiles_2");
    expect(parsed.issues.some((i) => i.entry === "record 3 (BatchFiles round x)" && i.field === "round")).toBe(true);
    expect(parsed.issues.some((i) => i.entry === "record 4 (BatchFiles round 4)" && i.field === "fail_step")).toBe(true);
  });

  it("checks that valid and fail_step agree and that the tag fields are null together", () => {
    const parsed = parseRunFile("runs/m.json", [{ ...base, valid: true }, { ...base, round: 3, workflow: null }]);
    expect(parsed.ok ? [] : parsed.issues.map((i) => i.field)).toEqual(["fail_step", "workflow"]);
  });

  it("reports exactly the inconsistent ones among every mix of verdict, fail step and null tag fields", () => {
    const records = [true, false].flatMap((valid) =>
      [undefined, "step_1_2" as const].flatMap((fail_step) =>
        [0, 1, 2, 3, 4, 5, 6, 7].map((mask) => ({ valid, fail_step, nulls: mask })),
      ),
    );
    records.forEach(({ valid, fail_step, nulls }, round) => {
      const record = {
        ...base,
        round: round + 1,
        valid,
        fail_step,
        node_selection: nulls & 1 ? null : "Start",
        design_principle: nulls & 2 ? null : "d",
        workflow: nulls & 4 ? null : "{}",
      };
      const parsed = parseRunFile("runs/m.json", [record]);
      const expected = [
        ...(valid === (fail_step !== undefined) ? ["fail_step"] : []),
        ...(nulls !== 0 && nulls !== 7 ? ["workflow"] : []),
      ];
      expect(parsed.ok ? [] : parsed.issues.map((i) => i.field)).toEqual(expected);
    });
  });

  it("labels records by task and round", () => {
    expect(recordLabel({ task: "Code", round: 1 }, 17)).toBe("record 18 (Code round 1)");
    expect(recordLabel(5, 2)).toBe("record 3");
  });
});

describe("parseGenerationFile", () => {
  it("reads answers with the round from the key's digits", () => {
    const parsed = parseGenerationFile("gen.json", [{ id: 2, category: "Research", task: "PaperQA", answer2: "b", answer1: "a" }]);
    expect(parsed).toEqual({
      ok: true,
      value: [
        {
          id: 2,
          category: "Research",
          task: "PaperQA",
          answers: [
            { round: 1, key: "answer1", text: "a" },
            { round: 2, key: "answer2", text: "b" },
          ],
        },
      ],
    });
  });

  it("names a non-string answer", () => {
    const parsed = parseGenerationFile("gen.json", [{ id: 2, category: "Research", task: "PaperQA", answer1: 5 }]);
    expect(parsed.ok ? null : parsed.issues[0]?.message).toBe("gen.json › PaperQA (item 1) › answer1: expected the model's answer text (a string)");
  });
});

describe("consecutiveTurns", () => {
  it("pairs each round with the next round of the same task in the same run", () => {
    const turn = (task: string, round: number) => ({ task, round });
    const pairs = consecutiveTurns([
      { model: "a", records: [turn("X", 1), turn("X", 2), turn("X", 3), turn("Y", 1), turn("Z", 1), turn("Z", 3)] },
      { model: "b", records: [turn("X", 2), turn("Y", 2), turn("X", 1)] },
    ]);
    expect(pairs.map((p) => `${p.model} ${p.earlier.task} ${p.earlier.round}→${p.later.round}`)).toEqual(["a X 1→2", "a X 2→3", "b X 1→2"]);
  });
});

describe.skipIf(!benchmarkDir)(`the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("parse: 79 records each, sorted by task and round", () => {
    const parsed = parseRunFile("runs/gpt_5d2.json", JSON.parse(readFileSync(path.join(benchmarkDir as string, "runs", "gpt_5d2.json"), "utf8")));
    if (!parsed.ok) throw new Error(parsed.issues.map((i) => i.message).join("\n"));
    expect(parsed.value).toHaveLength(79);
    const keys = parsed.value.map((r) => [r.task, r.round] as const);
    const sorted = [...keys].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));
    expect(keys).toEqual(sorted);
  });
});
