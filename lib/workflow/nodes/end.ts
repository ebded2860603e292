// The `end` node type: The workflow's outputs: `outputs` [[name, [variable, nodeId]], …].
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { cozeIcon, refInput } from "./coze-common";
import { exposesNothing } from "./variables";
import type { JsonValue } from "../python-values";
import { buildNamedInputs, inputData } from "./dify-common";
import { namedSelector } from "./schema";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const outputs = inputData(ctx, buildNamedInputs(ctx, param, "outputs"));
  if (ctx.checkOnly) return { facts: { type: "end" } };
  return { facts: { type: "end" }, data: { outputs, selected: false, title, type: "end" } };
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const entries = ctx.iterate(ctx.param(param, "outputs"), ["outputs"], "an array of [name, [variable, nodeId]]");
  const nodeInputs = entries.map((entry, i) => {
    const ref = ctx.item(entry, 1, ["outputs", i], "a [name, [variable, nodeId]] entry", "malformed-entry");
    return refInput(ctx.item(entry, 0, ["outputs", i], "a [name, [variable, nodeId]] entry", "malformed-entry"), ctx.selector(ref, ["outputs", i, 1]));
  });
  return { parameters: { node_inputs: nodeInputs, terminatePlan: "returnVariables" } };
}

export const endNode: NodeSpec = {
  type: "end",
  info: NODE_TYPES["end"],
  paramShape: shape.object({ outputs: shape.array(namedSelector) }),
  requiredParams: ["outputs"],
  textParams: [],
  selectorParams: [{ key: "outputs", shape: "named-selectors" }],
  variables: exposesNothing("end"),
  branching: false,
  ports: () => [],
  toDify,
  coze: {
    kind: "node",
    cozeType: "end",
    baseTitle: "End",
    icon: cozeIcon("icon-End-v2.jpg"),
    description: "The final node, yielding the resulting data after the workflow execution.",
    fixedId: "900001",
    build: toCoze,
  },
};
