// Work on hostile model text grows linearly with its size. Counted, not timed: every analysis of model text (scoring,
// the response view, diffs, the agentic checks, judge replies) runs in a child process whose V8 counts the
// backtracking of each regular-expression attempt and reports any attempt (one start position) that backtracks more
// than BACKTRACK_LIMIT times. Bounded backtracking per start position bounds an execution's work by a constant times
// the text's length. The old `{{#([^.]+)\.` backtracked the whole rest of the text from every `{{#`. (Patterns with
// lookbehind or backreferences run outside that count; `npm run bench:adversarial` compares times across sizes for
// everything, as a ratio.)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ATOMS, KNOWN_PATTERNS, repeatTo } from "../../test/support/adversarial";

const SIZE = 24_000;
/** Backtracks one attempt at one start position may take, whatever the text's length. */
const BACKTRACK_LIMIT = 1000;
const ROOT = path.resolve(__dirname, "../..");

function analyseInChild(texts: string[]): { status: number | null; fallbacks: string[]; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "linear-work-"));
  try {
    const file = path.join(dir, "texts.json");
    writeFileSync(file, JSON.stringify(texts));
    const child = spawnSync(
      process.execPath,
      [
        "--enable-experimental-regexp-engine-on-excessive-backtracks",
        `--regexp-backtracks-before-fallback=${BACKTRACK_LIMIT}`,
        "--trace-experimental-regexp-engine",
        "--import",
        "tsx",
        "--conditions=react-server",
        path.join(ROOT, "test/support/analyse-texts.ts"),
        file,
      ],
      { cwd: ROOT, encoding: "utf8", timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
    );
    const output = `${child.stdout}\n${child.stderr}`;
    return { status: child.status, fallbacks: output.split("\n").filter((line) => line.startsWith("Experimental execution")), output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("work on hostile model text", () => {
  it("counts the backtracking of the old inline-reference pattern (the measure can see a quadratic pattern)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "linear-work-"));
    try {
      const script = path.join(dir, "old.mjs");
      writeFileSync(script, `/\\{\\{#([^.]+)\\.([^\\n]+?)#\\}\\}/g.test(${JSON.stringify(repeatTo("{{#", SIZE))}); console.log("ran");`);
      const child = spawnSync(process.execPath, ["--enable-experimental-regexp-engine-on-excessive-backtracks", `--regexp-backtracks-before-fallback=${BACKTRACK_LIMIT}`, "--trace-experimental-regexp-engine", script], { encoding: "utf8", timeout: 120_000 });
      expect(child.stdout).toContain("ran");
      expect(child.stdout.split("\n").filter((line) => line.startsWith("Experimental execution")).length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stays within a linear backtracking budget on every known and random hostile pattern", { timeout: 300_000 }, () => {
    const seed = Date.now();
    const randomPatterns = fc.sample(fc.array(fc.constantFrom(...ATOMS), { minLength: 1, maxLength: 4 }).map((atoms) => atoms.join("")), { numRuns: 16, seed });
    const texts = [...KNOWN_PATTERNS, ...randomPatterns].map((pattern) => repeatTo(pattern, SIZE));
    const result = analyseInChild(texts);
    expect(result.output, `seed ${seed}`).toContain(`analysed ${texts.length}`);
    expect(result.status).toBe(0);
    expect(result.fallbacks, `seed ${seed}: ${result.fallbacks.join("\n")}`).toEqual([]);
  });
});
