// Param-shape checks per node type: required keys, selector and entry shapes, text fields, type-specific rules.
// Errors carry step_1_2 only where the official converter throws (§3.2); tolerated deviations are warnings.

import {
  CATALOG,
  CHART_TYPES,
  CODE_OUTPUT_TYPES,
  IF_ELSE_OPERATORS,
  LIST_OPERATORS,
  MARKDOWN_TARGET_TYPES,
  PARAMETER_TYPES,
  START_VARIABLE_TYPES,
  textFieldPaths,
  type ParamPath,
  type SelectorShape,
} from "../catalog";
import type { Diagnostic } from "../diagnostics";
import { describeKind, ownValue, preview, pyIter, type JsonObject, type JsonValue } from "../python-values";
import { makeDiagnostic, type DiagnosticCode } from "../diagnostic-codes";
import { describeNode, formatPath, nodeLocation, registeredBefore, type NodeEntry, type WorkflowModel } from "./model";

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

function countDots(text: string): number {
  let dots = 0;
  for (const ch of text) if (ch === ".") dots += 1;
  return dots;
}

/** Checks one `[variable, nodeId]` selector; true when it is usable as a reference. */
function checkSelector(ctx: ParamContext, value: JsonValue | undefined, path: ParamPath, shape: SelectorShape): boolean {
  if (typeof value === "string") {
    report(ctx, "selector-as-string", path, `${whereAt(ctx, path)} is the string ${preview(value)}; a selector is [variable, nodeId].`, selectorSuggestion(value), stringSelectorStep(ctx, value));
    return false;
  }
  if (!Array.isArray(value) || value.length < 2) {
    report(ctx, "malformed-selector", path, `${whereAt(ctx, path)} is ${Array.isArray(value) ? `a list of ${value.length}` : describeKind(value)}; a selector is [variable, nodeId].`);
    return false;
  }
  const [variable, nodeId] = value;
  if (Array.isArray(nodeId)) {
    if (shape === "selectors") {
      report(ctx, "nested-aggregator-entry", path, `${whereAt(ctx, path)} is ${preview(value)}: aggregator entries are flat [variable, nodeId] pairs, not [name, [variable, nodeId]].`, `Write ${preview(nodeId)}.`);
    } else {
      report(ctx, "malformed-selector", path, `${whereAt(ctx, path)} has a list where the node id belongs: ${preview(value)}.`, "A selector is [variable, nodeId].");
    }
    return false;
  }
  if (typeof nodeId !== "string") {
    report(ctx, "malformed-selector", path, `${whereAt(ctx, path)} names the node ${preview(nodeId)}, which is not a string id.`, `Quote the id: "${preview(nodeId)}".`);
    return false;
  }
  if (typeof variable !== "string") {
    ctx.out.push(
      makeDiagnostic("variable-name-not-string", `${whereAt(ctx, path)} reads the variable ${preview(variable)}, which is not a string.`, {
        location: nodeLocation(ctx.node, path),
      }),
    );
    return false;
  }
  if (shape !== "selector" && shape !== "child-selector" && countDots(variable) > 1) {
    report(ctx, "variable-name-too-deep", path, `${whereAt(ctx, path)} reads "${variable}": only one level of sub-field (file.type) is supported.`);
    return false;
  }
  if (value.length > 2 && shape === "selector") {
    report(ctx, "param-shape", path, `${whereAt(ctx, path)} has ${value.length} elements; only [variable, nodeId] is read.`);
  }
  return true;
}

