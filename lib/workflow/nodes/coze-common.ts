// Pieces of the Coze workflow YAML several node types share: icons, the LLM parameter list, plugin ids, type
// rendering and the single-reference inputs of tool plugins (coze-export spec §7.1, §7.4, §6.3).

import type { ParamPath } from "./types";
import { type JsonValue } from "../python-values";
import { fail } from "./failure";
import type { CozeBuildContext, CozeRef } from "./types";

const ICON_BASE = "https://lf3-static.bytednsdoc.com/obj/eden-cn/dvsmryvd_avi_dvsm/ljhwZthlaukjlkulzlp/icon/";

export function cozeIcon(file: string): string {
  return `${ICON_BASE}${file}`;
}

export const PLUGIN_ICON = cozeIcon("icon-Plugin-v2.jpg");

/** `{name, input}` with a string-typed value. */
export function stringInput(name: string, value: JsonValue): Record<string, unknown> {
  return { name, input: { type: "string", value } };
}

/** A reference input `{name, input: {value: {path, ref_node}}}`. */
export function refInput(name: JsonValue, ref: CozeRef): Record<string, unknown> {
  return { name, input: { value: ref } };
}

/** The four `apiParam` entries of a plugin node, in their fixed order. */
export function apiParam(apiID: string, apiName: string, pluginID: string, pluginName: string): Record<string, unknown>[] {
  return [stringInput("apiID", apiID), stringInput("apiName", apiName), stringInput("pluginID", pluginID), stringInput("pluginName", pluginName)];
}

const MODEL_NAME = "豆包·2.0·pro";
const MODEL_TYPE = "1772700462";

/** The nine `llmParam` entries of llm and parameter-extractor nodes (§7.4). */
export function llmParamList(responseFormat: "0" | "2", systemPrompt: string, prompt: string): Record<string, unknown>[] {
  return [
    { name: "temperature", input: { type: "float", value: "0.7" } },
    { name: "maxTokens", input: { type: "integer", value: "32768" } },
    { name: "thinkingType", input: { type: "string", value: "enabled" } },
    { name: "responseFormat", input: { type: "integer", value: responseFormat } },
    { name: "modelName", input: { type: "string", value: MODEL_NAME } },
    { name: "modelType", input: { type: "integer", value: MODEL_TYPE } },
    {
      name: "parameters",
      input: {
        type: "object",
        properties: { max_completion_tokens: { type: "integer", value: "0" }, reasoning_effort: { type: "string", value: "medium" } },
        value: null,
      },
    },
    { name: "systemPrompt", input: { type: "string", value: systemPrompt } },
    { name: "prompt", input: { type: "string", value: prompt } },
  ];
}

export const CLASSIFIER_LLM_PARAM = { modelName: MODEL_NAME, modelType: MODEL_TYPE } as const;

/**
 * A declared type as Coze renders it (§7.1): number becomes float, anything containing "array" becomes a list of
 * the type between the last `[` and the next `]`. The type must be text (the official code tests `'array' in t`).
 */
export function renderCozeType(ctx: CozeBuildContext, type: JsonValue, path: ParamPath): Record<string, unknown> {
  if (typeof type !== "string") {
    fail({ code: "malformed-param", message: `${ctx.nodeRef()}: the type ${JSON.stringify(type)} is not a string.`, location: ctx.at(path) });
  }
  const coze = type === "number" ? "float" : type === "array[number]" ? "array[float]" : type;
  if (!coze.includes("array")) return { type: coze, value: null };
  const inner = (coze.split("[").pop() ?? "").split("]")[0] ?? "";
  return { type: "list", items: { type: inner, value: null }, value: null };
}

/**
 * A tool text input (tts, markdown, mermaid, google, echarts title): with at least one inline reference the whole
 * value becomes the first reference and the surrounding text is dropped (§6.3); otherwise the rewritten text.
 */
export function singleReferenceValue(ctx: CozeBuildContext, value: JsonValue, path: ParamPath): JsonValue | CozeRef {
  const { text, records } = ctx.rewrite(value, path);
  const first = records[0];
  return first ? { path: first[0], ref_node: first[1] } : text;
}

/** The distinct `(var, cozeId)` records in first-appearance order, as `_<id>_<var>` inputs (llm, §6.3). */
export function recordInputs(records: readonly [string, string][], distinct: boolean): Record<string, unknown>[] {
  const seen = new Set<string>();
  const inputs: Record<string, unknown>[] = [];
  for (const [variable, id] of records) {
    const key = `${id}\u0000${variable}`;
    if (distinct && seen.has(key)) continue;
    seen.add(key);
    inputs.push(refInput(`_${id}_${variable}`, { path: variable, ref_node: id }));
  }
  return inputs;
}
