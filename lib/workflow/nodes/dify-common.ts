// Pieces of the emitted Dify DSL several node types share: model blocks, start form fields, named inputs.
// Constants are the official converter's; builders call these in the same order it does.

import type { DifyData } from "../dify-graph";
import { isArray, pyItem, type JsonValue } from "../python-values";
import type { DifyBuildContext, ParamPath, ResolvedSelector } from "./types";

export const LLM_MODEL = { provider: "langgenius/tongyi/tongyi", name: "qwen3-vl-plus", mode: "chat" } as const;
export const CLASSIFIER_MODEL = { provider: "langgenius/tongyi/tongyi", name: "qwen3-max", mode: "chat" } as const;
const FILE_TYPES = ["image", "document", "audio", "video"];
const UPLOAD_METHODS = ["local_file", "remote_url"];

export function modelBlock(model: { provider: string; name: string; mode: string }): DifyData {
  return {
    completion_params: { temperature: 0.7, max_tokens: 32768 },
    mode: model.mode,
    name: model.name,
    provider: model.provider,
  };
}

export function mixed(value: string): { type: "mixed"; value: string } {
  return { type: "mixed", value };
}

export function startVariableData(name: JsonValue, type: JsonValue): DifyData {
  if (type === "file" || type === "array[file]") {
    const list = type === "array[file]";
    return {
      allowed_file_extensions: [],
      allowed_file_types: [...FILE_TYPES],
      allowed_file_upload_methods: [...UPLOAD_METHODS],
      default: "",
      hint: "",
      label: name,
      max_length: list ? 10 : 32768,
      options: [],
      placeholder: "",
      required: false,
      type: list ? "file-list" : "file",
      variable: name,
    };
  }
  const mapped = type === "string" ? "paragraph" : type === "boolean" ? "checkbox" : type;
  return { default: "", hint: "", label: name, max_length: 32768, options: [], placeholder: "", required: false, type: mapped, variable: name };
}

/** One `[name, [variable, nodeId]]` entry of code, template and end, resolved. */
export interface NamedInput {
  name: JsonValue;
  resolved: ResolvedSelector;
  path: ParamPath;
}

/** `[[name, [var, id]], …]` entries of code, template and end: resolve all, then split dotted names. */
export function buildNamedInputs(ctx: DifyBuildContext, param: JsonValue, key: string): NamedInput[] {
  const list = ctx.param(param, key);
  const items = ctx.iterate(list, [key], "an array of [name, [variable, nodeId]]");
  const inputs: NamedInput[] = [];
  for (let i = 0; i < items.length; i++) {
    const entry = items[i] as JsonValue;
    // A list of two or more holds both items (what models write): read directly, with no path made for a failure.
    const pair = isArray(entry) && entry.length >= 2;
    const ref = pair ? (entry[1] as JsonValue) : ctx.item(entry, 1, [key, i], "a [name, [variable, nodeId]] entry", "malformed-entry");
    const path: ParamPath = [key, i, 1];
    const hint = typeof ref === "string" ? "entries are [name, [variable, nodeId]], not flattened [name, variable, nodeId]" : undefined;
    const resolved = ctx.resolveSelector(ref, path, hint);
    inputs.push({ name: pair ? (entry[0] as JsonValue) : (pyItem(entry, 0) as JsonValue), resolved, path });
  }
  return inputs;
}

/** Check-only: the failures valueSelector would raise on `resolved` at `path` + [0], without building the selector. */
export function checkValueName(ctx: DifyBuildContext, resolved: ResolvedSelector, path: ParamPath): void {
  // A string without a dot (nearly every name) is used as is: nothing to check, no path to build.
  if (typeof resolved.variable === "string" && !resolved.variable.includes(".")) return;
  ctx.valueSelector(resolved.node.difyId, resolved.variable, [...path, 0]);
}

/** The Dify inputs of resolved entries; in check-only mode only their name checks run and the list is empty. */
export function inputData(ctx: DifyBuildContext, inputs: readonly NamedInput[]): DifyData[] {
  if (ctx.checkOnly) {
    for (let i = 0; i < inputs.length; i++) {
      const { resolved, path } = inputs[i] as NamedInput;
      checkValueName(ctx, resolved, path);
    }
    return [];
  }
  return inputs.map(({ name, resolved, path }) => ({
    value_selector: ctx.valueSelector(resolved.node.difyId, resolved.variable, [...path, 0]),
    value_type: resolved.type,
    variable: name,
  }));
}
