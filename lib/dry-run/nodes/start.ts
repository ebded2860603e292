// Start: the run's inputs, checked as Dify's app generator checks them before any node runs
// (BaseAppGenerator._validate_inputs and _prepare_user_inputs in core/app/apps/base_app_generator.py).

import type { DifyData } from "@/lib/workflow/dify-graph";
import type { JsonValue } from "@/lib/workflow/python-values";
import { succeeded, type NodeExecutor } from "../types";
import { isDryFile } from "../values";

/** The form types Dify's VariableEntityType knows; another type fails the workflow's start form. */
const FORM_TYPES = new Set(["text-input", "select", "paragraph", "number", "file", "file-list", "checkbox", "json_object"]);

export type PreparedInputs = { ok: true; inputs: Record<string, JsonValue> } | { ok: false; reason: string };

/** The start node's inputs from a test's values, or the error Dify answers the run request with. */
export function prepareInputs(data: DifyData, given: Readonly<Record<string, JsonValue>>): PreparedInputs {
  const variables = Array.isArray(data.variables) ? (data.variables as Record<string, unknown>[]) : [];
  const inputs: Record<string, JsonValue> = {};
  for (const variable of variables) {
    const name = String(variable.variable);
    const type = String(variable.type);
    // A start variable of a type Dify has no form field for fails validation of the start node's data.
    if (!FORM_TYPES.has(type)) return { ok: false, reason: `Start variable "${name}" has the type "${type}", which Dify's start form does not have.` };
    let value: JsonValue | undefined = Object.prototype.hasOwnProperty.call(given, name) ? given[name] : undefined;
    // Not required (the converter writes required: false): a missing value takes the default "".
    if (value === undefined || value === null) value = typeof variable.default === "string" ? variable.default : null;
    if ((type === "file" || type === "file-list") && value === "") {
      inputs[name] = null;
      continue;
    }
    if ((type === "paragraph" || type === "text-input" || type === "select") && typeof value !== "string") {
      return { ok: false, reason: `(type '${type}') ${name} in input form must be a string` };
    }
    if (type === "number") {
      if (typeof value === "string") {
        if (value.trim() === "") value = null;
        else if (!/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) return { ok: false, reason: `${name} in input form must be a valid number` };
        else value = Number(value);
      } else if (typeof value !== "number" && value !== null) return { ok: false, reason: `expected value type int, float or str for ${name}` };
    }
    if (type === "paragraph" || type === "text-input") {
      const limit = typeof variable.max_length === "number" ? variable.max_length : 0;
      if (limit && typeof value === "string" && [...value].length > limit) return { ok: false, reason: `${name} in input form must be less than ${limit} characters` };
    }
    if (type === "file" && !isDryFile(value ?? null)) return { ok: false, reason: `${name} in input form must be a file` };
    if (type === "file-list") {
      if (!Array.isArray(value) || !value.every((item) => isDryFile(item))) return { ok: false, reason: `${name} in input form must be a list of files` };
      const limit = typeof variable.max_length === "number" ? variable.max_length : 0;
      if (limit && value.length > limit) return { ok: false, reason: `${name} in input form must be less than ${limit} files` };
    }
    if (type === "checkbox" && typeof value === "string") {
      const normalized = value.trim().toLowerCase();
      if (["true", "1", "yes", "on"].includes(normalized)) value = true;
      else if (["false", "0", "no", "off"].includes(normalized)) value = false;
    }
    inputs[name] = value ?? null;
  }
  return { ok: true, inputs };
}

export const startExecutor: NodeExecutor = {
  async run(data, ctx) {
    // The prepared inputs are put in the pool under the start node before the engine runs (see engine.ts).
    const variables = Array.isArray(data.variables) ? (data.variables as Record<string, unknown>[]) : [];
    const outputs: Record<string, JsonValue> = {};
    for (const variable of variables) outputs[String(variable.variable)] = ctx.pool.get([ctx.nodeId, String(variable.variable)])?.value ?? null;
    return succeeded(outputs, false);
  },
};
