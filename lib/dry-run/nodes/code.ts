// Code: the model-written `main(...)` runs in a sandbox with the declared inputs; its dict is validated against the
// declared outputs as Dify's CodeNode._transform_result does (nodes/code/code_node.py): a declared output missing,
// a value of the wrong type, a list longer than Dify's limits, or an undeclared key fails the node.

import type { JsonValue } from "@/lib/workflow/python-values";
import { failed, selectorOf, succeeded, type NodeExecutor, type NodeOutcome } from "../types";
import { parameterDefault } from "./parameter-extractor";

// Dify's defaults: CODE_MAX_STRING_LENGTH, CODE_MAX_STRING_ARRAY_LENGTH, CODE_MAX_OBJECT_ARRAY_LENGTH,
// CODE_MAX_NUMBER_ARRAY_LENGTH (configs/feature).
const MAX_STRING_LENGTH = 400_000;
const MAX_STRING_ARRAY_LENGTH = 30;
const MAX_OBJECT_ARRAY_LENGTH = 30;
const MAX_NUMBER_ARRAY_LENGTH = 1000;

type Declared = Record<string, { type?: unknown }>;

/** The output types Dify's CodeNodeData accepts (nodes/code/entities.py _ALLOWED_OUTPUT_FROM_CODE). */
const ALLOWED_OUTPUT_TYPES = new Set(["string", "number", "object", "boolean", "array[string]", "array[number]", "array[object]", "array[boolean]"]);

/**
 * Dify validates every node's data when it builds the graph, before any node runs: a code node declaring another
 * output type (a file, a list of files) fails the run there (CodeNodeData.Output's _validate_type).
 */
export function codeDataFailure(data: Readonly<Record<string, unknown>>): string | null {
  const declared = (isObject(data.outputs as JsonValue) ? data.outputs : {}) as Declared;
  for (const [name, config] of Object.entries(declared)) {
    const type = String(config.type);
    if (!ALLOWED_OUTPUT_TYPES.has(type)) return `invalid type for code output ${name}: expected one of ${[...ALLOWED_OUTPUT_TYPES].join(", ")}, actual ${type}`;
  }
  return null;
}

const isObject = (value: JsonValue): value is Record<string, JsonValue> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The validation failure of a code result, or null when Dify accepts it. */
export function codeOutputFailure(result: JsonValue, declared: Declared): string | null {
  if (!isObject(result)) return "Output must be a dict (the code's main() returned something else).";
  for (const [name, config] of Object.entries(declared)) {
    if (!Object.prototype.hasOwnProperty.call(result, name)) return `Output ${name} is missing.`;
    const value = result[name] as JsonValue;
    const type = String(config.type);
    if (value === null) continue;
    if (type === "string") {
      if (typeof value !== "string") return `Output variable \`${name}\` must be a string`;
      if (value.length > MAX_STRING_LENGTH) return `The length of output variable \`${name}\` must be less than ${MAX_STRING_LENGTH} characters`;
    } else if (type === "number") {
      if (typeof value !== "number" && typeof value !== "boolean") return `Output variable \`${name}\` must be a number`;
    } else if (type === "boolean") {
      if (typeof value !== "boolean") return `Output variable \`${name}\` must be a boolean`;
    } else if (type === "object") {
      if (!isObject(value)) return `Output ${name} is not an object, got ${typeof value} instead.`;
    } else if (type.startsWith("array")) {
      if (!Array.isArray(value)) return `Output ${name} is not an array, got ${typeof value} instead.`;
      const element = type.slice(6, -1);
      const limit = element === "number" ? MAX_NUMBER_ARRAY_LENGTH : element === "object" ? MAX_OBJECT_ARRAY_LENGTH : MAX_STRING_ARRAY_LENGTH;
      if (value.length > limit) return `The length of output variable \`${name}\` must be less than ${limit} elements.`;
      const bad = value.findIndex((item) =>
        item === null ? false : element === "string" ? typeof item !== "string" : element === "number" ? typeof item !== "number" : element === "object" ? !isObject(item) : element === "boolean" ? typeof item !== "boolean" : false,
      );
      if (bad >= 0) return `Output ${name}[${bad}] is not a ${element}.`;
    }
  }
  if (Object.keys(result).length !== Object.keys(declared).length) return "Not all output parameters are validated.";
  return null;
}

