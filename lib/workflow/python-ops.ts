// The few Python operations the official auto-repairs and validation apply to a parsed workflow, with Python's
// results, including where Python raises (an AttributeError on `.get` of a list, a TypeError iterating None). The
// official loop does not catch those: the task is abandoned there, so the caller must know.
// Internal raises never leave the modules that use this: they catch PyRaise and return it as data.

import { isFloatLiteral, type FloatLiterals } from "@/lib/workflow/json-text";
import { isJsonObject, ownValue, pyIter, pyStr, type JsonValue } from "@/lib/workflow/python-values";

/** What Python raised (the exception's class name), carried as a value by the callers. */
export class PyRaise {
  constructor(readonly name: string) {}
}

export function raise(name: string): never {
  throw new PyRaise(name);
}

/** Python `value.get(key, fallback)`: only dicts have it. */
export function dictGet(value: JsonValue | undefined, key: string, fallback?: JsonValue): JsonValue | undefined {
  if (!isJsonObject(value)) return raise("AttributeError");
  const found = ownValue(value, key);
  return found === undefined ? fallback : found;
}

/** Python `for item in value`: list items, dict keys, a string's characters; anything else raises. */
export function iterate(value: JsonValue | undefined): readonly JsonValue[] {
  return (value === undefined ? undefined : pyIter(value)) ?? raise("TypeError");
}

/** Python truthiness. */
export function truthy(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  return !isJsonObject(value) || Object.keys(value).length > 0;
}

/** Python `str(container[key])` (None for a missing key), floats written as Python writes them. */
export function strAt(container: JsonValue, key: string | number, floats: FloatLiterals | null, missing: string = "None"): string {
  if (typeof container !== "object" || container === null) return missing;
  const value = Array.isArray(container) ? (typeof key === "number" ? container[key] : undefined) : ownValue(container, String(key));
  return value === undefined ? missing : pyStr(value, isFloatLiteral(floats, container, key));
}

/** Python `isinstance(container[key], (str, int))`: bools are ints, floats are not. */
export function isStrOrInt(container: JsonValue[], index: number, floats: FloatLiterals | null): boolean {
  const value = container[index];
  return typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isInteger(value) && !isFloatLiteral(floats, container, index));
}

/** Python's `\s` in a str pattern (JS's differs at \x1c-\x1f, \x85 and \ufeff). */
export const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
