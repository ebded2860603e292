// Python semantics over JSON values (indexing, membership, equality, ordering, str(), int(), strip()) for
// replaying the official Python pipeline. Each helper returns what CPython returns, or `undefined` where it raises.

/** A value as produced by a JSON parser (Python `json.loads` or JS `JSON.parse`). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

// Held in module constants: cold code reads a constant where `Array.isArray` costs a global and a property lookup
// (hot analysis loops import isArray for that), and `Object.hasOwn` needs no `.call` trampoline.
export const isArray: typeof Array.isArray = Array.isArray;
const objectHasOwn = Object.hasOwn;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !isArray(value);
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Own-property lookup that never reads the prototype chain (`{"constructor": …}` is data, not a method). */
export function ownValue(obj: JsonObject, key: string): JsonValue | undefined {
  return objectHasOwn(obj, key) ? obj[key] : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Whitespace: Python `str.isspace()` (used by str.strip() and int()) differs from JS trim(): it includes
// U+001C..U+001F and U+0085, and excludes U+FEFF.

const PY_WHITESPACE: ReadonlySet<number> = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
  0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** Python `s.strip()` with no argument. All Python whitespace is in the BMP, so code units suffice. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && PY_WHITESPACE.has(s.charCodeAt(start))) start++;
  while (end > start && PY_WHITESPACE.has(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Python `s.strip(chars)`: removes any of `chars` (a set, not a prefix) from both ends. BMP-only `chars`. */
export function pyStripChars(s: string, chars: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && chars.includes(s.charAt(start))) start++;
  while (end > start && chars.includes(s.charAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

// ---------------------------------------------------------------------------------------------------------------
// Sequences. Python indexes strings by code point; JS by UTF-16 unit. Only strings with surrogates need splitting.

const SURROGATE = /[\uD800-\uDFFF]/;

function codePointsOf(s: string): readonly string[] {
  return SURROGATE.test(s) ? Array.from(s) : s.split("");
}

/** Python `len(v)`; undefined where len() raises (numbers, bools, None). */
export function pyLen(v: JsonValue): number | undefined {
  if (typeof v === "string") return SURROGATE.test(v) ? Array.from(v).length : v.length;
  if (isArray(v)) return v.length;
  if (isJsonObject(v)) return Object.keys(v).length;
  return undefined;
}

/** Python `v[i]` for an int `i` (negative counts from the end); undefined where it raises. */
export function pyItem(v: JsonValue, i: number): JsonValue | undefined {
  if (isArray(v)) {
    const index = i < 0 ? v.length + i : i;
    return index >= 0 && index < v.length ? v[index] : undefined;
  }
  if (typeof v === "string") {
    const chars = SURROGATE.test(v) ? Array.from(v) : null;
    const length = chars ? chars.length : v.length;
    const index = i < 0 ? length + i : i;
    if (index < 0 || index >= length) return undefined;
    return chars ? (chars[index] as string) : v.charAt(index);
  }
  // A dict indexed with an int: JSON keys are strings, so this is always a KeyError.
  return undefined;
}

/** Python `iter(v)` materialised: list items, string characters, dict keys; undefined where it raises. */
export function pyIter(v: JsonValue): readonly JsonValue[] | undefined {
  if (isArray(v)) return v;
  if (typeof v === "string") return codePointsOf(v);
  if (isJsonObject(v)) return Object.keys(v);
  return undefined;
}

/** Python `needle in container` for a str needle; undefined where it raises (numbers, bools, None). */
export function pyContains(container: JsonValue, needle: string): boolean | undefined {
  if (typeof container === "string") return container.includes(needle);
  if (isArray(container)) return container.some((item) => item === needle);
  if (isJsonObject(container)) return hasOwn.call(container, needle);
  return undefined;
}

/** Python `type(v).__name__`, for messages. */
export function pyTypeName(v: JsonValue): string {
  if (v === null) return "None";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  if (typeof v === "string") return "str";
  return isArray(v) ? "list" : "dict";
}

/** "a string", "an array", … for human messages (JSON vocabulary, not Python's). */
export function describeKind(v: JsonValue | undefined): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (typeof v === "boolean") return "a boolean";
  if (typeof v === "number") return "a number";
  if (typeof v === "string") return "a string";
  return isArray(v) ? "an array" : "an object";
}

/** A short JSON rendering of a value for messages. */
export function preview(v: JsonValue | undefined, max = 60): string {
  if (v === undefined) return "nothing";
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// ---------------------------------------------------------------------------------------------------------------
// Equality, hashing and ordering.

function isNumeric(v: JsonValue): v is number | boolean {
  return typeof v === "number" || typeof v === "boolean";
}

/** Python `a == b` (bool is an int: True == 1 == 1.0). */
export function pyEq(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return typeof a !== "number" || !Number.isNaN(a);
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  if (isArray(a)) {
    if (!isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pyEq(a[i] as JsonValue, b[i] as JsonValue)) return false;
    return true;
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => hasOwn.call(b, key) && pyEq(a[key] as JsonValue, b[key] as JsonValue));
  }
  return false;
}

/** A string key with Python dict/set identity (1, 1.0 and True collide); undefined when unhashable. */
export function pyHashKey(v: JsonValue): string | undefined {
  if (typeof v === "string") return `s${v}`;
  if (isNumeric(v)) return `n${Number(v)}`;
  if (v === null) return "z";
  return undefined;
}

/** Python `a < b`; undefined where it raises TypeError (None, dicts, mixed str/number). */
export function pyLess(a: JsonValue, b: JsonValue): boolean | undefined {
  if (isNumeric(a) && isNumeric(b)) return Number(a) < Number(b);
  if (typeof a === "string" && typeof b === "string") return compareCodePoints(a, b) < 0;
  if (isArray(a) && isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const x = a[i] as JsonValue;
      const y = b[i] as JsonValue;
      if (!pyEq(x, y)) return pyLess(x, y);
    }
    return a.length < b.length;
  }
  return undefined;
}

/** Compares by Unicode code point, as Python does (JS `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : 1;
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}

/** Below this length CPython sorts by binary insertion, which pySortBy replays comparison by comparison. */
const BINARY_INSERTION_LIMIT = 64;

/**
 * Sorts like Python `list.sort(key=…)` (stable) and reports whether it would raise TypeError. Exact below 64 items;
 * from 64 (where CPython runs timsort) a stable merge sort: the same order, raising when it meets an incomparable pair.
 */
export function pySortBy<T>(items: readonly T[], key: (item: T) => JsonValue): { sorted: T[]; raises: boolean } {
  const keys = items.map(key);
  const { order, raises } = keys.length < BINARY_INSERTION_LIMIT ? binaryInsertionOrder(keys) : mergeSortOrder(keys);
  return { sorted: order.map((i) => items[i] as T), raises };
}

/** Item indices in sorted order, and whether Python would have raised TypeError on the way. */
type SortOrder = { order: number[]; raises: boolean };

/** CPython's binary insertion; on a TypeError the order reached so far is returned. */
function binaryInsertionOrder(keys: readonly JsonValue[]): SortOrder {
  const order = keys.map((_, i) => i);
  for (let i = 1; i < order.length; i++) {
    const pivot = order[i] as number;
    const pivotKey = keys[pivot] as JsonValue;
    let lo = 0;
    let hi = i;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const less = pyLess(pivotKey, keys[order[mid] as number] as JsonValue);
      if (less === undefined) return { order, raises: true };
      if (less) hi = mid;
      else lo = mid + 1;
    }
    order.splice(i, 1);
    order.splice(lo, 0, pivot);
  }
  return { order, raises: false };
}

/** Bottom-up stable merge sort, at most n·⌈log2 n⌉ comparisons; on a TypeError the input order is returned. */
function mergeSortOrder(keys: readonly JsonValue[]): SortOrder {
  const n = keys.length;
  let from = keys.map((_, i) => i);
  let to = new Array<number>(n);
  for (let width = 1; width < n; width *= 2) {
    for (let start = 0; start < n; start += 2 * width) {
      const mid = Math.min(start + width, n);
      const stop = Math.min(start + 2 * width, n);
      let left = start;
      let right = mid;
      let out = start;
      while (left < mid && right < stop) {
        // Python asks only `<`: the right item goes first when it is strictly less, which keeps equal items stable.
        const less = pyLess(keys[from[right] as number] as JsonValue, keys[from[left] as number] as JsonValue);
        if (less === undefined) return { order: keys.map((_, i) => i), raises: true };
        to[out++] = (less ? from[right++] : from[left++]) as number;
      }
      while (left < mid) to[out++] = from[left++] as number;
      while (right < stop) to[out++] = from[right++] as number;
    }
    [from, to] = [to, from];
  }
  return { order: from, raises: false };
}

// ---------------------------------------------------------------------------------------------------------------
// str() / repr()

/** Python `repr(float)`: shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pyFloatRepr(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const [mantissa = "0", expText = "0"] = n.toExponential().split("e");
  const exponent = Number(expText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  const sign = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? "-" : "+";
    return `${sign}${body}e${expSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const intPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fracPart = digits.slice(exponent + 1);
  return `${sign}${intPart}.${fracPart || "0"}`;
}

function pyIntStr(n: number): string {
  return Math.abs(n) < 1e21 ? String(n === 0 ? 0 : n) : BigInt(n).toString();
}

function pyNumberStr(n: number, isFloat: boolean): string {
  return isFloat || !Number.isInteger(n) ? pyFloatRepr(n) : pyIntStr(n);
}

function pyStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** Python `repr(v)` for a JSON value (numbers read as int unless `isFloat`). */
export function pyRepr(v: JsonValue, isFloat = false): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return pyNumberStr(v, isFloat);
  if (typeof v === "string") return pyStringRepr(v);
  if (isArray(v)) return `[${v.map((item) => pyRepr(item)).join(", ")}]`;
  return `{${Object.keys(v)
    .map((key) => `${pyStringRepr(key)}: ${pyRepr(v[key] as JsonValue)}`)
    .join(", ")}}`;
}

/** Python `str(v)`: strings as-is, everything else as repr. */
export function pyStr(v: JsonValue, isFloat = false): string {
  return typeof v === "string" ? v : pyRepr(v, isFloat);
}

// ---------------------------------------------------------------------------------------------------------------
// int(str)

const PY_INT_TEXT = /^[+-]?\p{Nd}+(?:_\p{Nd}+)*$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/** Value of a Unicode decimal digit: every Nd run is a whole number of 0..9 blocks starting at a zero. */
function digitValue(ch: string): number {
  const code = ch.codePointAt(0) as number;
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  let start = code;
  while (start > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return (code - start) % 10;
}

/** Python `int(s)` for a str: surrounding whitespace, sign, Unicode digits, single underscores. */
export function pyParseInt(s: string): number | undefined {
  const text = pyStrip(s);
  if (!PY_INT_TEXT.test(text)) return undefined;
  let value = 0;
  let sign = 1;
  for (const ch of text) {
    if (ch === "-") sign = -1;
    else if (ch !== "+" && ch !== "_") value = value * 10 + digitValue(ch);
  }
  return sign * value;
}
