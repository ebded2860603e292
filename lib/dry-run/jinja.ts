// Jinja2 rendering as Dify's template-transform node does it (the template read as a Python string literal, values
// printed as Python prints them); what nunjucks cannot render is uncertain, not a prediction (docs/dry-run.md).

import nunjucks from "nunjucks";
import type { JsonValue } from "@/lib/workflow/python-values";
import { jinjaSyntaxError } from "./jinja-syntax";

export type JinjaResult =
  | { ok: true; text: string }
  /** certain: Dify fails the same way; otherwise our engine could not render what Jinja2 may accept. */
  | { ok: false; reason: string; certain: boolean };

nunjucks.installJinjaCompat();
const runtime = nunjucks.runtime as unknown as { memberLookup: (obj: unknown, name: unknown) => unknown; suppressValue: (value: unknown, autoescape: boolean) => string };
const jinjaMemberLookup = runtime.memberLookup;
const printValue = runtime.suppressValue;
// `{{ x }}` prints True, False and None as Python does (a missing variable still prints nothing).
runtime.suppressValue = (value, autoescape) => printValue(typeof value === "boolean" ? (value ? "True" : "False") : value === null ? "None" : value, autoescape);

/** Python's str methods that templates call on strings (nunjucks strings have JavaScript's). */
const STRING_METHODS: Record<string, (self: string, ...args: unknown[]) => unknown> = {
  upper: (self) => self.toUpperCase(),
  lower: (self) => self.toLowerCase(),
  strip: (self, chars) => (typeof chars === "string" ? stripChars(self, chars, true, true) : self.trim()),
  lstrip: (self, chars) => (typeof chars === "string" ? stripChars(self, chars, true, false) : self.trimStart()),
  rstrip: (self, chars) => (typeof chars === "string" ? stripChars(self, chars, false, true) : self.trimEnd()),
  split: (self, separator, limit) => pySplit(self, typeof separator === "string" ? separator : null, typeof limit === "number" ? limit : -1),
  splitlines: (self) => self.split(/\r\n|\r|\n/).filter((line, index, lines) => index < lines.length - 1 || line !== ""),
  replace: (self, old, replacement) => self.split(String(old)).join(String(replacement)),
  startswith: (self, prefix) => self.startsWith(String(prefix)),
  endswith: (self, suffix) => self.endsWith(String(suffix)),
  title: (self) => self.toLowerCase().replace(/(^|[^A-Za-z])([a-z])/g, (_m, before: string, letter: string) => before + letter.toUpperCase()),
  capitalize: (self) => self.charAt(0).toUpperCase() + self.slice(1).toLowerCase(),
  join: (self, items) => (Array.isArray(items) ? items.map(String).join(self) : ""),
  count: (self, needle) => (String(needle) === "" ? self.length + 1 : self.split(String(needle)).length - 1),
  find: (self, needle) => self.indexOf(String(needle)),
};

runtime.memberLookup = function memberLookup(obj: unknown, name: unknown) {
  if (typeof obj === "string" && typeof name === "string" && Object.prototype.hasOwnProperty.call(STRING_METHODS, name)) {
    const method = STRING_METHODS[name] as (self: string, ...args: unknown[]) => unknown;
    return (...args: unknown[]) => method(obj, ...args);
  }
  return jinjaMemberLookup.call(this, obj, name);
};

function stripChars(text: string, chars: string, start: boolean, end: boolean): string {
  let from = 0;
  let to = text.length;
  while (start && from < to && chars.includes(text[from] as string)) from++;
  while (end && to > from && chars.includes(text[to - 1] as string)) to--;
  return text.slice(from, to);
}

function pySplit(text: string, separator: string | null, limit: number): string[] {
  if (separator === null) {
    const parts = text.trim().split(/\s+/).filter((part) => part !== "");
    return limit < 0 || parts.length <= limit + 1 ? parts : [...parts.slice(0, limit), parts.slice(limit).join(" ")];
  }
  const parts = text.split(separator);
  return limit < 0 || parts.length <= limit + 1 ? parts : [...parts.slice(0, limit), parts.slice(limit).join(separator)];
}

