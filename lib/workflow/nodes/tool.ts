// What the six tool node types share: one Dify shape (a builtin tool with mixed-text parameters), one official type
// rule over tool names and one set of real outputs. Each tool module states its own name, provider and parameters.

import type { DifyData } from "../dify-graph";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { mixed } from "./dify-common";
import { found, lookupReal } from "./variables";
import type { DifyBuildContext, DifyPart, FactsOf, NodeVariables, ToolNodeType } from "./types";

export interface ToolSpec {
  /** The Dify `tool_name` the official converter gives the node; null when its param cannot build one. */
  name(param: JsonValue): string | null;
  provider: string;
  label(toolName: string, target: string): string;
  configurations(): DifyData;
  /** Reads the params in the official converter's order: the tool parameters, the tool name and the label's target. */
  parameters(ctx: DifyBuildContext, param: JsonValue): { parameters: Record<string, ReturnType<typeof mixed>>; name: string; target?: string };
  /** markdown-exporter and echarts are titled by their tool name, the others by the type's display name. */
  titledByName?: boolean;
}

/** The documented output of most tools. */
export const FILES_OUT: readonly string[] = ["files"];

/** What every tool node really exposes. */
const REAL_TOOL_OUTPUTS: Readonly<Record<string, string>> = { files: "array[file]", text: "string", json: "array[object]" };

/**
 * The official inference checks tool names, several of them misspelt: text2image, tts and any name containing "md"
 * (every markdown exporter, and an echarts chart type containing "md") give array[file]; the rest give null.
 */
function officialToolType(name: string): string | null {
  return name === "z_image_text_2_image" || name === "tts" || name.includes("md") ? "array[file]" : null;
}

export function toolVariables(nodeType: ToolNodeType, tool: ToolSpec, outputs: readonly string[], quirk?: string): NodeVariables<FactsOf<"tool">> {
  return {
    facts: (param) => ({ type: "tool", nodeType, toolName: tool.name(param) ?? "" }),
    officialType: (facts) => found(officialToolType(facts.toolName)),
    realType: (_facts, variable) => lookupReal(REAL_TOOL_OUTPUTS, variable),
    names: () => [...outputs],
    ...(quirk === undefined ? {} : { quirk: () => quirk }),
  };
}

export function buildTool(ctx: DifyBuildContext, type: ToolNodeType, tool: ToolSpec, param: JsonValue, ordinal: number): DifyPart {
  const { parameters, name, target = "" } = tool.parameters(ctx, param);
  if (ctx.checkOnly) return { facts: { type: "tool", nodeType: type, toolName: name } };
  const baseTitle = tool.titledByName ? name : NODE_TYPES[type].displayName;
  return {
    facts: { type: "tool", nodeType: type, toolName: name },
    data: {
      provider_id: tool.provider,
      provider_name: tool.provider,
      provider_type: "builtin",
      selected: false,
      title: ordinal > 1 ? `${baseTitle} ${ordinal}` : baseTitle,
      tool_configurations: tool.configurations(),
      tool_label: tool.label(name, target),
      tool_name: name,
      tool_node_version: "2",
      tool_parameters: parameters,
      type: "tool",
    },
  };
}
