// Param-shape checks per node type: required keys, selector and entry shapes, text fields, and each type's own
// checks (NodeSpec.checkParams), all driven by the node specs.
// Errors carry step_1_2 only where the official converter throws (§3.2); tolerated deviations are warnings.

import { uncertainParamKeys, validateParam, type ParamPath, type SelectorParamSpec, type SelectorShape } from "../catalog";
import { makeDiagnostic, type DiagnosticCode } from "../diagnostic-codes";
import type { Diagnostic } from "../diagnostics";
import { NODE_SPECS } from "../nodes";
import type { ParamCheckContext } from "../nodes/types";
import { IF_ELSE_OPERATORS } from "../nodes/vocabulary";
import { describeKind, isArray, ownValue, preview, pyIter, type JsonObject, type JsonValue } from "../python-values";
import { describeNode, formatPath, nodeLocation, registeredBefore, textFieldsOf, type NodeEntry, type TextField, type WorkflowModel } from "./model";

/** One per checkParams call, moved from node to node. */
interface ParamContext {
  model: WorkflowModel;
  node: NodeEntry;
  out: Diagnostic[];
}

/**
 * A selector written as a string is indexed character by character by the converter: its second character is
 * read as the node id. Conversion only survives when that character happens to name an earlier node ("x1").
 */
function stringSelectorStep(ctx: ParamContext, text: string): { officialStep?: null } {
  const second = Array.from(text)[1];
  return second !== undefined && registeredBefore(ctx.model, second, ctx.node.index) ? { officialStep: null } : {};
}

function report(ctx: ParamContext, code: DiagnosticCode, path: ParamPath, message: string, hint?: string, extra: { officialStep?: null } = {}): void {
  ctx.out.push(makeDiagnostic(code, message, { location: nodeLocation(ctx.node, path), hint, ...extra }));
}

function at(path: ParamPath): string {
  return `\`${formatPath(path)}\``;
}

/** "node "3" (llm) `param.path`", built only when a problem is reported (most selectors have none). */
function whereAt(ctx: ParamContext, path: ParamPath): string {
  return `${describeNode(ctx.node)} ${at(path)}`;
}

