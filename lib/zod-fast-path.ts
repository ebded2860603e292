// A fast path in front of zod for well-shaped data, because cold command-line runs parse thousands of small values
// once each, where zod's own parser costs more than the checks; anything uncertain is left to zod.

import type { z } from "zod";

type Accepts = (value: unknown) => boolean;
const REFUSE: Accepts = () => false;
/** The acceptor of every plain string schema: fields and tuple items test for it inline instead of calling it. */
const ANY_STRING: Accepts = (value) => typeof value === "string";
const compiled = new WeakMap<z.ZodType, Accepts>();

/**
 * A schema (or anything costly to build) made on its first use: modules a command loads on every thread, including
 * scoring workers that never parse what the schema checks, then pay nothing for it at start-up.
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

interface CheckDef {
  check: string;
  format?: string;
  minimum?: number;
  value?: number;
  inclusive?: boolean;
}

/** The checks zod would run after the type test, or null when one of them is not understood here. */
function checksOf(schema: z.ZodType, kind: "string" | "number" | "array"): ((value: never) => boolean)[] | null {
  const checks = ((schema._zod.def as { checks?: { _zod: { def: CheckDef } }[] }).checks ?? []).map((check) => check._zod.def);
  const tests: ((value: never) => boolean)[] = [];
  for (const check of checks) {
    if (check.check === "min_length" && kind !== "number" && typeof check.minimum === "number") {
      const minimum = check.minimum;
      tests.push((value: string | unknown[]) => value.length >= minimum);
    } else if (check.check === "number_format" && kind === "number" && check.format === "safeint") {
      tests.push((value: number) => Number.isSafeInteger(value));
    } else if ((check.check === "greater_than" || check.check === "less_than") && kind === "number" && check.inclusive === true) {
      const bound = check.value as number;
      tests.push(check.check === "greater_than" ? (value: number) => value >= bound : (value: number) => value <= bound);
    } else {
      return null;
    }
  }
  return tests;
}

function compile(schema: z.ZodType): Accepts {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "string":
    case "number":
    case "array": {
      const tests = checksOf(schema, def.type);
      if (!tests) return REFUSE;
      // Most fields have no checks: their acceptor is the bare type test.
      const passes = tests.length === 0 ? null : (value: never) => tests.every((test) => test(value));
      if (def.type === "string") return passes ? (value) => typeof value === "string" && passes(value as never) : ANY_STRING;
      if (def.type === "number") return (value) => typeof value === "number" && Number.isFinite(value) && (passes === null || passes(value as never));
      const element = acceptor(def.element as z.ZodType);
      return (value) => Array.isArray(value) && everyItem(value, element) && (passes === null || passes(value as never));
    }
    case "boolean":
      return (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    case "nullable": {
      const inner = acceptor(def.innerType as z.ZodType);
      return (value) => value === null || inner(value);
    }
    case "literal": {
      const values = def.values as unknown[];
      return (value) => values.includes(value);
    }
    case "enum": {
      const values = Object.values(def.entries as Record<string, unknown>);
      return (value) => values.includes(value);
    }
    case "union": {
      const options = (def.options as z.ZodType[]).map(acceptor);
      return (value) => {
        for (const option of options) if (option(value)) return true;
        return false;
      };
    }
    case "tuple": {
      if (def.rest) return REFUSE;
      const items = (def.items as z.ZodType[]).map(acceptor);
      return (value) => {
        if (!Array.isArray(value) || value.length !== items.length) return false;
        for (let i = 0; i < items.length; i += 1) {
          const item = items[i] as Accepts;
          if (item === ANY_STRING ? typeof value[i] !== "string" : !item(value[i])) return false;
        }
        return true;
      };
    }
    case "object": {
      if (def.catchall) return REFUSE;
      const shape = objectFields(def);
      return (value) => {
        if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
        const record = value as Record<string, unknown>;
        // Inline rather than through fieldAccepts, and indexed (no iterator result per field in cold code): run files
        // are read through here, one record at a time.
        for (let i = 0; i < shape.length; i += 1) {
          const field = shape[i] as ObjectField;
          const item = record[field.key];
          if (field.optional && item === undefined) continue;
          if (field.inner === ANY_STRING ? typeof item !== "string" : !field.inner(item)) return false;
        }
        return true;
      };
    }
    default:
      return REFUSE;
  }
}

