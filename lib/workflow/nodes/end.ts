// The `end` node type: The workflow's outputs: `outputs` [[name, [variable, nodeId]], …].
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { buildNamedInputs, inputData } from "./dify-common";
import { namedSelector } from "./schema";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const outputs = inputData(ctx, buildNamedInputs(ctx, param, "outputs"));
  return { facts: { type: "end" }, data: { outputs, selected: false, title, type: "end" } };
}

export const endNode: NodeSpec = {
  type: "end",
  info: NODE_TYPES["end"],
  paramSchema: z.object({ outputs: z.array(namedSelector) }),
  requiredParams: ["outputs"],
  textParams: [],
  selectorParams: [{ key: "outputs", shape: "named-selectors" }],
  outputs: [],
  branching: false,
  toDify,
};
