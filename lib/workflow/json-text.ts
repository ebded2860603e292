// A JSON parser with Python json.loads semantics (NaN/Infinity, int vs float, which the official converter depends
// on) that reports one located, classified problem; JSON.parse can do neither.

import type { JsonObject, JsonValue } from "./python-values";
import { anchorShape } from "./shape-anchor";

export type JsonProblemCode =
  | "empty-workflow"
  | "json-comment"
  | "json-trailing-comma"
  | "json-mismatched-bracket"
  | "json-unclosed-bracket"
  | "json-code-fence"
  | "json-bad-escape"
  | "json-control-character"
  | "json-single-quote"
  | "json-unterminated-string"
  | "json-missing-comma"
  | "json-too-deep"
  | "json-extra-data"
  | "json-syntax";

export interface TextPosition {
  /** 0-based UTF-16 offset. */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 units. */
  column: number;
}

export interface JsonProblem extends TextPosition {
  code: JsonProblemCode;
  /** One line: what is wrong and what was expected. */
  message: string;
  /** Length of the offending text (at least 1 unless the text ended). */
  length: number;
  /** A second position the message refers to, e.g. where an unclosed bracket was opened. */
  related?: TextPosition & { label: string };
}

/**
 * Containers whose slot holds a float literal with an integral value (`1.0`, `2e1`). Non-integral floats,
 * NaN and ±Infinity are recognisable from the number itself, so only these need recording. A bare top-level
 * number has no container and is not recorded (it fails conversion whatever its kind).
 */
export type FloatLiterals = WeakMap<object, Set<string | number>>;

export type PyJsonParse =
  | { ok: true; value: JsonValue; floats: FloatLiterals | null }
  | { ok: false; problem: JsonProblem };

/** True when `container[key]` holds a number Python parsed as float (so it cannot index a list). */
export function isFloatLiteral(floats: FloatLiterals | null | undefined, container: object, key: string | number): boolean {
  const value = (container as Record<string | number, unknown>)[key];
  if (typeof value !== "number") return false;
  if (!Number.isInteger(value)) return true;
  return floats?.get(container)?.has(key) ?? false;
}

export function positionAt(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  // A native search per line break: a parse's error positions are taken once, when its code is cold.
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { offset, line, column: offset - lineStart + 1 };
}

/** Python's C scanner recurses per nesting level; beyond the default recursion limit it raises. */
const MAX_DEPTH = 990;

const CLOSER_FOR: Record<string, string> = { "{": "}", "[": "]" };
/** Characters of a string needing no look: skipped natively, as the parser runs cold (once per text) on long texts. */
const PLAIN_STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const PYTHON_LITERAL_HINT: Record<string, string> = {
  True: "true",
  False: "false",
  None: "null",
  undefined: "null",
  nan: "NaN",
  inf: "Infinity",
};

class ParseAbort {
  constructor(readonly problem: JsonProblem) {}
}

const enum Ch {
  Tab = 9,
  Newline = 10,
  Return = 13,
  Space = 32,
  Quote = 34,
  Hash = 35,
  SingleQuote = 39,
  Plus = 43,
  Star = 42,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  UpperE = 69,
  UpperI = 73,
  UpperN = 78,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  Backtick = 96,
  LowerE = 101,
  LowerF = 102,
  LowerN = 110,
  LowerT = 116,
  LowerU = 117,
  OpenBrace = 123,
  CloseBrace = 125,
}

function describeChar(text: string, offset: number): string {
  if (offset >= text.length) return "the end of the text";
  const ch = text.charAt(offset);
  const code = ch.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `\`${ch}\``;
}

class PyJsonParser {
  private pos = 0;
  /** Offsets of the brackets still open, innermost last (the text tells which bracket: no object per bracket). */
  private readonly stack: number[] = [];
  private floats: FloatLiterals | null = null;
  /** Set by parseNumber when the literal was a float with an integral value. */
  private integralFloat = false;

  constructor(private readonly text: string) {}

