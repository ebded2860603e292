// The `iteration` node type: Runs its canvas (children `<id>-<k>`) once per element; `output_selector` names the child whose result is collected.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { cozeIcon, refInput } from "./coze-common";
import { ownValue, pyEq, type JsonValue } from "../python-values";
import { selector } from "./schema";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, FactsOf, NodeSpec, NodeVariables } from "./types";
import { found, officialElementType, realElementType } from "./variables";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const input = ctx.resolveSelector(ctx.param(param, "iterator_selector"), ["iterator_selector"]);
  if (ctx.checkOnly) return { facts: { type: "iteration", inputType: input.type, outputType: null } };
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

const OUTPUTS: readonly string[] = ["output", "item", "index"];

const variables: NodeVariables<FactsOf<"iteration">> = {
  facts(param, ctx) {
    const childType = ctx.iterationChildType?.(ownValue(param, "output_selector"));
    return {
      type: "iteration",
      inputType: ctx.inputType(ownValue(param, "iterator_selector")) ?? null,
      outputType: childType === undefined ? null : `array[${String(childType)}]`,
      outputChildType: childType ?? null,
    };
  },
  officialType(facts, variable) {
    if (pyEq(variable, "index")) return found("number");
    if (pyEq(variable, "item")) {
      if (typeof facts.inputType !== "string") {
        return {
          ok: false,
          code: "iteration-item-untyped",
          message: `the iteration's input has no usable type (${JSON.stringify(facts.inputType)}), so \`item\` cannot be typed`,
        };
      }
      // Quirk: the characters a, r, y, [ then ] are stripped from the input type (`file` stays `file`).
      return found(officialElementType(facts.inputType));
    }
    return found(facts.outputType);
  },
  realType(facts, variable) {
    if (variable === "index") return "number";
    if (variable === "item") return realElementType(facts.inputType);
    if (variable !== "output") return undefined;
    return typeof facts.outputChildType === "string" ? `array[${facts.outputChildType}]` : null;
  },
  names: () => [...OUTPUTS],
  quirk: (name) => (name === "item" ? "The official inference strips the characters a, r, y, [ and ] from the input type." : undefined),
};

export const iterationNode: NodeSpec = {
  type: "iteration",
  info: NODE_TYPES["iteration"],
  paramShape: shape.object({ iterator_selector: selector, output_selector: selector }),
  requiredParams: ["iterator_selector", "output_selector"],
  textParams: [],
  selectorParams: [
    { key: "iterator_selector", shape: "selector" },
    { key: "output_selector", shape: "child-selector" },
  ],
  variables,
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
