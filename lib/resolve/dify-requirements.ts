// What a Dify workspace must offer for the DSL our converter writes to run: the model-provider plugins and models of
// the llm, question-classifier and parameter-extractor nodes, the tool providers (and their plugins) of the tool
// nodes, and the TTS model the built-in "audio" tool is configured with. Read from the DSL itself, so it follows the
// converter; the benchmark-wide list converts one workflow holding every node type that needs something.
// readiness() compares requirements with what a workspace lists. Pure.

import { convertWorkflow } from "@/lib/workflow/convert";
import { buildDifyDsl, type DifyDsl } from "@/lib/workflow/dify-dsl";
import type { JsonValue } from "@/lib/workflow/python-values";

export type DifyRequirement =
  | { kind: "plugin"; pluginId: string; usedBy: string[] }
  | { kind: "model"; modelType: "llm" | "tts"; provider: string; model: string; usedBy: string[] }
  | { kind: "tool"; provider: string; tool: string; usedBy: string[] };

/** What a workspace lists (see DifyInventory in lib/server/dify/client). */
export interface WorkspaceInventory {
  plugins: readonly { pluginId: string }[];
  models: readonly { modelType: string; provider: string; model: string; status: string }[];
  toolProviders: readonly { id: string; authorized: boolean; tools: readonly string[] }[];
}

export interface ReadinessItem {
  requirement: DifyRequirement;
  state: "ready" | "missing" | "not-configured";
  /** What is wrong, in words; empty when ready. */
  detail: string;
}

/** The plugin of a "<author>/<plugin>/<provider>" id; null for Dify's own providers ("audio"). */
export function pluginOfProvider(provider: string): string | null {
  const parts = provider.split("/");
  return parts.length === 3 ? `${parts[0]}/${parts[1]}` : null;
}