  parse(): JsonValue {
    const { text } = this;
    this.skipWhitespace();
    if (this.pos >= text.length) {
      throw this.abort("empty-workflow", this.pos, 0, "The workflow is empty: there is no JSON between the <workflow> tags.");
    }
    const value = this.parseValue(null);
    this.skipWhitespace();
    if (this.pos < text.length) this.failExtraData();
    return value;
  }

  floatLiterals(): FloatLiterals | null {
    return this.floats;
  }

  // -- values ---------------------------------------------------------------------------------------------------

  private parseValue(afterComma: number | null): JsonValue {
    const { text } = this;
    const c = text.charCodeAt(this.pos);
    switch (c) {
      case Ch.Quote:
        return this.parseString();
      case Ch.OpenBrace:
        return this.parseObject();
      case Ch.OpenBracket:
        return this.parseArray();
      case Ch.LowerT:
        return this.parseLiteral("true", true);
      case Ch.LowerF:
        return this.parseLiteral("false", false);
      case Ch.LowerN:
        return this.parseLiteral("null", null);
      case Ch.UpperN:
        return this.parseLiteral("NaN", NaN);
      case Ch.UpperI:
        return this.parseLiteral("Infinity", Infinity);
      case Ch.Minus:
        if (text.charCodeAt(this.pos + 1) === Ch.UpperI) {
          this.pos++;
          const start = this.pos - 1;
          if (text.startsWith("Infinity", this.pos)) {
            this.pos += 8;
            return -Infinity;
          }
          throw this.abort("json-syntax", start, 2, "Invalid value: `-` must be followed by digits or `Infinity`.");
        }
        return this.parseNumber();
      default:
        if (c >= Ch.Zero && c <= Ch.Nine) return this.parseNumber();
        return this.failExpectedValue(afterComma);
    }
  }

