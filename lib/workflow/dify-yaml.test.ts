import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../../test/support/benchmark-dir";
import { loadAsYaml11 } from "../../test/support/yaml11-load";
import { convertWorkflow, type Conversion } from "./convert";
import { buildDifyDsl, DIFY_PLUGIN_DEPENDENCIES, type DifyDsl } from "./dify-dsl";
import { parseDifyYaml, toDifyYaml } from "./dify-yaml";
import type { JsonValue } from "./python-values";
import { parseResponse } from "./response";

function convert(value: JsonValue): Conversion {
  const result = convertWorkflow(value);
  if (!result.ok) throw new Error(result.issues[0]?.message);
  return result.value;
}

function roundTrip(dsl: DifyDsl): DifyDsl {
  const parsed = parseDifyYaml(toDifyYaml(dsl));
  if (!parsed.ok) throw new Error(parsed.issues[0]);
  return parsed.value as DifyDsl;
}

const SAMPLE: JsonValue = {
  nodes_info: [
    { id: "1", type: "start", param: { variables: [["docs", "array[file]"], ["mode", "string"]] } },
    { id: "2", type: "iteration", param: { iterator_selector: ["docs", "1"], output_selector: ["text", "2-3"] } },
    { id: "2-1", type: "iteration-start", param: {} },
    { id: "2-2", type: "document-extractor", param: { variable_selector: ["item", "2"] } },
    { id: "2-3", type: "llm", param: { system: "Résumé: 中文 🤖", user: "{{#'2-2'.text#}}\nline two: yes" } },
    { id: "3", type: "question-classifier", param: { query_variable_selector: ["mode", "1"], classes: ["yes", "no"] } },
    { id: "4", type: "end", param: { outputs: [["a", ["output", "2"]]] } },
    { id: "5", type: "end", param: { outputs: [["b", ["class_name", "3"]]] } },
  ],
  edges: [
    ["1", 0, "2"],
    ["2", 0, "3"],
    ["3", 0, "4"],
    ["3", 1, "5"],
    ["2-1", 0, "2-2"],
    ["2-2", 0, "2-3"],
  ],
};

describe("Dify DSL export", () => {
  const conversion = convert(SAMPLE);
  const dsl = buildDifyDsl(conversion, "BatchFiles_1");

  it("builds the official document around the graph", () => {
    expect(dsl).toMatchObject({ version: "0.4.0", kind: "app", app: { name: "BatchFiles_1", mode: "workflow", icon: "🤖" } });
    expect(dsl.dependencies.map((d) => d.value.marketplace_plugin_unique_identifier)).toEqual([...DIFY_PLUGIN_DEPENDENCIES]);
    expect(dsl.workflow.graph.viewport).toEqual({ x: 0, y: 0, zoom: 1 });
    expect(dsl.workflow.features.file_upload).toEqual({ enabled: false });
  });

  it("serialises block style with sorted keys and unicode kept", () => {
    const text = toDifyYaml(dsl);
    expect(text.startsWith("app:\n")).toBe(true);
    expect(text.indexOf("\ndependencies:")).toBeLessThan(text.indexOf("\nkind:"));
    expect(text).toContain("中文 🤖");
    expect(text).not.toContain("{ ");
    // YAML 1.1 would read a bare `yes` as a boolean; the class name must stay a string.
    const classes = (roundTrip(dsl).workflow.graph.nodes.find((n) => n.data.type === "question-classifier")?.data.classes ?? []) as { name: unknown }[];
    expect(classes.map((c) => c.name)).toEqual(["yes", "no"]);
  });

  it("round-trips nodes, edges, handles and containment through YAML", () => {
    const back = roundTrip(dsl);
    expect(back.workflow.graph.nodes).toEqual(dsl.workflow.graph.nodes);
    expect(back.workflow.graph.edges).toEqual(dsl.workflow.graph.edges);
    expect(back.version).toBe("0.4.0");
    const ids = new Set(back.workflow.graph.nodes.map((n) => n.id));
    for (const edge of back.workflow.graph.edges) {
      expect(ids.has(edge.source)).toBe(true);
      expect(ids.has(edge.target)).toBe(true);
    }
  });

  it("reports YAML that does not parse", () => {
    expect(parseDifyYaml("a: [1, 2").ok).toBe(false);
  });
});

// Plain scalars that YAML 1.1 (PyYAML, Dify's importer) reads as something other than the string written.
const YAML_1_1_DANGEROUS: readonly string[] = [
  "=", "<<", "~", "", "null", "Null", "NULL",
  "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N",
  "true", "True", "TRUE", "false", "False", "FALSE",
  "012", "0_7", "-012", "0b101", "0x1F", "0x_", "1_000", "+1", "-1", "0",
  "1:20", "-1:20:30", "190:20:30.15", "1.5", "1.", "1._5", ".5", "1.0e+3", "-.inf", ".INF", ".nan", ".NaN",
  "2001-12-14", "2001-12-14 21:59:43.10 -5", "2001-12-14t21:59:43.", "2001-12-14 21:59:43 -35",
];

function asDsl(value: unknown): DifyDsl {
  return value as DifyDsl;
}

