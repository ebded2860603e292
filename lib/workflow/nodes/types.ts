// The contract every node type's module fulfils: its documented param shape, what it exposes, its ports, its Dify
// conversion and its type-specific checks. The converter and the analysis only iterate these specs.

import type { DiagnosticCode } from "../diagnostic-codes";
import type { DiagnosticLocation } from "../diagnostics";
import type { DifyData, IdSource } from "../dify-graph";
import type { FloatLiterals } from "../json-text";
import type { NodeTypeId, NodeTypeInfo } from "../node-types";
import type { JsonObject, JsonValue } from "../python-values";
import type { ObjectShape } from "../../zod-fast-path";

export type SelectorShape =
  /** param[key] = [var, id] */
  | "selector"
  /** param[key] = [[name, [var, id]], …] */
  | "named-selectors"
  /** param[key] = [[var, id], …] */
  | "selectors"
  /** param.cases[i][1][j][0] = [var, id] */
  | "conditions"
  /** param[key] = [var, childId] resolved when the child is built (iteration output) */
  | "child-selector";

export interface SelectorParamSpec {
  key: string;
  shape: SelectorShape;
}

export type ParamPath = (string | number)[];

export interface DeclaredVariable {
  name: JsonValue;
  type: JsonValue;
}

export type ToolNodeType = "tts" | "text2image" | "markdown-exporter" | "mermaid-converter" | "google-search" | "echarts";

/** The facts the official inference reads from a node (built by the converter, or leniently for viewers). */
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

/** The facts of one kind, by the `type` they carry. */
export type FactsOf<T extends NodeFacts["type"]> = Extract<NodeFacts, { type: T }>;

export type TypeLookupFailure = "variable-name-not-string" | "reference-no-outputs" | "undeclared-code-output" | "iteration-item-untyped";

export type TypeLookup = { ok: true; type: JsonValue } | { ok: false; code: TypeLookupFailure; message: string };

export interface FactsContext {
  /** Official type of the value a `[var, id]` selector points at; undefined when it cannot be resolved. */
  inputType(selector: JsonValue | undefined): JsonValue | undefined;
  /** For an iteration: the official type of its output child's variable, when known. */
  iterationChildType?(selector: JsonValue | undefined): JsonValue | undefined;
}

/**
 * What other nodes may read from a node of this type: the facts the official inference reads, the official type of
 * a variable (§2.6, after the shared dotted-name rule), what the platform really exposes, and the names shown.
 */
export interface NodeVariables<F extends NodeFacts = NodeFacts> {
  /** The facts computed leniently from a param (viewers, analysis): never failing, unknown parts become null. */
  facts(param: JsonObject, ctx: FactsContext): F;
  /** The official converter's type for a variable name that is a string without a dot. */
  officialType(facts: F, variable: JsonValue): TypeLookup;
  /** The real type: a type string, null when unknown, undefined when the node has no such variable. */
  realType(facts: F, variable: string): string | null | undefined;
  /** The names a node exposes: the declared ones (start, code, extractor), else the documented outputs. */
  names(facts: F): string[];
  /** Why the official type of `name` differs from the real one, when a known quirk explains it. */
  quirk?(name: string): string | undefined;
}

/** A handle a node's outgoing edges may leave from. */
export interface OutputPort {
  /** The edge port number that selects this handle. */
  index: number;
  label: string;
  kind: "case" | "else" | "class" | "source";
}

/** A node as the converter registered it, as far as another node's conversion may look at it. */
export interface BuiltNodeRef {
  workflowId: string;
  difyId: string;
  type: string;
  /** null for an unknown type (the official None). */
  facts: NodeFacts | null;
}

export interface ResolvedSelector {
  variable: JsonValue;
  node: BuiltNodeRef;
  /** The official inferred type of the variable. */
  type: JsonValue;
}

export interface ConversionFailureSpec {
  code: DiagnosticCode;
  message: string;
  location?: DiagnosticLocation;
  targetNodeId?: string;
  hint?: string;
}

/**
 * What a node's Dify conversion may ask of the converter. Every method reads like the official Python (`param[key]`,
 * `value[i]`, `id_dict[id]`) and throws the conversion failure the official code would raise, in the same order.
 */
export interface DifyBuildContext {
  /** Only the verdict is wanted: a builder may leave out its Dify data once every check of its param has run. */
  readonly checkOnly: boolean;
  readonly ids: IdSource;
  readonly floats: FloatLiterals | null;
  readonly githubToken: string;
  /** "Node "3"" for messages. */
  nodeRef(): string;
  /** The location of a param path on the node being built. */
  at(path: ParamPath): DiagnosticLocation;
  fail(spec: ConversionFailureSpec): never;
  /** Python `param[key]`: param must be a dict holding the key. */
  param(param: JsonValue, key: string, missingCode?: DiagnosticCode): JsonValue;
  /** Python iteration over a param value. */
  iterate(value: JsonValue, path: ParamPath, expected: string): readonly JsonValue[];
  /** Python `value[index]`. */
  item(value: JsonValue, index: number, path: ParamPath, expected: string, code?: DiagnosticCode): JsonValue;
  /** `[var, id]`: the registered node and the variable's official type. */
  resolveSelector(selector: JsonValue, path: ParamPath, entryHint?: string): ResolvedSelector;
  /** `id_dict[id]` for an id already read from a selector. */
  lookupNode(refId: JsonValue, path: ParamPath, flattenedHint?: string): BuiltNodeRef;
  typeOf(variable: JsonValue, node: BuiltNodeRef, path: ParamPath): JsonValue;
  /** The Dify value selector of a variable (a dotted name becomes [id, a, b]). */
  valueSelector(difyId: string, variable: JsonValue, path: ParamPath): JsonValue[];
  /** A text param with its `{{#id.var#}}` references rewritten to Dify ids. */
  rewriteText(value: JsonValue, path: ParamPath): string;
  /** rewriteText for text that only goes into the Dify data: in check-only mode it is checked but not rewritten. */
  emittedText(value: JsonValue, path: ParamPath): string;
}

