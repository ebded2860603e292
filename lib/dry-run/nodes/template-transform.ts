// Template: its variables are read from the pool and the Jinja2 template rendered as Dify's runner does
// (nodes/template_transform, code_executor/jinja2; see ../jinja.ts). A rendering longer than
// TEMPLATE_TRANSFORM_MAX_LENGTH fails. What our engine cannot render is uncertain, not a predicted failure.

import type { JsonValue } from "@/lib/workflow/python-values";
import { renderJinja } from "../jinja";
import { failed, selectorOf, succeeded, type NodeExecutor } from "../types";

const MAX_LENGTH = 400_000;

export const templateTransformExecutor: NodeExecutor = {
  async run(data, ctx) {
    const values: Record<string, JsonValue> = {};
    let mocked = false;
    for (const variable of Array.isArray(data.variables) ? (data.variables as Record<string, unknown>[]) : []) {
      const selector = selectorOf(variable.value_selector);
      const found = selector ? ctx.pool.get(selector) : undefined;
      values[String(variable.variable)] = found?.value ?? null;
      mocked ||= found?.mocked ?? false;
    }
    const rendered = renderJinja(typeof data.template === "string" ? data.template : "", values);
    // A certain failure (the template itself does not parse) fails whatever the inputs are.
    if (!rendered.ok) return failed(rendered.reason, !rendered.certain);
    if (rendered.text.length > MAX_LENGTH) return failed(`Output length exceeds ${MAX_LENGTH} characters`, mocked);
    return succeeded({ output: rendered.text }, mocked);
  },
};