describe("Dify YAML under YAML 1.1 loaders", () => {
  it.each(YAML_1_1_DANGEROUS)("keeps %j a string as a value and as a key", (scalar) => {
    const document = { value: scalar, list: [scalar], map: { [scalar]: "key" } };
    const text = toDifyYaml(asDsl(document));
    expect(loadAsYaml11(text)).toEqual(document);
    expect(parseDifyYaml(text)).toEqual({ ok: true, value: document });
  });

  it("writes comparison operators as Dify's PyYAML can load them", () => {
    const text = toDifyYaml(asDsl({ comparison_operator: "=", other: "≠", contains: "contains" }));
    expect(text).toBe('comparison_operator: "="\ncontains: contains\nother: ≠\n');
  });

  it("leaves ordinary strings and real numbers and booleans as they were", () => {
    const text = toDifyYaml(asDsl({ name: "Résumé screening", temperature: 0.7, enabled: true, count: 3, empty: null }));
    expect(text).toBe("count: 3\nempty: null\nenabled: true\nname: Résumé screening\ntemperature: 0.7\n");
  });

  it("escapes the characters YAML 1.1 counts as line breaks", () => {
    const document = { text: "a\u2028b\u2029c\u0085d", plain: "a \u2028 b" };
    const text = toDifyYaml(asDsl(document));
    expect(text).not.toMatch(/[\u0085\u2028\u2029]/);
    expect(text).toContain('"a\\Lb\\Pc\\Nd"');
    expect(loadAsYaml11(text)).toEqual(document);
  });

  const python = spawnSync("python3", ["-c", "import yaml"], { encoding: "utf8" });
  const hasPyYaml = python.status === 0;
  it.skipIf(!hasPyYaml)(`loads with PyYAML's safe_load to the same values${hasPyYaml ? "" : " (skipped: python3 with PyYAML not found)"}`, () => {
    const document = { values: [...YAML_1_1_DANGEROUS], lines: "a\u2028b\u2029c\u0085d", keys: Object.fromEntries(YAML_1_1_DANGEROUS.map((s) => [s, s])) };
    const loaded = spawnSync("python3", ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))"], {
      input: toDifyYaml(asDsl(document)),
      encoding: "utf8",
    });
    expect(loaded.stderr).toBe("");
    expect(JSON.parse(loaded.stdout)).toEqual(document);
  });
});

describe.skipIf(!benchmarkDir)(`Dify export of real recorded workflows${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const records = (model: string): { task: string; round: number; workflow: string | null }[] =>
    JSON.parse(readFileSync(path.join(benchmarkDir as string, "runs", `${model}.json`), "utf8"));

  function exported(model: string, task: string, round: number): DifyDsl {
    const record = records(model).find((r) => r.task === task && r.round === round);
    const parsed = parseResponse({ nodeSelection: "", designPrinciple: "", workflow: record?.workflow ?? null });
    if (!parsed.json.ok) throw new Error(`${model}/${task}/${round} does not parse`);
    const result = convertWorkflow(parsed.json.value, { floats: parsed.json.floats });
    if (!result.ok) throw new Error(result.issues[0]?.message);
    return roundTrip(buildDifyDsl(result.value, `${task}_${round}`));
  }

  it("keeps an iteration's children on its canvas (gpt_5d2 BatchFiles 1)", () => {
    const { nodes, edges } = exported("gpt_5d2", "BatchFiles", 1).workflow.graph;
    const iterations = nodes.filter((n) => n.data.type === "iteration");
    expect(iterations.length).toBeGreaterThan(0);
    for (const iteration of iterations) {
      const children = nodes.filter((n) => n.parentId === iteration.id);
      expect(children.some((c) => c.type === "custom-iteration-start" && c.id === `${iteration.id}start`)).toBe(true);
      for (const child of children) {
        expect(child.zIndex).toBe(1002);
        if (child.type !== "custom-iteration-start") expect(child.data.iteration_id).toBe(iteration.id);
      }
      expect(iteration.data.output_selector).not.toBeNull();
      const inner = edges.filter((e) => children.some((c) => c.id === e.source));
      expect(inner.length).toBeGreaterThan(0);
      expect(inner.filter((e) => !(e.zIndex === 1002 && e.data.isInIteration && e.data.iteration_id === iteration.id))).toEqual([]);
    }
  });

  it("uses case ids and 'false' as if-else handles (gpt_5d2 Translation 3)", () => {
    const { nodes, edges } = exported("gpt_5d2", "Translation", 3).workflow.graph;
    const ifElse = nodes.filter((n) => n.data.type === "if-else");
    expect(ifElse.length).toBeGreaterThan(0);
    for (const node of ifElse) {
      const handles = [...(node.data.cases as { case_id: string }[]).map((c) => c.case_id), "false"];
      const outgoing = edges.filter((e) => e.source === node.id);
      expect(outgoing.length).toBeGreaterThan(0);
      for (const edge of outgoing) expect(handles).toContain(edge.sourceHandle);
    }
  });

  it("uses class ids as question-classifier handles (claude_sonnet4d5 Creation 2)", () => {
    const { nodes, edges } = exported("claude_sonnet4d5", "Creation", 2).workflow.graph;
    const classifiers = nodes.filter((n) => n.data.type === "question-classifier");
    expect(classifiers.length).toBeGreaterThan(0);
    for (const node of classifiers) {
      const handles = (node.data.classes as { id: string }[]).map((c) => c.id);
      const outgoing = edges.filter((e) => e.source === node.id);
      expect(new Set(outgoing.map((e) => e.sourceHandle))).toEqual(new Set(handles));
    }
  });
});