const INLINE_REF_TEXT = /^\{\{#['"]?([^.'"]+)['"]?\.([^#]+)#\}\}$/;
const DOTTED_REF_TEXT = /^(\w[\w-]*)\.(\w+)$/;

/** For a selector written as a string, the pair it most likely meant ("{{#'3'.text#}}" -> ["text", "3"]). */
function selectorSuggestion(text: string): string | undefined {
  const match = INLINE_REF_TEXT.exec(text) ?? DOTTED_REF_TEXT.exec(text);
  return match ? `Write ["${match[2]}", "${match[1]}"].` : 'A selector is ["variableName", "nodeId"].';
}

function hasTwoDots(text: string): boolean {
  const first = text.indexOf(".");
  return first >= 0 && text.indexOf(".", first + 1) >= 0;
}

/**
 * A `[variable, nodeId]` pair of strings that checkSelector finds nothing to report on (nearly every selector): the
 * callers test this first, so that they build the selector's path only for the others.
 */
export function isPlainSelector(value: JsonValue | undefined, shape: SelectorShape): boolean {
  return (
    isArray(value) &&
    value.length === 2 &&
    typeof value[1] === "string" &&
    typeof value[0] === "string" &&
    (shape === "selector" || shape === "child-selector" || !hasTwoDots(value[0]))
  );
}

/** Checks one `[variable, nodeId]` selector. */
function checkSelector(ctx: ParamContext, value: JsonValue | undefined, path: ParamPath, shape: SelectorShape): void {
  if (typeof value === "string") {
    report(ctx, "selector-as-string", path, `${whereAt(ctx, path)} is the string ${preview(value)}; a selector is [variable, nodeId].`, selectorSuggestion(value), stringSelectorStep(ctx, value));
    return;
  }
  if (!isArray(value) || value.length < 2) {
    report(ctx, "malformed-selector", path, `${whereAt(ctx, path)} is ${isArray(value) ? `a list of ${value.length}` : describeKind(value)}; a selector is [variable, nodeId].`);
    return;
  }
  const variable = value[0];
  const nodeId = value[1];
  if (isArray(nodeId)) {
    if (shape === "selectors") {
      report(ctx, "nested-aggregator-entry", path, `${whereAt(ctx, path)} is ${preview(value)}: aggregator entries are flat [variable, nodeId] pairs, not [name, [variable, nodeId]].`, `Write ${preview(nodeId)}.`);
    } else {
      report(ctx, "malformed-selector", path, `${whereAt(ctx, path)} has a list where the node id belongs: ${preview(value)}.`, "A selector is [variable, nodeId].");
    }
    return;
  }
  if (typeof nodeId !== "string") {
    report(ctx, "malformed-selector", path, `${whereAt(ctx, path)} names the node ${preview(nodeId)}, which is not a string id.`, `Quote the id: "${preview(nodeId)}".`);
    return;
  }
  if (typeof variable !== "string") {
    ctx.out.push(
      makeDiagnostic("variable-name-not-string", `${whereAt(ctx, path)} reads the variable ${preview(variable)}, which is not a string.`, {
        location: nodeLocation(ctx.node, path),
      }),
    );
    return;
  }
  if (shape !== "selector" && shape !== "child-selector" && hasTwoDots(variable)) {
    report(ctx, "variable-name-too-deep", path, `${whereAt(ctx, path)} reads "${variable}": only one level of sub-field (file.type) is supported.`);
    return;
  }
  if (value.length > 2 && shape === "selector") {
    report(ctx, "param-shape", path, `${whereAt(ctx, path)} has ${value.length} elements; only [variable, nodeId] is read.`);
  }
}

/** `[[name, [variable, nodeId]], …]` (code and template variables, end outputs). */
function checkNamedSelectors(ctx: ParamContext, key: string, value: JsonValue | undefined): void {
  if (value === undefined) return;
  if (!isArray(value)) {
    const items = pyIter(value);
    if (items && items.length === 0) return;
    report(ctx, "malformed-entry", [key], `${describeNode(ctx.node)} ${at([key])} is ${describeKind(value)}, not a list of [name, [variable, nodeId]].`);
    return;
  }
  for (let i = 0; i < value.length; i += 1) {
    const entry = value[i] as JsonValue;
    if (!isArray(entry) || entry.length < 2) {
      const path = [key, i];
      report(ctx, "malformed-entry", path, `${describeNode(ctx.node)} ${at(path)} is ${preview(entry)}; expected [name, [variable, nodeId]].`);
      continue;
    }
    const reference = entry[1];
    if (isPlainSelector(reference, "named-selectors")) continue;
    const path = [key, i];
    if (typeof reference === "string") {
      if (entry.length >= 3 && typeof entry[2] === "string") {
        report(ctx, "flattened-selector", path, `${describeNode(ctx.node)} ${at(path)} is the flat ${preview(entry)}; the reference must be a nested pair.`, `Write ["${String(entry[0])}", ["${reference}", "${entry[2]}"]].`, stringSelectorStep(ctx, reference));
      } else {
        report(ctx, "selector-as-string", [...path, 1], `${describeNode(ctx.node)} ${at([...path, 1])} is the string ${preview(reference)}; expected [variable, nodeId].`, selectorSuggestion(reference), stringSelectorStep(ctx, reference));
      }
      continue;
    }
    checkSelector(ctx, reference, [key, i, 1], "named-selectors");
  }
}

function checkAggregatorEntries(ctx: ParamContext, value: JsonValue | undefined): void {
  if (value === undefined) return;
  const items = isArray(value) ? value : null;
  if (!items) {
    report(ctx, "malformed-selector", ["variables"], `${describeNode(ctx.node)} \`variables\` is ${describeKind(value)}, not a list of [variable, nodeId].`);
    return;
  }
  if (items.length === 0) {
    report(ctx, "empty-aggregator", ["variables"], `${describeNode(ctx.node)} aggregates nothing: \`variables\` is empty.`, "List the branch outputs to merge, e.g. [[\"text\", \"3\"], [\"text\", \"4\"]].");
    return;
  }
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i];
    if (!isPlainSelector(item, "selectors")) checkSelector(ctx, item, ["variables", i], "selectors");
  }
}

const UNARY_OPERATORS: ReadonlySet<string> = new Set(["empty", "not empty", "exists", "not exists"]);
const KNOWN_IF_OPERATORS: ReadonlySet<string> = new Set(Object.values(IF_ELSE_OPERATORS).flat());

