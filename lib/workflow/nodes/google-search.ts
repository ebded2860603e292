// The `google-search` node type: Web search results for a query.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { buildTool } from "./dify-common";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "google-search", param, ordinal);
}

export const googleSearchNode: NodeSpec = {
  type: "google-search",
  info: NODE_TYPES["google-search"],
  paramSchema: z.object({ query: z.string() }),
  requiredParams: ["query"],
  textParams: ["query"],
  selectorParams: [],
  outputs: [{ name: "json", realType: "array[object]" }],
  branching: false,
  toDify,
};
