// The `parameter-extractor` node type: Structured fields from text: `parameters` [[description, name, type], …].
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { cozeIcon, llmParamList, recordInputs, refInput, renderCozeType } from "./coze-common";
import { NODE_TYPES } from "../node-types";
import { JsonValue, pyStr } from "../python-values";
import { CLASSIFIER_MODEL, modelBlock } from "./dify-common";
import { selector } from "./schema";
import type { CozeBuildContext, CozeNodeParts, DeclaredVariable, DifyBuildContext, DifyPart, FactsOf, NodeSpec, NodeVariables } from "./types";
import { declaredNames, declaredPairs, declaredVariable, found } from "./variables";
import { PARAMETER_TYPES } from "./vocabulary";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const query = ctx.resolveSelector(ctx.param(param, "query"), ["query"]);
  const instruction = ctx.emittedText(ctx.param(param, "instruction", "missing-param"), ["instruction"]);
  const list = ctx.param(param, "parameters");
  const declared: DeclaredVariable[] = [];
  const parameters = ctx.iterate(list, ["parameters"], "an array of [description, name, type]").map((entry, i) => {
    const expected = "a [description, name, type] triple";
    const description = ctx.item(entry, 0, ["parameters", i], expected, "malformed-parameter");
    const name = ctx.item(entry, 1, ["parameters", i], expected, "malformed-parameter");
    const type = ctx.item(entry, 2, ["parameters", i], expected, "malformed-parameter");
    declared.push({ name, type });
    return { description, name, required: true, type };
  });
  if (ctx.checkOnly) return { facts: { type: "parameter-extractor", parameters: declared } };
  return {
    facts: { type: "parameter-extractor", parameters: declared },
    data: {
      instruction,
      model: modelBlock(CLASSIFIER_MODEL),
      parameters,
      query: [query.node.difyId, query.variable],
      reasoning_mode: "prompt",
      selected: false,
      title,
      type: "parameter-extractor",
      vision: { enabled: false },
    },
  };
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const query = ctx.selector(ctx.param(param, "query"), ["query"]);
  const instruction = ctx.rewrite(ctx.param(param, "instruction"), ["instruction"]);
  const outputs: Record<string, unknown> = {};
  ctx.iterate(ctx.param(param, "parameters"), ["parameters"], "an array of [description, name, type]").forEach((entry, i) => {
    const expected = "a [description, name, type] triple";
    const description = ctx.item(entry, 0, ["parameters", i], expected, "malformed-parameter");
    const name = ctx.item(entry, 1, ["parameters", i], expected, "malformed-parameter");
    const type = ctx.item(entry, 2, ["parameters", i], expected, "malformed-parameter");
    outputs[pyStr(name)] = { ...renderCozeType(ctx, type, ["parameters", i, 2]), description };
  });
  return {
    parameters: {
      llmParam: llmParamList("2", instruction.text, "{{query}}"),
      node_inputs: [refInput("query", query), ...recordInputs(instruction.records, false)],
      node_outputs: outputs,
    },
  };
}

const variables: NodeVariables<FactsOf<"parameter-extractor">> = {
  facts: (param) => ({ type: "parameter-extractor", parameters: declaredPairs(param, "parameters", 1, 2) }),
  officialType: (facts, variable) => found(declaredVariable(facts.parameters, variable, true)?.type ?? null),
  realType(facts, variable) {
    const parameter = declaredVariable(facts.parameters, variable, false);
    if (!parameter) return undefined;
    return typeof parameter.type === "string" ? parameter.type : null;
  },
  names: (facts) => declaredNames(facts.parameters),
};

export const parameterExtractorNode: NodeSpec = {
  type: "parameter-extractor",
  info: NODE_TYPES["parameter-extractor"],
  paramShape: shape.object({
    query: selector,
    parameters: shape.array(shape.tuple(shape.string, shape.string, shape.string)),
    instruction: shape.string,
  }),
  requiredParams: ["query", "instruction", "parameters"],
  textParams: ["instruction"],
  selectorParams: [{ key: "query", shape: "selector" }],
  variables,
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "llm",
    baseTitle: "Parameter Extractor",
    icon: cozeIcon("icon-LLM-v2.jpg"),
    description: "The Parameter Extractor node converts unstructured text into structured data using LLM intelligence.",
    build: toCoze,
  },
  checkParams(ctx) {
    ctx.pairs("parameters", 3, 2, PARAMETER_TYPES, "malformed-parameter", "[description, name, type]");
  },
};
