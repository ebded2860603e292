// The `llm` node type: A chat model call: `system` and `user` prompts with inline references.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { cozeIcon, llmParamList, recordInputs } from "./coze-common";
import type { JsonValue } from "../python-values";
import { LLM_MODEL, modelBlock } from "./dify-common";
import { fixedOutputs } from "./variables";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const system = ctx.emittedText(ctx.param(param, "system"), ["system"]);
  const user = ctx.emittedText(ctx.param(param, "user"), ["user"]);
  if (ctx.checkOnly) return { facts: { type: "llm" } };
  return {
    facts: { type: "llm" },
    data: {
      context: { enabled: false, variable_selector: [] },
      model: modelBlock(LLM_MODEL),
      prompt_template: [
        { role: "system", text: system },
        { role: "user", text: user },
      ],
      selected: false,
      title,
      type: "llm",
      vision: { enabled: false },
    },
  };
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const system = ctx.rewrite(ctx.param(param, "system"), ["system"]);
  const user = ctx.rewrite(ctx.param(param, "user"), ["user"]);
  return {
    parameters: {
      llmParam: llmParamList("0", system.text, user.text),
      // The official order is a set's; first appearance (system, then user) without repeats is one valid order.
      node_inputs: recordInputs([...system.records, ...user.records], true),
      node_outputs: { text: { type: "string", value: null } },
    },
  };
}

const variables = fixedOutputs("llm", { text: "string" });

export const llmNode: NodeSpec = {
  type: "llm",
  info: NODE_TYPES["llm"],
  paramShape: shape.object({ system: shape.string, user: shape.string }),
  requiredParams: ["system", "user"],
  textParams: ["system", "user"],
  selectorParams: [],
  variables,
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "llm",
    baseTitle: "LLM",
    icon: cozeIcon("icon-LLM-v2.jpg"),
    description: "LLM Call: Generates responses using variables and prompts.",
    build: toCoze,
  },
};
