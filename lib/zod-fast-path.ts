// A fast path in front of zod for well-shaped data, because cold command-line runs parse thousands of small values
// once each, where zod's own parser costs more than the checks; anything uncertain is left to zod.

import * as z from "zod";

/**
 * The part of zod the fast path understands, as plain data: objects (optional fields, no catch-all), arrays and
 * strings with a minimum length, tuples, unions, literals, enums, finite numbers with integer and range checks,
 * booleans, null and nullable. Shapes cost nothing to build, so modules every thread loads declare shapes and build
 * the zod schema of one (zodSchemaOf) only when zod has to word the issues of a value that does not fit.
 */
export type Shape =
  | { readonly type: "string"; readonly minLength?: number }
  | { readonly type: "number"; readonly int?: boolean; readonly min?: number; readonly max?: number }
  | { readonly type: "boolean" }
  | { readonly type: "null" }
  | { readonly type: "literal"; readonly values: readonly (string | number | boolean)[] }
  | { readonly type: "enum"; readonly values: readonly string[] }
  | { readonly type: "nullable" | "optional"; readonly inner: Shape }
  | { readonly type: "union"; readonly options: readonly Shape[] }
  | { readonly type: "tuple"; readonly items: readonly Shape[] }
  | { readonly type: "array"; readonly element: Shape; readonly minLength?: number; readonly tooShort?: string }
  | ObjectShape;

/** An object's fields, in order; a field that may be missing is an `optional` shape. */
export interface ObjectShape {
  readonly type: "object";
  readonly fields: Readonly<Record<string, Shape>>;
}

/** The shapes node params and run records are written with, named as zod names them. */
export const shape = {
  string: { type: "string" } as Shape,
  null: { type: "null" } as Shape,
  boolean: { type: "boolean" } as Shape,
  number: { type: "number" } as Shape,
  integer: (min: number, max: number): Shape => ({ type: "number", int: true, min, max }),
  literal: (value: string): Shape => ({ type: "literal", values: [value] }),
  enum: (values: readonly string[]): Shape => ({ type: "enum", values }),
  nullable: (inner: Shape): Shape => ({ type: "nullable", inner }),
  optional: (inner: Shape): Shape => ({ type: "optional", inner }),
  union: (...options: Shape[]): Shape => ({ type: "union", options }),
  tuple: (...items: Shape[]): Shape => ({ type: "tuple", items }),
  /** An array; with `atLeast`, of at least that many items, zod's issue then saying `tooShort`. */
  array: (element: Shape, atLeast?: { count: number; tooShort: string }): Shape =>
    atLeast ? { type: "array", element, minLength: atLeast.count, tooShort: atLeast.tooShort } : { type: "array", element },
  object: (fields: Record<string, Shape>): ObjectShape => ({ type: "object", fields }),
};

/**
 * A schema (or anything costly to build) made on its first use: modules a command loads on every thread, including
 * scoring workers that never parse what the schema checks, then pay nothing for it at start-up.
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

/** `cache`'s entry for `key`, made by `make` on first use. */
function memoized<K extends object, V>(cache: WeakMap<K, V>, key: K, make: (key: K) => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make(key);
    cache.set(key, value);
  }
  return value;
}

// -- zod schemas of shapes, and shapes of zod schemas ------------------------------------------------------------

const zodSchemas = new WeakMap<Shape, z.ZodType>();

/** The zod schema `shape` describes, built on its first use. */
export function zodSchemaOf(described: Shape): z.ZodType {
  return memoized(zodSchemas, described, buildZodSchema);
}

