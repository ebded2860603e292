// The index of the 20 Chat2Workflow node types: finds a node's module (lib/workflow/nodes/<type>.ts) and applies the
// rules every type shares (dotted names, selector shapes, the default port); no per-type facts live here.

import { NODE_TYPE_IDS, isNodeTypeId, type NodeTypeId } from "./node-types";
import { NODE_SPECS, type NodeSpec } from "./nodes";
import { forEachCondition } from "./nodes/if-else";
import type { FactsContext, NodeFacts, NodeVariables, OutputPort, ParamPath, SelectorParamSpec, SelectorShape, TypeLookup } from "./nodes/types";
import { FOUND_STRING } from "./nodes/variables";
import { fits, shapeIssues, uncertainFields, zodSchemaOf } from "../zod-fast-path";
import { isArray, isJsonObject, ownValue, pyContains, type JsonObject, type JsonValue } from "./python-values";

export type {
  DeclaredVariable,
  FactsContext,
  NodeFacts,
  OutputPort,
  ParamPath,
  SelectorParamSpec,
  SelectorShape,
  ToolNodeType,
  TypeLookup,
  TypeLookupFailure,
} from "./nodes/types";
export { forEachCondition } from "./nodes/if-else";
export { officialElementType } from "./nodes/variables";

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

/** What the catalog tells about a type: its node spec without the conversion and checks. */
export type CatalogEntry = Pick<NodeSpec, "info" | "paramShape" | "requiredParams" | "textParams" | "selectorParams" | "variables" | "branching">;

export const CATALOG: Readonly<Record<NodeTypeId, CatalogEntry>> = NODE_SPECS;

// -- param validation ------------------------------------------------------------------------------------------

export interface ParamIssue {
  /** Path inside `param`, e.g. ["variables", 0, 1]. */
  path: ParamPath;
  message: string;
  /** The value matches none of a union's documented forms. */
  unionMismatch: boolean;
}

const JITLESS = { jitless: true } as const;

/** Checks `param` against the documented shape of `type`; [] when well-shaped or when the type is unknown. */
export function validateParam(type: string, param: unknown): ParamIssue[] {
  if (!isNodeTypeId(type)) return [];
  const documented = CATALOG[type].paramShape;
  if (fits(documented, param)) return [];
  // zod (cold, and its schema built for this) only for misfits the shape cannot word itself.
  const worded = shapeIssues(documented, param);
  if (worded) return worded;
  // Without zod's eval-compiled fast path: parses get here rarely (the fast path above takes the rest), and building
  // its code per schema costs more than it saves on a few parses.
  const result = zodSchemaOf(documented).safeParse(param, JITLESS);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    path: issue.path.filter((part): part is string | number => typeof part !== "symbol"),
    message: issue.message,
    unionMismatch: issue.code === "invalid_union",
  }));
}

/**
 * The top-level keys of `param` whose values may break the documented shape of `type` ([] when none can); null when
 * only validateParam can tell. Every issue validateParam reports lies under one of these keys.
 */
export function uncertainParamKeys(type: NodeTypeId, param: JsonObject): readonly string[] | null {
  return uncertainFields(CATALOG[type].paramShape, param);
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
  return textFieldPathsOf(type, param);
}

/** textFieldPaths for a caller that has checked the type and the param already. */
export function textFieldPathsOf(type: NodeTypeId, param: JsonObject): ParamPath[] {
  const spec = NODE_SPECS[type];
  const paths: ParamPath[] = [];
  const keys = spec.textParams;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    if (ownValue(param, key) !== undefined) paths.push([key]);
  }
  if (spec.nestedTextPaths) paths.push(...spec.nestedTextPaths(param));
  return paths;
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
  else if (!isArray(value)) return;
  else if (shape === "selectors") {
    for (let i = 0; i < value.length; i += 1) visit(ctx, value[i], [key, i], shape);
  } else if (shape === "named-selectors") {
    for (let i = 0; i < value.length; i += 1) {
      const item = value[i];
      if (isArray(item)) visit(ctx, item[1], [key, i, 1], shape);
    }
  } else if (shape === "conditions") {
    forEachCondition(value, (condition, i, j) => {
      if (isArray(condition)) visit(ctx, condition[0], [key, i, 1, j, 0], shape);
    });
  }
}

