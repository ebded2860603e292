// The `parameter-extractor` node type: Structured fields from text: `parameters` [[description, name, type], …].
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import type { DeclaredVariable } from "../catalog";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { CLASSIFIER_MODEL, modelBlock } from "./dify-common";
import { selector } from "./schema";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";
import { PARAMETER_TYPES } from "./vocabulary";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const query = ctx.resolveSelector(ctx.param(param, "query"), ["query"]);
  const instruction = ctx.rewriteText(ctx.param(param, "instruction", "missing-param"), ["instruction"]);
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

export const parameterExtractorNode: NodeSpec = {
  type: "parameter-extractor",
  info: NODE_TYPES["parameter-extractor"],
  paramSchema: z.object({
    query: selector,
    parameters: z.array(z.tuple([z.string(), z.string(), z.string()])),
    instruction: z.string(),
  }),
  requiredParams: ["query", "instruction", "parameters"],
  textParams: ["instruction"],
  selectorParams: [{ key: "query", shape: "selector" }],
  outputs: [],
  branching: false,
  toDify,
  checkParams(ctx) {
    ctx.pairs("parameters", 3, 2, PARAMETER_TYPES, "malformed-parameter", "[description, name, type]");
  },
};