function buildZodSchema(described: Shape): z.ZodType {
  switch (described.type) {
    case "string":
      return described.minLength === undefined ? z.string() : z.string().min(described.minLength);
    case "number": {
      let schema = z.number();
      if (described.int) schema = schema.int();
      if (described.min !== undefined) schema = schema.min(described.min);
      return described.max === undefined ? schema : schema.max(described.max);
    }
    case "boolean":
      return z.boolean();
    case "null":
      return z.null();
    case "literal":
      return z.literal(described.values);
    case "enum":
      return z.enum(described.values);
    case "nullable":
      return zodSchemaOf(described.inner).nullable();
    case "optional":
      return zodSchemaOf(described.inner).optional();
    case "union":
      return z.union(described.options.map(zodSchemaOf));
    case "tuple":
      return z.tuple(described.items.map(zodSchemaOf) as [z.ZodType, ...z.ZodType[]]);
    case "array": {
      const schema = z.array(zodSchemaOf(described.element));
      return described.minLength === undefined ? schema : schema.min(described.minLength, described.tooShort);
    }
    case "object":
      return z.object(Object.fromEntries(Object.entries(described.fields).map(([key, field]) => [key, zodSchemaOf(field)])));
  }
}

interface CheckDef {
  check: string;
  format?: string;
  minimum?: number;
  value?: number;
  inclusive?: boolean;
}

/** The shape a zod schema is, when the fast path understands every part of it (no refinements, transforms, catch-alls). */
const shapes = new WeakMap<z.ZodType, Shape | null>();

export function shapeOf(schema: z.ZodType): Shape | null {
  return memoized(shapes, schema, readShape);
}

function readShape(schema: z.ZodType): Shape | null {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string; checks?: { _zod: { def: CheckDef } }[] };
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  if (checks.length > 0 && def.type !== "string" && def.type !== "number" && def.type !== "array") return null;
  switch (def.type) {
    case "string":
    case "array": {
      let minLength: number | undefined;
      for (const check of checks) {
        if (check.check !== "min_length" || typeof check.minimum !== "number" || minLength !== undefined) return null;
        minLength = check.minimum;
      }
      // zod counts a string's code points where it could differ from its UTF-16 length, which no minimum of 1 does.
      if (def.type === "string") return minLength === undefined ? shape.string : minLength <= 1 ? { type: "string", minLength } : null;
      const element = shapeOf(def.element as z.ZodType);
      return element && (minLength === undefined ? { type: "array", element } : { type: "array", element, minLength });
    }
    case "number": {
      const read: { int?: boolean; min?: number; max?: number } = {};
      for (const check of checks) {
        if (check.check === "number_format" && check.format === "safeint" && !read.int) read.int = true;
        else if (check.check === "greater_than" && check.inclusive === true && read.min === undefined) read.min = check.value as number;
        else if (check.check === "less_than" && check.inclusive === true && read.max === undefined) read.max = check.value as number;
        else return null;
      }
      return { type: "number", ...read };
    }
    case "boolean":
    case "null":
      return { type: def.type };
    case "literal":
      return { type: "literal", values: def.values as (string | number | boolean)[] };
    case "enum": {
      const values = Object.values(def.entries as Record<string, unknown>);
      return values.every((value) => typeof value === "string") ? { type: "enum", values } : null;
    }
    case "nullable":
    case "optional": {
      const inner = shapeOf(def.innerType as z.ZodType);
      return inner && { type: def.type, inner };
    }
    case "union":
    case "tuple": {
      if (def.type === "tuple" && def.rest) return null;
      const parts = (def.type === "union" ? (def.options as z.ZodType[]) : (def.items as z.ZodType[])).map(shapeOf);
      if (parts.some((part) => part === null)) return null;
      return def.type === "union" ? { type: "union", options: parts as Shape[] } : { type: "tuple", items: parts as Shape[] };
    }
    case "object": {
      if (def.catchall) return null;
      const fields: Record<string, Shape> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const read = shapeOf(field);
        if (!read) return null;
        fields[key] = read;
      }
      return { type: "object", fields };
    }
    default:
      return null;
  }
}

// -- acceptors ---------------------------------------------------------------------------------------------------

type Accepts = (value: unknown) => boolean;
const REFUSE: Accepts = () => false;
/** The acceptor of every plain string shape: fields and tuple items test for it inline instead of calling it. */
const ANY_STRING: Accepts = (value) => typeof value === "string";
const compiled = new WeakMap<Shape, Accepts>();

