// The key parameters a node box shows (prompt previews, code outputs, classes, cases, template, end outputs) and
// its output ports. Total over any JSON: malformed params show as previews, never throw. Text only, never markup.

import { CATALOG, outputPorts } from "../workflow/catalog";
import { NODE_TYPES, isNodeTypeId, type NodeTypeId } from "../workflow/node-types";
import { isJsonObject, ownValue, preview, type JsonObject, type JsonValue } from "../workflow/python-values";

export interface SummaryLine {
  label: string;
  value: string;
  /** Render in a monospace font (selectors, code, identifiers). */
  mono?: boolean;
}

export type PortKind = "case" | "else" | "class" | "source" | "invalid";

export interface ViewPort {
  /** Handle id on the canvas: `p<index>` for declared ports, `x:<port>` for ports only edges use. */
  id: string;
  label: string;
  kind: PortKind;
  /** A condition summary (if-else cases). */
  detail?: string;
}

const PREVIEW = 72;
const LIST_LIMIT = 4;

/** One line of text: whitespace collapsed, cut at `max` characters. */
export function oneLine(text: string, max = PREVIEW): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function text(value: JsonValue | undefined, max = PREVIEW): string {
  if (value === undefined) return "—";
  return typeof value === "string" ? oneLine(value, max) || "(empty)" : preview(value, max);
}

/** `[variable, nodeId]` as `nodeId.variable`; anything else as a JSON preview. */
export function selectorText(value: JsonValue | undefined): string {
  if (Array.isArray(value) && value.length >= 2 && typeof value[0] === "string" && typeof value[1] === "string") {
    return `${value[1]}.${value[0]}`;
  }
  return value === undefined ? "—" : preview(value, 40);
}

function list<T>(items: readonly T[], render: (item: T) => string, separator = ", "): string {
  const shown = items.slice(0, LIST_LIMIT).map(render).join(separator);
  return items.length > LIST_LIMIT ? `${shown} +${items.length - LIST_LIMIT} more` : shown;
}

function arrayParam(param: JsonObject, key: string): JsonValue[] | null {
  const value = ownValue(param, key);
  return Array.isArray(value) ? value : null;
}

/** `[name, [var, id]]` entries as `name ← id.var`. */
function namedSelectors(entries: JsonValue[]): string {
  return list(entries, (entry) => (Array.isArray(entry) ? `${text(entry[0], 24)} ← ${selectorText(entry[1])}` : preview(entry, 30)));
}

/** `[name, type]` pairs as `name: type`. */
function typedNames(entries: JsonValue[], nameIndex = 0, typeIndex = 1): string {
  return list(entries, (entry) => (Array.isArray(entry) ? `${text(entry[nameIndex], 24)}: ${text(entry[typeIndex], 20)}` : preview(entry, 30)));
}

/** The language a code node's source is written in (Dify code nodes run Python 3 or JavaScript). */
export function codeLanguage(code: JsonValue | undefined): string {
  if (typeof code !== "string") return "unknown";
  // `/^\s*def\s+main\b/m`, whose `\s*` rescans every blank line after each line start, as one pass.
  if (/(?:^|[\n\r\u2028\u2029])[^\S\n\r\u2028\u2029]*def\s+main\b/.test(code)) return "python3";
  if (/\bfunction\s+main\b|\b(?:const|let|var)\s+main\s*=/.test(code)) return "javascript";
  return "python3";
}

function conditionText(condition: JsonValue): string {
  if (!Array.isArray(condition)) return preview(condition, 40);
  const [selector, operator, value] = condition;
  const parts = [selectorText(selector), typeof operator === "string" ? operator : preview(operator, 16)];
  if (condition.length >= 3) parts.push(typeof value === "string" ? JSON.stringify(oneLine(value, 24)) : preview(value, 24));
  return parts.join(" ");
}

function caseDetail(ifCase: JsonValue): string {
  if (!Array.isArray(ifCase)) return preview(ifCase, 40);
  const logic = ifCase[0] === "or" ? " or " : " and ";
  const conditions = Array.isArray(ifCase[1]) ? ifCase[1] : [];
  if (conditions.length === 0) return "(no conditions)";
  return oneLine(list(conditions, conditionText, logic), 60);
}

/** Summary lines of a node of `type` with `param` (any JSON). */
export function summarizeNode(type: JsonValue | undefined, param: JsonValue | undefined): SummaryLine[] {
  const p = isJsonObject(param) ? param : null;
  if (!isNodeTypeId(type)) {
    if (!p) return [{ label: "param", value: preview(param, PREVIEW), mono: true }];
    const keys = Object.keys(p);
    return keys.length ? [{ label: "keys", value: list(keys, (key) => key), mono: true }] : [];
  }
  if (!p) return param === undefined ? [{ label: "param", value: "missing" }] : [{ label: "param", value: preview(param, PREVIEW), mono: true }];
  return summarizeKnown(type, p);
}

