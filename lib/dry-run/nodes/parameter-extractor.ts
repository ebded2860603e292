// Parameter extractor: the model fills the declared parameters; what it cannot fill gets the type's default
// ("" / 0 / false / []), and `__is_success`/`__reason` tell whether extraction worked
// (nodes/parameter_extractor/parameter_extractor_node.py, _generate_default_result).

import type { JsonValue } from "@/lib/workflow/python-values";
import { selectorOf, succeeded, type NodeExecutor } from "../types";
import { segmentText } from "../values";

export const parameterExtractorExecutor: NodeExecutor = {
  async run(data, ctx) {
    const selector = selectorOf(data.query);
    const found = selector ? ctx.pool.get(selector) : undefined;
    const parameters = (Array.isArray(data.parameters) ? (data.parameters as Record<string, unknown>[]) : []).map((parameter) => ({
      name: String(parameter.name),
      type: String(parameter.type),
      description: String(parameter.description ?? ""),
    }));
    const instruction = ctx.pool.render(typeof data.instruction === "string" ? data.instruction : "");
    const values = await ctx.model.extract({ query: segmentText(found?.value), parameters, instruction: instruction.text });
    const outputs: Record<string, JsonValue> = { ...values, __is_success: 1, __reason: null, __usage: {} };
    return succeeded(outputs, ctx.model.kind === "mock" || (found?.mocked ?? false) || instruction.mocked);
  },
};

/** The default of a parameter type when extraction yields nothing for it. */
export function parameterDefault(type: string): JsonValue {
  if (type === "number") return 0;
  if (type === "boolean") return false;
  if (type.startsWith("array")) return [];
  if (type === "object") return {};
  return "";
}