function compile(described: Shape): Accepts {
  switch (described.type) {
    case "string": {
      const minLength = described.minLength;
      return minLength === undefined ? ANY_STRING : (value) => typeof value === "string" && value.length >= minLength;
    }
    case "number": {
      const { int = false, min = -Infinity, max = Infinity } = described;
      return (value) => typeof value === "number" && Number.isFinite(value) && (!int || Number.isSafeInteger(value)) && value >= min && value <= max;
    }
    case "array": {
      const element = acceptor(described.element);
      const minLength = described.minLength ?? 0;
      return (value) => Array.isArray(value) && everyItem(value, element) && value.length >= minLength;
    }
    case "boolean":
      return (value) => typeof value === "boolean";
    case "null":
      return (value) => value === null;
    case "nullable": {
      const inner = acceptor(described.inner);
      return (value) => value === null || inner(value);
    }
    case "literal":
    case "enum": {
      const values: readonly unknown[] = described.values;
      return (value) => values.includes(value);
    }
    case "union": {
      const options = described.options.map(acceptor);
      return (value) => {
        for (const option of options) if (option(value)) return true;
        return false;
      };
    }
    case "tuple": {
      const items = described.items.map(acceptor);
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
      const fields = objectFields(described);
      return (value) => {
        if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
        const record = value as Record<string, unknown>;
        // Inline rather than through fieldAccepts, and indexed (no iterator result per field in cold code): run files
        // are read through here, one record at a time.
        for (let i = 0; i < fields.length; i += 1) {
          const field = fields[i] as ObjectField;
          const item = record[field.key];
          if (field.optional && item === undefined) continue;
          if (field.inner === ANY_STRING ? typeof item !== "string" : !field.inner(item)) return false;
        }
        return true;
      };
    }
    // Only an object's field may be missing: anywhere else, zod decides.
    case "optional":
      return REFUSE;
  }
}

interface ObjectField {
  key: string;
  optional: boolean;
  inner: Accepts;
}

const objectFieldLists = new WeakMap<ObjectShape, ObjectField[]>();

function objectFields(described: ObjectShape): ObjectField[] {
  return memoized(objectFieldLists, described, listFields);
}

