// The `mermaid-converter` node type: A diagram image from Mermaid code.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { buildTool, FILES_OUT } from "./dify-common";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "mermaid-converter", param, ordinal);
}

export const mermaidConverterNode: NodeSpec = {
  type: "mermaid-converter",
  info: NODE_TYPES["mermaid-converter"],
  paramSchema: z.object({ mermaid_code: z.string() }),
  requiredParams: ["mermaid_code"],
  textParams: ["mermaid_code"],
  selectorParams: [],
  outputs: FILES_OUT,
  branching: false,
  toDify,
};
