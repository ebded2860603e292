// The `mermaid-converter` node type: A diagram image from Mermaid code.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { apiParam, PLUGIN_ICON, singleReferenceValue } from "./coze-common";
import type { JsonValue } from "../python-values";
import { mixed } from "./dify-common";
import { buildTool, FILES_OUT, toolVariables, type ToolSpec } from "./tool";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

const TOOL: ToolSpec = {
  name: () => "mermaid_converter",
  provider: "hjlarry/mermaid_converter/mermaid_converter",
  label: () => "Mermaid Converter",
  configurations: () => ({
    output_format: { type: "constant", value: "png" },
    theme: { type: "constant", value: "default" },
  }),
  parameters: (ctx, param) => ({
    parameters: { mermaid_code: mixed(ctx.emittedText(ctx.param(param, "mermaid_code"), ["mermaid_code"])) },
    name: "mermaid_converter",
  }),
};

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "mermaid-converter", TOOL, param, ordinal);
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const code = singleReferenceValue(ctx, ctx.param(param, "mermaid_code"), ["mermaid_code"]);
  return {
    parameters: {
      apiParam: apiParam("7479445382888620066", "Mermaid", "7479445382888603682", "Mermaid图表生成器"),
      node_inputs: [{ name: "mermaidCode", input: { value: code } }],
      node_outputs: { editUrl: { type: "string", value: null } },
    },
  };
}

export const mermaidConverterNode: NodeSpec = {
  type: "mermaid-converter",
  info: NODE_TYPES["mermaid-converter"],
  paramShape: shape.object({ mermaid_code: shape.string }),
  requiredParams: ["mermaid_code"],
  textParams: ["mermaid_code"],
  selectorParams: [],
  variables: toolVariables(
    "mermaid-converter",
    TOOL,
    FILES_OUT,
    "The official inference gives null: it checks the tool name `mermaid-converter`, the real one is `mermaid_converter`.",
  ),
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "plugin",
    baseTitle: "Mermaid Converter",
    icon: PLUGIN_ICON,
    description: "Convert a piece of Mermaid code into a chart image and provide a corresponding online editing link.",
    build: toCoze,
  },
};
