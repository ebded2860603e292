// The `llm` node type: A chat model call: `system` and `user` prompts with inline references.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { LLM_MODEL, modelBlock } from "./dify-common";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const system = ctx.rewriteText(ctx.param(param, "system"), ["system"]);
  const user = ctx.rewriteText(ctx.param(param, "user"), ["user"]);
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

export const llmNode: NodeSpec = {
  type: "llm",
  info: NODE_TYPES["llm"],
  paramSchema: z.object({ system: z.string(), user: z.string() }),
  requiredParams: ["system", "user"],
  textParams: ["system", "user"],
  selectorParams: [],
  outputs: [{ name: "text", realType: "string" }],
  branching: false,
  toDify,
};
