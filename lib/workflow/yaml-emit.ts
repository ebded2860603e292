// A direct YAML 1.1 emitter for plain JSON-like data that writes the same text as the `yaml` package does under
// dify-yaml.ts's options (sorted keys, block style, no folding), without building a node tree. It returns null for
// anything it does not reproduce with certainty, and the caller then uses the library.

/** Past this nesting depth the library path decides (and fails or not) exactly as it always did. */
const MAX_DEPTH = 200;

/** An implicit key whose text is longer than this is written as an explicit `? key` by the library: not reproduced. */
const MAX_IMPLICIT_KEY_LENGTH = 1024;

/** The library folds a double-quoted scalar over several lines only from this JSON length on. */
const DOUBLE_QUOTED_MIN_MULTILINE_LENGTH = 40;

const INDENT_STEP = "  ";

const ARRAY_ITERATOR = Array.prototype[Symbol.iterator];

class Decline {}
const DECLINE = new Decline();

// Characters that cannot start a plain scalar (YAML indicators and whitespace), as the library tests them.
const PLAIN_FORBIDDEN_FIRST = new Set("\n\t ,[]{}#&*!|>'\"%@`".split("").map((character) => character.charCodeAt(0)));

// The only first characters with which a plain scalar can match a resolver (bool, int, float, null, timestamp, merge,
// value, and the schema's own tests, including `e5`): other strings skip the regular expressions.
const RESOLVER_FIRST = new Set("~nNyYtTfFoOeE-+.0123456789<=".split("").map((character) => character.charCodeAt(0)));

const NEWLINE = 0x0a;
const TAB = 0x09;
const SPACE = 0x20;

// What stringFacts finds in a string, as bits.
const NEEDS_DOUBLE_QUOTES = 1; // control characters, lone surrogates, or YAML 1.1 line breaks (U+0085, U+2028, U+2029)
const HAS_NEWLINE = 2;
const HAS_SINGLE_QUOTE = 4;
const HAS_DOUBLE_QUOTE = 8;
const UNSAFE_PLAIN = 16; // the library's test of what a plain scalar may not hold (indicator, `: `, ` #`, trailing space)

function isLoneSurrogateAt(text: string, index: number, code: number): boolean {
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = index > 0 ? text.charCodeAt(index - 1) : 0;
    return !(previous >= 0xd800 && previous <= 0xdbff);
  }
  return false;
}

function stringFacts(text: string): number {
  const length = text.length;
  let facts = 0;
  if (length > 0) {
    const first = text.charCodeAt(0);
    if (PLAIN_FORBIDDEN_FIRST.has(first)) facts |= UNSAFE_PLAIN;
    if (first === 0x3f || first === 0x2d) {
      // `?` or `-` alone, or followed by a space or tab.
      const second = length > 1 ? text.charCodeAt(1) : -1;
      if (second === -1 || second === SPACE || second === TAB) facts |= UNSAFE_PLAIN;
    }
    const last = text.charCodeAt(length - 1);
    if (last === NEWLINE || last === TAB || last === SPACE || last === 0x3a) facts |= UNSAFE_PLAIN;
  }
  let previous = -1;
  for (let index = 0; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 0x3a && code < 0x7f) {
      previous = code;
      continue;
    }
    if (code < 0x20) {
      if (code === NEWLINE) {
        facts |= HAS_NEWLINE;
        if (previous === SPACE || previous === TAB) facts |= UNSAFE_PLAIN;
      } else if (code !== TAB) facts |= NEEDS_DOUBLE_QUOTES;
      else if (previous === NEWLINE || previous === 0x3a) facts |= UNSAFE_PLAIN;
    } else if (code >= 0x7f) {
      if (code <= 0x9f || code === 0x2028 || code === 0x2029 || ((code & 0xf800) === 0xd800 && isLoneSurrogateAt(text, index, code))) {
        facts |= NEEDS_DOUBLE_QUOTES;
      }
    } else if (code === SPACE) {
      if (previous === NEWLINE || previous === 0x3a) facts |= UNSAFE_PLAIN;
    } else if (code === 0x27) facts |= HAS_SINGLE_QUOTE;
    else if (code === 0x22) facts |= HAS_DOUBLE_QUOTE;
    else if (code === 0x23 && (previous === NEWLINE || previous === TAB || previous === SPACE)) facts |= UNSAFE_PLAIN;
    previous = code;
  }
  return facts;
}