function listFields(described: ObjectShape): ObjectField[] {
  return Object.entries(described.fields).map(([key, field]) => {
    const optional = field.type === "optional";
    return { key, optional, inner: acceptor(field.type === "optional" ? field.inner : field) };
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

function acceptor(described: Shape): Accepts {
  return memoized(compiled, described, compile);
}

/** True only when `zodSchemaOf(shape).safeParse(value)` certainly succeeds. */
export function fits(described: Shape, value: unknown): boolean {
  return acceptor(described)(value);
}

// -- issues --------------------------------------------------------------------------------------------------------

/** An issue as zod reports it: where, its English wording, and whether it says that no form of a union fits. */
export interface ShapeIssue {
  path: (string | number)[];
  message: string;
  unionMismatch: boolean;
}

/**
 * The issues `zodSchemaOf(shape).safeParse(value)` reports, in zod's order, worked out here for the misfits models'
 * params show (a wrong type, a tuple of the wrong length, a union none of whose forms fits); null when only zod can tell.
 */
export function shapeIssues(described: Shape, value: unknown): ShapeIssue[] | null {
  const issues: ShapeIssue[] = [];
  return collectIssues(described, value, [], issues) ? issues : null;
}

/** Adds the issues of `value` to `out`; false when only zod can tell them. */
function collectIssues(described: Shape, value: unknown, path: (string | number)[], out: ShapeIssue[]): boolean {
  if (fits(described, value)) return true;
  switch (described.type) {
    case "string":
      return typeof value !== "string" && typeMisfit("string", value, path, out);
    case "tuple": {
      if (!Array.isArray(value)) return typeMisfit("tuple", value, path, out);
      const items = described.items;
      if (value.length < items.length) {
        out.push({ path, message: `Too small: expected array to have >=${items.length} items`, unionMismatch: false });
        return true;
      }
      // Too long is reported, and the items are checked all the same.
      if (value.length > items.length) out.push({ path, message: `Too big: expected array to have <=${items.length} items`, unionMismatch: false });
      for (let i = 0; i < items.length; i += 1) if (!collectIssues(items[i] as Shape, value[i], [...path, i], out)) return false;
      return true;
    }
    case "array": {
      if (!Array.isArray(value)) {
        // zod also checks the length of anything that has one (a string): it tells.
        const hasLength = value !== null && value !== undefined && (value as { length?: unknown }).length !== undefined;
        return !(described.minLength !== undefined && hasLength) && typeMisfit("array", value, path, out);
      }
      for (let i = 0; i < value.length; i += 1) if (!collectIssues(described.element, value[i], [...path, i], out)) return false;
      // zod checks the length after the items, whatever their issues.
      const minLength = described.minLength ?? 0;
      if (value.length < minLength) out.push({ path, message: described.tooShort ?? `Too small: expected array to have >=${minLength} items`, unionMismatch: false });
      return true;
    }
    case "object": {
      if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const [key, field] of Object.entries(described.fields)) {
        const item = (value as Record<string, unknown>)[key];
        if (field.type === "optional" ? item !== undefined && !collectIssues(field.inner, item, [...path, key], out) : !collectIssues(field, item, [...path, key], out)) {
          return false;
        }
      }
      return true;
    }
    case "union":
      // A form whose types fit but whose checks fail (a count out of range) has its own issues reported: zod tells.
      if (described.options.some((option) => fits(typesOnly(option), value))) return false;
      out.push({ path, message: "Invalid input", unionMismatch: true });
      return true;
    default:
      return false;
  }
}

/** zod's "expected …, received …", for values JSON and Python literals give. */
function typeMisfit(expected: string, value: unknown, path: (string | number)[], out: ShapeIssue[]): boolean {
  let received: string;
  if (value === null) received = "null";
  else if (Array.isArray(value)) received = "array";
  else if (typeof value === "number") received = Number.isNaN(value) ? "NaN" : Number.isFinite(value) ? "number" : String(value);
  else if (typeof value !== "object") received = typeof value;
  else if (Object.getPrototypeOf(value) === Object.prototype) received = "object";
  else return false;
  out.push({ path, message: `Invalid input: expected ${expected}, received ${received}`, unionMismatch: false });
  return true;
}

const withoutChecks = new WeakMap<Shape, Shape>();

/** The shape with its checks (lengths, integers, ranges) left out: what zod tests before it runs any check. */
function typesOnly(described: Shape): Shape {
  return memoized(withoutChecks, described, stripChecks);
}

function stripChecks(described: Shape): Shape {
  switch (described.type) {
    case "string":
      return shape.string;
    case "number":
      return shape.number;
    case "array":
      return { type: "array", element: typesOnly(described.element) };
    case "nullable":
    case "optional":
      return { type: described.type, inner: typesOnly(described.inner) };
    case "union":
      return { type: "union", options: described.options.map(typesOnly) };
    case "tuple":
      return { type: "tuple", items: described.items.map(typesOnly) };
    case "object":
      return { type: "object", fields: Object.fromEntries(Object.entries(described.fields).map(([key, field]) => [key, typesOnly(field)])) };
    default:
      return described;
  }
}

const NO_KEYS: readonly string[] = [];

/**
 * The keys of an object shape's fields whose values in `value` fits cannot vouch for, in the shape's order ([] when
 * it accepts all of them); null unless `value` is an object. Every issue zod reports for such a value lies under one
 * of these keys, so a caller can skip zod for the others.
 */
export function uncertainFields(described: ObjectShape, value: unknown): readonly string[] | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const fields = objectFields(described);
  let uncertain: string[] | null = null;
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as ObjectField;
    if (!fieldAccepts(field, value as Record<string, unknown>)) (uncertain ??= []).push(field.key);
  }
  return uncertain ?? NO_KEYS;
}

/**
 * What `zodSchemaOf(shape).safeParse(value).data` is once fits(shape, value) holds: zod copies the shape's keys
 * present in the value (`key in value`), in the shape's order, and drops the rest.
 */
export function pickShape<T>(described: ObjectShape, value: object): T {
  const keys = memoized(shapeKeys, described, fieldKeys);
  const picked: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    if (key in source) picked[key] = source[key];
  }
  return picked as T;
}

/** Per object shape: its keys, listed once instead of per value picked. */
const shapeKeys = new WeakMap<ObjectShape, string[]>();
const fieldKeys = (described: ObjectShape): string[] => Object.keys(described.fields);
