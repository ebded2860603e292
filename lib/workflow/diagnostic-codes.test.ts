// The registry is complete and documented: every code the core emits is registered (in the source and on the whole
// shared corpus), and the docs are current.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { loadRunCorpus } from "../../test/support/run-corpus";
import { DIAGNOSTIC_CODES, isDiagnosticCode, makeDiagnostic } from "./diagnostic-codes";
import { renderDiagnosticsDoc } from "./diagnostics-doc";
import { scoreResponse } from "./score";

const ROOT = path.resolve(__dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/**
 * Code literals handed to the diagnostic builders of lib/workflow (makeDiagnostic, fail, consistency, type lookups).
 * The type system already rejects unregistered codes; this catches a cast or an `as` slipping one through.
 */
function emittedLiterals(): Map<string, string> {
  const found = new Map<string, string>();
  const patterns = [
    /makeDiagnostic\(\s*"([^"]+)"/g,
    /consistency\(\s*"([^"]+)"/g,
    /\bcode: (?:[^"\n,]*\? )?"([a-z0-9-]+)"(?: : "([a-z0-9-]+)")?/g,
  ];
  for (const file of sourceFiles(path.join(ROOT, "lib/workflow"))) {
    if (file.endsWith("repair.ts") || file.endsWith("diagnostic-codes.ts")) continue; // repairs have their own codes
    const text = readFileSync(file, "utf8");
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) {
        for (const code of match.slice(1)) if (code && /^[a-z0-9]+(-[a-z0-9]+)+$|^cycle$/.test(code)) found.set(code, path.relative(ROOT, file));
      }
    }
  }
  return found;
}

describe("the diagnostic registry", () => {
  it("declares each code once, kebab-case, with a title, a documentation paragraph and an example", () => {
    const entries = Object.entries(DIAGNOSTIC_CODES);
    expect(entries.length).toBeGreaterThan(90);
    for (const [code, spec] of entries) {
      expect(code).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(spec.title.length, code).toBeGreaterThan(5);
      expect(spec.doc.length, code).toBeGreaterThan(30);
      expect(spec.example.length, code).toBeGreaterThan(2);
    }
  });

  it("registers every code literal the core's emitters use", () => {
    const literals = emittedLiterals();
    expect(literals.size).toBeGreaterThan(60);
    const missing = [...literals].filter(([code]) => !isDiagnosticCode(code)).map(([code, file]) => `${code} (${file})`);
    expect(missing).toEqual([]);
  });

  it("fills category, severity and step from the registry, with overrides", () => {
    expect(makeDiagnostic("forward-reference", "m")).toEqual({ code: "forward-reference", category: "semantics", severity: "error", officialStep: "step_1_2", message: "m" });
    expect(makeDiagnostic("missing-start", "m", { officialStep: null, severity: "warning" })).toEqual({ code: "missing-start", category: "graph", severity: "warning", message: "m" });
  });

  it("is documented in docs/diagnostics.md, which is generated and current (npm run docs:diagnostics)", () => {
    const committed = readFileSync(path.join(ROOT, "docs/diagnostics.md"), "utf8");
    expect(committed).toBe(renderDiagnosticsDoc());
    for (const code of Object.keys(DIAGNOSTIC_CODES)) expect(committed).toContain(`### ${code}\n`);
  });
});

describe.skipIf(!benchmarkDir)(`registered codes on the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("every diagnostic scoring emits on the 948 records has a registered code and the registry's category", { timeout: 120_000 }, () => {
    const corpus = loadRunCorpus(benchmarkDir);
    const seen = new Set<string>();
    let records = 0;
    for (const { records: list } of corpus.runs) {
      for (const record of list) {
        const turn = corpus.turns.get(`${record.task}_${record.round}`);
        if (!turn) throw new Error(`no turn spec for ${record.task}_${record.round}`);
        const score = scoreResponse({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow }, turn);
        records += 1;
        for (const diagnostic of [...score.diagnostics, ...score.officialDiagnostics]) {
          seen.add(diagnostic.code);
          expect(isDiagnosticCode(diagnostic.code), diagnostic.code).toBe(true);
          expect(diagnostic.category, diagnostic.code).toBe(DIAGNOSTIC_CODES[diagnostic.code].category);
        }
      }
    }
    expect(records).toBe(948);
    expect(seen.size).toBeGreaterThan(30);
  });
});
