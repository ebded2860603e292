// The `if-else` node type: Branches on `cases`: one port per case, then ELSE.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { cozeIcon } from "./coze-common";
import type { DifyData } from "../dify-graph";
import { NODE_TYPES } from "../node-types";
import { ownValue, preview, pyHashKey, pyItem, pyIter, pyLen, type JsonObject, type JsonValue } from "../python-values";
import { fail, formatPath } from "./failure";
import { ifElseCondition } from "./schema";
import { exposesNothing } from "./variables";
import type { CozeBuildContext, CozeNodeParts, CozeRef, DifyBuildContext, DifyPart, NodeSpec, OutputPort, ParamPath, ResolvedSelector } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const cases = ctx.iterate(ctx.param(param, "cases"), ["cases"], "an array of [logic, conditions]");
  const parsed: { logic: string; conditions: Condition[] }[] = cases.map((ifCase, i) => {
    const expected = "a [logic, [condition, …]] case";
    const logic = ctx.item(ifCase, 0, ["cases", i], expected, "malformed-if-else");
    if (logic !== "or" && !Array.isArray(ifCase)) {
      // The official code assigns case[0] = 'and', which only a list allows.
      fail({
        code: "malformed-if-else",
        message: `${ctx.nodeRef()}: cases[${i}] is ${preview(ifCase)}; expected ${expected}.`,
        location: ctx.at(["cases", i]),
      });
    }
    const conditionList = ctx.item(ifCase, 1, ["cases", i], expected, "malformed-if-else");
    const conditions = ctx.iterate(conditionList, ["cases", i, 1], "an array of conditions").map((condition, j): Condition => {
      const path: ParamPath = ["cases", i, 1, j];
      const expectedCondition = "a condition [[variable, nodeId], operator, value?]";
      const ref = ctx.item(condition, 0, path, expectedCondition, "malformed-if-else");
      const variable = ctx.item(ref, 0, [...path, 0], expectedCondition, "malformed-if-else");
      const refId = ctx.item(ref, 1, [...path, 0], expectedCondition, "malformed-if-else");
      const flattened = typeof ref === "string" ? "a condition is [[variable, nodeId], operator, value], not [variable, nodeId, operator]" : undefined;
      const node = ctx.lookupNode(refId, [...path, 0], flattened);
      const type = ctx.typeOf(variable, node, [...path, 0]);
      const operator = ctx.item(condition, 1, path, expectedCondition, "malformed-if-else");
      const value = pyLen(condition) === 3 ? ctx.emittedText(pyItem(condition, 2) as JsonValue, [...path, 2]) : undefined;
      return { resolved: { variable, node, type }, operator, value, path };
    });
    return { logic: logic === "or" ? "or" : "and", conditions };
  });
  if (ctx.checkOnly) {
    for (const { conditions } of parsed) for (const condition of conditions) checkedCondition(ctx, condition);
    return { facts: { type: "if-else" }, handles: [...parsed.map(() => ctx.ids.uuid()), "false"] };
  }
  const handles: string[] = [];
  const caseData = parsed.map(({ logic, conditions }) => {
    const caseId = ctx.ids.uuid();
    handles.push(caseId);
    return {
      case_id: caseId,
      conditions: conditions.map((condition) => conditionData(ctx, condition)),
      id: caseId,
      logical_operator: logic,
    };
  });
  handles.push("false");
  return { facts: { type: "if-else" }, handles, data: { cases: caseData, selected: false, title, type: "if-else" } };
}

interface Condition {
  resolved: ResolvedSelector;
  operator: JsonValue;
  value: JsonValue | undefined;
  path: ParamPath;
}

/** A condition's emitted value and selector, after the two checks the official emitter fails on (in its order). */
function checkedCondition(ctx: DifyBuildContext, condition: Condition): { value: JsonValue; selector: JsonValue[] } {
  const { resolved, path } = condition;
  let value: JsonValue = condition.value ?? "";
  if (value === "true") value = true;
  else if (value === "false") value = false;
  const selector = ctx.valueSelector(resolved.node.difyId, resolved.variable, [...path, 0, 0]);
  if (resolved.type === "number" && typeof value !== "string") {
    fail({
      code: "if-else-boolean-on-number",
      message: `${ctx.nodeRef()}: the condition at ${formatPath(path)} compares a number with '${String(value)}'; the converter turns 'true'/'false' into booleans and then fails on a number variable.`,
      location: ctx.at([...path, 2]),
      hint: "Compare numbers with numeric strings such as \"0\".",
    });
  }
  return { value, selector };
}

function conditionData(ctx: DifyBuildContext, condition: Condition): DifyData {
  const { resolved, operator } = condition;
  const { value, selector } = checkedCondition(ctx, condition);
  const data: DifyData = {
    comparison_operator: operator,
    id: ctx.ids.uuid(),
    value: selector.length === 3 ? [value] : value,
    varType: resolved.type,
    variable_selector: selector,
  };
  if (resolved.type === "number" && typeof value === "string" && value.includes("{{#")) data.numberVarType = "variable";
  if (resolved.type === "array[file]") {
    data.sub_variable_condition = {
      case_id: ctx.ids.uuid(),
      conditions: [{ comparison_operator: "in", id: ctx.ids.uuid(), key: "type", value: [value], varType: "string" }],
      logical_operator: "and",
    };
  }
  return data;
}

