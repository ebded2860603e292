// Pieces of the emitted Dify DSL several node types share: model blocks, start form fields, named inputs, tools.
// Constants are the official converter's; builders call these in the same order it does.

import type { ParamPath, ToolNodeType } from "../catalog";
import type { DifyData } from "../dify-graph";
import { NODE_TYPES } from "../node-types";
import { describeKind, preview, pyItem, type JsonValue } from "../python-values";
import { fail } from "./failure";
import type { DifyBuildContext, DifyPart, DocumentedOutput, ResolvedSelector } from "./types";

export const LLM_MODEL = { provider: "langgenius/tongyi/tongyi", name: "qwen3-vl-plus", mode: "chat" } as const;
export const CLASSIFIER_MODEL = { provider: "langgenius/tongyi/tongyi", name: "qwen3-max", mode: "chat" } as const;
const FILE_TYPES = ["image", "document", "audio", "video"];
const UPLOAD_METHODS = ["local_file", "remote_url"];

/** What tool nodes expose. */
export const FILES_OUT: readonly DocumentedOutput[] = [{ name: "files", realType: "array[file]" }];

export function modelBlock(model: { provider: string; name: string; mode: string }): DifyData {
  return {
    completion_params: { temperature: 0.7, max_tokens: 32768 },
    mode: model.mode,
    name: model.name,
    provider: model.provider,
  };
}

export function mixed(value: string): { type: "mixed"; value: string } {
  return { type: "mixed", value };
}

export function startVariableData(name: JsonValue, type: JsonValue): DifyData {
  if (type === "file" || type === "array[file]") {
    const list = type === "array[file]";
    return {
      allowed_file_extensions: [],
      allowed_file_types: [...FILE_TYPES],
      allowed_file_upload_methods: [...UPLOAD_METHODS],
      default: "",
      hint: "",
      label: name,
      max_length: list ? 10 : 32768,
      options: [],
      placeholder: "",
      required: false,
      type: list ? "file-list" : "file",
      variable: name,
    };
  }
  const mapped = type === "string" ? "paragraph" : type === "boolean" ? "checkbox" : type;
  return { default: "", hint: "", label: name, max_length: 32768, options: [], placeholder: "", required: false, type: mapped, variable: name };
}

/** One `[name, [variable, nodeId]]` entry of code, template and end, resolved. */
export interface NamedInput {
  name: JsonValue;
  resolved: ResolvedSelector;
  path: ParamPath;
}

/** `[[name, [var, id]], …]` entries of code, template and end: resolve all, then split dotted names. */
export function buildNamedInputs(ctx: DifyBuildContext, param: JsonValue, key: string): NamedInput[] {
  const list = ctx.param(param, key);
  const items = ctx.iterate(list, [key], "an array of [name, [variable, nodeId]]");
  return items.map((entry, i) => {
    const ref = ctx.item(entry, 1, [key, i], "a [name, [variable, nodeId]] entry", "malformed-entry");
    const path: ParamPath = [key, i, 1];
    const hint = typeof ref === "string" ? "entries are [name, [variable, nodeId]], not flattened [name, variable, nodeId]" : undefined;
    const resolved = ctx.resolveSelector(ref, path, hint);
    return { name: pyItem(entry, 0) as JsonValue, resolved, path };
  });
}

export function inputData(ctx: DifyBuildContext, inputs: readonly NamedInput[]): DifyData[] {
  return inputs.map(({ name, resolved, path }) => ({
    value_selector: ctx.valueSelector(resolved.node.difyId, resolved.variable, [...path, 0]),
    value_type: resolved.type,
    variable: name,
  }));
}

interface ToolSpec {
  provider: string;
  label: (param: { toolName: string; target: string }) => string;
  configurations: () => DifyData;
}

