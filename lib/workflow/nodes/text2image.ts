// The `text2image` node type: An image from a prompt.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { cozeIcon, recordInputs } from "./coze-common";
import type { JsonValue } from "../python-values";
import { mixed } from "./dify-common";
import { buildTool, FILES_OUT, toolVariables, type ToolSpec } from "./tool";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

const TOOL: ToolSpec = {
  name: () => "z_image_text_2_image",
  provider: "sawyer-shi/tongyi_aigc/tongyi_aigc",
  label: () => "Z-Image Text to Image",
  configurations: () => ({
    model: { type: "constant", value: "z-image-turbo" },
    prompt_extend: { type: "constant", value: false },
    seed: { type: "constant", value: null },
    size: { type: "constant", value: "1024*1024" },
  }),
  parameters: (ctx, param) => ({ parameters: { prompt: mixed(ctx.emittedText(ctx.param(param, "prompt"), ["prompt"])) }, name: "z_image_text_2_image" }),
};

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "text2image", TOOL, param, ordinal);
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const prompt = ctx.rewrite(ctx.param(param, "prompt"), ["prompt"]);
  return {
    parameters: {
      modelSetting: {
        custom_ratio: { height: 1024, ratio_type: "fixed", width: 1024 },
        ddim_steps: 25,
        guidance_scale: 2.5,
        max_images: 1,
        model: 8,
        ratio: 0,
        watermark: false,
      },
      node_inputs: recordInputs(prompt.records, false),
      node_outputs: { data: { type: "image", value: null } },
      prompt: { negative_prompt: "", prompt: prompt.text },
    },
  };
}

export const text2imageNode: NodeSpec = {
  type: "text2image",
  info: NODE_TYPES["text2image"],
  paramShape: shape.object({ prompt: shape.string }),
  requiredParams: ["prompt"],
  textParams: ["prompt"],
  selectorParams: [],
  variables: toolVariables("text2image", TOOL, FILES_OUT),
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "image_generate",
    baseTitle: "Image Generator",
    icon: cozeIcon("icon-ImageGeneration-v2.jpg"),
    description: "Generate images through textual descriptions",
    build: toCoze,
  },
};
