// The `code` node type: Python `main(...)` over named inputs; exposes the `outputs` it declares.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import type { DeclaredVariable } from "../catalog";
import type { DifyData } from "../dify-graph";
import { NODE_TYPES } from "../node-types";
import { describeKind, preview, pyHashKey, pyStr, type JsonValue } from "../python-values";
import { plainTextField } from "./checks";
import { buildNamedInputs, inputData } from "./dify-common";
import { fail } from "./failure";
import { namedSelector } from "./schema";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";
import { CODE_OUTPUT_TYPES } from "./vocabulary";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const inputs = buildNamedInputs(ctx, param, "variables");
  const code = ctx.param(param, "code");
  const outputList = ctx.param(param, "outputs");
  const variables = inputData(ctx, inputs);
  const outputs = new Map<string, DeclaredVariable>();
  const outputData: Record<string, DifyData> = {};
  ctx.iterate(outputList, ["outputs"], "an array of [name, type]").forEach((entry, i) => {
    const type = ctx.item(entry, 1, ["outputs", i], "a [name, type] pair");
    const name = ctx.item(entry, 0, ["outputs", i], "a [name, type] pair");
    const key = pyHashKey(name);
    if (key === undefined) {
      fail({
        code: "malformed-param",
        message: `${ctx.nodeRef()}: output name ${preview(name)} at outputs[${i}] is ${describeKind(name)}; expected a string.`,
        location: ctx.at(["outputs", i, 0]),
      });
    }
    outputs.set(key, { name, type });
    outputData[pyStr(name)] = { children: null, type };
  });
  return {
    facts: { type: "code", outputs },
    data: { code, code_language: "python3", outputs: outputData, selected: false, title, type: "code", variables },
  };
}

export const codeNode: NodeSpec = {
  type: "code",
  info: NODE_TYPES["code"],
  paramSchema: z.object({
    variables: z.array(namedSelector),
    outputs: z.array(z.tuple([z.string(), z.string()])),
    code: z.string(),
  }),
  requiredParams: ["variables", "code", "outputs"],
  textParams: [],
  selectorParams: [{ key: "variables", shape: "named-selectors" }],
  outputs: [],
  branching: false,
  toDify,
  checkParams(ctx) {
    ctx.pairs("outputs", 2, 1, CODE_OUTPUT_TYPES, "param-shape", "[name, type]");
    plainTextField(ctx, "code");
  },
};
