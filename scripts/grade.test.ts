import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");

function grade(cases: unknown): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "grade-cli-"));
  const file = path.join(dir, "cases.json");
  writeFileSync(file, JSON.stringify(cases));
  const result = spawnSync(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/grade.ts", "--input", file, "--json"], { cwd: root, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("npm run grade -- --input FILE --json", () => {
  it("prints exactly {results: [...]} in the contract's shape, including the guide's worked example", () => {
    const out = grade([
      { id: "latency", hard_gates: { format: true }, criteria: [{ name: "latency", formula: "lower_is_better", raw: 12, weight: 1, params: { slo_good: 8, slo_bad: 30 } }] },
    ]);
    expect(out.status).toBe(0);
    const parsed = JSON.parse(out.stdout) as { results: Record<string, unknown>[] };
    expect(Object.keys(parsed)).toEqual(["results"]);
    expect(parsed.results[0]).toEqual({
      id: "latency",
      passed: true,
      grade: "B",
      weighted_100: 81.82,
      gate_failures: [],
      floor_failures: [],
      criteria: [{ name: "latency", norm: 18 / 22, adjusted_norm: (18 / 22 + 10) / 21 }],
      reasons: [],
    });
  }, 30_000);

  it("exits 2 naming the case and field of bad input, with nothing on stdout", () => {
    const out = grade([{ id: "bad", hard_gates: {}, criteria: [{ name: "c", formula: "binary", raw: 1 }] }]);
    expect(out.status).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/case 0 \(id "bad"\): field criteria\[0\]\.weight: /);
  }, 30_000);
});
