// Parity with the official Python: the expected results of the four auto-repairs (text, which applied, or where
// they raise), the JSON check and the static validation were computed by the official chatllm_opencode.py with
// json_repair 0.59.4 (test/fixtures/official-autofix-parity.json says how) over crafted edge cases and every
// recorded answer of the shared runs. Our JSON repair engine (the jsonrepair package) is not json_repair: the answers
// it repairs differently are listed below, so that any change to that list shows.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { loadRunCorpus } from "../../test/support/run-corpus";
import { parsePyJson } from "@/lib/workflow/json-text";
import { isJsonObject } from "@/lib/workflow/python-values";
import { reorderNodes } from "@/lib/workflow/repair";
import { applyOfficialAutofixes, firstWorkflowBody, reorderWorkflowNodes } from "@/lib/workflow/repair-official";
import { officialValidation, workflowJsonIsObject } from "./validate";

interface Expected {
  autofix: { text?: string; sha256?: string; applied: string[]; raises?: string; at?: string };
  jsonValid?: boolean;
  validate?: { issues: string[] } | { raises: string };
}
interface Fixture {
  recorded: (Expected & { run: string; task: string; round: number })[];
  crafted: (Expected & { name: string; input: string })[];
}

const fixture = JSON.parse(readFileSync(path.resolve(__dirname, "../../test/fixtures/official-autofix-parity.json"), "utf8")) as Fixture;
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

// Answers whose workflow JSON the jsonrepair package repairs differently from Python's json_repair 0.59.4, or not
// at all (run/task/round).
const JSON_REPAIR_DIVERGENCES = [
  "deepseek_v3d1/Podcast/3",
  "deepseek_v3d2/Podcast/2",
  "gpt_5d1/Creation/2",
  "gpt_5d1/Creation/3",
  "qwen3_14B/Translation/2",
  "qwen3_235B_A22B/HTML/3",
  "qwen3_32B/BookCharacter/3",
  "qwen3_32B/DeepResearch/2",
  "qwen3_32B/ErrorNotebook/1",
  "qwen3_32B/ErrorNotebook/2",
  "qwen3_32B/FormulaOCR/2",
  "qwen3_32B/GithubSummary/3",
  "qwen3_32B/Mermaid/2",
  "qwen3_32B/PerformanceChart/1",
  "qwen3_32B/PerformanceChart/2",
  "qwen3_32B/PerformanceChart/3",
  "qwen3_32B/PerformanceChart/4",
  "qwen3_32B/ResumeScreening/1",
  "qwen3_32B/ResumeScreening/2",
  "qwen3_32B/ResumeScreening/3",
  "qwen3_32B/StudyPlanner/2",
  "qwen3_32B/StudyPlanner/3",
];

// Crafted cases we knowingly differ on: the JSON repair engine (above), and integers beyond 2^53, which JavaScript
// numbers cannot carry through a re-serialised workflow.
const CRAFTED_DIVERGENCES = ["an unescaped newline and quote in a string", "floats and big numbers kept on reordering"];

/** Our result in the fixture's terms; the texts compared whole (crafted) or by hash (recorded). */
function ours(input: string, hashed: boolean): Expected {
  const fixed = applyOfficialAutofixes(input);
  const applied = fixed.applied.map((fix) => fix.code);
  if (!fixed.ok) return { autofix: { raises: fixed.raises, at: fixed.at, applied } };
  const validation = officialValidation(fixed.text);
  return {
    autofix: { ...(hashed ? { sha256: sha256(fixed.text) } : { text: fixed.text }), applied },
    jsonValid: workflowJsonIsObject(fixed.text),
    validate: validation.ok ? { issues: validation.issues.map((issue) => `${issue.code}: ${issue.message}`) } : { raises: validation.raises },
  };
}