const asRecord = (value: unknown): Record<string, unknown> | null => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
const asString = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** The model a tool is configured with, as "<provider>#<model>" (the audio tool's TTS model). */
function configuredModel(data: Record<string, unknown>): { provider: string; model: string } | null {
  const value = asString(asRecord(asRecord(data.tool_configurations)?.model)?.value);
  if (!value?.includes("#")) return null;
  const [provider = "", model = ""] = value.split("#");
  return provider.split("/").length === 3 && model ? { provider, model } : null;
}

function requirementKey(requirement: DifyRequirement): string {
  switch (requirement.kind) {
    case "plugin":
      return `plugin\0${requirement.pluginId}`;
    case "model":
      return `model\0${requirement.modelType}\0${requirement.provider}\0${requirement.model}`;
    case "tool":
      return `tool\0${requirement.provider}\0${requirement.tool}`;
  }
}

const KIND_ORDER = { plugin: 0, model: 1, tool: 2 } as const;

/** Merges requirements (their users joined), ordered plugins, models, tools, then by name. */
export function mergeRequirements(lists: readonly (readonly DifyRequirement[])[]): DifyRequirement[] {
  const merged = new Map<string, DifyRequirement>();
  for (const list of lists) {
    for (const requirement of list) {
      const key = requirementKey(requirement);
      const known = merged.get(key);
      if (known) known.usedBy = [...new Set([...known.usedBy, ...requirement.usedBy])].sort();
      else merged.set(key, { ...requirement, usedBy: [...requirement.usedBy].sort() });
    }
  }
  return [...merged.entries()].sort(([a, left], [b, right]) => KIND_ORDER[left.kind] - KIND_ORDER[right.kind] || (a < b ? -1 : a > b ? 1 : 0)).map(([, requirement]) => requirement);
}

/** What one app's DSL needs from the workspace. */
export function requirementsOfDsl(dsl: Pick<DifyDsl, "workflow">): DifyRequirement[] {
  const found: DifyRequirement[] = [];
  const needPlugin = (provider: string, usedBy: string) => {
    const pluginId = pluginOfProvider(provider);
    if (pluginId) found.push({ kind: "plugin", pluginId, usedBy: [usedBy] });
  };
  for (const node of dsl.workflow.graph.nodes) {
    const data = asRecord(node.data) ?? {};
    const type = asString(data.type) ?? "";
    const model = asRecord(data.model);
    const modelProvider = asString(model?.provider);
    const modelName = asString(model?.name);
    if (modelProvider && modelName) {
      found.push({ kind: "model", modelType: "llm", provider: modelProvider, model: modelName, usedBy: [type] });
      needPlugin(modelProvider, type);
    }
    if (type !== "tool") continue;
    const provider = asString(data.provider_id);
    const tool = asString(data.tool_name);
    if (!provider || !tool) continue;
    const usedBy = `tool ${tool}`;
    found.push({ kind: "tool", provider, tool, usedBy: [usedBy] });
    needPlugin(provider, usedBy);
    const configured = configuredModel(data);
    if (configured) {
      found.push({ kind: "model", modelType: "tts", provider: configured.provider, model: configured.model, usedBy: [usedBy] });
      needPlugin(configured.provider, usedBy);
    }
  }
  return mergeRequirements([found]);
}

const MARKDOWN_TARGETS = ["docx", "pptx", "pdf", "png", "html", "md"];
const CHART_TYPES = ["line", "bar", "pie"];

/** One workflow holding every node type that needs a model or a tool (each export target and chart type), as models write them. */
function everyNeedingNode(): JsonValue {
  const nodes: JsonValue[] = [
    { id: "1", type: "start", param: { variables: [["q", "string"]] } },
    { id: "2", type: "llm", param: { system: "", user: "{{#'1'.q#}}" } },
    { type: "question-classifier", param: { query_variable_selector: ["q", "1"], classes: ["a", "b"] } },
    { type: "parameter-extractor", param: { query: ["q", "1"], parameters: [["d", "x", "string"]], instruction: "" } },
    { type: "google-search", param: { query: "{{#'1'.q#}}" } },
    ...CHART_TYPES.map((chart) => ({ type: "echarts", param: { chart_type: chart, chart_title: "t", data: "1;2", x_axisORcategories: "a;b" } })),
    ...MARKDOWN_TARGETS.map((target) => ({ type: "markdown-exporter", param: { target_type: target, md_text: "{{#'2'.text#}}" } })),
    { type: "mermaid-converter", param: { mermaid_code: "graph TD; A-->B" } },
    { type: "tts", param: { text: "{{#'2'.text#}}" } },
    { type: "text2image", param: { prompt: "{{#'2'.text#}}" } },
    { type: "end", param: { outputs: [["o", ["text", "2"]]] } },
  ].map((node, index) => ({ ...(node as Record<string, JsonValue>), id: String(index + 1) }));
  const edges = nodes.slice(1).map((_, index) => [String(index + 1), 0, String(index + 2)]);
  return { nodes_info: nodes, edges };
}

let benchmarkWide: DifyRequirement[] | null = null;

/**
 * Everything the benchmark's node types need: the requirements of the DSL the converter writes for a workflow using
 * each of them.
 */
export function benchmarkRequirements(): DifyRequirement[] {
  if (!benchmarkWide) {
    const converted = convertWorkflow(everyNeedingNode());
    if (!converted.ok) throw new Error(`the converter refused the requirement probe: ${converted.issues[0]?.message ?? "no reason"}`);
    benchmarkWide = requirementsOfDsl(buildDifyDsl(converted.value, "requirements"));
  }
  return benchmarkWide.map((requirement) => ({ ...requirement, usedBy: [...requirement.usedBy] }));
}

/** Names a requirement in words, e.g. `model qwen3-max (langgenius/tongyi/tongyi, llm)`. */
export function describeRequirement(requirement: DifyRequirement): string {
  switch (requirement.kind) {
    case "plugin":
      return `plugin ${requirement.pluginId}`;
    case "model":
      return `${requirement.modelType} model ${requirement.model} (${requirement.provider})`;
    case "tool":
      return `tool ${requirement.tool} (${requirement.provider})`;
  }
}

/** Each requirement against the workspace: ready, missing, or present but not usable (not configured, not authorised). */
export function readiness(requirements: readonly DifyRequirement[], inventory: WorkspaceInventory): ReadinessItem[] {
  const plugins = new Set(inventory.plugins.map((plugin) => plugin.pluginId));
  return requirements.map((requirement): ReadinessItem => {
    switch (requirement.kind) {
      case "plugin":
        return plugins.has(requirement.pluginId) ? { requirement, state: "ready", detail: "" } : { requirement, state: "missing", detail: "not installed" };
      case "model": {
        const listed = inventory.models.find((model) => model.modelType === requirement.modelType && model.provider === requirement.provider && model.model === requirement.model);
        if (!listed) return { requirement, state: "missing", detail: "not offered by any configured provider" };
        return listed.status === "active" ? { requirement, state: "ready", detail: "" } : { requirement, state: "not-configured", detail: `status ${listed.status}` };
      }
      case "tool": {
        const provider = inventory.toolProviders.find((candidate) => candidate.id === requirement.provider);
        if (!provider) return { requirement, state: "missing", detail: "tool provider not installed" };
        if (provider.tools.length > 0 && !provider.tools.includes(requirement.tool)) return { requirement, state: "missing", detail: `the provider has no tool ${requirement.tool}` };
        return provider.authorized ? { requirement, state: "ready", detail: "" } : { requirement, state: "not-configured", detail: "not authorised in the workspace" };
      }
    }
  });
}

/** One sentence listing what is not ready, or null when everything is. */
export function readinessProblem(items: readonly ReadinessItem[]): string | null {
  const lacking = items.filter((item) => item.state !== "ready");
  if (lacking.length === 0) return null;
  return `The Dify workspace lacks what the workflows need: ${lacking.map((item) => `${describeRequirement(item.requirement)} — ${item.detail}`).join("; ")}.`;
}