const environment = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
environment.addFilter("tojson", (value: unknown) => JSON.stringify(value ?? null));
environment.addFilter("items", (value: unknown) => (value !== null && typeof value === "object" && !Array.isArray(value) ? Object.entries(value) : []));

/** Python's repr of a JSON-decoded value, as `{{ value }}` prints a list or dict. */
export function pythonRepr(value: JsonValue): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  return `{${Object.entries(value).map(([key, item]) => `${pythonStringRepr(key)}: ${pythonRepr(item)}`).join(", ")}}`;
}

function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = text.replace(/[\\\n\r\t]/g, (c) => ({ "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c] as string);
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

/** The value as the template sees it: lists and dicts print as Python's repr. */
function templateValue(value: JsonValue): unknown {
  if (value === null || typeof value !== "object") return value;
  const copy: unknown = Array.isArray(value) ? value.map(templateValue) : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, templateValue(item)]));
  Object.defineProperty(copy, "toString", { value: () => pythonRepr(value), enumerable: false });
  return copy;
}

const SIMPLE_ESCAPES: Record<string, string> = { "\n": "", "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/**
 * The template as Python reads `'''<template>'''`: its escapes decoded, or the SyntaxError Python raises when the
 * template closes the literal early (three quotes inside, a trailing quote or backslash) or holds a malformed escape.
 */
export function pythonTripleQuoted(template: string): { ok: true; text: string } | { ok: false; reason: string } {
  const source = `${template}'''`;
  let text = "";
  let i = 0;
  while (i < source.length) {
    const char = source[i] as string;
    if (char === "'" && source.startsWith("''", i + 1)) {
      // What follows the closing quotes must still be Python: only an empty '' literal (implicit concatenation) is.
      const rest = source.slice(i + 3);
      if (rest === "" || rest === "''") return { ok: true, text };
      return { ok: false, reason: "SyntaxError: the template's quotes end the ''' string Dify's runner pastes it into." };
    }
    if (char !== "\\") {
      text += char;
      i += 1;
      continue;
    }
    const next = source[i + 1] as string;
    if (Object.prototype.hasOwnProperty.call(SIMPLE_ESCAPES, next)) {
      text += SIMPLE_ESCAPES[next];
      i += 2;
    } else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(source.slice(i + 1))?.[0] as string;
      text += String.fromCodePoint(parseInt(digits, 8));
      i += 1 + digits.length;
    } else if (next === "x" || next === "u" || next === "U") {
      const width = next === "x" ? 2 : next === "u" ? 4 : 8;
      const hex = source.slice(i + 2, i + 2 + width);
      const code = /^[0-9a-fA-F]+$/.test(hex) && hex.length === width ? parseInt(hex, 16) : NaN;
      if (!(code <= 0x10ffff)) return { ok: false, reason: `SyntaxError: (unicode error) truncated \\${next} escape in the template.` };
      text += String.fromCodePoint(code);
      i += 2 + width;
    } else if (next === "N") {
      return { ok: false, reason: "SyntaxError: a \\N{...} escape in the template cannot be decoded here." };
    } else {
      text += `\\${next}`;
      i += 2;
    }
  }
  return { ok: false, reason: "SyntaxError: a trailing backslash escapes the closing quote of the string Dify's runner pastes the template into." };
}

export function renderJinja(template: string, values: Readonly<Record<string, JsonValue>>): JinjaResult {
  const literal = pythonTripleQuoted(template);
  if (!literal.ok) return { ok: false, reason: literal.reason, certain: !literal.reason.includes("cannot be decoded here") };
  const syntax = jinjaSyntaxError(literal.text);
  if (syntax) return { ok: false, reason: syntax, certain: true };
  const context = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, templateValue(value)]));
  try {
    const rendered = environment.renderString(literal.text, context);
    // jinja2.Template drops one trailing newline (keep_trailing_newline=False).
    return { ok: true, text: rendered.endsWith("\n") ? rendered.slice(0, -1) : rendered };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `The template could not be rendered here: ${message.replace(/\s+/g, " ").slice(0, 200)}`, certain: false };
  }
}
