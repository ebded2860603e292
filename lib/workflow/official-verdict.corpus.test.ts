// Replays the official pass stage (steps 1_1–1_3) on every recorded response of the shared benchmark and
// requires the recorded fail_step on all 948 records. Skipped, with a message, when the benchmark is absent.
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { loadRunCorpus } from "../../test/support/run-corpus";
import type { RunRecord } from "../benchmark/runs";
import { conversionFailure, convertWorkflow } from "./convert";
import { officialVerdict } from "./official-verdict";
import { repairResponse } from "./repair";
import { parseResponse, type ResponseInput } from "./response";
import { scoreResponse } from "./score";

function recordInput(record: RunRecord): ResponseInput {
  return { nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow };
}

/** What steps 1_1–1_3 must give: the recorded step, or null once the record got past step_1_3. */
function expectedStep(record: RunRecord): string | null {
  if (record.valid || record.fail_step === "step_1_4" || record.fail_step === "step_1_5") return null;
  return record.fail_step ?? null;
}

describe.skipIf(!benchmarkDir)(`official verdict on the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const corpus = loadRunCorpus(benchmarkDir);
  const rows = corpus.runs.flatMap(({ model, records }) =>
    records.map((record) => {
      const turn = corpus.turns.get(`${record.task}_${record.round}`);
      if (!turn) throw new Error(`no turn spec for ${record.task}_${record.round}`);
      const parsed = parseResponse(recordInput(record));
      const verdict = officialVerdict(parsed, turn);
      return { label: `${model}/${record.task}/${record.round}`, expected: expectedStep(record), verdict, parsed, turn, record };
    }),
  );

  it("covers 12 run files of 79 records each", () => {
    expect(corpus.runs).toHaveLength(12);
    expect(corpus.runs.map((run) => run.records.length)).toEqual(Array.from({ length: 12 }, () => 79));
  });

  it("agrees with the recorded fail_step on every record (948/948)", () => {
    const mismatches = rows
      .filter((row) => row.verdict.failStep !== row.expected)
      .map((row) => `${row.label}: recorded ${row.expected}, got ${row.verdict.failStep} — ${row.verdict.diagnostics[0]?.message ?? ""}`);
    if (mismatches.length) console.log(mismatches.join("\n"));
    expect(mismatches).toEqual([]);
    expect(rows).toHaveLength(948);
  });

  it("gives the same step and diagnostics without building the Dify graph, and scoreResponse's lazy graph equals the eager one", () => {
    const differing = rows.filter((row) => {
      const checksOnly = officialVerdict(row.parsed, row.turn, { graph: false });
      return checksOnly.failStep !== row.verdict.failStep || !isDeepStrictEqual(checksOnly.diagnostics, row.verdict.diagnostics) || checksOnly.conversion !== null;
    });
    expect(differing.map((row) => row.label)).toEqual([]);
    const converted = rows.filter((row) => row.verdict.conversion?.ok);
    expect(converted.length).toBeGreaterThan(700);
    const lazyDiffers = converted.filter((row) => {
      const eager = row.verdict.conversion?.ok ? row.verdict.conversion.value : null;
      return !isDeepStrictEqual(scoreResponse(recordInput(row.record), row.turn).conversion, eager);
    });
    expect(lazyDiffers.map((row) => row.label)).toEqual([]);
    const failing = rows.filter((row) => !row.verdict.conversion?.ok);
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.filter((row) => scoreResponse(recordInput(row.record), row.turn).conversion !== null).map((row) => row.label)).toEqual([]);
  });

  it("fails the repaired workflows in check-only mode exactly where the full conversion fails them", () => {
    const repaired = rows.flatMap((row) => {
      const repair = repairResponse(row.parsed);
      return repair.value && repair.applied.length > 0 ? [{ label: row.label, value: repair.value }] : [];
    });
    expect(repaired.length).toBeGreaterThan(150);
    const differing = repaired.filter(({ value }) => {
      const full = convertWorkflow(value);
      return !isDeepStrictEqual(conversionFailure(value), full.ok ? null : full.issues[0]);
    });
    expect(differing.map((row) => row.label)).toEqual([]);
  });

  it("reproduces the spec's failure counts: 29 step_1_1, 181 step_1_2, 101 step_1_3", () => {
    const count = (step: string): number => rows.filter((row) => row.verdict.failStep === step).length;
    expect([count("step_1_1"), count("step_1_2"), count("step_1_3")]).toEqual([29, 181, 101]);
  });

  it("explains every failure with at least one located diagnostic of the failing step", () => {
    for (const row of rows.filter((r) => r.verdict.failStep)) {
      expect(row.verdict.diagnostics.length, row.label).toBeGreaterThan(0);
      for (const diagnostic of row.verdict.diagnostics) {
        expect(diagnostic.officialStep, row.label).toBe(row.verdict.failStep);
        expect(diagnostic.message.length, row.label).toBeGreaterThan(10);
      }
    }
  });

  it("classifies the step_1_2 causes as the spec's table does (§3.4)", () => {
    const codes = new Map<string, number>();
    for (const row of rows.filter((r) => r.verdict.failStep === "step_1_2")) {
      const code = row.verdict.diagnostics[0]?.code ?? "";
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    // A: unknown type "template" (referenced, or a canvas child); B + O: reading iteration-start / end outputs.
    expect((codes.get("reference-unknown-type") ?? 0) + (codes.get("unknown-node-type") ?? 0)).toBe(43);
    expect(codes.get("reference-no-outputs")).toBe(28);
    expect(codes.get("malformed-selector")).toBe(21 + 6);
    expect(codes.get("forward-reference")).toBe(18);
    expect(codes.get("text-param-not-string")).toBe(14);
    expect(codes.get("iteration-output-not-child")).toBe(10);
    expect(codes.get("undeclared-code-output")).toBe(5);
    expect(codes.get("malformed-edge")).toBe(3);
    expect(codes.get("node-without-edges")).toBe(3);
    expect(codes.get("list-operator-input-untyped")).toBe(3);
  });
});
