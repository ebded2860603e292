// The instruction-only check (feedback mode's consistency diagnostics) against the hidden truth it must not use:
// on every recorded response the official step_1_3 passes, no variable the instruction names is reported missing.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { loadRunCorpus } from "../../test/support/run-corpus";
import { namedVariables } from "../benchmark/instruction";
import { diagnoseWithoutTask } from "./diagnose";
import { officialVerdict } from "./official-verdict";
import { parseResponse } from "./response";

describe.skipIf(!benchmarkDir)(`instruction-only diagnostics on the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("never reports a named variable missing from a workflow whose inputs and outputs pass the official check", () => {
    const corpus = loadRunCorpus(benchmarkDir);
    const queries = JSON.parse(readFileSync(path.join(benchmarkDir as string, "dataset", "query.json"), "utf8")) as Record<string, string | number>[];
    const instruction = (task: string, round: number) => String(queries.find((entry) => entry.task === task)?.[`query${round}`] ?? "");
    let checked = 0;
    const reported: string[] = [];
    for (const { model, records } of corpus.runs) {
      for (const record of records) {
        const input = { nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow };
        const turn = corpus.turns.get(`${record.task}_${record.round}`);
        if (!turn || officialVerdict(parseResponse(input), turn, { graph: false }).failStep !== null) continue;
        checked += 1;
        const names = namedVariables(instruction(record.task, record.round));
        const found = diagnoseWithoutTask(input, names).filter((diagnostic) => diagnostic.code === "instruction-variable-unused");
        for (const diagnostic of found) reported.push(`${model}/${record.task}_${record.round}: ${diagnostic.message}`);
      }
    }
    expect(checked).toBeGreaterThan(400);
    expect(reported).toEqual([]);
  });
});
