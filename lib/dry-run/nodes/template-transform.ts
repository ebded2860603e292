// Template: its variables are read from the pool and the Jinja2 template rendered (nodes/template_transform);
// a dry run substitutes `{{ name }}` expressions and leaves other Jinja syntax as text, so the output is a stand-in
// unless the template is plain substitutions. Dify fails a rendering longer than TEMPLATE_TRANSFORM_MAX_LENGTH.

import { failed, selectorOf, succeeded, type NodeExecutor } from "../types";
import { segmentText } from "../values";

const MAX_LENGTH = 400_000;
const SIMPLE_EXPRESSION = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export const templateTransformExecutor: NodeExecutor = {
  async run(data, ctx) {
    const values = new Map<string, string>();
    let mocked = false;
    for (const variable of Array.isArray(data.variables) ? (data.variables as Record<string, unknown>[]) : []) {
      const selector = selectorOf(variable.value_selector);
      const found = selector ? ctx.pool.get(selector) : undefined;
      values.set(String(variable.variable), segmentText(found?.value));
      mocked ||= found?.mocked ?? false;
    }
    const template = typeof data.template === "string" ? data.template : "";
    const output = template.replace(SIMPLE_EXPRESSION, (_match, name: string) => values.get(name) ?? "");
    const plain = !/\{%|\{\{/.test(output);
    if (output.length > MAX_LENGTH) return failed(`Output length exceeds ${MAX_LENGTH} characters`, mocked);
    return succeeded({ output }, mocked || !plain);
  },
};