  private parseLiteral<T extends JsonValue>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return value;
    }
    return this.failExpectedValue(null);
  }

  private parseNumber(): number {
    const { text } = this;
    const start = this.pos;
    let p = start;
    let isFloat = false;
    if (text.charCodeAt(p) === Ch.Minus) p++;
    const firstDigit = text.charCodeAt(p);
    if (firstDigit === Ch.Zero) {
      p++;
    } else if (firstDigit > Ch.Zero && firstDigit <= Ch.Nine) {
      while (isDigit(text.charCodeAt(p))) p++;
    } else {
      throw this.abort("json-syntax", start, 1, "Invalid number: `-` must be followed by a digit.");
    }
    if (text.charCodeAt(p) === Ch.Dot && isDigit(text.charCodeAt(p + 1))) {
      isFloat = true;
      p += 2;
      while (isDigit(text.charCodeAt(p))) p++;
    }
    const e = text.charCodeAt(p);
    if (e === Ch.LowerE || e === Ch.UpperE) {
      let q = p + 1;
      const sign = text.charCodeAt(q);
      if (sign === Ch.Plus || sign === Ch.Minus) q++;
      if (isDigit(text.charCodeAt(q))) {
        isFloat = true;
        p = q + 1;
        while (isDigit(text.charCodeAt(p))) p++;
      }
    }
    const next = text.charCodeAt(p);
    if (firstDigit === Ch.Zero && isDigit(next)) {
      throw this.abort("json-syntax", start, p - start + 1, "Invalid number: JSON numbers cannot have leading zeros.");
    }
    if (next === Ch.Dot) {
      throw this.abort("json-syntax", p, 1, "Invalid number: a `.` must be followed by digits.");
    }
    this.pos = p;
    const value = Number(text.slice(start, p));
    this.integralFloat = isFloat && Number.isInteger(value);
    return value;
  }

  private parseString(): string {
    const { text } = this;
    const open = this.pos;
    let p = open + 1;
    let chunkStart = p;
    let out = "";
    for (;;) {
      PLAIN_STRING_RUN.lastIndex = p;
      PLAIN_STRING_RUN.test(text);
      p = PLAIN_STRING_RUN.lastIndex;
      const c = text.charCodeAt(p);
      if (c === Ch.Quote) {
        this.pos = p + 1;
        return chunkStart === open + 1 ? text.slice(chunkStart, p) : out + text.slice(chunkStart, p);
      }
      if (c === Ch.Backslash) {
        out += text.slice(chunkStart, p);
        p = this.readEscape(p);
        out += this.escaped;
        chunkStart = p;
        continue;
      }
      if (c < 0x20) {
        throw this.abort(
          "json-control-character",
          p,
          1,
          `Raw ${describeChar(text, p)} inside a string (opened at ${this.lineCol(open)}); write it escaped, e.g. \\n or \\t.`,
        );
      }
      if (Number.isNaN(c)) {
        throw this.abort("json-unterminated-string", open, text.length - open, "This string is never closed with `\"`.");
      }
      p++;
    }
  }

  private escaped = "";

  /** Reads the escape at `p` (a backslash) into `this.escaped` and returns the offset after it. */
  private readEscape(p: number): number {
    const { text } = this;
    const c = text.charCodeAt(p + 1);
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      this.escaped = simple;
      return p + 2;
    }
    if (c === Ch.LowerU) {
      const hex = text.slice(p + 2, p + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
        throw this.abort("json-bad-escape", p, Math.min(6, text.length - p), "Invalid `\\u` escape: it needs exactly four hex digits.");
      }
      this.escaped = String.fromCharCode(parseInt(hex, 16));
      return p + 6;
    }
    if (Number.isNaN(c)) {
      throw this.abort("json-unterminated-string", p, 1, "The text ends inside a string escape.");
    }
    const shown = text.charAt(p + 1);
    const hint =
      shown === "'"
        ? " A single quote needs no escape inside a JSON string."
        : " Only \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX are valid; write a literal backslash as \\\\.";
    throw this.abort("json-bad-escape", p, 2, `Invalid escape \`\\${shown}\` in a string.${hint}`);
  }

  private parseArray(): JsonValue[] {
    const open = this.pos;
    this.push(open);
    this.pos++;
    const out: JsonValue[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === Ch.CloseBracket) {
      this.pos++;
      this.stack.pop();
      return out;
    }
    let afterComma: number | null = null;
    for (;;) {
      const value = this.parseValue(afterComma);
      if (this.integralFloat) this.recordFloat(out, out.length);
      out.push(value);
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === Ch.Comma) {
        afterComma = this.pos;
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      if (c === Ch.CloseBracket) {
        this.pos++;
        this.stack.pop();
        return out;
      }
      return this.failAfterMember("]");
    }
  }

  private parseObject(): JsonObject {
    const { text } = this;
    const open = this.pos;
    this.push(open);
    this.pos++;
    const out: JsonObject = {};
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === Ch.CloseBrace) {
      this.pos++;
      this.stack.pop();
      return out;
    }
    let afterComma: number | null = null;
    for (;;) {
      if (text.charCodeAt(this.pos) !== Ch.Quote) this.failExpectedKey(afterComma);
      const key = this.parseString();
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== Ch.Colon) {
        throw this.abort(
          "json-syntax",
          this.pos,
          1,
          `Expected \`:\` after the key "${truncate(key)}" but found ${describeChar(text, this.pos)}.`,
        );
      }
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue(null);
      if (key === "__proto__") {
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      } else {
        out[key] = value;
      }
      if (this.integralFloat) this.recordFloat(out, key);
      else if (this.floats) this.floats.get(out)?.delete(key);
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      if (c === Ch.Comma) {
        afterComma = this.pos;
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      if (c === Ch.CloseBrace) {
        this.pos++;
        this.stack.pop();
        return out;
      }
      return this.failAfterMember("}");
    }
  }

  private push(offset: number): void {
    if (this.stack.length >= MAX_DEPTH) {
      throw this.abort("json-too-deep", offset, 1, `The JSON nests deeper than ${MAX_DEPTH} levels; Python's json.loads gives up here.`);
    }
    this.stack.push(offset);
  }

  private recordFloat(container: object, key: string | number): void {
    this.integralFloat = false;
    this.floats ??= new WeakMap();
    let slots = this.floats.get(container);
    if (!slots) {
      slots = new Set();
      this.floats.set(container, slots);
    }
    slots.add(key);
  }

  private skipWhitespace(): void {
    const { text } = this;
    let p = this.pos;
    for (;;) {
      const c = text.charCodeAt(p);
      if (c === Ch.Space || c === Ch.Newline || c === Ch.Return || c === Ch.Tab) p++;
      else break;
    }
    this.pos = p;
  }

  // -- error classification -----------------------------------------------------------------------------------

  private abort(code: JsonProblemCode, offset: number, length: number, message: string, related?: JsonProblem["related"]): ParseAbort {
    const position = positionAt(this.text, offset);
    const problem: JsonProblem = { code, message, length, ...position };
    if (related) problem.related = related;
    return new ParseAbort(problem);
  }

  private lineCol(offset: number): string {
    const { line, column } = positionAt(this.text, offset);
    return `line ${line}, column ${column}`;
  }

  private related(offset: number, label: string): TextPosition & { label: string } {
    return { ...positionAt(this.text, offset), label };
  }

  /** Problems that look the same wherever they occur: comments, fences, single quotes, the end of the text. */
  private commonProblem(): ParseAbort | null {
    const { text, pos } = this;
    const c = text.charCodeAt(pos);
    if (c === Ch.Slash) {
      const next = text.charCodeAt(pos + 1);
      if (next === Ch.Slash) return this.abort("json-comment", pos, lineRest(text, pos), "A `//` comment; JSON has no comments. Remove it.");
      if (next === Ch.Star) {
        const close = text.indexOf("*/", pos + 2);
        const length = close < 0 ? text.length - pos : close + 2 - pos;
        return this.abort("json-comment", pos, length, "A `/* … */` comment; JSON has no comments. Remove it.");
      }
    }
    if (c === Ch.Hash) return this.abort("json-comment", pos, lineRest(text, pos), "A `#` comment; JSON has no comments. Remove it.");
    if (c === Ch.Backtick) {
      return this.abort("json-code-fence", pos, runLength(text, pos, Ch.Backtick), "Leftover code fence (```) inside the workflow JSON; remove it.");
    }
    if (c === Ch.SingleQuote) {
      return this.abort("json-single-quote", pos, 1, "A single-quoted string; JSON strings need double quotes (\").");
    }
    if (Number.isNaN(c)) return this.unclosedProblem();
    WORD.lastIndex = pos;
    const word = WORD.exec(text)?.[0];
    if (word) {
      if (/^json$/i.test(word) && this.isFenceLeftover(pos)) {
        return this.abort(
          "json-code-fence",
          pos,
          word.length,
          `Leftover \`${word}\` from a code fence: the official cleanup strips only the characters \\n \` j s o n from the ends, so a space or capital letters stop it.`,
        );
      }
      const hint = PYTHON_LITERAL_HINT[word];
      if (hint) return this.abort("json-syntax", pos, word.length, `\`${word}\` is not JSON; write \`${hint}\`.`);
    }
    return null;
  }

  /** `json`/`JSON` at the very start, or right after a leading fence or whitespace, is a fence leftover. */
  private isFenceLeftover(pos: number): boolean {
    return /^[\s`]*$/.test(this.text.slice(0, pos));
  }

  /** The innermost open bracket, or undefined at top level. */
  private openBracket(): { char: string; offset: number } | undefined {
    const offset = this.stack[this.stack.length - 1];
    return offset === undefined ? undefined : { char: this.text.charAt(offset), offset };
  }

  private unclosedProblem(): ParseAbort {
    const open = this.openBracket();
    if (!open) return this.abort("json-syntax", this.text.length, 0, "The text ends where a value was expected.");
    const closer = CLOSER_FOR[open.char] ?? "?";
    return this.abort(
      "json-unclosed-bracket",
      open.offset,
      1,
      `The \`${open.char}\` opened at ${this.lineCol(open.offset)} is never closed: the text ends before its \`${closer}\`.`,
      this.related(this.text.length, "end of text"),
    );
  }

  private closingBracketProblem(expected: string | null): ParseAbort | null {
    const { text, pos } = this;
    const ch = text.charAt(pos);
    if (ch !== "]" && ch !== "}" && ch !== ")") return null;
    const open = this.openBracket();
    if (!open) return null;
    const closer = expected ?? CLOSER_FOR[open.char] ?? "?";
    if (ch === closer) return null;
    return this.abort(
      "json-mismatched-bracket",
      pos,
      1,
      `Mismatched bracket: found \`${ch}\` where \`${closer}\` was expected to close the \`${open.char}\` opened at ${this.lineCol(open.offset)}.`,
      this.related(open.offset, `\`${open.char}\` opened here`),
    );
  }

  private failExpectedValue(afterComma: number | null): never {
    const { text, pos } = this;
    const ch = text.charAt(pos);
    if (afterComma !== null && (ch === "]" || ch === "}")) {
      throw this.abort(
        "json-trailing-comma",
        afterComma,
        1,
        `Trailing comma before \`${ch}\` at ${this.lineCol(pos)}; remove the comma.`,
        this.related(pos, `\`${ch}\``),
      );
    }
    throw (
      this.commonProblem() ??
      this.closingBracketProblem(null) ??
      this.abort("json-syntax", pos, 1, `Expected a JSON value but found ${describeChar(text, pos)}.`)
    );
  }

  private failExpectedKey(afterComma: number | null): never {
    const { text, pos } = this;
    const ch = text.charAt(pos);
    if (afterComma !== null && ch === "}") {
      throw this.abort(
        "json-trailing-comma",
        afterComma,
        1,
        `Trailing comma before \`}\` at ${this.lineCol(pos)}; remove the comma.`,
        this.related(pos, "`}`"),
      );
    }
    const common = this.commonProblem() ?? this.closingBracketProblem("}");
    if (common) throw common;
    WORD.lastIndex = pos;
    const word = WORD.exec(text)?.[0];
    if (word) throw this.abort("json-syntax", pos, word.length, `The key \`${word}\` must be a double-quoted string.`);
    throw this.abort("json-syntax", pos, 1, `Expected a double-quoted key but found ${describeChar(text, pos)}.`);
  }

  private failAfterMember(expected: "]" | "}"): never {
    const { text, pos } = this;
    const common = this.commonProblem() ?? this.closingBracketProblem(expected);
    if (common) throw common;
    const c = text.charCodeAt(pos);
    const startsValue = c === Ch.Quote || c === Ch.OpenBrace || c === Ch.OpenBracket || isDigit(c) || c === Ch.Minus;
    if (startsValue) {
      throw this.abort(
        "json-missing-comma",
        pos,
        1,
        `Missing \`,\` before ${describeChar(text, pos)}: expected \`,\` or \`${expected}\` after the previous ${expected === "]" ? "element" : "member"}.`,
      );
    }
    throw this.abort("json-syntax", pos, 1, `Expected \`,\` or \`${expected}\` but found ${describeChar(text, pos)}.`);
  }

  private failExtraData(): never {
    const { text, pos } = this;
    const ch = text.charAt(pos);
    const common = this.commonProblem();
    if (common) throw common;
    if (ch === "}" || ch === "]" || ch === ")") {
      throw this.abort(
        "json-extra-data",
        pos,
        1,
        `Extra \`${ch}\` after the complete JSON value: a bracket was closed too early or one too many closers were written.`,
      );
    }
    throw this.abort("json-extra-data", pos, text.length - pos, `Extra text after the complete JSON value, starting with ${describeChar(text, pos)}.`);
  }
}