const HEX = "0123456789abcdef";

function hexByte(code: number): string {
  return HEX[code >> 4]! + HEX[code & 15]!;
}

function escapeFor(text: string, index: number, code: number): string | null {
  switch (code) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return "\\\\";
    case 0x00:
      return "\\0";
    case 0x07:
      return "\\a";
    case 0x08:
      return "\\b";
    case 0x09:
      return "\\t";
    case 0x0b:
      return "\\v";
    case 0x0c:
      return "\\f";
    case 0x0d:
      return "\\r";
    case 0x1b:
      return "\\e";
    case 0x85:
      return "\\N";
    case 0x2028:
      return "\\L";
    case 0x2029:
      return "\\P";
    default:
      if (code < 0x20) return `\\x${hexByte(code)}`;
      if ((code & 0xf800) === 0xd800 && isLoneSurrogateAt(text, index, code)) return `\\u${code.toString(16)}`;
      return null;
  }
}

/** The library's double-quoted style: JSON escapes made YAML's, and (outside keys, from 40 JSON characters) inner
 * newlines written as real line breaks. */
function doubleQuoted(text: string, indent: string, implicitKey: boolean): string {
  const multiline = !implicitKey && text.includes("\n") && JSON.stringify(text).length >= DOUBLE_QUOTED_MIN_MULTILINE_LENGTH;
  const length = text.length;
  let out = '"';
  let start = 0;
  for (let index = 0; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === SPACE) {
      // A space before a newline is escaped so that folding cannot eat it.
      if (index + 1 < length && text.charCodeAt(index + 1) === NEWLINE) {
        out += text.slice(start, index) + "\\ ";
        start = index + 1;
      }
      continue;
    }
    if (code === NEWLINE) {
      out += text.slice(start, index);
      if (!multiline || index === length - 1) {
        out += "\\n";
        start = index + 1;
        continue;
      }
      out += "\n\n";
      while (index + 1 < length - 1 && text.charCodeAt(index + 1) === NEWLINE) {
        out += "\n";
        index += 1;
      }
      out += indent;
      if (index + 1 < length && text.charCodeAt(index + 1) === SPACE) out += "\\";
      start = index + 1;
      continue;
    }
    if (code >= 0x20 && code !== 0x22 && code !== 0x5c && code < 0x85) continue;
    const escape = escapeFor(text, index, code);
    if (escape === null) continue;
    out += text.slice(start, index) + escape;
    start = index + 1;
  }
  return out + text.slice(start) + '"';
}

function quoted(text: string, facts: number, indent: string, implicitKey: boolean): string {
  // Single quotes only for a one-line string holding `"` and no `'`; a newline there falls back to double quotes.
  if ((facts & (HAS_DOUBLE_QUOTE | HAS_SINGLE_QUOTE | HAS_NEWLINE)) === HAS_DOUBLE_QUOTE) return `'${text}'`;
  return doubleQuoted(text, indent, implicitKey);
}

function indentNewlineRuns(text: string, indent: string, keepFinalRun: boolean): string {
  let out = "";
  let start = 0;
  let index = text.indexOf("\n");
  while (index !== -1) {
    let runEnd = index + 1;
    while (runEnd < text.length && text.charCodeAt(runEnd) === NEWLINE) runEnd += 1;
    if (runEnd === text.length && !keepFinalRun) break;
    out += text.slice(start, runEnd) + indent;
    start = runEnd;
    index = text.indexOf("\n", runEnd);
  }
  return out + text.slice(start);
}

