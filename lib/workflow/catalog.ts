// Per-type knowledge of the Chat2Workflow node types gathered for the scorer, converter and viewer; the facts of
// each type live in lib/workflow/nodes/<type>.ts.

import { NODE_TYPE_IDS, isNodeTypeId, type NodeTypeId } from "./node-types";
import { NODE_SPECS, type NodeSpec } from "./nodes";
import type { OutputPort, SelectorParamSpec, SelectorShape } from "./nodes/types";
import { certainlyAccepts } from "../zod-fast-path";
import {
  isJsonObject,
  ownValue,
  pyContains,
  pyEq,
  pyHashKey,
  pyItem,
  pyIter,
  pyStripChars,
  type JsonValue,
} from "./python-values";

export type ParamPath = (string | number)[];

// -- vocabularies and per-type entries (their home is lib/workflow/nodes) ------------------------------------------

export {
  CHART_TYPES,
  CODE_OUTPUT_TYPES,
  FILE_KINDS,
  IF_ELSE_OPERATORS,
  LIST_FILTER_OPERATORS,
  LIST_OPERATORS,
  MARKDOWN_TARGET_TYPES,
  PARAMETER_TYPES,
  START_VARIABLE_TYPES,
} from "./nodes/vocabulary";
export type { DocumentedOutput, SelectorParamSpec, SelectorShape } from "./nodes/types";

/** What the catalog tells about a type: its node spec without the conversion and checks. */
export type CatalogEntry = Pick<NodeSpec, "info" | "paramSchema" | "requiredParams" | "textParams" | "selectorParams" | "outputs" | "branching">;

export const CATALOG: Readonly<Record<NodeTypeId, CatalogEntry>> = NODE_SPECS;

// -- param validation ------------------------------------------------------------------------------------------

export interface ParamIssue {
  /** Path inside `param`, e.g. ["variables", 0, 1]. */
  path: ParamPath;
  message: string;
}

/** Checks `param` against the documented shape of `type`; [] when well-shaped or when the type is unknown. */
export function validateParam(type: string, param: unknown): ParamIssue[] {
  if (!isNodeTypeId(type)) return [];
  const schema = CATALOG[type].paramSchema;
  if (certainlyAccepts(schema, param)) return [];
  const result = schema.safeParse(param);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    path: issue.path.filter((part): part is string | number => typeof part !== "symbol"),
    message: issue.message,
  }));
}

// -- text fields and selectors present in a node ---------------------------------------------------------------

export interface NodeLike {
  id?: unknown;
  type: unknown;
  param: unknown;
}