function checkCondition(ctx: ParamContext, condition: JsonValue, path: ParamPath): void {
  if (!isArray(condition) || condition.length < 2) {
    report(ctx, "malformed-if-else", path, `${whereAt(ctx, path)} is ${preview(condition)}; a condition is [[variable, nodeId], operator, value].`);
    return;
  }
  const selector = condition[0];
  const operator = condition[1];
  if (typeof selector === "string") {
    report(ctx, "malformed-if-else", path, `${whereAt(ctx, path)} is the flat ${preview(condition)}; the variable must be a nested [variable, nodeId] pair.`, "Write [[variable, nodeId], operator, value].");
    return;
  }
  if (!isPlainSelector(selector, "conditions")) checkSelector(ctx, selector, path.concat(0), "conditions");
  if (typeof operator !== "string" || !KNOWN_IF_OPERATORS.has(operator)) {
    report(ctx, "invalid-option", [...path, 1], `${whereAt(ctx, path)} uses the operator ${preview(operator)}, which is not in the if-else vocabulary.`);
  }
  if (condition.length >= 3) {
    const value = condition[2];
    if (typeof value !== "string") {
      report(ctx, "if-else-value-not-string", [...path, 2], `${whereAt(ctx, path)} compares with ${preview(value)}, which is not a string.`, `Write it as a string: "${preview(value)}".`);
    }
  } else if (typeof operator === "string" && !UNARY_OPERATORS.has(operator)) {
    report(ctx, "param-shape", path, `${whereAt(ctx, path)} uses "${operator}" without a comparison value.`);
  }
}

function checkIfElse(ctx: ParamContext, cases: JsonValue | undefined): void {
  if (cases === undefined) return;
  if (!isArray(cases)) {
    report(ctx, "malformed-if-else", ["cases"], `${describeNode(ctx.node)} \`cases\` is ${describeKind(cases)}, not a list of [logic, conditions].`);
    return;
  }
  for (let i = 0; i < cases.length; i += 1) {
    const ifCase = cases[i] as JsonValue;
    const path = ["cases", i];
    if (!isArray(ifCase) || ifCase.length < 2 || !isArray(ifCase[1])) {
      report(ctx, "malformed-if-else", path, `${describeNode(ctx.node)} ${at(path)} is ${preview(ifCase)}; a case is [logic, [conditions…]].`, 'Write [null, [[["var", "id"], "is", "value"]]].');
      continue;
    }
    const logic = ifCase[0];
    const conditions = ifCase[1] as JsonValue[];
    // The string "null" is a common spelling of null and means the same ("and").
    if (logic !== null && logic !== "and" && logic !== "or" && logic !== "null") {
      report(ctx, "invalid-option", [...path, 0], `${describeNode(ctx.node)} ${at([...path, 0])} is ${preview(logic)}; use null, "and" or "or" (anything else means "and").`);
    }
    if (conditions.length === 0) {
      report(ctx, "param-shape", [...path, 1], `${describeNode(ctx.node)} case ${i} has no conditions; it acts as an extra branch, not as ELSE.`, "The ELSE branch is the port after the last case; it needs no case of its own.");
    }
    for (let j = 0; j < conditions.length; j += 1) checkCondition(ctx, conditions[j] as JsonValue, ["cases", i, 1, j]);
  }
}

function checkTextFields(ctx: ParamContext): void {
  const { node } = ctx;
  if (node.known === "if-else" || !node.param) return;
  const fields = textFieldsOf(node);
  for (let i = 0; i < fields.length; i += 1) {
    const { path, value } = fields[i] as TextField;
    if (typeof value === "string" || value === undefined) continue;
    const pair = isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string";
    report(
      ctx,
      "text-param-not-string",
      path,
      `${describeNode(node)} ${at(path)} is ${describeKind(value)} (${preview(value)}); this field is text.`,
      pair ? `Reference the variable inline: "{{#'${String(value[1])}'.${String(value[0])}#}}".` : "Write the text as a string; reference variables inline as {{#'id'.var#}}.",
    );
  }
}

export { valueAt } from "./model";

function isAllowed(value: JsonValue | undefined, allowed: readonly string[]): boolean {
  return value === undefined || (typeof value === "string" && allowed.includes(value));
}

function checkVocabulary(ctx: ParamContext, value: JsonValue | undefined, path: ParamPath, allowed: readonly string[], what: string): void {
  if (isAllowed(value, allowed)) return;
  report(ctx, "invalid-option", path, `${describeNode(ctx.node)} ${at(path)} is ${preview(value)}, not a known ${what} (${allowed.join(", ")}).`);
}

/**
 * The context a node type's own checks (NodeSpec.checkParams) report through: a class, so no closures per node, and
 * one per checkParams call, moved to each node's param with the ParamContext.
 */
class SpecCheckContext implements ParamCheckContext {
  constructor(
    private readonly ctx: ParamContext,
    public param: JsonObject,
  ) {}

  /** Built only when a check reports something. */
  get where(): string {
    return describeNode(this.ctx.node);
  }

  report(code: DiagnosticCode, path: ParamPath, message: string, hint?: string): void {
    report(this.ctx, code, path, message, hint);
  }

  vocabulary(value: JsonValue | undefined, path: ParamPath, allowed: readonly string[], what: string): void {
    checkVocabulary(this.ctx, value, path, allowed, what);
  }