const SIMPLE_ESCAPES: Record<number, string> = {
  34: '"',
  92: "\\",
  47: "/",
  98: "\b",
  102: "\f",
  110: "\n",
  114: "\r",
  116: "\t",
};

function isDigit(c: number): boolean {
  return c >= Ch.Zero && c <= Ch.Nine;
}

function truncate(s: string, max = 30): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function lineRest(text: string, pos: number): number {
  const newline = text.indexOf("\n", pos);
  return (newline < 0 ? text.length : newline) - pos;
}

function runLength(text: string, pos: number, code: number): number {
  let p = pos;
  while (text.charCodeAt(p) === code) p++;
  return p - pos;
}

anchorShape(new PyJsonParser(""));

const STRING_LITERALS = /"(?:[^"\\\n\r]|\\.)*"/g;
const FLOAT_LITERAL = /\d[.eE]/;
/**
 * A number with a fraction or an exponent where valid JSON puts values (after `[`, `:` or `,`), strings included.
 * Found from its digit and `.`/`e` pair, rarer than a separator, looking back; the look back stops at the first
 * character that cannot be part of it, so a character is looked at a bounded number of times.
 */
const FLOAT_AFTER_SEPARATOR = /\d[.eE](?<=[:[,]\s*-?\d+[.eE])/;

/** Whether `text` may hold a float literal where a value goes (strings not told apart). */
export function mayHoldFloatLiteral(text: string): boolean {
  return FLOAT_AFTER_SEPARATOR.test(text);
}
/** Well below MAX_DEPTH, so the fast path never has to decide the depth limit's exact edge. */
const FAST_PATH_MAX_DEPTH = 512;

/**
 * The native parser's value when it provably equals ours: JSON.parse accepted the text (so did Python: json.loads
 * accepts a superset), no number is written as a float (whose int/float kind we must record) and the nesting is
 * shallow. JSON.parse builds plain objects with `__proto__` as an own key, as we do. Null = use the full parser.
 */
function nativeParse(text: string): JsonValue | null {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return null;
  }
  // Strings need blanking out only when a float may stand outside them, or when brackets may nest too deep.
  if (typeof value !== "number" && !mayHoldFloatLiteral(text) && !nestsDeeperThan(text, FAST_PATH_MAX_DEPTH)) return value;
  // With string literals removed, what is left is brackets, separators, numbers and true/false/null.
  const structure = text.replace(STRING_LITERALS, '""');
  if (FLOAT_LITERAL.test(structure)) return null;
  return nestsDeeperThan(structure, FAST_PATH_MAX_DEPTH) ? null : value;
}

