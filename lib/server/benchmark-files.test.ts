import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "@/test/support/benchmark-dir";
import { readBenchmarkDir, readRunFile } from "./benchmark-files";

const scratch = mkdtempSync(path.join(tmpdir(), "c2w-bench-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(relative: string, content: string): string {
  const file = path.join(scratch, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

describe("readRunFile", () => {
  it("reports a missing file, bad JSON and the size limit as issues", async () => {
    const missing = await readRunFile(path.join(scratch, "nope.json"));
    expect(missing.ok ? null : missing.issues[0]?.message).toMatch(/nope\.json: cannot read/);
    const bad = await readRunFile(write("bad.json", "[{"));
    expect(bad.ok ? null : bad.issues[0]?.message).toMatch(/bad\.json: not valid JSON/);
    const big = await readRunFile(write("big.json", "[]"), { maxBytes: 1 });
    expect(big.ok ? null : big.issues[0]?.message).toMatch(/over the 1-byte limit/);
  });

  it("returns parse issues naming the record", async () => {
    const result = await readRunFile(write("m.json", JSON.stringify([{ task: "Code", round: 1 }])), { label: "runs/m.json" });
    expect(result.ok ? null : result.issues[0]?.message).toMatch(/^runs\/m\.json › record 1 \(Code round 1\) › /);
  });
});

describe.skipIf(!benchmarkDir)(`readBenchmarkDir on the shared benchmark${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("reads the dataset and the 12 run files", async () => {
    const result = await readBenchmarkDir(benchmarkDir as string);
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("\n"));
    expect(result.value.turns.size).toBe(79);
    expect(result.value.runs.map((r) => r.records.length)).toEqual(new Array(12).fill(79));
    expect(result.value.runs[0]?.model).toBe("claude_sonnet4d5");
  });

  it("leaves out the runs and the prompts when not asked for, with the same turns", async () => {
    const result = await readBenchmarkDir(benchmarkDir as string, { includeRuns: false, includePrompts: false });
    if (!result.ok) throw new Error(result.issues.map((i) => i.message).join("\n"));
    expect(result.value.turns.size).toBe(79);
    expect(result.value.runs).toEqual([]);
    expect(result.value.prompts).toEqual([]);
    const all = await readBenchmarkDir(benchmarkDir as string, { includeRuns: false });
    expect(all.ok ? all.value.prompts.length : 0).toBeGreaterThan(0);
  });

  it("reports a directory without the dataset", async () => {
    const result = await readBenchmarkDir(path.join(scratch, "empty"));
    expect(result.ok ? [] : result.issues.map((i) => i.file)).toEqual([
      "dataset/query.json",
      "dataset/check_pass_stage.json",
      "dataset/check_resolve_stage.json",
    ]);
  });
});