/** A module function rather than a closure: tsx re-names a named closure (Object.defineProperty) on every call. */
function addSelectorRef(refs: SelectorRef[], value: JsonValue | undefined, path: ParamPath, shape: SelectorShape): void {
  if (isArray(value) && value.length >= 2) {
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

// -- variables: official inference (§2.6) and real types ------------------------------------------------------------

const VARIABLES: ReadonlyMap<string, NodeVariables> = new Map(NODE_TYPE_IDS.map((type) => [type, NODE_SPECS[type].variables]));

/** The variable rules of the type whose facts these are (tool facts carry their node type). */
function variablesOf(facts: NodeFacts): NodeVariables {
  return VARIABLES.get(facts.type === "tool" ? facts.nodeType : facts.type) as NodeVariables;
}

/**
 * The official converter's type for `[variable, node]` (§2.6), quirks included: a name that is not a string
 * fails, a dotted name (`file.type`) is `string` whatever the node; any other name is the node type's rule.
 * Official types are JSON values: the official code passes declared types through unchecked.
 */
export function officialVariableType(facts: NodeFacts, variable: JsonValue): TypeLookup {
  // Names are strings nearly always: pyContains's test for them, without its dispatch.
  const dotted = typeof variable === "string" ? variable.includes(".") : pyContains(variable, ".");
  if (dotted === undefined) {
    return {
      ok: false,
      code: "variable-name-not-string",
      message: `the variable name ${JSON.stringify(variable)} is not a string`,
    };
  }
  if (dotted) return FOUND_STRING;
  return variablesOf(facts).officialType(facts, variable);
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
  return variablesOf(facts).realType(facts, variable);
}

/** The inference facts of a node computed from its param, never failing (unknown parts become null). */
export function nodeFacts(node: NodeLike, ctx: FactsContext): NodeFacts | null {
  const { type } = node;
  if (!isNodeTypeId(type)) return null;
  return NODE_SPECS[type].variables.facts(isJsonObject(node.param) ? node.param : {}, ctx);
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

/** The variables a node exposes to other nodes, with the official and the real type of each. */
export function exposedVariables(node: NodeLike, ctx: FactsContext): ExposedVariable[] {
  const facts = nodeFacts(node, ctx);
  if (!facts) return [];
  const variables = variablesOf(facts);
  return variables.names(facts).map((name) => {
    const official = officialVariableType(facts, name);
    const officialType = official.ok ? official.type : undefined;
    const realType = realVariableType(facts, name) ?? null;
    const exposed: ExposedVariable = { name, officialType, realType };
    const quirk = variables.quirk?.(name);
    if (quirk !== undefined && officialType !== realType) exposed.quirk = quirk;
    return exposed;
  });
}

/** Names a node exposes: the declared ones (start, code, parameter-extractor), else its type's documented outputs. */
export function exposedNames(facts: NodeFacts): string[] {
  return variablesOf(facts).names(facts);
}

// -- output ports ----------------------------------------------------------------------------------------------

/** Ports a node's outgoing edges may use: the type's own (if-else cases then ELSE; one per class; end none), else one. */
export function outputPorts(node: NodeLike): OutputPort[] {
  const param = isJsonObject(node.param) ? node.param : {};
  const ports = typeof node.type === "string" && isNodeTypeId(node.type) ? NODE_SPECS[node.type].ports : undefined;
  return ports ? ports(param) : [{ index: 0, label: "source", kind: "source" }];
}

export { NODE_TYPE_IDS };