interface ObjectField {
  key: string;
  optional: boolean;
  inner: Accepts;
}

function objectFields(def: Record<string, unknown>): ObjectField[] {
  return Object.entries(def.shape as Record<string, z.ZodType>).map(([key, field]) => {
    const optional = field._zod.def.type === "optional";
    const inner = acceptor(optional ? (field._zod.def as unknown as { innerType: z.ZodType }).innerType : field);
    return { key, optional, inner };
  });
}

/** zod reads `input[key]` (inherited keys too), so the same read decides here. */
function fieldAccepts(field: ObjectField, record: Record<string, unknown>): boolean {
  const item = record[field.key];
  if (field.optional && item === undefined) return true;
  return field.inner === ANY_STRING ? typeof item === "string" : field.inner(item);
}

/** `items.every(element)` without a callback per call: cold runs execute these acceptors in the interpreter. */
function everyItem(items: readonly unknown[], element: Accepts): boolean {
  if (element === ANY_STRING) {
    for (let i = 0; i < items.length; i += 1) if (typeof items[i] !== "string") return false;
    return true;
  }
  for (let i = 0; i < items.length; i += 1) if (!element(items[i])) return false;
  return true;
}

function acceptor(schema: z.ZodType): Accepts {
  let accepts = compiled.get(schema);
  if (!accepts) {
    accepts = compile(schema);
    compiled.set(schema, accepts);
  }
  return accepts;
}

/**
 * True only when `schema.safeParse(value)` certainly succeeds: the schema is built from objects (no catch-all),
 * arrays, tuples, unions, literals, enums, strings, finite numbers with integer and range checks, booleans, null,
 * nullable and optional fields (no transforms or refinements), and the value fits it.
 */
export function certainlyAccepts(schema: z.ZodType, value: unknown): boolean {
  return acceptor(schema)(value);
}

const NO_KEYS: readonly string[] = [];
/** Per object schema of plain fields (no catch-all, no checks of its own): its fields; null for any other schema. */
const plainObjects = new WeakMap<z.ZodType, ObjectField[] | null>();

/**
 * The keys of an object schema's fields whose values in `value` certainlyAccepts cannot vouch for, in the schema's
 * order ([] when it accepts all of them); null unless the schema is an object of plain fields and `value` an object.
 * Every issue zod reports for such a value lies under one of these keys, so a caller can skip zod for the others.
 */
export function uncertainFields(schema: z.ZodType, value: unknown): readonly string[] | null {
  let fields = plainObjects.get(schema);
  if (fields === undefined) {
    const def = schema._zod.def as unknown as Record<string, unknown> & { type: string; checks?: unknown[] };
    fields = def.type === "object" && !def.catchall && (def.checks ?? []).length === 0 ? objectFields(def) : null;
    plainObjects.set(schema, fields);
  }
  if (fields === null || typeof value !== "object" || value === null || Array.isArray(value)) return null;
  let uncertain: string[] | null = null;
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as ObjectField;
    if (!fieldAccepts(field, value as Record<string, unknown>)) (uncertain ??= []).push(field.key);
  }
  return uncertain ?? NO_KEYS;
}

/**
 * What `schema.safeParse(value).data` is for an object schema of plain fields once certainlyAccepts(schema, value)
 * holds: zod copies the schema's keys present in the value (`key in value`), in the schema's order, and drops the rest.
 */
export function pickShape<T>(schema: z.ZodType<T>, value: object): T {
  let keys = shapeKeys.get(schema);
  if (!keys) {
    keys = Object.keys((schema._zod.def as unknown as { shape: object }).shape);
    shapeKeys.set(schema, keys);
  }
  const picked: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    if (key in source) picked[key] = source[key];
  }
  return picked as T;
}

/** Per object schema: its keys, listed once instead of per value picked. */
const shapeKeys = new WeakMap<z.ZodType, string[]>();
