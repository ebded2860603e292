// Exports every recorded response of the shared benchmark that converts to a Dify DSL and loads each file back with
// YAML 1.1 rules (as Dify's PyYAML does): every value must come back as written. Skipped when the benchmark is absent.
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { loadRunCorpus } from "../../test/support/run-corpus";
import { loadAsYaml11 } from "../../test/support/yaml11-load";
import { buildDifyDsl, difyAppName } from "./dify-dsl";
import { convertToCoze } from "./coze-convert";
import { toDifyYaml, toYaml11ByLibrary, toYaml11Direct } from "./dify-yaml";
import { parseResponse } from "./response";
import { scoreResponse } from "./score";

describe.skipIf(!benchmarkDir)(`Dify YAML of every recorded response under YAML 1.1${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const corpus = loadRunCorpus(benchmarkDir);

  it("loads every exported file to the values it was written from", () => {
    const mismatches: string[] = [];
    let exported = 0;
    for (const { model, records } of corpus.runs) {
      for (const record of records) {
        const turn = corpus.turns.get(`${record.task}_${record.round}`);
        if (!turn) throw new Error(`no turn spec for ${record.task}_${record.round}`);
        const { conversion } = scoreResponse({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow }, turn);
        if (!conversion) continue;
        const name = difyAppName(record.task, record.round);
        const dsl = buildDifyDsl(conversion, name);
        const intended: unknown = JSON.parse(JSON.stringify(dsl));
        exported += 1;
        try {
          const loaded = loadAsYaml11(toDifyYaml(dsl));
          if (JSON.stringify(loaded) !== JSON.stringify(intended)) {
            expect(loaded, `${model}/${name}`).toEqual(intended);
          }
        } catch (error) {
          mismatches.push(`${model}/${name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    // 738 of the 948 recorded responses convert (the others fail before a graph exists).
    expect(exported).toBe(738);
  }, 60_000);

  it("writes every exported Dify and Coze file directly, byte for byte as the yaml package does", () => {
    const documents: { label: string; value: unknown }[] = [];
    for (const { model, records } of corpus.runs) {
      for (const record of records) {
        const turn = corpus.turns.get(`${record.task}_${record.round}`);
        if (!turn) throw new Error(`no turn spec for ${record.task}_${record.round}`);
        const response = { nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow };
        const name = difyAppName(record.task, record.round);
        const { conversion } = scoreResponse(response, turn);
        if (conversion) documents.push({ label: `${model}/${name} (Dify)`, value: buildDifyDsl(conversion, name) });
        const parsed = parseResponse(response);
        const coze = parsed.json.ok ? convertToCoze(parsed.json.value, name) : null;
        if (coze?.ok) documents.push({ label: `${model}/${name} (Coze)`, value: coze.value });
      }
    }
    // 738 Dify documents and 633 Coze workflows.
    expect(documents).toHaveLength(1371);
    const declined: string[] = [];
    for (const { label, value } of documents) {
      const direct = toYaml11Direct(value);
      if (direct === null) declined.push(label);
      else if (direct !== toYaml11ByLibrary(value)) expect(direct, label).toBe(toYaml11ByLibrary(value));
    }
    expect(declined).toEqual([]);
  }, 120_000);
});