/** A literal block scalar (`|`, `|-`, `|+`, with indentation indicator 2 when the first line starts with a space). */
function blockLiteral(text: string, indent: string): string {
  let contentEnd = text.length;
  while (contentEnd > 0) {
    const code = text.charCodeAt(contentEnd - 1);
    if (code !== NEWLINE && code !== TAB && code !== SPACE) break;
    contentEnd -= 1;
  }
  let trailing = text.slice(contentEnd);
  const trailingNewline = trailing.indexOf("\n");
  const chomp = trailingNewline === -1 ? "-" : contentEnd === 0 || trailingNewline !== trailing.length - 1 ? "+" : "";
  let body = text.slice(0, contentEnd);
  if (trailing) {
    if (trailing.charCodeAt(trailing.length - 1) === NEWLINE) trailing = trailing.slice(0, -1);
    trailing = indentNewlineRuns(trailing, indent, false);
  }
  let startsWithSpace = false;
  let lastLeadingNewline = -1;
  for (let index = 0; index < body.length; index += 1) {
    const code = body.charCodeAt(index);
    if (code === SPACE) startsWithSpace = true;
    else if (code === NEWLINE) lastLeadingNewline = index;
    else break;
  }
  let leading = "";
  if (lastLeadingNewline !== -1) {
    leading = indentNewlineRuns(body.slice(0, lastLeadingNewline + 1), indent, true);
    body = body.slice(lastLeadingNewline + 1);
  }
  const header = (startsWithSpace ? "2" : "") + chomp;
  return `|${header}\n${indent}${leading}${indentNewlineRuns(body, indent, true)}${trailing}`;
}

function endsWithNewlineThenBlanks(text: string): boolean {
  let index = text.length;
  while (index > 0) {
    const code = text.charCodeAt(index - 1);
    if (code !== SPACE && code !== TAB) break;
    index -= 1;
  }
  return index < text.length && index > 0 && text.charCodeAt(index - 1) === NEWLINE;
}

/** Rendered keys and one-line scalars are remembered up to this many entries of this length, then forgotten. */
const CACHE_ENTRIES = 4096;
const CACHE_TEXT_LENGTH = 128;

export class Yaml11Emitter {
  private parts: string[] = [];
  private readonly indents: string[] = [""];
  // Keys of the top-level mapping obey one more rule (document markers), so they are remembered apart.
  private readonly topKeys = new Map<string, string>();
  private readonly nestedKeys = new Map<string, string>();
  private readonly oneLineScalars = new Map<string, string>();

  constructor(private readonly resolverTests: readonly RegExp[]) {}

  /** The document's text, or null when the value holds anything this emitter does not reproduce. */
  emit(value: unknown): string | null {
    if (typeof value === "string") return null;
    // Restored afterwards, so that a getter calling back into emit cannot mix two documents.
    const outer = this.parts;
    this.parts = [];
    try {
      this.node(value, 0);
      this.parts.push("\n");
      return this.parts.join("");
    } catch (error) {
      if (error === DECLINE) return null;
      throw error;
    } finally {
      this.parts = outer;
    }
  }

  private indent(level: number): string {
    while (this.indents.length <= level) this.indents.push(this.indents[this.indents.length - 1] + INDENT_STEP);
    return this.indents[level]!;
  }

  private resolves(text: string): boolean {
    if (text.length > 0 && !RESOLVER_FIRST.has(text.charCodeAt(0))) return false;
    for (const test of this.resolverTests) if (test.test(text)) return true;
    return false;
  }

