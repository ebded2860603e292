// Variable aggregator: the first of its variables that exists in the pool is the `output`; when none does, the node
// has no output at all (nodes/variable_aggregator/variable_aggregator_node.py).

import { selectorOf, succeeded, type NodeExecutor } from "../types";

export const variableAggregatorExecutor: NodeExecutor = {
  async run(data, ctx) {
    for (const entry of Array.isArray(data.variables) ? data.variables : []) {
      const selector = selectorOf(entry);
      const found = selector ? ctx.pool.get(selector) : undefined;
      if (found && found.value !== null) return succeeded({ output: found.value }, found.mocked);
    }
    return succeeded({}, false);
  },
};