/**
 * Python packages Dify's code sandbox has besides the standard library (dify-sandbox's image installs httpx,
 * requests, jinja2 and PySocks; these are they and their dependencies), and standard-library modules Python 3.12
 * has but our Pyodide lacks. An import of any other module fails in Dify whatever the inputs.
 */
const SANDBOX_MODULES = new Set([
  "httpx", "requests", "jinja2", "socks", "sockshandler", "certifi", "idna", "urllib3", "charset_normalizer", "h11", "httpcore", "anyio", "sniffio", "markupsafe",
  "tkinter", "turtle", "curses", "readline", "dbm", "idlelib", "venv", "ensurepip", "lib2to3",
  "aifc", "audioop", "cgi", "cgitb", "chunk", "crypt", "imghdr", "mailcap", "msilib", "nis", "nntplib", "ossaudiodev", "pipes", "sndhdr", "spwd", "sunau", "telnetlib", "uu", "xdrlib",
]);

/**
 * Whether a code error happens whatever the inputs: the code does not compile, or imports a module Dify's sandbox
 * does not have. Errors on other lines may depend on what the inputs hold.
 */
export function codeErrorIsCertain(language: "python3" | "javascript", reason: string): boolean {
  if (language !== "python3") return false;
  if (/(^|\n)(SyntaxError|IndentationError|TabError):/.test(reason)) return true;
  const missing = /ModuleNotFoundError: No module named '([^'.]+)/.exec(reason);
  return missing !== null && !SANDBOX_MODULES.has(missing[1] as string);
}

/** Stand-in outputs of the declared types; a list holds one element of its type, so its rendering is a list's. */
function placeholders(declared: Declared): Record<string, JsonValue> {
  return Object.fromEntries(
    Object.entries(declared).map(([name, config]) => {
      const type = String(config.type);
      return [name, type.startsWith("array[") ? [parameterDefault(type.slice(6, -1))] : type === "object" ? {} : parameterDefault(type)];
    }),
  );
}

export const codeExecutor: NodeExecutor = {
  async run(data, ctx): Promise<NodeOutcome> {
    const declared = (isObject(data.outputs as JsonValue) ? data.outputs : {}) as Declared;
    const inputs: Record<string, JsonValue> = {};
    let mocked = false;
    for (const variable of Array.isArray(data.variables) ? (data.variables as Record<string, unknown>[]) : []) {
      const selector = selectorOf(variable.value_selector);
      const found = selector ? ctx.pool.get(selector) : undefined;
      inputs[String(variable.variable)] = found?.value ?? null;
      mocked ||= found?.mocked ?? false;
    }
    if (!ctx.code) return succeeded(placeholders(declared), true);
    const language = data.code_language === "javascript" ? "javascript" : "python3";
    const run = await ctx.code.run({ language, code: typeof data.code === "string" ? data.code : "", inputs });
    // A failure that reads mocked content says nothing about the real run (the node stands in with typed defaults),
    // unless it fails whatever the inputs; an import only Dify's sandbox has is never a prediction of ours.
    if (!run.ok) {
      if (run.kind !== "error" || codeErrorIsCertain(language, run.reason)) return failed(run.reason, false);
      const unavailable = /ModuleNotFoundError: No module named '([^'.]+)/.exec(run.reason);
      if (mocked || unavailable) return succeeded(placeholders(declared), true);
      return failed(run.reason, false);
    }
    const problem = codeOutputFailure(run.result, declared);
    if (problem) return mocked ? succeeded(placeholders(declared), true) : failed(problem, false);
    return succeeded(run.result as Record<string, JsonValue>, mocked);
  },
};
