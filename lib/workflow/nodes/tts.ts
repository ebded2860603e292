// The `tts` node type: Text to speech.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { buildTool, FILES_OUT } from "./dify-common";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "tts", param, ordinal);
}

export const ttsNode: NodeSpec = {
  type: "tts",
  info: NODE_TYPES["tts"],
  paramSchema: z.object({ text: z.string() }),
  requiredParams: ["text"],
  textParams: ["text"],
  selectorParams: [],
  outputs: FILES_OUT,
  branching: false,
  toDify,
};
