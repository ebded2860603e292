// The `text2image` node type: An image from a prompt.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { buildTool, FILES_OUT } from "./dify-common";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "text2image", param, ordinal);
}

export const text2imageNode: NodeSpec = {
  type: "text2image",
  info: NODE_TYPES["text2image"],
  paramSchema: z.object({ prompt: z.string() }),
  requiredParams: ["prompt"],
  textParams: ["prompt"],
  selectorParams: [],
  outputs: FILES_OUT,
  branching: false,
  toDify,
};
