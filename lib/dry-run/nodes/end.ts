// End: each output reads its selector from the pool; a variable no node produced is None (nodes/end/end_node.py).

import type { JsonValue } from "@/lib/workflow/python-values";
import { selectorOf, succeeded, type NodeExecutor } from "../types";

export const endExecutor: NodeExecutor = {
  async run(data, ctx) {
    const outputs: Record<string, JsonValue> = {};
    let mocked = false;
    for (const output of Array.isArray(data.outputs) ? (data.outputs as Record<string, unknown>[]) : []) {
      const selector = selectorOf(output.value_selector);
      const found = selector ? ctx.pool.get(selector) : undefined;
      outputs[String(output.variable)] = found?.value ?? null;
      mocked ||= found?.mocked ?? false;
    }
    return succeeded(outputs, mocked);
  },
};
