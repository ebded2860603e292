// The official inline-reference matcher `{{#id.var#}}` and how it reads the id token (a Python literal, or a
// dashed id with quotes stripped). Shared by both converters, the analysis, the viewer and the diff.

import { evalPythonLiteral, literalToString } from "./python-literal";
import { pyStripChars } from "./python-values";


/** The official matcher, `\{\{#([^.]+)\.(.+?)#\}\}` without flags: Python's `.` excludes only `\n`. */
export const INLINE_REFERENCE = /\{\{#([^.]+)\.([^\n]+?)#\}\}/g;
const QUOTES_STRIPPED_IN_ORDER = ["'", '"', "'"] as const;

/** The node id an inline-reference token names, or null when the official eval() would fail. */
const PLAIN_ID_TOKEN = /^(?:'([^'\\\n]*)'|"([^"\\\n]*)"|([1-9][0-9]*|0))$/;

export function readInlineIdToken(token: string): string | null {
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

export function findInlineReferences(text: string): InlineReference[] {
  if (!text.includes("{{#")) return [];
  const refs: InlineReference[] = [];
  // An exec loop rather than matchAll, which clones the regex on every call.
  INLINE_REFERENCE.lastIndex = 0;
  for (let match = INLINE_REFERENCE.exec(text); match !== null; match = INLINE_REFERENCE.exec(text)) {
    const token = match[1] as string;
    refs.push({
      offset: match.index,
      length: match[0].length,
      token,
      variable: match[2] as string,
      nodeId: readInlineIdToken(token),
    });
  }
  return refs;
}
