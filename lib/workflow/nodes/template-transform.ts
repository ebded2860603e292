// The `template-transform` node type: A Jinja template over named inputs.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { plainTextField } from "./checks";
import { buildNamedInputs, inputData } from "./dify-common";
import { namedSelector } from "./schema";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const inputs = buildNamedInputs(ctx, param, "variables");
  const template = ctx.param(param, "template");
  const variables = inputData(ctx, inputs);
  return { facts: { type: "template-transform" }, data: { selected: false, template, title, type: "template-transform", variables } };
}

export const templateTransformNode: NodeSpec = {
  type: "template-transform",
  info: NODE_TYPES["template-transform"],
  paramSchema: z.object({ variables: z.array(namedSelector), template: z.string() }),
  requiredParams: ["variables", "template"],
  textParams: [],
  selectorParams: [{ key: "variables", shape: "named-selectors" }],
  outputs: [{ name: "output", realType: "string" }],
  branching: false,
  toDify,
  checkParams(ctx) {
    plainTextField(ctx, "template");
  },
};