export interface DifyPart {
  facts: NodeFacts;
  /** Left out only in check-only mode. */
  data?: DifyData;
  /** if-else and classifier: the source handle of each port. */
  handles?: string[];
}

/** What a node's type-specific checks may report through (the analysis implements it). */
export interface ParamCheckContext {
  readonly param: JsonObject;
  /** `node "3" (llm)` for messages. */
  readonly where: string;
  report(code: DiagnosticCode, path: ParamPath, message: string, hint?: string): void;
  /** An `invalid-option` warning unless the value is one of `allowed`. */
  vocabulary(value: JsonValue | undefined, path: ParamPath, allowed: readonly string[], what: string): void;
  /** Entries of param[key] must have `minLength` items; the one at `typeIndex` is a type from `allowed`. */
  pairs(key: string, minLength: number, typeIndex: number, allowed: readonly string[], code: DiagnosticCode, shape: string): void;
}

// -- Coze ------------------------------------------------------------------------------------------------------------

/** A Coze value reference: the variable `path` on the node `ref_node` (a Coze id). */
export interface CozeRef {
  path: JsonValue;
  ref_node: string;
}

/** Text with its inline references rewritten to `{{_<cozeId>_<var>}}`, and `[var, cozeId]` per match in order. */
export interface CozeRewrite {
  text: string;
  records: [string, string][];
}

/** What a node's Coze conversion may ask of the Coze converter (same reading rules as the Dify one, §6). */
export interface CozeBuildContext {
  readonly githubToken: string;
  nodeRef(): string;
  at(path: ParamPath): DiagnosticLocation;
  param(param: JsonValue, key: string): JsonValue;
  iterate(value: JsonValue, path: ParamPath, expected: string): readonly JsonValue[];
  item(value: JsonValue, index: number, path: ParamPath, expected: string, code?: DiagnosticCode): JsonValue;
  /** `[var, id]` -> `{path, ref_node}` with the output-name remapping of the referenced node (§6.2). */
  selector(selector: JsonValue, path: ParamPath, entryHint?: string): CozeRef;
  /** The registered Coze node of a selector, for entries that need its id and the raw variable. */
  selectorTarget(selector: JsonValue, path: ParamPath): { variable: JsonValue; node: { cozeId: string; title: string } };
  rewrite(value: JsonValue, path: ParamPath): CozeRewrite;
}

export interface CozeNodeParts {
  parameters: Record<string, unknown>;
  /** A title other than "<base> <n>" (echarts: `<chart_type>_charts`). */
  baseTitle?: string;
  /** Remembered for the `files` remapping of markdown exporters (§6.2). */
  targetType?: JsonValue;
  /** if-else: the number of branches; classifier: the number of intents (ports are computed from them). */
  branchCount?: number;
}

export type CozeMapping =
  | {
      kind: "node";
      /** The Coze node type (`llm`, `plugin`, `batch`, …). */
      cozeType: string;
      baseTitle: string;
      icon: string;
      description: string;
      /** A fixed id (start 100001, end 900001); others are drawn. */
      fixedId?: string;
      build(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts;
    }
  /** The type has no Coze node: any workflow using it cannot be exported (list-operator). */
  | { kind: "none"; reason: string }
  /** The type is implicit in Coze and dropped (iteration-start: a batch has its own start). */
  | { kind: "implicit" };

export interface NodeSpec {
  type: NodeTypeId;
  info: NodeTypeInfo;
  /** Documented shape of `param`; extra keys are allowed (the converter ignores them). */
  paramShape: ObjectShape;
  /** Keys the official converter reads unconditionally (a missing one is a conversion error). */
  requiredParams: readonly string[];
  /** Top-level param keys holding rewritten text (`{{#id.var#}}` resolved). */
  textParams: readonly string[];
  /** Rewritten text nested inside params (if-else condition values, a list filter's string value), when present. */
  nestedTextPaths?(param: JsonObject): ParamPath[];
  /** Where selectors live. */
  selectorParams: readonly SelectorParamSpec[];
  /** The variables other nodes may reference: their names (documented, or declared by start/code/extractor) and types. */
  variables: NodeVariables;
  /** Whether the edge port selects a branch (if-else, question-classifier). */
  branching: boolean;
  /** The ports edges may leave from, when not the single default one (if-else, classifier; end has none). */
  ports?(param: JsonObject): OutputPort[];
  /** The official Dify conversion of the node's param, reading it in the official order. */
  toDify(ctx: DifyBuildContext, param: JsonValue, title: string, ordinal: number): DifyPart;
  /** The Coze conversion (coze-export spec §7), or why the type has none. */
  coze: CozeMapping;
  /** Checks only this type needs (vocabularies, entry shapes), beyond required keys, selectors and text fields. */
  checkParams?(ctx: ParamCheckContext): void;
}
