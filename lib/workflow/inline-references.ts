// The official inline-reference matcher `{{#id.var#}}` and how it reads the id token (a Python literal, or a
// dashed id with quotes stripped). Shared by both converters, the analysis, the viewer and the diff.
// Guarantee: matching takes time linear in the text, whatever it holds (the official pattern, run by a backtracking
// engine, is quadratic on `{{#` without a `.`); it finds exactly the matches the pattern finds.

import { evalPythonLiteral, literalToString } from "./python-literal";
import { pyStripChars } from "./python-values";


/**
 * The official matcher, `\{\{#([^.]+)\.(.+?)#\}\}` without flags (Python's `.` excludes only `\n`), as a JavaScript
 * pattern. Only for tests and documentation: matching runs through scanInlineReferences, which finds the same matches
 * in linear time.
 */
export const INLINE_REFERENCE = /\{\{#([^.]+)\.([^\n]+?)#\}\}/g;
const QUOTES_STRIPPED_IN_ORDER = ["'", '"', "'"] as const;

/** The node id an inline-reference token names, or null when the official eval() would fail. */
const PLAIN_ID_TOKEN = /^(?:'([^'\\\n]*)'|"([^"\\\n]*)"|([1-9][0-9]*|0))$/;

// Workflows repeat a handful of id tokens ('1', "2") in thousands of references: each is read once per process.
// Bounded, so that hostile text cannot grow it without limit.
const ID_TOKENS = new Map<string, string | null>();
const MAX_ID_TOKENS = 4096;
const MAX_REMEMBERED_TOKEN = 64;

export function readInlineIdToken(token: string): string | null {
  const known = ID_TOKENS.get(token);
  if (known !== undefined) return known;
  const id = readIdToken(token);
  if (token.length <= MAX_REMEMBERED_TOKEN && ID_TOKENS.size < MAX_ID_TOKENS) ID_TOKENS.set(token, id);
  return id;
}

function readIdToken(token: string): string | null {
  // Fast path for the forms models write: '3', "3" and 3.
  const plain = PLAIN_ID_TOKEN.exec(token);
  if (plain && !token.includes("-")) return plain[1] ?? plain[2] ?? plain[3] ?? null;
  if (token.includes("-")) {
    let id = token;
    for (const quote of QUOTES_STRIPPED_IN_ORDER) id = pyStripChars(id, quote);
    return id;
  }
  const literal = evalPythonLiteral(token);
  return literal ? literalToString(literal) : null;
}

export interface InlineReference {
  /** Offset of `{{#` in the text. */
  offset: number;
  length: number;
  token: string;
  variable: string;
  /** The node id the token resolves to; null when it is not a literal (a conversion error). */
  nodeId: string | null;
}

/** One match of the official pattern: where it is, its id token (group 1) and its variable (group 2). */
export interface InlineReferenceMatch {
  offset: number;
  length: number;
  token: string;
  variable: string;
}

/** The next occurrence of `needle` at or after a position, for positions that only grow: amortised linear. */
function forwardFinder(text: string, needle: string): (from: number) => number {
  let askedFrom = Number.POSITIVE_INFINITY;
  let found = -1;
  return (from) => {
    // The cached answer holds while no occurrence can lie between the new position and it.
    if (from < askedFrom || (found !== -1 && found < from)) {
      found = text.indexOf(needle, from);
      askedFrom = from;
    }
    return found;
  };
}

/**
 * Every match of the official pattern, left to right without overlap, as `re.finditer` finds them. At a `{{#`, the
 * token runs to the first `.` (at least one character, newlines allowed) and the variable to the first `#}}` after
 * at least one character, with no newline before it; otherwise the next `{{#` is tried.
 */
export function scanInlineReferences(text: string): InlineReferenceMatch[] {
  const matches: InlineReferenceMatch[] = [];
  // The next `.`, `#}}` and newline at or after positions that only grow, searched again only once the one found lies
  // behind (-2: not searched yet, -1: none left): amortised linear, with no finder closure per text.
  let dot = -2;
  let close = -2;
  let newline = -2;
  let start = text.indexOf("{{#");
  while (start !== -1) {
    const tokenStart = start + 3;
    if (dot === -2 || (dot !== -1 && dot < tokenStart)) dot = text.indexOf(".", tokenStart);
    // Later starts see the same or later dots and closings: none of them can match either.
    if (dot === -1) break;
    if (dot > tokenStart && (close === -2 || (close !== -1 && close < dot + 2))) close = text.indexOf("#}}", dot + 2);
    const closeAt = dot > tokenStart ? close : -2;
    if (closeAt === -1) break;
    if (closeAt >= 0 && (newline === -2 || (newline !== -1 && newline < dot + 1))) newline = text.indexOf("\n", dot + 1);
    const newlineAt = closeAt >= 0 ? newline : -1;
    if (closeAt >= 0 && (newlineAt === -1 || newlineAt > closeAt)) {
      matches.push({ offset: start, length: closeAt + 3 - start, token: text.slice(tokenStart, dot), variable: text.slice(dot + 1, closeAt) });
      start = text.indexOf("{{#", closeAt + 3);
    } else {
      start = text.indexOf("{{#", start + 1);
    }
  }
  return matches;
}

/** `text` with every official match replaced by what `replace` returns for it (String.replace's semantics). */
export function replaceInlineReferences(text: string, replace: (match: InlineReferenceMatch) => string): string {
  if (!text.includes("{{#")) return text;
  let out = "";
  let copied = 0;
  for (const match of scanInlineReferences(text)) {
    out += text.slice(copied, match.offset) + replace(match);
    copied = match.offset + match.length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

export function findInlineReferences(text: string): InlineReference[] {
  if (!text.includes("{{#")) return [];
  return scanInlineReferences(text).map(({ offset, length, token, variable }) => ({ offset, length, token, variable, nodeId: readInlineIdToken(token) }));
}

/**
 * The ids the official agentic checks read from `{{#…#}}` references, the groups of Python's
 * `\{\{#'?([^'.#}]+)'?\..*?#\}\}` (whose `.` stops at `\n` only) found left to right, in linear time.
 */
export function agenticReferenceIds(text: string): string[] {
  const ids: string[] = [];
  const nextClose = forwardFinder(text, "#}}");
  const lineEnd = /\n/g;
  let lineEndFrom = Number.POSITIVE_INFINITY;
  let lineEndAt = -1;
  const nextLineEnd = (from: number): number => {
    if (from < lineEndFrom || (lineEndAt !== -1 && lineEndAt < from)) {
      lineEnd.lastIndex = from;
      lineEndAt = lineEnd.exec(text)?.index ?? -1;
      lineEndFrom = from;
    }
    return lineEndAt;
  };
  let start = text.indexOf("{{#");
  while (start !== -1) {
    // The id cannot hold ' . # }, so it ends before the next `{{#`: scanning it is linear over all starts.
    let at = start + 3;
    if (text[at] === "'") at += 1;
    const idStart = at;
    while (at < text.length && !"'.#}".includes(text[at]!)) at += 1;
    const idEnd = at;
    if (text[at] === "'") at += 1;
    let matched = false;
    if (idEnd > idStart && text[at] === ".") {
      const close = nextClose(at + 1);
      const lineBreak = close === -1 ? -1 : nextLineEnd(at + 1);
      if (close !== -1 && (lineBreak === -1 || lineBreak > close)) {
        ids.push(text.slice(idStart, idEnd));
        start = text.indexOf("{{#", close + 3);
        matched = true;
      }
    }
    if (!matched) start = text.indexOf("{{#", start + 1);
  }
  return ids;
}