  private key(text: string, level: number): string {
    const cache = level === 1 ? this.topKeys : this.nestedKeys;
    const cached = cache.get(text);
    if (cached !== undefined) return cached;
    const facts = stringFacts(text);
    let out: string;
    if (facts & (NEEDS_DOUBLE_QUOTES | HAS_NEWLINE)) out = doubleQuoted(text, "", true);
    else if (facts & UNSAFE_PLAIN) out = quoted(text, facts, "", true);
    else if (level === 1 && (text.startsWith("---") || text.startsWith("..."))) out = quoted(text, facts, "", true);
    else if (this.resolves(text)) out = quoted(text, facts, "", true);
    else out = text;
    if (out.length > MAX_IMPLICIT_KEY_LENGTH) throw DECLINE;
    remember(cache, text, out);
    return out;
  }

  private string(text: string, level: number): string {
    const cached = this.oneLineScalars.get(text);
    if (cached !== undefined) return cached;
    const facts = stringFacts(text);
    if (facts & NEEDS_DOUBLE_QUOTES) return this.oneLine(text, doubleQuoted(text, this.indent(level), false));
    if (facts & HAS_NEWLINE) return endsWithNewlineThenBlanks(text) ? doubleQuoted(text, this.indent(level), false) : blockLiteral(text, this.indent(level));
    if (facts & UNSAFE_PLAIN || this.resolves(text)) return this.oneLine(text, quoted(text, facts, "", false));
    return this.oneLine(text, text);
  }

  // Only text without a line break is the same at every indentation.
  private oneLine(text: string, out: string): string {
    if (!out.includes("\n")) remember(this.oneLineScalars, text, out);
    return out;
  }

  private scalar(value: unknown, level: number): string {
    if (typeof value === "string") return this.string(value, level);
    if (typeof value === "number") {
      if (!Number.isFinite(value) || Object.is(value, -0)) throw DECLINE;
      return JSON.stringify(value);
    }
    if (typeof value === "boolean") return value ? "true" : "false";
    if (value === null) return "null";
    throw DECLINE;
  }

  /** Writes a node whose continuation lines are indented `level` steps; its first line is not indented. */
  private node(value: unknown, level: number): void {
    const parts = this.parts;
    if (value === null || typeof value !== "object") {
      parts.push(this.scalar(value, level));
      return;
    }
    if (level >= MAX_DEPTH) throw DECLINE;
    // The library writes what toJSON returns instead of the object itself.
    if ("toJSON" in value) throw DECLINE;
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype || value[Symbol.iterator] !== ARRAY_ITERATOR) throw DECLINE;
      if (value.length === 0) {
        parts.push("[]");
        return;
      }
      const separator = `\n${this.indent(level)}- `;
      for (let index = 0; index < value.length; index += 1) {
        if (!(index in value)) throw DECLINE;
        parts.push(index === 0 ? "- " : separator);
        this.node(value[index], level + 1);
      }
      return;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) throw DECLINE;
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 0) {
      parts.push("{}");
      return;
    }
    if (!isSorted(keys)) keys.sort();
    const separator = `\n${this.indent(level)}`;
    const nestedStart = `:\n${this.indent(level + 1)}`;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index]!;
      const item = record[key];
      if (index > 0) parts.push(separator);
      parts.push(this.key(key, level + 1));
      // An undefined value (left out by the library) is declined by scalar(), so the library decides that document.
      parts.push(item !== null && typeof item === "object" && !isEmptyCollection(item) ? nestedStart : ": ");
      this.node(item, level + 1);
    }
  }
}

function remember(cache: Map<string, string>, text: string, out: string): void {
  if (text.length > CACHE_TEXT_LENGTH) return;
  if (cache.size >= CACHE_ENTRIES) cache.clear();
  cache.set(text, out);
}

// Same order as the default sort (UTF-16 code units); checking first is cheaper for the many objects already in order.
function isSorted(keys: readonly string[]): boolean {
  for (let index = 1; index < keys.length; index += 1) if (keys[index - 1]! > keys[index]!) return false;
  return true;
}

function isEmptyCollection(value: object): boolean {
  if (Array.isArray(value)) return value.length === 0;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) return false;
  return true;
}