  pairs(key: string, minLength: number, typeIndex: number, allowed: readonly string[], code: DiagnosticCode, shape: string): void {
    const value = ownValue(this.param, key);
    if (!isArray(value)) return;
    for (let i = 0; i < value.length; i += 1) {
      const entry = value[i] as JsonValue;
      if (!isArray(entry) || entry.length < minLength) {
        report(this.ctx, code, [key, i], `${describeNode(this.ctx.node)} ${at([key, i])} is ${preview(entry)}; expected ${shape}.`);
      } else if (!isAllowed(entry[typeIndex], allowed)) {
        checkVocabulary(this.ctx, entry[typeIndex], [key, i, typeIndex], allowed, "type");
      }
    }
  }
}

function checkSelectorParams(ctx: ParamContext, param: JsonObject): void {
  if (!ctx.node.known) return;
  const specs = NODE_SPECS[ctx.node.known].selectorParams;
  for (let i = 0; i < specs.length; i += 1) {
    const { key, shape } = specs[i] as SelectorParamSpec;
    const value = ownValue(param, key);
    if (value === undefined) continue;
    if (shape === "selector") {
      if (!isPlainSelector(value, shape)) checkSelector(ctx, value, [key], shape);
    }
    else if (shape === "named-selectors") checkNamedSelectors(ctx, key, value);
    else if (shape === "selectors") checkAggregatorEntries(ctx, value);
    else if (shape === "conditions") checkIfElse(ctx, value);
    // child-selector (iteration output) is checked with the iteration rules.
  }
}

function requiredParams(node: NodeEntry): readonly string[] {
  if (!node.known) return [];
  const required = NODE_SPECS[node.known].requiredParams;
  // A nested iteration's output_selector is never read.
  return node.known === "iteration" && node.parentId !== null ? required.filter((key) => key !== "output_selector") : required;
}

function checkRequired(ctx: ParamContext, param: JsonObject): void {
  const required = requiredParams(ctx.node);
  for (let i = 0; i < required.length; i += 1) {
    const key = required[i] as string;
    if (ownValue(param, key) === undefined) {
      report(ctx, "missing-param", [key], `${describeNode(ctx.node)} has no \`${key}\` in its param.`);
    }
  }
}

/**
 * The backstop: the type's documented param schema (zod). The checks above explain almost every deviation in
 * detail; a schema issue under a top-level key none of them reported becomes one `param-shape` warning.
 */
function checkDocumentedShape(ctx: ParamContext, param: JsonObject, firstReport: number): void {
  const known = ctx.node.known;
  if (!known) return;
  // zod runs only when a key the fast path cannot vouch for has no report yet (zod is slow when cold).
  const suspects = uncertainParamKeys(known, param);
  if (suspects !== null && suspects.length === 0) return;
  const reported = new Set<string | number | undefined>();
  for (let i = firstReport; i < ctx.out.length; i++) reported.add(ctx.out[i]?.location?.paramPath?.[0]);
  if (suspects !== null && suspects.every((key) => reported.has(key))) return;
  const issues = validateParam(known, param);
  const issue = issues.find((candidate) => !reported.has(candidate.path[0]));
  if (!issue) return;
  const { path } = issue;
  // A missing optional-in-practice key is not a shape problem (required keys are checked above).
  if (path.length === 1 && ownValue(param, String(path[0])) === undefined) return;
  const why = issue.unionMismatch ? "it matches none of the documented forms" : issue.message;
  report(ctx, "param-shape", path, `${describeNode(ctx.node)} ${at(path)} does not have the documented shape: ${why}.`);
}

export function checkParams(model: WorkflowModel, out: Diagnostic[]): void {
  const nodes = model.nodes;
  let ctx: ParamContext | null = null;
  let specCtx: SpecCheckContext | null = null;
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as NodeEntry;
    if (!node.known || node.rawParam === undefined) continue;
    if (ctx) ctx.node = node;
    else ctx = { model, node, out };
    const firstReport = out.length;
    if (!node.param) {
      if (requiredParams(node).length > 0) {
        report(ctx, "param-not-object", [], `${describeNode(node)} has a param that is ${describeKind(node.rawParam)}, not an object.`);
      }
      continue;
    }
    checkRequired(ctx, node.param);
    checkSelectorParams(ctx, node.param);
    checkTextFields(ctx);
    const spec = NODE_SPECS[node.known];
    if (spec.checkParams) {
      if (specCtx) specCtx.param = node.param;
      else specCtx = new SpecCheckContext(ctx, node.param);
      spec.checkParams(specCtx);
    }
    checkDocumentedShape(ctx, node.param, firstReport);
  }
}
