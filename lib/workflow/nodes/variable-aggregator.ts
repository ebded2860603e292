// The `variable-aggregator` node type: The first non-empty of several branch results: `variables` [[variable, nodeId], …].
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { cozeIcon } from "./coze-common";
import { NODE_TYPES } from "../node-types";
import { ownValue, pyItem, type JsonValue } from "../python-values";
import { fail } from "./failure";
import { checkValueName } from "./dify-common";
import { selector } from "./schema";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, FactsOf, NodeSpec, NodeVariables, ParamPath } from "./types";
import { found } from "./variables";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const items = ctx.iterate(ctx.param(param, "variables"), ["variables"], "an array of [variable, nodeId]");
  const inputs = items.map((entry, i) => ({ resolved: ctx.resolveSelector(entry, ["variables", i]), path: ["variables", i] as ParamPath }));
  const first = inputs[0];
  if (!first) {
    fail({
      code: "empty-aggregator",
      message: `${ctx.nodeRef()}: the variable aggregator has no variables; it needs at least one [variable, nodeId].`,
      location: ctx.at(["variables"]),
    });
  }
  if (ctx.checkOnly) {
    for (const { resolved, path } of inputs) checkValueName(ctx, resolved, path);
    return { facts: { type: "variable-aggregator", outputType: first.resolved.type } };
  }
  const variables = inputs.map(({ resolved, path }) => ctx.valueSelector(resolved.node.difyId, resolved.variable, [...path, 0]));
  return {
    facts: { type: "variable-aggregator", outputType: first.resolved.type },
    data: { output_type: first.resolved.type, selected: false, title, type: "variable-aggregator", variables },
  };
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const entries = ctx.iterate(ctx.param(param, "variables"), ["variables"], "an array of [variable, nodeId]");
  const variables = entries.map((entry, i) => {
    const ref = ctx.selector(entry, ["variables", i]);
    return { value: { content: { blockID: ref.ref_node, name: ref.path, source: "block-output" }, type: "ref" } };
  });
  return { parameters: { mergeGroups: [{ name: "output", variables }], node_outputs: { output: { value: null } } } };
}

const variables: NodeVariables<FactsOf<"variable-aggregator">> = {
  facts: (param, ctx) => ({ type: "variable-aggregator", outputType: ctx.inputType(pyItem(ownValue(param, "variables") ?? null, 0)) ?? null }),
  officialType: (facts) => found(facts.outputType),
  realType: (facts, variable) => (variable === "output" ? (typeof facts.outputType === "string" ? facts.outputType : null) : undefined),
  names: () => ["output"],
};

export const variableAggregatorNode: NodeSpec = {
  type: "variable-aggregator",
  info: NODE_TYPES["variable-aggregator"],
  paramShape: shape.object({
    variables: shape.array(selector, { count: 1, tooShort: "An aggregator needs at least one variable" }),
  }),
  requiredParams: ["variables"],
  textParams: [],
  selectorParams: [{ key: "variables", shape: "selectors" }],
  variables,
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "variable_merge",
    baseTitle: "Variable Aggregator",
    icon: cozeIcon("VariableMerge-icon.jpg"),
    description: "Aggregator: Consolidates and processes outputs from multiple parallel branches.",
    build: toCoze,
  },
};
