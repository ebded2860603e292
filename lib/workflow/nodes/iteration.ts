// The `iteration` node type: Runs its canvas (children `<id>-<k>`) once per element; `output_selector` names the child whose result is collected.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import { cozeIcon, refInput } from "./coze-common";
import type { JsonValue } from "../python-values";
import { selector } from "./schema";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

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

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const input = ctx.selector(ctx.param(param, "iterator_selector"), ["iterator_selector"]);
  return {
    parameters: {
      batchSize: { type: "integer", value: { content: "100", type: "literal" } },
      concurrentSize: { type: "integer", value: { content: "10", type: "literal" } },
      node_inputs: [refInput("iterator_selector", input)],
      // Bound when the output_selector's child is built (the driver fills path and ref_node).
      node_outputs: { output: { value: { type: "list", items: { value: null }, value: { path: null, ref_node: null } } } },
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
  coze: {
    kind: "node",
    cozeType: "batch",
    baseTitle: "Iteration",
    icon: cozeIcon("icon-Batch-v2.jpg"),
    description: "Process arrays by applying workflows to each element",
    build: toCoze,
  },
};
