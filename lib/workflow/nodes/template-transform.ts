// The `template-transform` node type: A Jinja template over named inputs.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { cozeIcon, refInput } from "./coze-common";
import { JsonValue, describeKind, pyStr } from "../python-values";
import { plainTextField } from "./checks";
import { buildNamedInputs, inputData } from "./dify-common";
import { namedSelector } from "./schema";
import { fail } from "./failure";
import { fixedOutputs } from "./variables";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const inputs = buildNamedInputs(ctx, param, "variables");
  const template = ctx.param(param, "template");
  const variables = inputData(ctx, inputs);
  if (ctx.checkOnly) return { facts: { type: "template-transform" } };
  return { facts: { type: "template-transform" }, data: { selected: false, template, title, type: "template-transform", variables } };
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const entries = ctx.iterate(ctx.param(param, "variables"), ["variables"], "an array of [name, [variable, nodeId]]");
  const names: JsonValue[] = [];
  const nodeInputs = entries.map((entry, i) => {
    const ref = ctx.item(entry, 1, ["variables", i], "a [name, [variable, nodeId]] entry", "malformed-entry");
    names.push(ctx.item(entry, 0, ["variables", i], "a [name, [variable, nodeId]] entry", "malformed-entry"));
    return refInput(`String${i + 1}`, ctx.selector(ref, ["variables", i, 1]));
  });
  let template = ctx.param(param, "template");
  if (names.length > 0 && typeof template !== "string") {
    fail({ code: "text-param-not-string", message: `${ctx.nodeRef()}: template is ${describeKind(template)}; it must be a string.`, location: ctx.at(["template"]) });
  }
  // Only the exact `{{name}}` form is renamed; spaced forms, filters and statements stay as written.
  names.forEach((name, i) => {
    template = (template as string).split(`{{${pyStr(name)}}}`).join(`{{String${i + 1}}}`);
  });
  return {
    parameters: {
      concatParams: [{ name: "concatResult", input: { type: "string", value: template } }],
      method: "concat",
      node_inputs: nodeInputs,
      node_outputs: { output: { type: "string", required: true, value: null } },
    },
  };
}

const variables = fixedOutputs("template-transform", { output: "string" });

export const templateTransformNode: NodeSpec = {
  type: "template-transform",
  info: NODE_TYPES["template-transform"],
  paramShape: shape.object({ variables: shape.array(namedSelector), template: shape.string }),
  requiredParams: ["variables", "template"],
  textParams: [],
  selectorParams: [{ key: "variables", shape: "named-selectors" }],
  variables,
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "text",
    baseTitle: "Template",
    icon: cozeIcon("icon-StrConcat-v2.jpg"),
    description: "String Formatter: Processes and formats multiple string inputs.",
    build: toCoze,
  },
  checkParams(ctx) {
    plainTextField(ctx, "template");
  },
};
