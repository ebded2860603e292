// The `start` node type: The workflow's inputs: `variables` [[name, type], …] become the Dify start form.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import type { DeclaredVariable } from "../catalog";
import type { DifyData } from "../dify-graph";
import { NODE_TYPES } from "../node-types";
import { pyItem, type JsonValue } from "../python-values";
import { startVariableData } from "./dify-common";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";
import { START_VARIABLE_TYPES } from "./vocabulary";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const variables = ctx.param(param, "variables");
  const items = ctx.iterate(variables, ["variables"], "an array of [name, type]");
  const declared: DeclaredVariable[] = [];
  const data: DifyData[] = [];
  items.forEach((entry, i) => {
    const type = ctx.item(entry, 1, ["variables", i], "a [name, type] pair", "malformed-start-variable");
    const name = pyItem(entry, 0) as JsonValue;
    declared.push({ name, type });
    data.push(startVariableData(name, type));
  });
  return { facts: { type: "start", variables: declared }, data: { selected: false, title, type: "start", variables: data } };
}

export const startNode: NodeSpec = {
  type: "start",
  info: NODE_TYPES["start"],
  paramSchema: z.object({ variables: z.array(z.tuple([z.string(), z.string()])) }),
  requiredParams: ["variables"],
  textParams: [],
  selectorParams: [],
  outputs: [],
  branching: false,
  toDify,
  checkParams(ctx) {
    ctx.pairs("variables", 2, 1, START_VARIABLE_TYPES, "malformed-start-variable", "[name, type]");
  },
};