/** Every rewritten text field present in the node (values may be non-strings: that is a conversion error). */
export function textFieldPaths(node: NodeLike): ParamPath[] {
  const { type, param } = node;
  if (!isNodeTypeId(type) || !isJsonObject(param)) return [];
  const paths: ParamPath[] = CATALOG[type].textParams.filter((key) => ownValue(param, key) !== undefined).map((key) => [key]);
  if (type === "if-else") {
    forEachCondition(ownValue(param, "cases"), (condition, i, j) => {
      if (Array.isArray(condition) && condition.length === 3) paths.push(["cases", i, 1, j, 2]);
    });
  }
  if (type === "list-operator") {
    const operator = ownValue(param, "operator");
    // Only a string filter value is rewritten; a number is passed through.
    if (Array.isArray(operator) && operator[0] === "filter_by" && typeof operator[2] === "string") paths.push(["operator", 2]);
  }
  return paths;
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

export interface SelectorRef {
  /** Path of the `[var, id]` pair inside `param`. */
  path: ParamPath;
  variable: JsonValue;
  nodeId: JsonValue;
  shape: SelectorShape;
}

/** Called for each place a selector may stand: the value found there (not yet checked to be a pair) and its path. */
export type SelectorVisitor<C> = (ctx: C, value: JsonValue | undefined, path: ParamPath, shape: SelectorShape) => void;

/**
 * Walks one selector param by its catalog shape, calling `visit` for every place a `[var, id]` selector may stand.
 * `visit` gets `ctx` rather than closing over it, so hot callers pass a module function and allocate no closure.
 */
export function forEachSelectorSlot<C>(spec: SelectorParamSpec, value: JsonValue | undefined, ctx: C, visit: SelectorVisitor<C>): void {
  const { key, shape } = spec;
  if (shape === "selector" || shape === "child-selector") visit(ctx, value, [key], shape);
  else if (!Array.isArray(value)) return;
  else if (shape === "selectors") value.forEach((item, i) => visit(ctx, item, [key, i], shape));
  else if (shape === "named-selectors") {
    value.forEach((item, i) => {
      if (Array.isArray(item)) visit(ctx, item[1], [key, i, 1], shape);
    });
  } else if (shape === "conditions") {
    forEachCondition(value, (condition, i, j) => {
      if (Array.isArray(condition)) visit(ctx, condition[0], [key, i, 1, j, 0], shape);
    });
  }
}

/** A module function rather than a closure: tsx re-names a named closure (Object.defineProperty) on every call. */
function addSelectorRef(refs: SelectorRef[], value: JsonValue | undefined, path: ParamPath, shape: SelectorShape): void {
  if (Array.isArray(value) && value.length >= 2) {
    refs.push({ path, variable: value[0] as JsonValue, nodeId: value[1] as JsonValue, shape });
  }
}

/** Every `[var, id]`-looking pair in the node's selector params (arrays of at least two elements). */
export function selectorRefs(node: NodeLike): SelectorRef[] {
  const { type, param } = node;
  if (!isNodeTypeId(type) || !isJsonObject(param)) return [];
  const refs: SelectorRef[] = [];
  for (const spec of CATALOG[type].selectorParams) forEachSelectorSlot(spec, ownValue(param, spec.key), refs, addSelectorRef);
  return refs;
}

// -- official type inference (§2.6) -----------------------------------------------------------------------------

export interface DeclaredVariable {
  name: JsonValue;
  type: JsonValue;
}

/** The facts the official inference reads from an already-built node. */
export type NodeFacts =
  | { type: "start"; variables: readonly DeclaredVariable[] }
  /** Outputs keyed by Python hash identity (pyHashKey); later duplicates win, as in a dict. */
  | { type: "code"; outputs: ReadonlyMap<string, DeclaredVariable> }
  | { type: "document-extractor"; isArrayFile: boolean }
  /** outputType stays null until the output_selector child is built; it is then "array[<child type>]". */
  | { type: "iteration"; inputType: JsonValue; outputType: string | null; outputChildType?: JsonValue }
  | { type: "list-operator"; varType: string }
  | { type: "parameter-extractor"; parameters: readonly DeclaredVariable[] }
  | { type: "variable-aggregator"; outputType: JsonValue }
  | { type: "tool"; nodeType: ToolNodeType; toolName: string }
  | { type: "question-classifier" | "http-request" | "llm" | "template-transform" }
  | { type: "end" | "if-else" | "iteration-start" };

export type ToolNodeType = "tts" | "text2image" | "markdown-exporter" | "mermaid-converter" | "google-search" | "echarts";

export const TOOL_NODE_TYPES: readonly ToolNodeType[] = [
  "tts",
  "text2image",
  "markdown-exporter",
  "mermaid-converter",
  "google-search",
  "echarts",
];

export function isToolNodeType(type: string): type is ToolNodeType {
  return (TOOL_NODE_TYPES as readonly string[]).includes(type);
}

/** The Dify `tool_name` the official converter gives a tool node; null when its param cannot build one. */
export function toolName(type: ToolNodeType, param: unknown): string | null {
  switch (type) {
    case "tts":
      return "tts";
    case "text2image":
      return "z_image_text_2_image";
    case "mermaid-converter":
      return "mermaid_converter";
    case "google-search":
      return "google_search";
    case "markdown-exporter": {
      const target = isJsonObject(param) ? ownValue(param, "target_type") : undefined;
      return typeof target === "string" ? `md_to_${target}` : null;
    }
    case "echarts": {
      const chart = isJsonObject(param) ? ownValue(param, "chart_type") : undefined;
      return typeof chart === "string" ? `${chart}_chart` : null;
    }
  }
}

export type TypeLookupFailure = "variable-name-not-string" | "reference-no-outputs" | "undeclared-code-output" | "iteration-item-untyped";

export type TypeLookup = { ok: true; type: JsonValue } | { ok: false; code: TypeLookupFailure; message: string };

/** The start node stores Dify input kinds and maps three of them back when another node reads the variable. */
const START_TYPE_READBACK: Readonly<Record<string, string>> = {
  paragraph: "string",
  checkbox: "boolean",
  "file-list": "array[file]",
};

/** Python `t.strip('array[').strip(']')`: character-set stripping, so `array[string]` -> `string`, `array` -> ``. */
export function officialElementType(arrayType: string): string {
  return pyStripChars(pyStripChars(arrayType, "ary["), "]");
}

function found(type: JsonValue): TypeLookup {
  return { ok: true, type };
}

/**
 * The official converter's type for `[variable, node]` (§2.6), reproducing its quirks:
 * - a dotted name (`file.type`) is `string` whatever the node;
 * - llm / classifier / http / template accept any name as `string`;
 * - document-extractor `text` is typed as the extractor's *input* kind (`file` / `array[file]`), not string;
 * - iteration `item` strips the characters a, r, y, [ then ] from the input type (`file` stays `file`);
 * - tool nodes: text2image, tts and markdown-exporter give array[file] for any name; mermaid-converter,
 *   google-search and echarts give null (the official check compares against misspelt tool names; a tool name
 *   containing "md" — every markdown exporter, and an echarts chart type containing "md" — counts as array[file]);
 * - end, if-else and iteration-start expose nothing: referencing them is an error.
 */
export function officialVariableType(facts: NodeFacts, variable: JsonValue): TypeLookup {
  const dotted = pyContains(variable, ".");
  if (dotted === undefined) {
    return {
      ok: false,
      code: "variable-name-not-string",
      message: `the variable name ${JSON.stringify(variable)} is not a string`,
    };
  }
  if (dotted) return found("string");
  switch (facts.type) {
    case "start": {
      const declared = facts.variables.find((v) => pyEq(v.name, variable));
      if (!declared) return found(null);
      return found(typeof declared.type === "string" ? (START_TYPE_READBACK[declared.type] ?? declared.type) : declared.type);
    }
    case "question-classifier":
    case "http-request":
    case "llm":
    case "template-transform":
      return found("string");
    case "code": {
      const key = pyHashKey(variable);
      if (key === undefined) return { ok: false, code: "variable-name-not-string", message: "the variable name is not a string" };
      const output = facts.outputs.get(key);
      if (!output) {
        return {
          ok: false,
          code: "undeclared-code-output",
          message: `the code node declares no output named ${JSON.stringify(variable)}`,
        };
      }
      return found(output.type);
    }
    case "document-extractor":
      return found(facts.isArrayFile ? "array[file]" : "file");
    case "iteration":
      if (pyEq(variable, "index")) return found("number");
      if (pyEq(variable, "item")) {
        if (typeof facts.inputType !== "string") {
          return {
            ok: false,
            code: "iteration-item-untyped",
            message: `the iteration's input has no usable type (${JSON.stringify(facts.inputType)}), so \`item\` cannot be typed`,
          };
        }
        return found(officialElementType(facts.inputType));
      }
      return found(facts.outputType);
    case "list-operator":
      return found(pyContains(variable, "record") ? officialElementType(facts.varType) : facts.varType);
    case "parameter-extractor":
      return found(facts.parameters.find((p) => pyEq(p.name, variable))?.type ?? null);
    case "variable-aggregator":
      return found(facts.outputType);
    case "tool":
      return found(officialToolType(facts.toolName));
    case "end":
    case "if-else":
    case "iteration-start":
      return {
        ok: false,
        code: "reference-no-outputs",
        message: `${facts.type} nodes expose no variables`,
      };
  }
}

function officialToolType(name: string): string | null {
  return name === "z_image_text_2_image" || name === "tts" || name.includes("md") ? "array[file]" : null;
}

const REAL_TOOL_TYPES: Readonly<Record<ToolNodeType, Readonly<Record<string, string>>>> = {
  tts: { files: "array[file]", text: "string", json: "array[object]" },
  text2image: { files: "array[file]", text: "string", json: "array[object]" },
  "markdown-exporter": { files: "array[file]", text: "string", json: "array[object]" },
  "mermaid-converter": { files: "array[file]", text: "string", json: "array[object]" },
  "google-search": { json: "array[object]", text: "string", files: "array[file]" },
  echarts: { text: "string", files: "array[file]", json: "array[object]" },
};

function realElementType(arrayType: JsonValue): string | null {
  if (typeof arrayType !== "string") return null;
  const match = /^array\[(.+)\]$/.exec(arrayType);
  return match ? (match[1] ?? null) : null;
}

/**
 * What the platform really exposes for `[variable, node]`: a type string, null when the type is unknown,
 * undefined when the node has no such variable.
 */
export function realVariableType(facts: NodeFacts, variable: JsonValue): string | null | undefined {
  if (typeof variable !== "string") return undefined;
  const dot = variable.indexOf(".");
  if (dot >= 0) {
    // Only file variables have sub-fields (`file.type` and friends), which are strings.
    const base = realVariableType(facts, variable.slice(0, dot));
    return base === "file" ? "string" : base === undefined ? undefined : null;
  }
  switch (facts.type) {
    case "start": {
      const declared = facts.variables.find((v) => v.name === variable);
      if (!declared) return undefined;
      return typeof declared.type === "string" ? (START_TYPE_READBACK[declared.type] ?? declared.type) : null;
    }
    case "llm":
      return variable === "text" ? "string" : undefined;
    case "question-classifier":
      return variable === "class_name" ? "string" : undefined;
    case "template-transform":
      return variable === "output" ? "string" : undefined;
    case "http-request":
      return ({ body: "string", status_code: "number", headers: "object", files: "array[file]" } as Record<string, string>)[variable];
    case "code": {
      const output = facts.outputs.get(`s${variable}`);
      if (!output) return undefined;
      return typeof output.type === "string" ? output.type : null;
    }
    case "document-extractor":
      return variable === "text" ? (facts.isArrayFile ? "array[string]" : "string") : undefined;
    case "iteration":
      if (variable === "index") return "number";
      if (variable === "item") return realElementType(facts.inputType);
      if (variable !== "output") return undefined;
      return typeof facts.outputChildType === "string" ? `array[${facts.outputChildType}]` : null;
    case "list-operator":
      if (variable === "result") return facts.varType;
      if (variable === "first_record" || variable === "last_record") return realElementType(facts.varType);
      return undefined;
    case "parameter-extractor": {
      const parameter = facts.parameters.find((p) => p.name === variable);
      if (!parameter) return undefined;
      return typeof parameter.type === "string" ? parameter.type : null;
    }
    case "variable-aggregator":
      return variable === "output" ? (typeof facts.outputType === "string" ? facts.outputType : null) : undefined;
    case "tool":
      return REAL_TOOL_TYPES[facts.nodeType][variable];
    case "end":
    case "if-else":
    case "iteration-start":
      return undefined;
  }
}

// -- facts for viewers (lenient) --------------------------------------------------------------------------------

export interface FactsContext {
  /** Official type of the value a `[var, id]` selector points at; undefined when it cannot be resolved. */
  inputType(selector: JsonValue | undefined): JsonValue | undefined;
  /** For an iteration: the official type of its output child's variable, when known. */
  iterationChildType?(selector: JsonValue | undefined): JsonValue | undefined;
}

function pairs(value: JsonValue | undefined, nameIndex: number, typeIndex: number): DeclaredVariable[] {
  const items = value === undefined ? undefined : pyIter(value);
  if (!items) return [];
  const out: DeclaredVariable[] = [];
  for (const item of items) {
    const name = pyItem(item, nameIndex);
    const type = pyItem(item, typeIndex);
    if (name !== undefined && type !== undefined) out.push({ name, type });
  }
  return out;
}

/** The inference facts of a node computed from its param, never failing (unknown parts become null). */
export function nodeFacts(node: NodeLike, ctx: FactsContext): NodeFacts | null {
  const { type } = node;
  if (!isNodeTypeId(type)) return null;
  const param = isJsonObject(node.param) ? node.param : {};
  switch (type) {
    case "start":
      return { type, variables: pairs(ownValue(param, "variables"), 0, 1) };
    case "code": {
      const outputs = new Map<string, DeclaredVariable>();
      for (const output of pairs(ownValue(param, "outputs"), 0, 1)) {
        const key = pyHashKey(output.name);
        if (key !== undefined) outputs.set(key, output);
      }
      return { type, outputs };
    }
    case "document-extractor":
      return { type, isArrayFile: ctx.inputType(ownValue(param, "variable_selector")) === "array[file]" };
    case "iteration": {
      const childType = ctx.iterationChildType?.(ownValue(param, "output_selector"));
      return {
        type,
        inputType: ctx.inputType(ownValue(param, "iterator_selector")) ?? null,
        outputType: childType === undefined ? null : `array[${String(childType)}]`,
        outputChildType: childType ?? null,
      };
    }
    case "list-operator": {
      const varType = ctx.inputType(ownValue(param, "variable"));
      return { type, varType: typeof varType === "string" ? varType : "" };
    }
    case "parameter-extractor":
      return { type, parameters: pairs(ownValue(param, "parameters"), 1, 2) };
    case "variable-aggregator": {
      const first = pyItem(ownValue(param, "variables") ?? null, 0);
      return { type, outputType: ctx.inputType(first) ?? null };
    }
    case "question-classifier":
    case "http-request":
    case "llm":
    case "template-transform":
    case "end":
    case "if-else":
    case "iteration-start":
      return { type };
    default:
      return { type: "tool", nodeType: type, toolName: toolName(type, param) ?? "" };
  }
}

export interface ExposedVariable {
  name: string;
  /** The official converter's inferred type; undefined when referencing it is a conversion error. */
  officialType: JsonValue | undefined;
  /** What the platform really exposes (null: unknown). */
  realType: string | null;
  /** Why the two differ, when they do because of a known quirk. */
  quirk?: string;
}

const QUIRKS: Partial<Record<NodeTypeId, string>> = {
  "document-extractor": "The official inference types `text` as the extractor's input kind (file or array[file]).",
  "mermaid-converter": "The official inference gives null: it checks the tool name `mermaid-converter`, the real one is `mermaid_converter`.",
  "google-search": "The official inference gives null: it checks the tool name `google-search`, the real one is `google_search`.",
  echarts: "The official inference gives null: echarts nodes are typed `tool` and their tool name matches no rule.",
};

/** The variables a node exposes to other nodes, with the official and the real type of each. */
export function exposedVariables(node: NodeLike, ctx: FactsContext): ExposedVariable[] {
  const facts = nodeFacts(node, ctx);
  if (!facts || !isNodeTypeId(node.type)) return [];
  const names = exposedNames(facts, node.type);
  return names.map((name) => {
    const official = officialVariableType(facts, name);
    const officialType = official.ok ? official.type : undefined;
    const realType = realVariableType(facts, name) ?? null;
    const exposed: ExposedVariable = { name, officialType, realType };
    const quirk = QUIRKS[node.type as NodeTypeId];
    if (quirk && officialType !== realType) exposed.quirk = quirk;
    else if (node.type === "iteration" && name === "item" && officialType !== realType) {
      exposed.quirk = "The official inference strips the characters a, r, y, [ and ] from the input type.";
    }
    return exposed;
  });
}

/** Names a node exposes: the declared ones (start, code, parameter-extractor), else the catalog's documented outputs. */
export function exposedNames(facts: NodeFacts, type: NodeTypeId | null): string[] {
  switch (facts.type) {
    case "start":
      return facts.variables.flatMap((v) => (typeof v.name === "string" ? [v.name] : []));
    case "code":
      return [...facts.outputs.values()].flatMap((v) => (typeof v.name === "string" ? [v.name] : []));
    case "parameter-extractor":
      return facts.parameters.flatMap((v) => (typeof v.name === "string" ? [v.name] : []));
    default:
      return type ? CATALOG[type].outputs.map((output) => output.name) : [];
  }
}

// -- output ports ----------------------------------------------------------------------------------------------

export type { OutputPort } from "./nodes/types";

/** Ports a node's outgoing edges may use: the type's own (if-else cases then ELSE; one per class; end none), else one. */
export function outputPorts(node: NodeLike): OutputPort[] {
  const param = isJsonObject(node.param) ? node.param : {};
  const ports = typeof node.type === "string" && isNodeTypeId(node.type) ? NODE_SPECS[node.type].ports : undefined;
  return ports ? ports(param) : [{ index: 0, label: "source", kind: "source" }];
}

export { NODE_TYPE_IDS };
