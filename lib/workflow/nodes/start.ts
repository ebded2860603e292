// The `start` node type: The workflow's inputs: `variables` [[name, type], …] become the Dify start form.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { cozeIcon, renderCozeType } from "./coze-common";
import { fail } from "./failure";
import type { DifyData } from "../dify-graph";
import { NODE_TYPES } from "../node-types";
import { preview, pyHashKey, pyItem, pyStr, type JsonValue } from "../python-values";
import { startVariableData } from "./dify-common";
import type { CozeBuildContext, CozeNodeParts, DeclaredVariable, DifyBuildContext, DifyPart, FactsOf, NodeSpec, NodeVariables } from "./types";
import { declaredNames, declaredPairs, declaredVariable, found } from "./variables";
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
    if (!ctx.checkOnly) data.push(startVariableData(name, type));
  });
  if (ctx.checkOnly) return { facts: { type: "start", variables: declared } };
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

/** The start node stores Dify input kinds and maps three of them back when another node reads the variable. */
const START_TYPE_READBACK: Readonly<Record<string, string>> = {
  paragraph: "string",
  checkbox: "boolean",
  "file-list": "array[file]",
};

function readBack(type: string): string {
  return Object.hasOwn(START_TYPE_READBACK, type) ? (START_TYPE_READBACK[type] as string) : type;
}

const variables: NodeVariables<FactsOf<"start">> = {
  facts: (param) => ({ type: "start", variables: declaredPairs(param, "variables", 0, 1) }),
  officialType(facts, variable) {
    const declared = declaredVariable(facts.variables, variable, true);
    if (!declared) return found(null);
    return found(typeof declared.type === "string" ? readBack(declared.type) : declared.type);
  },
  realType(facts, variable) {
    const declared = declaredVariable(facts.variables, variable, false);
    if (!declared) return undefined;
    return typeof declared.type === "string" ? readBack(declared.type) : null;
  },
  names: (facts) => declaredNames(facts.variables),
};

export const startNode: NodeSpec = {
  type: "start",
  info: NODE_TYPES["start"],
  paramShape: shape.object({ variables: shape.array(shape.tuple(shape.string, shape.string)) }),
  requiredParams: ["variables"],
  textParams: [],
  selectorParams: [],
  variables,
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
