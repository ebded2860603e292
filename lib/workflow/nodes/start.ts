// The `start` node type: The workflow's inputs: `variables` [[name, type], …] become the Dify start form.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { cozeIcon, renderCozeType } from "./coze-common";
import { fail } from "./failure";
import type { DeclaredVariable } from "../catalog";
import type { DifyData } from "../dify-graph";
import { NODE_TYPES } from "../node-types";
import { preview, pyHashKey, pyItem, pyStr, type JsonValue } from "../python-values";
import { startVariableData } from "./dify-common";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";
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

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const outputs: Record<string, unknown> = {};
  ctx.iterate(ctx.param(param, "variables"), ["variables"], "an array of [name, type]").forEach((entry, i) => {
    const name = ctx.item(entry, 0, ["variables", i], "a [name, type] pair", "malformed-start-variable");
    const type = ctx.item(entry, 1, ["variables", i], "a [name, type] pair", "malformed-start-variable");
    if (pyHashKey(name) === undefined) {
      fail({ code: "malformed-start-variable", message: `${ctx.nodeRef()}: the variable name ${preview(name)} is not a string.`, location: ctx.at(["variables", i, 0]) });
    }
    outputs[pyStr(name)] = renderCozeType(ctx, type, ["variables", i, 1]);
  });
  return { parameters: { node_outputs: outputs } };
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
  coze: {
    kind: "node",
    cozeType: "start",
    baseTitle: "Start",
    icon: cozeIcon("icon-Start-v2.jpg"),
    description: "The initial node, setting the required parameters to start the workflow.",
    fixedId: "100001",
    build: toCoze,
  },
  checkParams(ctx) {
    ctx.pairs("variables", 2, 1, START_VARIABLE_TYPES, "malformed-start-variable", "[name, type]");
  },
};
