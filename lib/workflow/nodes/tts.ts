// The `tts` node type: Text to speech.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { apiParam, PLUGIN_ICON, singleReferenceValue } from "./coze-common";
import type { JsonValue } from "../python-values";
import { mixed } from "./dify-common";
import { buildTool, FILES_OUT, toolVariables, type ToolSpec } from "./tool";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

const TOOL: ToolSpec = {
  name: () => "tts",
  provider: "audio",
  label: () => "Text To Speech",
  configurations: () => ({
    model: { type: "constant", value: "langgenius/openai/openai#gpt-4o-mini-tts" },
    size: { type: "mixed", value: null },
  }),
  parameters: (ctx, param) => ({ parameters: { text: mixed(ctx.emittedText(ctx.param(param, "text"), ["text"])) }, name: "tts" }),
};

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "tts", TOOL, param, ordinal);
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const text = singleReferenceValue(ctx, ctx.param(param, "text"), ["text"]);
  return {
    parameters: {
      apiParam: apiParam("7426655854067367946", "speech_synthesis", "7426655854067351562", "语音合成"),
      node_inputs: [{ name: "text", input: { value: text } }],
      node_outputs: {
        data: { type: "object", properties: { duration: { type: "float", value: null }, link: { type: "string", value: null } }, value: null },
      },
    },
  };
}

export const ttsNode: NodeSpec = {
  type: "tts",
  info: NODE_TYPES["tts"],
  paramShape: shape.object({ text: shape.string }),
  requiredParams: ["text"],
  textParams: ["text"],
  selectorParams: [],
  variables: toolVariables("tts", TOOL, FILES_OUT),
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "plugin",
    baseTitle: "Text to Speech",
    icon: PLUGIN_ICON,
    description: "Text-to-speech audio synthesis",
    build: toCoze,
  },
};
