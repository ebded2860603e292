// The `list-operator` node type: Filters, sorts or slices an array: `operator` such as ["limit", 3].
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import type { DifyData } from "../dify-graph";
import { isFloatLiteral } from "../json-text";
import { NODE_TYPES } from "../node-types";
import { ownValue, preview, pyContains, pyStr, type JsonObject, type JsonValue } from "../python-values";
import { fail, idLabel } from "./failure";
import { listOperator, selector } from "./schema";
import type { DifyBuildContext, DifyPart, FactsOf, NodeSpec, NodeVariables, ParamCheckContext, ParamPath } from "./types";
import { found, officialElementType, realElementType } from "./variables";
import { LIST_OPERATORS } from "./vocabulary";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const input = ctx.resolveSelector(ctx.param(param, "variable"), ["variable"]);
  const operator = ctx.param(param, "operator");
  const expected = 'an operator such as ["extract_by", 1], ["limit", 3], ["order_by", "asc"] or ["filter_by", op, value]';
  const kind = ctx.item(operator, 0, ["operator"], expected, "malformed-list-operator");
  let filterValue: JsonValue | undefined;
  if (kind === "filter_by") {
    filterValue = ctx.item(operator, 2, ["operator"], 'a three-element ["filter_by", op, value] (even for "empty")', "malformed-list-operator");
    if (typeof filterValue === "string") filterValue = ctx.emittedText(filterValue, ["operator", 2]);
  }
  if (typeof input.type !== "string") {
    fail({
      code: "list-operator-input-untyped",
      message: `${ctx.nodeRef()}: the list operator's input ${preview(input.variable)} from ${idLabel(input.node.workflowId)} (${input.node.type}) has no type under the official inference (${preview(input.type)}).`,
      location: ctx.at(["variable"]),
      targetNodeId: input.node.workflowId,
      hint:
        input.node.type === "iteration"
          ? "The iteration's output type is only known once its output_selector child is built."
          : "The official inference types this variable as null (see the catalog quirks).",
    });
  }
  const varType = input.type;
  if (ctx.checkOnly) {
    // The one check left below: every operator kind but an unknown one reads operator[1].
    if (kind === "filter_by" || kind === "extract_by" || kind === "limit" || kind === "order_by") {
      ctx.item(operator, 1, ["operator"], expected, "malformed-list-operator");
    }
    return { facts: { type: "list-operator", varType } };
  }
  const isFileArray = varType === "array[file]";
  const data: DifyData = {
    extract_by: { enabled: false, serial: "" },
    filter_by: { conditions: [{ comparison_operator: "contains", key: "", value: "" }], enabled: false },
    item_var_type: (varType.split("[").pop() ?? "").split("]")[0] ?? "",
    limit: { enabled: false, size: 10 },
    order_by: { enabled: false, key: "", value: "asc" },
    selected: false,
    title,
    type: "list-operator",
    var_type: varType,
    variable: [input.node.difyId, input.variable],
  };
  if (kind === "filter_by") {
    const op = ctx.item(operator, 1, ["operator"], expected, "malformed-list-operator");
    const text = pyStr(filterValue as JsonValue, isFloatLiteral(ctx.floats, operator as object, 2));
    const value: JsonValue = text === "true" ? true : text === "false" ? false : text;
    const condition: DifyData = { comparison_operator: op, key: "", value: "" };
    if (isFileArray) {
      condition.key = "type";
      condition.value = [value];
    } else if (op !== "empty" && op !== "not empty") {
      condition.value = value;
    }
    data.filter_by = { conditions: [condition], enabled: true };
  } else if (kind === "extract_by") {
    data.extract_by = { enabled: true, serial: pyStr(ctx.item(operator, 1, ["operator"], expected, "malformed-list-operator"), isFloatLiteral(ctx.floats, operator as object, 1)) };
  } else if (kind === "limit") {
    data.limit = { enabled: true, size: ctx.item(operator, 1, ["operator"], expected, "malformed-list-operator") };
  } else if (kind === "order_by") {
    data.order_by = { enabled: true, key: isFileArray ? "name" : "", value: ctx.item(operator, 1, ["operator"], expected, "malformed-list-operator") };
  }
  return { facts: { type: "list-operator", varType }, data };
}

function checkListOperator(ctx: ParamCheckContext, operator: JsonValue | undefined): void {
  if (operator === undefined) return;
  const items = Array.isArray(operator) ? operator : null;
  if (!items || items.length === 0) {
    ctx.report("malformed-list-operator", ["operator"], `${ctx.where} \`operator\` is ${preview(operator)}; expected e.g. ["limit", 3] or ["filter_by", "=", "x"].`);
    return;
  }
  const name = items[0];
  if (typeof name !== "string" || !(LIST_OPERATORS as readonly string[]).includes(name)) {
    ctx.report("invalid-option", ["operator", 0], `${ctx.where} uses the list operation ${preview(name)}; use one of ${LIST_OPERATORS.join(", ")}.`);
    return;
  }
  const needed = name === "filter_by" ? 3 : 2;
  if (name === "order_by" && items.length >= 2 && items[1] !== "asc" && items[1] !== "desc") {
    ctx.report("invalid-option", ["operator", 1], `${ctx.where} order_by takes "asc" or "desc", not ${preview(items[1])}.`);
  }
  const amount = items[1];
  if ((name === "extract_by" || name === "limit") && amount !== undefined && !(typeof amount === "number" && Number.isInteger(amount))) {
    ctx.report("invalid-option", ["operator", 1], `${ctx.where} ${name} takes a fixed integer (1..20), not ${preview(amount)}.`, "References are not supported here; use an integer, or pick the element in a code node.");
  }
  if (items.length < needed) {
    const hint = name === "filter_by" ? 'filter_by needs three elements even for "empty": ["filter_by", "empty", ""].' : undefined;
    ctx.report("malformed-list-operator", ["operator"], `${ctx.where} \`operator\` ${preview(operator)} has ${items.length} element(s); ${name} needs ${needed}.`, hint);
  }
}

const OUTPUTS: readonly string[] = ["result", "first_record", "last_record"];

const variables: NodeVariables<FactsOf<"list-operator">> = {
  facts(param, ctx) {
    const varType = ctx.inputType(ownValue(param, "variable"));
    return { type: "list-operator", varType: typeof varType === "string" ? varType : "" };
  },
  officialType: (facts, variable) => found(pyContains(variable, "record") ? officialElementType(facts.varType) : facts.varType),
  realType(facts, variable) {
    if (variable === "result") return facts.varType;
    if (variable === "first_record" || variable === "last_record") return realElementType(facts.varType);
    return undefined;
  },
  names: () => [...OUTPUTS],
};

/** Only a string filter value is rewritten; a number is passed through. */
function nestedTextPaths(param: JsonObject): ParamPath[] {
  const operator = ownValue(param, "operator");
  return Array.isArray(operator) && operator[0] === "filter_by" && typeof operator[2] === "string" ? [["operator", 2]] : [];
}

export const listOperatorNode: NodeSpec = {
  type: "list-operator",
  info: NODE_TYPES["list-operator"],
  paramShape: shape.object({ variable: selector, operator: listOperator }),
  requiredParams: ["variable", "operator"],
  textParams: [],
  nestedTextPaths,
  selectorParams: [{ key: "variable", shape: "selector" }],
  variables,
  branching: false,
  toDify,
  coze: { kind: "none", reason: "Coze has no list operator node; the official Coze converter fails on any workflow that uses one." },
  checkParams(ctx) {
    checkListOperator(ctx, ownValue(ctx.param, "operator"));
  },
};