/** `[[name, [variable, nodeId]], …]` (code and template variables, end outputs). */
function checkNamedSelectors(ctx: ParamContext, key: string, value: JsonValue | undefined): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    const items = pyIter(value);
    if (items && items.length === 0) return;
    report(ctx, "malformed-entry", [key], `${describeNode(ctx.node)} ${at([key])} is ${describeKind(value)}, not a list of [name, [variable, nodeId]].`);
    return;
  }
  value.forEach((entry, i) => {
    const path = [key, i];
    if (!Array.isArray(entry) || entry.length < 2) {
      report(ctx, "malformed-entry", path, `${describeNode(ctx.node)} ${at(path)} is ${preview(entry)}; expected [name, [variable, nodeId]].`);
      return;
    }
    const reference = entry[1];
    if (typeof reference === "string") {
      if (entry.length >= 3 && typeof entry[2] === "string") {
        report(ctx, "flattened-selector", path, `${describeNode(ctx.node)} ${at(path)} is the flat ${preview(entry)}; the reference must be a nested pair.`, `Write ["${String(entry[0])}", ["${reference}", "${entry[2]}"]].`, stringSelectorStep(ctx, reference));
      } else {
        report(ctx, "selector-as-string", [...path, 1], `${describeNode(ctx.node)} ${at([...path, 1])} is the string ${preview(reference)}; expected [variable, nodeId].`, selectorSuggestion(reference), stringSelectorStep(ctx, reference));
      }
      return;
    }
    checkSelector(ctx, reference, [...path, 1], "named-selectors");
  });
}

function checkAggregatorEntries(ctx: ParamContext, value: JsonValue | undefined): void {
  if (value === undefined) return;
  const items = Array.isArray(value) ? value : null;
  if (!items) {
    report(ctx, "malformed-selector", ["variables"], `${describeNode(ctx.node)} \`variables\` is ${describeKind(value)}, not a list of [variable, nodeId].`);
    return;
  }
  if (items.length === 0) {
    report(ctx, "empty-aggregator", ["variables"], `${describeNode(ctx.node)} aggregates nothing: \`variables\` is empty.`, "List the branch outputs to merge, e.g. [[\"text\", \"3\"], [\"text\", \"4\"]].");
    return;
  }
  items.forEach((entry, i) => checkSelector(ctx, entry, ["variables", i], "selectors"));
}

const UNARY_OPERATORS: ReadonlySet<string> = new Set(["empty", "not empty", "exists", "not exists"]);
const KNOWN_IF_OPERATORS: ReadonlySet<string> = new Set(Object.values(IF_ELSE_OPERATORS).flat());

function checkCondition(ctx: ParamContext, condition: JsonValue, path: ParamPath): void {
  if (!Array.isArray(condition) || condition.length < 2) {
    report(ctx, "malformed-if-else", path, `${whereAt(ctx, path)} is ${preview(condition)}; a condition is [[variable, nodeId], operator, value].`);
    return;
  }
  const [selector, operator] = condition;
  if (typeof selector === "string") {
    report(ctx, "malformed-if-else", path, `${whereAt(ctx, path)} is the flat ${preview(condition)}; the variable must be a nested [variable, nodeId] pair.`, "Write [[variable, nodeId], operator, value].");
    return;
  }
  checkSelector(ctx, selector, [...path, 0], "conditions");
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
  if (!Array.isArray(cases)) {
    report(ctx, "malformed-if-else", ["cases"], `${describeNode(ctx.node)} \`cases\` is ${describeKind(cases)}, not a list of [logic, conditions].`);
    return;
  }
  cases.forEach((ifCase, i) => {
    const path = ["cases", i];
    if (!Array.isArray(ifCase) || ifCase.length < 2 || !Array.isArray(ifCase[1])) {
      report(ctx, "malformed-if-else", path, `${describeNode(ctx.node)} ${at(path)} is ${preview(ifCase)}; a case is [logic, [conditions…]].`, 'Write [null, [[["var", "id"], "is", "value"]]].');
      return;
    }
    const [logic, conditions] = ifCase as [JsonValue, JsonValue[]];
    // The string "null" is a common spelling of null and means the same ("and").
    if (logic !== null && logic !== "and" && logic !== "or" && logic !== "null") {
      report(ctx, "invalid-option", [...path, 0], `${describeNode(ctx.node)} ${at([...path, 0])} is ${preview(logic)}; use null, "and" or "or" (anything else means "and").`);
    }
    if (conditions.length === 0) {
      report(ctx, "param-shape", [...path, 1], `${describeNode(ctx.node)} case ${i} has no conditions; it acts as an extra branch, not as ELSE.`, "The ELSE branch is the port after the last case; it needs no case of its own.");
    }
    conditions.forEach((condition, j) => checkCondition(ctx, condition, [...path, 1, j]));
  });
}