/** Coze comparison operator codes (§7.8); any other operator is emitted as null. */
const COZE_OPERATORS: Readonly<Record<string, number>> = {
  "=": 1,
  is: 1,
  "≠": 2,
  "is not": 2,
  contains: 7,
  "not contains": 8,
  empty: 9,
  "not exists": 9,
  "not empty": 10,
  exists: 10,
  ">": 13,
  "≥": 14,
  "<": 15,
  "≤": 16,
};

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const cases = ctx.iterate(ctx.param(param, "cases"), ["cases"], "an array of [logic, conditions]");
  const valued: { condition: Record<string, unknown>; text: string }[] = [];
  // The official code keeps only the records of the last valued condition in the whole node (§7.8).
  let lastRecords: [string, string][] | null = null;
  const branches = cases.map((ifCase, i) => {
    const expected = "a [logic, [condition, …]] case";
    const logic = ctx.item(ifCase, 0, ["cases", i], expected, "malformed-if-else") === "or" ? 1 : 2;
    const list = ctx.item(ifCase, 1, ["cases", i], expected, "malformed-if-else");
    const conditions = ctx.iterate(list, ["cases", i, 1], "an array of conditions").map((condition, j) => {
      const path = ["cases", i, 1, j];
      const expectedCondition = "a condition [[variable, nodeId], operator, value?]";
      const left = ctx.selector(ctx.item(condition, 0, path, expectedCondition, "malformed-if-else"), [...path, 0]);
      const operator = ctx.item(condition, 1, path, expectedCondition, "malformed-if-else");
      if (pyHashKey(operator) === undefined) {
        fail({ code: "malformed-if-else", message: `${ctx.nodeRef()}: the operator ${preview(operator)} is not a string.`, location: ctx.at([...path, 1]) });
      }
      const entry: Record<string, unknown> = { left: { input: { value: left } }, operator: typeof operator === "string" ? (COZE_OPERATORS[operator] ?? null) : null };
      if (pyLen(condition) === 3) {
        const rewritten = ctx.rewrite(pyItem(condition, 2) as JsonValue, [...path, 2]);
        lastRecords = rewritten.records;
        valued.push({ condition: entry, text: rewritten.text });
      }
      return entry;
    });
    return { condition: { conditions, logic } };
  });
  const records = lastRecords as [string, string][] | null;
  if (records === null) {
    fail({
      code: "coze-if-else-unvalued",
      message: `${ctx.nodeRef()}: no condition of this if-else compares with a value (all are empty / not empty / exists / not exists), which the official Coze converter cannot export.`,
      location: ctx.at(["cases"]),
      hint: "Give at least one condition a value, e.g. [[\"x\", \"1\"], \"is\", \"yes\"].",
    });
  }
  const shared = records[0];
  for (const { condition, text } of valued) {
    const value: JsonValue | CozeRef = shared ? { path: shared[0], ref_node: shared[1] } : text === "true" ? true : text === "false" ? false : text;
    condition.right = { input: { value } };
  }
  return { branchCount: branches.length, parameters: { branches } };
}

/** Visits condition j of case i of an if-else `cases` value (param.cases[i][1][j]), skipping malformed cases. */
export function forEachCondition(cases: JsonValue | undefined, visit: (condition: JsonValue, i: number, j: number) => void): void {
  if (!Array.isArray(cases)) return;
  cases.forEach((ifCase, i) => {
    const conditions = Array.isArray(ifCase) ? ifCase[1] : undefined;
    if (!Array.isArray(conditions)) return;
    conditions.forEach((condition, j) => visit(condition, i, j));
  });
}

/** The comparison value of every three-element condition is rewritten text. */
function nestedTextPaths(param: JsonObject): ParamPath[] {
  const paths: ParamPath[] = [];
  forEachCondition(ownValue(param, "cases"), (condition, i, j) => {
    if (Array.isArray(condition) && condition.length === 3) paths.push(["cases", i, 1, j, 2]);
  });
  return paths;
}

/**
 * The IF / ELIF k / ELSE port rule: one port per case (as Python iterates `cases`), then ELSE. Everything that
 * numbers, labels or checks an if-else's ports reads it from here.
 */
function ports(param: JsonObject): OutputPort[] {
  const cases = pyIter(ownValue(param, "cases") ?? null) ?? [];
  const list: OutputPort[] = cases.map((_, i) => ({ index: i, label: i === 0 ? "IF" : `ELIF ${i}`, kind: "case" }));
  list.push({ index: cases.length, label: "ELSE", kind: "else" });
  return list;
}

export const ifElseNode: NodeSpec = {
  type: "if-else",
  info: NODE_TYPES["if-else"],
  paramShape: shape.object({
    cases: shape.array(shape.tuple(shape.union(shape.null, shape.string), shape.array(ifElseCondition))),
  }),
  requiredParams: ["cases"],
  textParams: [],
  nestedTextPaths,
  selectorParams: [{ key: "cases", shape: "conditions" }],
  variables: exposesNothing("if-else"),
  branching: true,
  ports,
  toDify,
  coze: {
    kind: "node",
    cozeType: "condition",
    baseTitle: "IF-Else",
    icon: cozeIcon("icon-Condition-v2.jpg"),
    description: "Conditional Branch: Executes the specific branch whose condition is met, or the 'Else' branch if none match.",
    build: toCoze,
  },
};