const TOOL_SPECS: Record<ToolNodeType, ToolSpec> = {
  text2image: {
    provider: "sawyer-shi/tongyi_aigc/tongyi_aigc",
    label: () => "Z-Image Text to Image",
    configurations: () => ({
      model: { type: "constant", value: "z-image-turbo" },
      prompt_extend: { type: "constant", value: false },
      seed: { type: "constant", value: null },
      size: { type: "constant", value: "1024*1024" },
    }),
  },
  tts: {
    provider: "audio",
    label: () => "Text To Speech",
    configurations: () => ({
      model: { type: "constant", value: "langgenius/openai/openai#gpt-4o-mini-tts" },
      size: { type: "mixed", value: null },
    }),
  },
  "markdown-exporter": {
    provider: "bowenliang123/md_exporter/md_exporter",
    label: ({ target }) => (target === "png" ? `Markdown to ${target} image` : `Markdown to ${target} file`),
    configurations: () => ({}),
  },
  "mermaid-converter": {
    provider: "hjlarry/mermaid_converter/mermaid_converter",
    label: () => "Mermaid Converter",
    configurations: () => ({
      output_format: { type: "constant", value: "png" },
      theme: { type: "constant", value: "default" },
    }),
  },
  "google-search": {
    provider: "langgenius/google/google",
    label: () => "Google Search",
    configurations: () => ({ as_agent_tool: { type: "constant", value: false } }),
  },
  echarts: {
    provider: "langgenius/echarts/echarts",
    label: ({ toolName }) => ({ line_chart: "Line Chart", pie_chart: "Pie Chart", bar_chart: "Bar Chart" })[toolName] ?? "",
    configurations: () => ({}),
  },
};

/** The six tool types share one Dify shape: a builtin tool with mixed-text parameters. */
export function buildTool(ctx: DifyBuildContext, type: ToolNodeType, param: JsonValue, ordinal: number): DifyPart {
  const parameters: Record<string, { type: "mixed"; value: string }> = {};
  let name: string;
  let target = "";
  switch (type) {
    case "text2image":
      parameters.prompt = mixed(ctx.rewriteText(ctx.param(param, "prompt"), ["prompt"]));
      name = "z_image_text_2_image";
      break;
    case "tts":
      parameters.text = mixed(ctx.rewriteText(ctx.param(param, "text"), ["text"]));
      name = "tts";
      break;
    case "markdown-exporter": {
      parameters.md_text = mixed(ctx.rewriteText(ctx.param(param, "md_text"), ["md_text"]));
      const targetType = ctx.param(param, "target_type");
      if (typeof targetType !== "string") {
        fail({
          code: "target-type-not-string",
          message: `${ctx.nodeRef()}: target_type is ${describeKind(targetType)} ${preview(targetType)}; expected one of docx, pptx, pdf, png, html, md.`,
          location: ctx.at(["target_type"]),
        });
      }
      target = targetType;
      name = `md_to_${targetType}`;
      break;
    }
    case "mermaid-converter":
      parameters.mermaid_code = mixed(ctx.rewriteText(ctx.param(param, "mermaid_code"), ["mermaid_code"]));
      name = "mermaid_converter";
      break;
    case "google-search":
      parameters.query = mixed(ctx.rewriteText(ctx.param(param, "query"), ["query"]));
      name = "google_search";
      break;
    case "echarts": {
      const chart = ctx.rewriteText(ctx.param(param, "chart_type"), ["chart_type"]);
      const chartTitle = ctx.rewriteText(ctx.param(param, "chart_title"), ["chart_title"]);
      const values = ctx.rewriteText(ctx.param(param, "data"), ["data"]);
      const axis = ctx.rewriteText(ctx.param(param, "x_axisORcategories"), ["x_axisORcategories"]);
      parameters.data = mixed(values);
      parameters.title = mixed(chartTitle);
      parameters[chart === "pie" ? "categories" : "x_axis"] = mixed(axis);
      name = `${chart}_chart`;
      break;
    }
  }
  const spec = TOOL_SPECS[type];
  const named = type === "markdown-exporter" || type === "echarts";
  const baseTitle = named ? name : NODE_TYPES[type].displayName;
  return {
    facts: { type: "tool", nodeType: type, toolName: name },
    data: {
      provider_id: spec.provider,
      provider_name: spec.provider,
      provider_type: "builtin",
      selected: false,
      title: ordinal > 1 ? `${baseTitle} ${ordinal}` : baseTitle,
      tool_configurations: spec.configurations(),
      tool_label: spec.label({ toolName: name, target }),
      tool_name: name,
      tool_node_version: "2",
      tool_parameters: parameters,
      type: "tool",
    },
  };
}