/** Python's JSONDecodeError text differs from our parser's: INVALID_JSON is compared by its code. */
function comparable(expected: Expected): Expected {
  const validate = expected.validate && "issues" in expected.validate ? { issues: expected.validate.issues.map((issue) => (issue.startsWith("INVALID_JSON:") ? "INVALID_JSON" : issue)) } : expected.validate;
  return { ...expected, ...(validate ? { validate } : {}) };
}

describe("the official auto-repairs and validation, Python parity", () => {
  it("gives Python's result on every crafted edge case", () => {
    expect(fixture.crafted.length).toBeGreaterThan(40);
    const differences = fixture.crafted.flatMap(({ name, input, ...expected }) => {
      const actual = comparable(ours(input, false));
      return isDeepStrictEqual(actual, comparable(expected)) || CRAFTED_DIVERGENCES.includes(name) ? [] : [{ name, expected: comparable(expected), actual }];
    });
    expect(differences).toEqual([]);
    const divergent = fixture.crafted.filter(({ name: _name, input, ...expected }) => !isDeepStrictEqual(comparable(ours(input, false)), comparable(expected))).map((entry) => entry.name);
    expect(divergent).toEqual(CRAFTED_DIVERGENCES);
  });

  it.skipIf(!benchmarkDir)(`gives Python's result on the recorded answers, but for the listed JSON repairs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
    const corpus = loadRunCorpus(benchmarkDir);
    const records = new Map<string, (typeof corpus.runs)[number]["records"][number]>(corpus.runs.flatMap(({ model, records: list }) => list.map((record) => [`${model}/${record.task}/${record.round}`, record] as const)));
    expect(fixture.recorded.length).toBe(946);
    const differing: string[] = [];
    for (const { run, task, round, ...expected } of fixture.recorded) {
      const key = `${run}/${task}/${round}`;
      const record = records.get(key);
      if (!record) throw new Error(`${key} is not in the shared runs`);
      const input = `<node_selection>${record.node_selection}</node_selection>\n<design_principle>${record.design_principle}</design_principle>\n<workflow>\n${record.workflow}\n</workflow>`;
      if (!isDeepStrictEqual(comparable(ours(input, true)), comparable(expected))) differing.push(key);
    }
    expect(differing.sort()).toEqual([...JSON_REPAIR_DIVERGENCES].sort());
    const repairedByPython = fixture.recorded.filter((entry) => entry.autofix.applied.includes("json-repair")).map((entry) => `${entry.run}/${entry.task}/${entry.round}`);
    for (const key of JSON_REPAIR_DIVERGENCES) expect(repairedByPython).toContain(key);
  });

  it.skipIf(!benchmarkDir)(`orders nodes the same way under both policies wherever both reorder a recorded answer${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
    const idsOf = (nodes: unknown): string[] => (Array.isArray(nodes) ? nodes.map((node) => String(isJsonObject(node) ? node.id : node)) : []);
    const compared: string[] = [];
    const differing: string[] = [];
    for (const { model, records } of loadRunCorpus(benchmarkDir).runs) {
      for (const record of records) {
        if (record.workflow === null) continue;
        const parsed = parsePyJson(record.workflow.trim());
        if (!parsed.ok || !isJsonObject(parsed.value) || !Array.isArray(parsed.value.nodes_info)) continue;
        const studio = reorderNodes(parsed.value.nodes_info, Array.isArray(parsed.value.edges) ? parsed.value.edges : []);
        if (!studio) continue;
        const official = reorderWorkflowNodes(`<workflow>\n${record.workflow}\n</workflow>`);
        if (official === null) continue;
        const officialBody = parsePyJson(firstWorkflowBody(official) ?? "");
        const key = `${model}/${record.task}/${record.round}`;
        compared.push(key);
        const officialIds = officialBody.ok && isJsonObject(officialBody.value) ? idsOf(officialBody.value.nodes_info) : [];
        if (idsOf(studio).join("\n") !== officialIds.join("\n")) differing.push(key);
      }
    }
    expect(compared.length).toBe(18);
    expect(differing).toEqual([]);
  });
});
