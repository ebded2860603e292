// Building blocks of the node types' variable rules (NodeVariables): the shapes most types share, so each module
// states only what is its own (fixed outputs, declared variables, the official quirks).

import { ownValue, pyEq, pyItem, pyIter, pyStripChars, type JsonObject, type JsonValue } from "../python-values";
import type { DeclaredVariable, FactsOf, NodeVariables, TypeLookup } from "./types";

export function found(type: JsonValue): TypeLookup {
  return { ok: true, type };
}

/** found("string"), the answer to most lookups, made once: lookups are only read. */
export const FOUND_STRING: TypeLookup = Object.freeze(found("string"));

/** Python `t.strip('array[').strip(']')`: character-set stripping, so `array[string]` -> `string`, `array` -> ``. */
export function officialElementType(arrayType: string): string {
  return pyStripChars(pyStripChars(arrayType, "ary["), "]");
}

/** The element type of a real `array[…]` type; null when it is not one. */
export function realElementType(arrayType: JsonValue): string | null {
  if (typeof arrayType !== "string") return null;
  const match = /^array\[(.+)\]$/.exec(arrayType);
  return match ? (match[1] ?? null) : null;
}

/** `[name, type]`-like entries of a param list (items at `nameIndex` and `typeIndex`), skipping unreadable ones. */
export function declaredPairs(param: JsonObject, key: string, nameIndex: number, typeIndex: number): DeclaredVariable[] {
  const value = ownValue(param, key);
  const items = value === undefined ? undefined : pyIter(value);
  if (!items) return [];
  const out: DeclaredVariable[] = [];
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i] as JsonValue;
    const name = pyItem(item, nameIndex);
    const type = pyItem(item, typeIndex);
    if (name !== undefined && type !== undefined) out.push({ name, type });
  }
  return out;
}

/**
 * The first declared variable named `name`: by Python equality (the official lookup) or by identity (the real one).
 * A loop rather than find(), which costs a closure per reference looked up; pyEq only where it can differ from
 * identity (identical values are equal, distinct strings are not).
 */
export function declaredVariable(variables: readonly DeclaredVariable[], name: JsonValue, python: boolean): DeclaredVariable | undefined {
  const plainName = typeof name === "string";
  for (let i = 0; i < variables.length; i += 1) {
    const variable = variables[i] as DeclaredVariable;
    const declared = variable.name;
    if (declared === name) return variable;
    if (python && !(plainName && typeof declared === "string") && pyEq(declared, name)) return variable;
  }
  return undefined;
}

/** The string names among declared variables. */
export function declaredNames(variables: Iterable<DeclaredVariable>): string[] {
  return [...variables].flatMap((v) => (typeof v.name === "string" ? [v.name] : []));
}

/** A fixed table of real types: own keys only, so "constructor" is no variable. */
export function lookupReal(table: Readonly<Record<string, string>>, variable: string): string | undefined {
  return Object.hasOwn(table, variable) ? table[variable] : undefined;
}

type PlainType = "question-classifier" | "http-request" | "llm" | "template-transform";

/**
 * llm, classifier, http-request and template: fixed documented outputs with fixed real types, while the official
 * inference accepts any name as `string`.
 */
export function fixedOutputs<T extends PlainType>(type: T, real: Readonly<Record<string, string>>): NodeVariables<FactsOf<T>> {
  const outputs = Object.keys(real);
  return {
    facts: () => ({ type }) as FactsOf<T>,
    officialType: () => FOUND_STRING,
    realType: (_facts, variable) => lookupReal(real, variable),
    names: () => [...outputs],
  };
}

/** end, if-else and iteration-start expose nothing: referencing them is an error. */
export function exposesNothing<T extends "end" | "if-else" | "iteration-start">(type: T): NodeVariables<FactsOf<T>> {
  return {
    facts: () => ({ type }) as FactsOf<T>,
    officialType: () => ({ ok: false, code: "reference-no-outputs", message: `${type} nodes expose no variables` }),
    realType: () => undefined,
    names: () => [],
  };
}