function checkTextFields(ctx: ParamContext): void {
  const { node } = ctx;
  if (node.known === "if-else" || !node.param) return;
  for (const path of textFieldPaths({ type: node.type, param: node.param })) {
    const value = valueAt(node.param, path);
    if (typeof value === "string" || value === undefined) continue;
    const pair = Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string";
    report(
      ctx,
      "text-param-not-string",
      path,
      `${describeNode(node)} ${at(path)} is ${describeKind(value)} (${preview(value)}); this field is text.`,
      pair ? `Reference the variable inline: "{{#'${String(value[1])}'.${String(value[0])}#}}".` : "Write the text as a string; reference variables inline as {{#'id'.var#}}.",
    );
  }
}

export function valueAt(param: JsonObject, path: ParamPath): JsonValue | undefined {
  let current: JsonValue | undefined = param;
  for (const part of path) {
    if (current === undefined || current === null || typeof current !== "object") return undefined;
    current = Array.isArray(current) ? (typeof part === "number" ? current[part] : undefined) : ownValue(current, String(part));
  }
  return current;
}

function checkVocabulary(ctx: ParamContext, value: JsonValue | undefined, path: ParamPath, allowed: readonly string[], what: string): void {
  if (value === undefined || (typeof value === "string" && allowed.includes(value))) return;
  report(ctx, "invalid-option", path, `${describeNode(ctx.node)} ${at(path)} is ${preview(value)}, not a known ${what} (${allowed.join(", ")}).`);
}

function checkPairs(
  ctx: ParamContext,
  key: string,
  minLength: number,
  typeIndex: number,
  allowed: readonly string[],
  code: DiagnosticCode,
  shape: string,
): void {
  const value = ctx.node.param ? ownValue(ctx.node.param, key) : undefined;
  if (!Array.isArray(value)) return;
  value.forEach((entry, i) => {
    if (!Array.isArray(entry) || entry.length < minLength) {
      report(ctx, code, [key, i], `${describeNode(ctx.node)} ${at([key, i])} is ${preview(entry)}; expected ${shape}.`);
      return;
    }
    checkVocabulary(ctx, entry[typeIndex], [key, i, typeIndex], allowed, "type");
  });
}

function checkListOperator(ctx: ParamContext, operator: JsonValue | undefined): void {
  if (operator === undefined) return;
  const items = Array.isArray(operator) ? operator : null;
  if (!items || items.length === 0) {
    report(ctx, "malformed-list-operator", ["operator"], `${describeNode(ctx.node)} \`operator\` is ${preview(operator)}; expected e.g. ["limit", 3] or ["filter_by", "=", "x"].`);
    return;
  }
  const name = items[0];
  if (typeof name !== "string" || !(LIST_OPERATORS as readonly string[]).includes(name)) {
    report(ctx, "invalid-option", ["operator", 0], `${describeNode(ctx.node)} uses the list operation ${preview(name)}; use one of ${LIST_OPERATORS.join(", ")}.`);
    return;
  }
  const needed = name === "filter_by" ? 3 : 2;
  if (name === "order_by" && items.length >= 2 && items[1] !== "asc" && items[1] !== "desc") {
    report(ctx, "invalid-option", ["operator", 1], `${describeNode(ctx.node)} order_by takes "asc" or "desc", not ${preview(items[1])}.`);
  }
  const amount = items[1];
  if ((name === "extract_by" || name === "limit") && amount !== undefined && !(typeof amount === "number" && Number.isInteger(amount))) {
    report(ctx, "invalid-option", ["operator", 1], `${describeNode(ctx.node)} ${name} takes a fixed integer (1..20), not ${preview(amount)}.`, "References are not supported here; use an integer, or pick the element in a code node.");
  }
  if (items.length < needed) {
    const hint = name === "filter_by" ? 'filter_by needs three elements even for "empty": ["filter_by", "empty", ""].' : undefined;
    report(ctx, "malformed-list-operator", ["operator"], `${describeNode(ctx.node)} \`operator\` ${preview(operator)} has ${items.length} element(s); ${name} needs ${needed}.`, hint);
  }
}

