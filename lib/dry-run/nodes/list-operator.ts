// List operator: the input must exist and be an array of files, numbers, strings or booleans (an array of objects
// fails); filter, extract (serial 1..len), order and limit apply in Dify's order (nodes/list_operator/node.py).

import type { JsonValue } from "@/lib/workflow/python-values";
import { failed, selectorOf, succeeded, type NodeExecutor } from "../types";
import { segmentType } from "../values";

const SUPPORTED = new Set(["array[file]", "array[number]", "array[string]", "array[boolean]"]);

export const listOperatorExecutor: NodeExecutor = {
  async run(data, ctx) {
    const selector = selectorOf(data.variable);
    const found = selector ? ctx.pool.get(selector) : undefined;
    if (!found) return failed(`Variable not found for selector: ${JSON.stringify(selector)}`, !ctx.pool.missingVariable(selector ?? []).certain);
    const value = found.value;
    if (value === null || (Array.isArray(value) && value.length === 0)) return succeeded({ result: [], first_record: null, last_record: null }, found.mocked);
    if (!Array.isArray(value) || !SUPPORTED.has(segmentType(value))) {
      return failed(`Variable ${JSON.stringify(selector)} is not an ArrayFileSegment, ArrayNumberSegment, ArrayStringSegment or ArrayBooleanSegment`, Array.isArray(value) && found.mocked);
    }
    let items: JsonValue[] = [...value];
    const filter = data.filter_by as { enabled?: boolean; conditions?: { comparison_operator?: string; key?: string; value?: JsonValue }[] } | undefined;
    if (filter?.enabled) {
      for (const condition of filter.conditions ?? []) {
        const expected = Array.isArray(condition.value) ? condition.value.map(String) : [String(condition.value ?? "")];
        items = items.filter((item) => {
          const subject = item !== null && typeof item === "object" && !Array.isArray(item) && condition.key ? item[condition.key] : item;
          const text = String(subject ?? "");
          switch (condition.comparison_operator) {
            case "in": return expected.includes(text);
            case "not in": return !expected.includes(text);
            case "empty": return text === "";
            case "not empty": return text !== "";
            case "=": case "is": return text === expected[0];
            case "≠": case "is not": return text !== expected[0];
            case "contains": return text.includes(expected[0] ?? "");
            case "not contains": return !text.includes(expected[0] ?? "");
            default: return true;
          }
        });
      }
    }
    const extract = data.extract_by as { enabled?: boolean; serial?: string } | undefined;
    if (extract?.enabled) {
      const rendered = ctx.pool.render(String(extract.serial ?? ""));
      const serial = Number.parseInt(rendered.text, 10);
      if (!Number.isInteger(serial)) return failed(`invalid literal for int() with base 10: '${rendered.text}'`, rendered.mocked);
      if (serial < 1) return failed("Invalid serial index: must be >= 1", rendered.mocked);
      if (serial > items.length) return failed(`Invalid serial index: must be <= ${items.length}`, rendered.mocked || found.mocked);
      items = [items[serial - 1] as JsonValue];
    }
    const order = data.order_by as { enabled?: boolean; value?: string } | undefined;
    if (order?.enabled) {
      items = [...items].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
      if (order.value === "desc") items.reverse();
    }
    const limit = data.limit as { enabled?: boolean; size?: number } | undefined;
    if (limit?.enabled && typeof limit.size === "number") items = items.slice(0, limit.size);
    return succeeded({ result: items, first_record: items[0] ?? null, last_record: items[items.length - 1] ?? null }, found.mocked);
  },
};
