import { describe, expect, it } from "vitest";
import { convertWorkflow } from "@/lib/workflow/convert";
import { buildDifyDsl, DIFY_PLUGIN_DEPENDENCIES } from "@/lib/workflow/dify-dsl";
import type { JsonValue } from "@/lib/workflow/python-values";
import { benchmarkRequirements, describeRequirement, readiness, readinessProblem, requirementsOfDsl, type WorkspaceInventory } from "./dify-requirements";

function dslOf(nodes: JsonValue[]) {
  const edges = nodes.slice(1).map((_, index) => [String(index + 1), 0, String(index + 2)]);
  const converted = convertWorkflow({ nodes_info: nodes, edges } as JsonValue);
  if (!converted.ok) throw new Error(converted.issues[0]?.message);
  return buildDifyDsl(converted.value, "Probe_1");
}

const start = { id: "1", type: "start", param: { variables: [["q", "string"]] } };
const end = (id: string) => ({ id, type: "end", param: { outputs: [["o", ["text", "2"]]] } });

describe("requirements of a DSL", () => {
  it("reads the LLM model and its plugin from an llm node, and nothing for plain nodes", () => {
    const dsl = dslOf([start, { id: "2", type: "llm", param: { system: "", user: "{{#'1'.q#}}" } }, end("3")]);
    expect(requirementsOfDsl(dsl).map(describeRequirement)).toEqual(["plugin langgenius/tongyi", "llm model qwen3-vl-plus (langgenius/tongyi/tongyi)"]);
    expect(requirementsOfDsl(dslOf([start, { id: "2", type: "template-transform", param: { variables: [["q", ["q", "1"]]], template: "{{q}}" } }, end("3")]))).toEqual([]);
  });

  it("reads a tool node's provider, tool and plugin, and the TTS model the audio tool is configured with", () => {
    const dsl = dslOf([start, { id: "2", type: "llm", param: { system: "", user: "{{#'1'.q#}}" } }, { id: "3", type: "tts", param: { text: "{{#'2'.text#}}" } }, end("4")]);
    const described = requirementsOfDsl(dsl).map(describeRequirement);
    expect(described).toContain("plugin langgenius/openai");
    expect(described).toContain("tts model gpt-4o-mini-tts (langgenius/openai/openai)");
    expect(described).toContain("tool tts (audio)");
  });

  it("covers every marketplace plugin the DSL declares, each tool of every tool node type, and both tongyi models", () => {
    const all = benchmarkRequirements();
    const plugins = all.flatMap((requirement) => (requirement.kind === "plugin" ? [requirement.pluginId] : []));
    for (const dependency of DIFY_PLUGIN_DEPENDENCIES) expect(plugins).toContain(dependency.split(":")[0]);
    const tools = all.flatMap((requirement) => (requirement.kind === "tool" ? [requirement.tool] : []));
    expect(tools.sort()).toEqual(["bar_chart", "google_search", "line_chart", "md_to_docx", "md_to_html", "md_to_md", "md_to_pdf", "md_to_png", "md_to_pptx", "mermaid_converter", "pie_chart", "tts", "z_image_text_2_image"]);
    const models = all.flatMap((requirement) => (requirement.kind === "model" ? [`${requirement.modelType}:${requirement.model}`] : []));
    expect(models).toEqual(["llm:qwen3-max", "llm:qwen3-vl-plus", "tts:gpt-4o-mini-tts"]);
    const tongyi = all.find((requirement) => requirement.kind === "plugin" && requirement.pluginId === "langgenius/tongyi");
    expect(tongyi?.usedBy).toEqual(["llm", "parameter-extractor", "question-classifier"]);
  });
});

describe("readiness", () => {
  const full: WorkspaceInventory = {
    plugins: ["langgenius/tongyi", "langgenius/openai", "sawyer-shi/tongyi_aigc", "bowenliang123/md_exporter", "hjlarry/mermaid_converter", "langgenius/echarts", "langgenius/google"].map((pluginId) => ({ pluginId })),
    models: [
      { modelType: "llm", provider: "langgenius/tongyi/tongyi", model: "qwen3-max", status: "active" },
      { modelType: "llm", provider: "langgenius/tongyi/tongyi", model: "qwen3-vl-plus", status: "active" },
      { modelType: "tts", provider: "langgenius/openai/openai", model: "gpt-4o-mini-tts", status: "active" },
    ],
    toolProviders: [
      { id: "audio", authorized: true, tools: ["tts"] },
      { id: "sawyer-shi/tongyi_aigc/tongyi_aigc", authorized: true, tools: ["z_image_text_2_image"] },
      { id: "bowenliang123/md_exporter/md_exporter", authorized: true, tools: ["md_to_docx", "md_to_pptx", "md_to_pdf", "md_to_png", "md_to_html", "md_to_md"] },
      { id: "hjlarry/mermaid_converter/mermaid_converter", authorized: true, tools: ["mermaid_converter"] },
      { id: "langgenius/echarts/echarts", authorized: true, tools: ["line_chart", "bar_chart", "pie_chart"] },
      { id: "langgenius/google/google", authorized: true, tools: ["google_search"] },
    ],
  };

  it("is ready when the workspace has everything", () => {
    const items = readiness(benchmarkRequirements(), full);
    expect(items.length).toBeGreaterThan(10);
    expect(items.filter((item) => item.state !== "ready")).toEqual([]);
    expect(readinessProblem(items)).toBeNull();
  });

  it("names a missing plugin, an unconfigured model and an unauthorised tool", () => {
    const lacking: WorkspaceInventory = {
      plugins: full.plugins.filter((plugin) => plugin.pluginId !== "hjlarry/mermaid_converter"),
      models: full.models.map((model) => (model.model === "qwen3-max" ? { ...model, status: "no-configure" } : model)),
      toolProviders: full.toolProviders.filter((provider) => provider.id !== "hjlarry/mermaid_converter/mermaid_converter").map((provider) => (provider.id === "langgenius/google/google" ? { ...provider, authorized: false } : provider)),
    };
    const items = readiness(benchmarkRequirements(), lacking);
    const bad = items.filter((item) => item.state !== "ready").map((item) => [describeRequirement(item.requirement), item.state, item.detail]);
    expect(bad).toEqual([
      ["plugin hjlarry/mermaid_converter", "missing", "not installed"],
      ["llm model qwen3-max (langgenius/tongyi/tongyi)", "not-configured", "status no-configure"],
      ["tool mermaid_converter (hjlarry/mermaid_converter/mermaid_converter)", "missing", "tool provider not installed"],
      ["tool google_search (langgenius/google/google)", "not-configured", "not authorised in the workspace"],
    ]);
    expect(readinessProblem(items)).toMatch(/^The Dify workspace lacks what the workflows need: plugin hjlarry\/mermaid_converter — not installed; /);
  });
});