function checkTypeSpecific(ctx: ParamContext, param: JsonObject): void {
  const type = ctx.node.known;
  switch (type) {
    case "start":
      checkPairs(ctx, "variables", 2, 1, START_VARIABLE_TYPES, "malformed-start-variable", "[name, type]");
      break;
    case "code":
      checkPairs(ctx, "outputs", 2, 1, CODE_OUTPUT_TYPES, "param-shape", "[name, type]");
      break;
    case "parameter-extractor":
      checkPairs(ctx, "parameters", 3, 2, PARAMETER_TYPES, "malformed-parameter", "[description, name, type]");
      break;
    case "list-operator":
      checkListOperator(ctx, ownValue(param, "operator"));
      break;
    case "markdown-exporter": {
      const target = ownValue(param, "target_type");
      if (target !== undefined && typeof target !== "string") {
        report(ctx, "target-type-not-string", ["target_type"], `${describeNode(ctx.node)} \`target_type\` is ${preview(target)}; expected one of ${MARKDOWN_TARGET_TYPES.join(", ")}.`);
      } else checkVocabulary(ctx, target, ["target_type"], MARKDOWN_TARGET_TYPES, "target type");
      break;
    }
    case "echarts": {
      const chart = ownValue(param, "chart_type");
      if (typeof chart === "string") checkVocabulary(ctx, chart, ["chart_type"], CHART_TYPES, "chart type");
      break;
    }
    default:
      break;
  }
}

function checkSelectorParams(ctx: ParamContext, param: JsonObject): void {
  if (!ctx.node.known) return;
  for (const { key, shape } of CATALOG[ctx.node.known].selectorParams) {
    const value = ownValue(param, key);
    if (value === undefined) continue;
    if (shape === "selector") checkSelector(ctx, value, [key], shape);
    else if (shape === "named-selectors") checkNamedSelectors(ctx, key, value);
    else if (shape === "selectors") checkAggregatorEntries(ctx, value);
    else if (shape === "conditions") checkIfElse(ctx, value);
    // child-selector (iteration output) is checked with the iteration rules.
  }
}

function requiredParams(node: NodeEntry): readonly string[] {
  if (!node.known) return [];
  const required = CATALOG[node.known].requiredParams;
  // A nested iteration's output_selector is never read.
  return node.known === "iteration" && node.parentId !== null ? required.filter((key) => key !== "output_selector") : required;
}

function checkRequired(ctx: ParamContext, param: JsonObject): void {
  for (const key of requiredParams(ctx.node)) {
    if (ownValue(param, key) === undefined) {
      report(ctx, "missing-param", [key], `${describeNode(ctx.node)} has no \`${key}\` in its param.`);
    }
  }
}

/** Plain fields the converter copies through; the platform needs them as text. */
const STRING_FIELDS: Readonly<Partial<Record<string, readonly string[]>>> = {
  code: ["code"],
  "template-transform": ["template"],
  "question-classifier": ["instruction"],
};

function checkPlainFields(ctx: ParamContext, param: JsonObject): void {
  for (const key of (ctx.node.known && STRING_FIELDS[ctx.node.known]) || []) {
    const value = ownValue(param, key);
    if (value !== undefined && typeof value !== "string") {
      report(ctx, "param-shape", [key], `${describeNode(ctx.node)} \`${key}\` is ${describeKind(value)}; it must be a string.`);
    }
  }
  if (ctx.node.known !== "question-classifier") return;
  const classes = ownValue(param, "classes");
  if (classes === undefined) return;
  const labels = Array.isArray(classes) ? classes.filter((label) => typeof label === "string") : [];
  if (!Array.isArray(classes) || labels.length !== classes.length || labels.length < 2) {
    report(ctx, "param-shape", ["classes"], `${describeNode(ctx.node)} \`classes\` is ${preview(classes)}; a classifier needs a list of at least two class names.`);
  }
}

export function checkParams(model: WorkflowModel, out: Diagnostic[]): void {
  for (const node of model.nodes) {
    if (!node.known || node.rawParam === undefined) continue;
    const ctx: ParamContext = { model, node, out };
    if (!node.param) {
      if (requiredParams(node).length > 0) {
        report(ctx, "param-not-object", [], `${describeNode(node)} has a param that is ${describeKind(node.rawParam)}, not an object.`);
      }
      continue;
    }
    checkRequired(ctx, node.param);
    checkSelectorParams(ctx, node.param);
    checkTextFields(ctx);
    checkTypeSpecific(ctx, node.param);
    checkPlainFields(ctx, node.param);
  }
}
