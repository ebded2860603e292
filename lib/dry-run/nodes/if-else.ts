// If-else: cases in order, the first whose conditions hold (all for "and", any for "or") takes its case_id handle,
// else the "false" handle (nodes/if_else/if_else_node.py with workflow/utils/condition/processor.py: a missing
// variable makes comparisons false, `empty` true; a number comparison reads the expected value as a number).

import type { JsonValue } from "@/lib/workflow/python-values";
import { failed, selectorOf, succeeded, type NodeExecutor } from "../types";
import type { VariablePool } from "../pool";
import { isDryFile, segmentText } from "../values";

type Condition = Record<string, unknown>;

function isEmpty(value: JsonValue | undefined): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0) || (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);
}

function asNumber(value: JsonValue | undefined): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return null;
}

class ConditionError extends Error {}

function compare(actual: JsonValue | undefined, operator: string, expected: JsonValue): boolean {
  const text = typeof expected === "string" ? expected : segmentText(expected);
  switch (operator) {
    case "empty":
    case "null":
    case "not exists":
      return isEmpty(actual);
    case "not empty":
    case "not null":
    case "exists":
      return !isEmpty(actual);
    case "contains":
      return actual !== undefined && actual !== null && (typeof actual === "string" ? actual.includes(text) : Array.isArray(actual) ? actual.some((item) => item === text) : false);
    case "not contains":
      return actual === undefined || actual === null || (typeof actual === "string" ? !actual.includes(text) : Array.isArray(actual) ? !actual.some((item) => item === text) : true);
    case "start with":
      return typeof actual === "string" && actual.startsWith(text);
    case "end with":
      return typeof actual === "string" && actual.endsWith(text);
    case "is":
      return actual !== undefined && actual !== null && (typeof actual === "boolean" ? String(actual) === text.toLowerCase() : segmentText(actual) === text);
    case "is not":
      return actual === undefined || actual === null || (typeof actual === "boolean" ? String(actual) !== text.toLowerCase() : segmentText(actual) !== text);
    case "in":
      return Array.isArray(expected) ? expected.includes(segmentText(actual)) : text.includes(segmentText(actual));
    case "not in":
      return Array.isArray(expected) ? !expected.includes(segmentText(actual)) : !text.includes(segmentText(actual));
    case "=":
    case "≠":
    case ">":
    case "<":
    case "≥":
    case "≤": {
      if (actual === undefined || actual === null) return false;
      const left = asNumber(actual);
      const right = asNumber(expected);
      if (left === null) throw new ConditionError(`Invalid actual value type: number, got ${JSON.stringify(actual).slice(0, 60)}`);
      if (right === null) throw new ConditionError(`Invalid expected value type: number, got ${JSON.stringify(expected).slice(0, 60)}`);
      return operator === "=" ? left === right : operator === "≠" ? left !== right : operator === ">" ? left > right : operator === "<" ? left < right : operator === "≥" ? left >= right : left <= right;
    }
    default:
      return false;
  }
}

function evaluate(condition: Condition, pool: VariablePool): { holds: boolean; mocked: boolean } {
  const selector = selectorOf(condition.variable_selector);
  const found = selector ? pool.get(selector) : undefined;
  let expected = condition.value as JsonValue;
  let mocked = found?.mocked ?? false;
  if (typeof expected === "string") {
    const rendered = pool.render(expected);
    expected = rendered.text;
    mocked ||= rendered.mocked;
  }
  const sub = condition.sub_variable_condition as { conditions?: Condition[]; logical_operator?: string } | undefined;
  const actual = found?.value;
  if (sub && Array.isArray(actual) && sub.conditions && sub.conditions.length > 0) {
    // An array[file] condition with sub-conditions filters the files by their keys, then applies the operator.
    const files = actual.filter((file) =>
      isDryFile(file) && (sub.logical_operator === "or" ? sub.conditions!.some((c) => compare(file[String(c.key)], String(c.comparison_operator), c.value as JsonValue)) : sub.conditions!.every((c) => compare(file[String(c.key)], String(c.comparison_operator), c.value as JsonValue))),
    );
    return { holds: compare(files, String(condition.comparison_operator), expected), mocked };
  }
  return { holds: compare(actual, String(condition.comparison_operator), expected), mocked };
}

export const ifElseExecutor: NodeExecutor = {
  async run(data, ctx) {
    let mocked = false;
    try {
      for (const entry of Array.isArray(data.cases) ? (data.cases as Record<string, unknown>[]) : []) {
        const conditions = Array.isArray(entry.conditions) ? (entry.conditions as Condition[]) : [];
        const results = conditions.map((condition) => evaluate(condition, ctx.pool));
        mocked ||= results.some((result) => result.mocked);
        // Python's all([]) is True: a case without conditions holds (condition processor: all()/any() of the results).
        const holds = entry.logical_operator === "or" ? results.some((result) => result.holds) : results.every((result) => result.holds);
        if (holds) return succeeded({ result: true, selected_case_id: String(entry.case_id) }, mocked, String(entry.case_id));
      }
    } catch (error) {
      if (error instanceof ConditionError) return failed(error.message, mocked);
      throw error;
    }
    return succeeded({ result: false, selected_case_id: "false" }, mocked, "false");
  },
};