/** Whether `text` holds more than `limit` openers `{` `[`: a native search per opener, cheaper than a regex match each. */
function moreOpenersThan(text: string, limit: number): boolean {
  let openers = 0;
  for (let at = text.indexOf("{"); at !== -1; at = text.indexOf("{", at + 1)) if (++openers > limit) return true;
  for (let at = text.indexOf("["); at !== -1; at = text.indexOf("[", at + 1)) if (++openers > limit) return true;
  return false;
}

/**
 * Whether brackets `{` `[` nest more than `limit` deep in `text` (closers `}` `]` never below zero). Counting openers
 * first is native and decides the usual text, which has fewer openers than the limit, without a loop.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  if (text.length <= limit || !moreOpenersThan(text, limit)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === Ch.OpenBrace || c === Ch.OpenBracket) {
      if (++depth > limit) return true;
    } else if ((c === Ch.CloseBrace || c === Ch.CloseBracket) && depth > 0) {
      depth--;
    }
  }
  return false;
}

/** Parses `text` exactly as Python `json.loads` would accept it. Never throws. */
export function parsePyJson(text: string): PyJsonParse {
  const native = nativeParse(text);
  if (native !== null) return { ok: true, value: native, floats: null };
  const parser = new PyJsonParser(text);
  try {
    const value = parser.parse();
    return { ok: true, value, floats: parser.floatLiterals() };
  } catch (error) {
    if (error instanceof ParseAbort) return { ok: false, problem: error.problem };
    throw error;
  }
}