function summarizeKnown(type: NodeTypeId, p: JsonObject): SummaryLine[] {
  const lines: SummaryLine[] = [];
  const add = (label: string, value: string, mono = false): void => {
    lines.push(mono ? { label, value, mono } : { label, value });
  };
  switch (type) {
    case "start": {
      const variables = arrayParam(p, "variables");
      add("inputs", variables ? (variables.length ? typedNames(variables) : "none") : text(ownValue(p, "variables")), true);
      break;
    }
    case "end": {
      const outputs = arrayParam(p, "outputs");
      add("outputs", outputs ? (outputs.length ? namedSelectors(outputs) : "none") : text(ownValue(p, "outputs")), true);
      break;
    }
    case "llm":
      add("system", text(ownValue(p, "system")));
      add("user", text(ownValue(p, "user")));
      break;
    case "question-classifier":
      add("query", selectorText(ownValue(p, "query_variable_selector")), true);
      break;
    case "code": {
      const variables = arrayParam(p, "variables");
      const outputs = arrayParam(p, "outputs");
      add("language", codeLanguage(ownValue(p, "code")));
      add("inputs", variables ? (variables.length ? namedSelectors(variables) : "none") : text(ownValue(p, "variables")), true);
      add("outputs", outputs ? (outputs.length ? typedNames(outputs) : "none") : text(ownValue(p, "outputs")), true);
      break;
    }
    case "document-extractor":
      add("file", selectorText(ownValue(p, "variable_selector")), true);
      break;
    case "http-request":
      add("url", selectorText(ownValue(p, "url")), true);
      break;
    case "if-else":
      break;
    case "list-operator": {
      add("list", selectorText(ownValue(p, "variable")), true);
      const operator = ownValue(p, "operator");
      add("operator", Array.isArray(operator) ? operator.map((part) => (typeof part === "string" ? part : preview(part, 16))).join(" ") : text(operator), true);
      break;
    }
    case "parameter-extractor": {
      add("query", selectorText(ownValue(p, "query")), true);
      const parameters = arrayParam(p, "parameters");
      add("extracts", parameters ? (parameters.length ? typedNames(parameters, 1, 2) : "none") : text(ownValue(p, "parameters")), true);
      break;
    }
    case "template-transform": {
      const variables = arrayParam(p, "variables");
      add("inputs", variables ? (variables.length ? namedSelectors(variables) : "none") : text(ownValue(p, "variables")), true);
      add("template", text(ownValue(p, "template")), true);
      break;
    }
    case "variable-aggregator": {
      const variables = arrayParam(p, "variables");
      add("merges", variables ? (variables.length ? list(variables, selectorText) : "none") : text(ownValue(p, "variables")), true);
      break;
    }
    case "iteration":
      add("over", selectorText(ownValue(p, "iterator_selector")), true);
      add("collects", selectorText(ownValue(p, "output_selector")), true);
      break;
    case "iteration-start":
      break;
    case "tts":
      add("text", text(ownValue(p, "text")));
      break;
    case "text2image":
      add("prompt", text(ownValue(p, "prompt")));
      break;
    case "mermaid-converter":
      add("mermaid", text(ownValue(p, "mermaid_code")), true);
      break;
    case "markdown-exporter":
      add("format", text(ownValue(p, "target_type"), 16));
      add("markdown", text(ownValue(p, "md_text")));
      break;
    case "google-search":
      add("query", text(ownValue(p, "query")));
      break;
    case "echarts":
      add("chart", `${text(ownValue(p, "chart_type"), 12)} · ${text(ownValue(p, "chart_title"), 40)}`);
      add("data", text(ownValue(p, "data"), 40), true);
      break;
  }
  return lines;
}

/** Declared output ports: if-else cases then ELSE, one per classifier class, none for End, else one. */
export function declaredPorts(type: JsonValue | undefined, param: JsonValue | undefined): ViewPort[] {
  const node = { type, param: param ?? null };
  const ports = outputPorts(node);
  const cases = type === "if-else" && isJsonObject(param) ? arrayParam(param, "cases") : null;
  return ports.map((port) => {
    const view: ViewPort = { id: `p${port.index}`, label: oneLine(port.label, 40) || "(empty)", kind: port.kind };
    if (port.kind === "case" && cases) view.detail = caseDetail(cases[port.index] ?? null);
    return view;
  });
}

/** Whether the ports of this type are drawn as labelled rows (one handle per branch). */
export function isBranching(type: JsonValue | undefined): boolean {
  return isNodeTypeId(type) && CATALOG[type].branching;
}

/** The display title of a node type; unknown types keep the text the model wrote. */
export function typeTitle(type: JsonValue | undefined): string {
  if (isNodeTypeId(type)) return NODE_TYPES[type].displayName;
  if (typeof type === "string") return type || "(empty type)";
  return type === undefined ? "(no type)" : preview(type, 24);
}
