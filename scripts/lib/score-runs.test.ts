// The score CLI's fast reading of run files: the records it gives equal those of the UTF-8 text, on the recorded runs
// and on the texts where reading the bytes as Latin-1 could differ (escapes, invalid UTF-8).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseRunFile, type RunRecord } from "@/lib/benchmark/runs";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { latin1RunRecords, readFileReusingBuffer, responsesJsonPieces, utf8OfLatin1, type ScoredRecord } from "./score-runs";

/** What the score reads of the records of the file's UTF-8 text. */
function utf8Records(bytes: Buffer): ScoredRecord[] {
  const records = parseRunFile("runs.json", JSON.parse(bytes.toString("utf8")));
  if (!records.ok) throw new Error(records.issues[0]?.message);
  return records.value.map(({ task, round, node_selection, design_principle, workflow, valid, fail_step }: RunRecord) => ({
    task,
    round,
    node_selection,
    design_principle,
    workflow,
    valid,
    fail_step,
  }));
}

const scored = (records: readonly ScoredRecord[] | null) =>
  records?.map(({ task, round, node_selection, design_principle, workflow, valid, fail_step }) => ({ task, round, node_selection, design_principle, workflow, valid, fail_step })) ?? null;

function record(fields: Record<string, string>): string {
  const text = Object.entries(fields)
    .map(([key, value]) => `"${key}": "${value}"`)
    .join(", ");
  return `[{"task": "Mermaid", "round": 1, "valid": true, "has_been_judged": true, ${text}}]`;
}

describe("latin1RunRecords", () => {
  it("gives the UTF-8 text's records for raw non-ASCII text, escaped ASCII and escaped backslashes", () => {
    const bytes = Buffer.from(record({ node_selection: "Start, LLM", design_principle: "数据 → é \\u0041 \\\\u00e9", workflow: "{\\\"a\\\": \\\"ü\\\\\\\\u2003\\\"}", reason: "ok ✓" }), "utf8");
    const fast = latin1RunRecords("runs.json", bytes);
    expect(scored(fast)).toEqual(utf8Records(bytes));
    expect(fast?.[0]?.design_principle).toBe("数据 → é A \\u00e9");
  });

  it("decodes invalid UTF-8 in a kept text as the UTF-8 text does (replacement characters)", () => {
    const head = Buffer.from('[{"task": "Mermaid", "round": 1, "valid": true, "has_been_judged": true, "node_selection": "a', "utf8");
    const tail = Buffer.from('b", "design_principle": "", "workflow": ""}]', "utf8");
    const bytes = Buffer.concat([head, Buffer.from([0xe9, 0xff, 0xc3]), tail]);
    const fast = latin1RunRecords("runs.json", bytes);
    expect(fast?.[0]?.node_selection).toBe("a\ufffd\ufffd\ufffdb");
    expect(scored(fast)).toEqual(utf8Records(bytes));
  });

  it("leaves to the UTF-8 reading a file escaping a non-ASCII character, a byte-order mark, bad JSON and non-run data", () => {
    const escaped = Buffer.from(record({ node_selection: "\\u00e9", design_principle: "", workflow: "" }), "utf8");
    expect(latin1RunRecords("runs.json", escaped)).toBeNull();
    expect(latin1RunRecords("runs.json", Buffer.from(record({ node_selection: "\\\\\\u20ac", design_principle: "", workflow: "" })))).toBeNull();
    expect(latin1RunRecords("runs.json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), escaped]))).toBeNull();
    expect(latin1RunRecords("runs.json", Buffer.from('[{"task": "Mermaid",'))).toBeNull();
    expect(latin1RunRecords("out.json", Buffer.from('[{"id": 1, "category": "x", "task": "Mermaid", "answer1": "é"}]'))).toBeNull();
  });
});

describe("latin1RunRecords against the UTF-8 text (property)", () => {
  const unit = fc.constantFrom("a", " ", "\n", '"', "\\", "\u007f", "\u0080", "é", "ÿ", "数", "✓", "😀");
  const text = fc.string({ unit, maxLength: 40 });

  it("gives the records of the UTF-8 text for kept texts of any mix of ASCII and other characters written raw", () => {
    fc.assert(
      fc.property(text, text, text, text, (node_selection, design_principle, workflow, reason) => {
        const records = [{ task: "Mermaid", round: 1, node_selection, design_principle, workflow, valid: true, has_been_judged: true, reason }];
        const bytes = Buffer.from(JSON.stringify(records, null, 2), "utf8");
        expect(scored(latin1RunRecords("runs.json", bytes))).toEqual(utf8Records(bytes));
      }),
    );
  });
});

describe("utf8OfLatin1", () => {
  it("gives what a fresh buffer of the text's Latin-1 bytes gives as UTF-8, however long the text before it was", () => {
    const texts = ["", "plain", Buffer.from("数据 → é", "utf8").toString("latin1"), "\u00e9\u00ff", "\u00c3".repeat(40_000), "ab\u00e9", "\u20ac"];
    for (const text of texts) expect(utf8OfLatin1(text)).toBe(Buffer.from(text, "latin1").toString("utf8"));
    expect(utf8OfLatin1(Buffer.from("数据 → é", "utf8").toString("latin1"))).toBe("数据 → é");
  });
});

describe.skipIf(!benchmarkDir)(`latin1RunRecords on the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("reads every recorded run file the fast way, with the records of its UTF-8 text", () => {
    const runs = path.join(benchmarkDir as string, "runs");
    const files = readdirSync(runs).filter((name) => name.endsWith(".json"));
    expect(files).toHaveLength(12);
    const differing = files.filter((name) => {
      const bytes = readFileSync(path.join(runs, name));
      const fast = latin1RunRecords(name, bytes);
      return fast === null || JSON.stringify(scored(fast)) !== JSON.stringify(utf8Records(bytes));
    });
    expect(differing).toEqual([]);
  });
});

describe("responsesJsonPieces", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it("joins the chunks' entries of every run with commas, skipping runs and chunks without any", () => {
    const runs = [{ responsesJson: [bytes('{"a":1}'), bytes('{"b":"é"}')] }, { responsesJson: [] }, { responsesJson: null }, { responsesJson: [bytes('{"c":[]}')] }];
    const text = Buffer.concat([bytes("["), ...responsesJsonPieces(runs), bytes("]")]).toString("utf8");
    expect(JSON.parse(text)).toEqual([{ a: 1 }, { b: "é" }, { c: [] }]);
    expect(responsesJsonPieces([{ responsesJson: [] }, { responsesJson: null }])).toEqual([]);
  });
});

describe("readFileReusingBuffer", () => {
  it("gives each file's bytes, whether its buffer has to grow or not, and the error of a missing file", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "read-reusing-"));
    try {
      const sizes = [10, 0, 200_000, 3, 70_000, 200_001];
      sizes.forEach((size, i) => writeFileSync(path.join(dir, `${i}.json`), Buffer.alloc(size, 97 + i)));
      for (const [i, size] of sizes.entries()) {
        const bytes = readFileReusingBuffer(path.join(dir, `${i}.json`));
        expect(bytes.length).toBe(size);
        expect(bytes.equals(readFileSync(path.join(dir, `${i}.json`)))).toBe(true);
      }
      expect(() => readFileReusingBuffer(path.join(dir, "missing.json"))).toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
