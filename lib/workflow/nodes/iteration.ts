// The `iteration` node type: Runs its canvas (children `<id>-<k>`) once per element; `output_selector` names the child whose result is collected.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import type { JsonValue } from "../python-values";
import { selector } from "./schema";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const input = ctx.resolveSelector(ctx.param(param, "iterator_selector"), ["iterator_selector"]);
  return {
    facts: { type: "iteration", inputType: input.type, outputType: null },
    data: {
      error_handle_mode: "terminated",
      flatten_output: true,
      is_parallel: false,
      iterator_input_type: input.type,
      iterator_selector: [input.node.difyId, input.variable],
      output_selector: null,
      output_type: null,
      parallel_nums: 10,
      selected: false,
      title,
      type: "iteration",
    },
  };
}

export const iterationNode: NodeSpec = {
  type: "iteration",
  info: NODE_TYPES["iteration"],
  paramSchema: z.object({ iterator_selector: selector, output_selector: selector }),
  requiredParams: ["iterator_selector", "output_selector"],
  textParams: [],
  selectorParams: [
    { key: "iterator_selector", shape: "selector" },
    { key: "output_selector", shape: "child-selector" },
  ],
  outputs: [
    { name: "output", realType: "array" },
    { name: "item", realType: "element" },
    { name: "index", realType: "number" },
  ],
  branching: false,
  toDify,
};
