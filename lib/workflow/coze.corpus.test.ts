// Exports every recorded response of the shared benchmark to Coze: each package unzips, parses as YAML, holds one
// node per node of the input (iteration-starts excepted) and only edges and references that resolve; every other
// response gets exactly one reason. Skipped, with a message, when the benchmark is absent.
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { loadRunCorpus } from "../../test/support/run-corpus";
import { readZip } from "../zip/zip";
import { cozePackage, parseCozeYaml } from "./coze-package";
import { isDiagnosticCode } from "./diagnostic-codes";
import { officialVerdict } from "./official-verdict";
import { isJsonObject, ownValue, type JsonValue } from "./python-values";
import { parseResponse } from "./response";

type Wrapper = { id: string; type: string; nodes?: Wrapper[]; edges?: { source_node: string; target_node: string }[] };

/** Every `ref_node`, `blockID` and `{{_<id>_var}}` / `{{block_output_<id>.…}}` anywhere in a value. */
function referencedIds(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === "string") {
    for (const match of value.matchAll(/\{\{(?:_(\d{6})_|block_output_(\d{6})\.)/g)) out.add((match[1] ?? match[2]) as string);
  } else if (Array.isArray(value)) {
    for (const item of value) referencedIds(item, out);
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if ((key === "ref_node" || key === "blockID") && typeof item === "string" && item !== "") out.add(item);
      else referencedIds(item, out);
    }
  }
  return out;
}

function inputNodeCount(workflow: JsonValue): number {
  const nodes = isJsonObject(workflow) ? ownValue(workflow, "nodes_info") : undefined;
  return Array.isArray(nodes) ? nodes.filter((node) => !(isJsonObject(node) && ownValue(node, "type") === "iteration-start")).length : 0;
}

describe.skipIf(!benchmarkDir)(`Coze packages of the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const corpus = loadRunCorpus(benchmarkDir);
  const rows = corpus.runs.flatMap(({ model, records }) =>
    records.map((record) => {
      const parsed = parseResponse({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow });
      const turn = corpus.turns.get(`${record.task}_${record.round}`);
      if (!turn) throw new Error(`no turn spec for ${record.task}_${record.round}`);
      const name = `${record.task}_${record.round}`;
      const difyConverts = officialVerdict(parsed, turn).conversion?.ok ?? false;
      return { label: `${model}/${name}`, name, value: parsed.json.ok ? parsed.json.value : null, difyConverts, built: parsed.json.ok ? cozePackage(parsed.json.value, name) : null };
    }),
  );
  const parseable = rows.filter((row) => row.built !== null);
  const packaged = parseable.flatMap((row) => (row.built?.ok ? [{ ...row, pkg: row.built.value }] : []));

  it("converts 633 of the 919 parseable responses and explains each of the other 286 with one registered code", { timeout: 120_000 }, () => {
    expect(parseable).toHaveLength(919);
    expect(packaged).toHaveLength(633);
    for (const row of parseable) {
      if (row.built?.ok !== false) continue;
      expect(row.built.issues, row.label).toHaveLength(1);
      const [reason] = row.built.issues;
      expect(isDiagnosticCode(reason?.code ?? ""), row.label).toBe(true);
      expect(reason?.officialStep, row.label).toBeUndefined();
      expect(reason?.message, row.label).toMatch(/^Coze: /);
    }
  });

  it("fails in Coze but not in Dify only for the causes the spec lists, and the reverse only 7 times", () => {
    const cozeOnly = parseable.filter((row) => row.difyConverts && !row.built?.ok);
    const difyOnly = parseable.filter((row) => !row.difyConverts && row.built?.ok);
    const causes = new Set(cozeOnly.map((row) => (row.built?.ok === false ? row.built.issues[0]?.code : "")));
    expect([...causes].sort()).toEqual(["child-parent-not-iteration", "coze-if-else-unvalued", "coze-no-equivalent", "coze-pie-data-not-integer", "edge-crosses-iteration", "iteration-output-index", "reference-iteration-start"]);
    expect(difyOnly.map((row) => row.label)).toHaveLength(7);
  });

  it("every package unzips to the manifest and one workflow YAML that parse back to what was built", { timeout: 120_000 }, () => {
    for (const { label, name, pkg } of packaged) {
      const entries = readZip(pkg.bytes);
      expect(entries.ok, label).toBe(true);
      if (!entries.ok) continue;
      expect(entries.value.map((entry) => entry.name), label).toEqual([`Workflow-${name}-draft/MANIFEST.yml`, `Workflow-${name}-draft/workflow/${name}-draft.yaml`]);
      const [manifest, workflow] = entries.value.map((entry) => parseCozeYaml(new TextDecoder().decode(entry.data)));
      expect(manifest?.ok && (manifest.value as { main: { name: string } }).main.name, label).toBe(name);
      expect(workflow, label).toEqual({ ok: true, value: pkg.workflow });
    }
  });

  it("every package has one node per input node (iteration-starts dropped), and its edges and references resolve", { timeout: 120_000 }, () => {
    for (const { label, value, pkg } of packaged) {
      const top = pkg.workflow.nodes as Wrapper[];
      const all = top.flatMap((node) => [node, ...(node.nodes ?? [])]);
      expect(all.length, label).toBe(inputNodeCount(value));
      const ids = new Set(all.map((node) => node.id));
      const edges = [...(pkg.workflow.edges as NonNullable<Wrapper["edges"]>), ...top.flatMap((node) => node.edges ?? [])];
      for (const edge of edges) {
        expect(ids.has(edge.source_node) && ids.has(edge.target_node), `${label}: ${JSON.stringify(edge)}`).toBe(true);
      }
      for (const id of referencedIds(pkg.workflow.nodes, new Set())) expect(ids.has(id), `${label}: reference to ${id}`).toBe(true);
    }
  });
});
