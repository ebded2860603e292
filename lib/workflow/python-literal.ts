// Evaluates the id token of an inline reference `{{#<token>.var#}}` the way the official converter's eval() does.
// Supports Python literal syntax (ints, strings, True/False/None, parentheses, +); anything else is "not a literal".
//
// The official code calls eval() on the token, so arbitrary expressions would run; names and calls (`item`,
// `sys`, `len`) raise NameError or yield objects whose str() never equals a node id, so treating them as
// failures gives the same verdict. Arithmetic beyond `+` is not modelled (never seen in model output).

import { pyFloatRepr } from "./python-values";

export type PyLiteral =
  | { kind: "int"; value: bigint }
  | { kind: "float"; value: number }
  | { kind: "str"; value: string }
  | { kind: "const"; value: "True" | "False" | "None" };

/** Python `str()` of an evaluated literal. */
export function literalToString(literal: PyLiteral): string {
  switch (literal.kind) {
    case "int":
      return literal.value.toString();
    case "float":
      return pyFloatRepr(literal.value);
    case "str":
    case "const":
      return literal.value;
  }
}

class NotALiteral {}
const FAIL = new NotALiteral();

// Sticky, matched at the parser's position: slicing the rest of the token for every atom would be quadratic.
const INT_LITERAL = /(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|[1-9](?:_?[0-9])*|0(?:_?0)*)(?![0-9a-zA-Z_])/y;
const EXP_FLOAT = /[0-9](?:_?[0-9])*[eE][+-]?[0-9](?:_?[0-9])*(?![0-9a-zA-Z_])/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const STRING_START = /([rR][fF]?|[fF][rR]?|[uU])?('''|"""|'|")/y;
/** Python's parser gives up beyond this nesting ("too many nested parentheses"), so eval() raises. */
const MAX_NESTING = 200;
/** Python (3.11+) refuses to turn an int with more decimal digits than this into text (str() raises). */
const MAX_INT_DIGITS = 4300;
const MAX_INT = 10n ** BigInt(MAX_INT_DIGITS);

function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/** An int literal's value; FAIL when str() of it would raise (too many digits). */
function intValue(literal: string): bigint {
  const digits = literal.replace(/_/g, "");
  if (/^[0-9]+$/.test(digits) && digits.replace(/^0+/, "").length > MAX_INT_DIGITS) throw FAIL;
  const value = BigInt(digits);
  if (value >= MAX_INT) throw FAIL;
  return value;
}

class LiteralParser {
  private pos = 0;
  private nesting = 0;

  constructor(private readonly text: string) {}

  parse(): PyLiteral {
    // eval() strips leading spaces and tabs; the tokenizer skips blank lines and comments.
    const value = this.parseSum();
    this.skipSpace();
    if (this.pos !== this.text.length) throw FAIL;
    return value;
  }

  private skipSpace(): void {
    const { text } = this;
    for (;;) {
      const ch = text[this.pos];
      if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r" || ch === "\f") this.pos++;
      else if (ch === "\\" && text[this.pos + 1] === "\n") this.pos += 2;
      else if (ch === "#") {
        const newline = text.indexOf("\n", this.pos);
        this.pos = newline < 0 ? text.length : newline;
      } else return;
    }
  }

  private parseSum(): PyLiteral {
    let left = this.parseUnary();
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== "+") return left;
      this.pos++;
      const right = this.parseUnary();
      left = add(left, right);
    }
  }

  private parseUnary(): PyLiteral {
    this.skipSpace();
    if (this.text[this.pos] === "+") {
      this.pos++;
      if (++this.nesting > MAX_NESTING) throw FAIL;
      const operand = this.parseUnary();
      this.nesting--;
      if (operand.kind === "int" || operand.kind === "float") return operand;
      if (operand.kind === "const" && operand.value !== "None") return { kind: "int", value: operand.value === "True" ? 1n : 0n };
      throw FAIL;
    }
    return this.parseAtom();
  }

  private parseAtom(): PyLiteral {
    this.skipSpace();
    const { text, pos } = this;
    if (text[pos] === "(") {
      this.pos++;
      if (++this.nesting > MAX_NESTING) throw FAIL;
      const inner = this.parseSum();
      this.nesting--;
      this.skipSpace();
      if (this.text[this.pos] !== ")") throw FAIL;
      this.pos++;
      return inner;
    }
    const float = matchAt(EXP_FLOAT, text, pos);
    if (float) {
      this.pos += float[0].length;
      return { kind: "float", value: Number(float[0].replace(/_/g, "")) };
    }
    const int = matchAt(INT_LITERAL, text, pos);
    if (int) {
      this.pos += int[0].length;
      return { kind: "int", value: intValue(int[0]) };
    }
    if (matchAt(STRING_START, text, pos)) return this.parseStrings();
    const name = matchAt(NAME, text, pos)?.[0];
    if (name === "True" || name === "False" || name === "None") {
      this.pos += name.length;
      return { kind: "const", value: name };
    }
    throw FAIL;
  }

  /** One or more adjacent string literals (implicit concatenation). */
  private parseStrings(): PyLiteral {
    let value = "";
    for (;;) {
      this.skipSpace();
      const match = matchAt(STRING_START, this.text, this.pos);
      if (!match) return { kind: "str", value };
      const prefix = (match[1] ?? "").toLowerCase();
      const quote = match[2] as string;
      this.pos += match[0].length;
      const body = this.readStringBody(quote, prefix.includes("r"));
      // An f-string without placeholders is a plain string; with them it would evaluate code.
      if (prefix.includes("f") && body.includes("{")) throw FAIL;
      value += body;
    }
  }

  private readStringBody(quote: string, raw: boolean): string {
    const { text } = this;
    const triple = quote.length === 3;
    let out = "";
    for (;;) {
      if (this.pos >= text.length) throw FAIL;
      if (text.startsWith(quote, this.pos)) {
        this.pos += quote.length;
        return out;
      }
      const ch = text[this.pos] as string;
      if (ch === "\n" && !triple) throw FAIL;
      if (ch === "\\") {
        const next = text[this.pos + 1];
        if (next === undefined) throw FAIL;
        if (raw) {
          out += ch + next;
          this.pos += 2;
          continue;
        }
        out += this.readEscape();
        continue;
      }
      out += ch;
      this.pos++;
    }
  }

  private readEscape(): string {
    const { text } = this;
    const next = text[this.pos + 1] as string;
    this.pos += 2;
    const simple: Record<string, string> = {
      "\n": "",
      "\\": "\\",
      "'": "'",
      '"': '"',
      a: "\x07",
      b: "\b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
      v: "\v",
    };
    if (next in simple) return simple[next] as string;
    if (/[0-7]/.test(next)) {
      let digits = next;
      while (digits.length < 3 && /[0-7]/.test(text[this.pos] ?? "")) digits += text[this.pos++];
      return String.fromCodePoint(parseInt(digits, 8));
    }
    const hexLength = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (hexLength > 0) {
      const hex = text.slice(this.pos, this.pos + hexLength);
      if (!new RegExp(`^[0-9a-fA-F]{${hexLength}}$`).test(hex)) throw FAIL;
      this.pos += hexLength;
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) throw FAIL;
      return String.fromCodePoint(code);
    }
    if (next === "N") throw FAIL;
    // Unknown escapes keep the backslash (Python only warns).
    return `\\${next}`;
  }
}

function add(left: PyLiteral, right: PyLiteral): PyLiteral {
  if (left.kind === "str" && right.kind === "str") return { kind: "str", value: left.value + right.value };
  const a = numeric(left);
  const b = numeric(right);
  if (a === null || b === null) throw FAIL;
  if (typeof a === "bigint" && typeof b === "bigint") return { kind: "int", value: a + b };
  return { kind: "float", value: Number(a) + Number(b) };
}

function numeric(literal: PyLiteral): bigint | number | null {
  if (literal.kind === "int") return literal.value;
  if (literal.kind === "float") return literal.value;
  if (literal.kind === "const" && literal.value !== "None") return literal.value === "True" ? 1n : 0n;
  return null;
}

/** Evaluates `token` as Python would for a literal; null when it is not one (eval would raise or mislead). */
export function evalPythonLiteral(token: string): PyLiteral | null {
  try {
    return new LiteralParser(token).parse();
  } catch (error) {
    if (error instanceof NotALiteral) return null;
    throw error;
  }
}
