// The `google-search` node type: Web search results for a query.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { apiParam, PLUGIN_ICON, singleReferenceValue } from "./coze-common";
import type { JsonValue } from "../python-values";
import { mixed } from "./dify-common";
import { buildTool, toolVariables, type ToolSpec } from "./tool";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

const TOOL: ToolSpec = {
  name: () => "google_search",
  provider: "langgenius/google/google",
  label: () => "Google Search",
  configurations: () => ({ as_agent_tool: { type: "constant", value: false } }),
  parameters: (ctx, param) => ({ parameters: { query: mixed(ctx.emittedText(ctx.param(param, "query"), ["query"])) }, name: "google_search" }),
};

const OUTPUTS: readonly string[] = ["json"];

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "google-search", TOOL, param, ordinal);
}

const RESULT_FIELDS = ["image_url", "logo_url", "sitename", "summary", "title", "url"] as const;

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const query = singleReferenceValue(ctx, ctx.param(param, "query"), ["query"]);
  const properties: Record<string, unknown> = { has_image: { type: "boolean", value: null } };
  for (const field of RESULT_FIELDS) properties[field] = { type: "string", value: null };
  return {
    parameters: {
      apiParam: apiParam("7387323807385829402", "search_url", "7380279400157265954", "联网问答（免费版）"),
      node_inputs: [{ name: "query", input: { value: query } }],
      node_outputs: { data: { type: "list", items: { type: "object", properties, value: null }, value: null } },
    },
  };
}

export const googleSearchNode: NodeSpec = {
  type: "google-search",
  info: NODE_TYPES["google-search"],
  paramShape: shape.object({ query: shape.string }),
  requiredParams: ["query"],
  textParams: ["query"],
  selectorParams: [],
  variables: toolVariables(
    "google-search",
    TOOL,
    OUTPUTS,
    "The official inference gives null: it checks the tool name `google-search`, the real one is `google_search`.",
  ),
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "plugin",
    baseTitle: "Web Search",
    icon: PLUGIN_ICON,
    description: "Enable multi-source web searching to aggregate information from various websites and platforms.",
    build: toCoze,
  },
};
