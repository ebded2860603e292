// The fast path never accepts what zod refuses, and builds the object zod builds: checked on values generated from
// each schema (mostly well-shaped, some parts swapped for any JSON), and over every param and record of the runs.
// Node params are declared as shapes: the zod schema built from one is read back as the same shape.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../test/support/benchmark-dir";
import { parseRunFile, RUN_RECORD_SHAPE, runRecordSchema } from "./benchmark/runs";
import { NODE_SPECS } from "./workflow/nodes";
import { fits, pickShape, shape, shapeIssues, shapeOf, uncertainFields, zodSchemaOf, type ObjectShape, type Shape } from "./zod-fast-path";

const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom("", "a", "asc", "extract_by", "filter_by", "step_1_2", 0, 1, 2, 20, 21, -1, 1.5, 2 ** 53, NaN, Infinity, true, false, null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom("variables", "code", "outputs", "query", "classes", "task", "round", "x"), tie("value"), { maxKeys: 4 }),
  ),
})).value;

type Def = { type: string; [key: string]: unknown };

/** Values shaped like `schema` (its checks ignored, so lengths and ranges vary), with random parts now and then. */
function shaped(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = schema._zod.def as unknown as Def;
  let arbitrary: fc.Arbitrary<unknown>;
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, shaped(field, depth + 1)]));
      const required = Object.keys(shape).filter((key) => (shape[key]?._zod.def as unknown as Def).type !== "optional");
      arbitrary = fc.oneof(fc.record(fields, { requiredKeys: required }), fc.record(fields, { requiredKeys: [] }));
      break;
    }
    case "array":
      arbitrary = fc.array(shaped(def.element as z.ZodType, depth + 1), { maxLength: 3 });
      break;
    case "tuple":
      arbitrary = fc.tuple(...(def.items as z.ZodType[]).map((item) => shaped(item, depth + 1)));
      break;
    case "union":
      arbitrary = fc.oneof(...(def.options as z.ZodType[]).map((option) => shaped(option, depth + 1)));
      break;
    case "optional":
    case "nullable":
      arbitrary = fc.oneof(shaped(def.innerType as z.ZodType, depth + 1), fc.constant(def.type === "nullable" ? null : undefined));
      break;
    case "literal":
      arbitrary = fc.constantFrom(...(def.values as unknown[]));
      break;
    case "enum":
      arbitrary = fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
      break;
    case "string":
      arbitrary = fc.constantFrom("", "a", "text");
      break;
    case "number":
      arbitrary = fc.constantFrom(0, 1, 2, 20, 21, -3, 0.5, 2 ** 53, NaN, Infinity);
      break;
    case "boolean":
      arbitrary = fc.boolean();
      break;
    default:
      arbitrary = anyJson;
  }
  return depth > 4 ? arbitrary : fc.oneof({ weight: 12, arbitrary }, { weight: 1, arbitrary: anyJson });
}

const schemas: [string, z.ZodType][] = [...Object.entries(NODE_SPECS).map(([type, spec]) => [type, zodSchemaOf(spec.paramShape)] as [string, z.ZodType]), ["run record", runRecordSchema()]];

/** What the fast path says of a zod schema: nothing (false) unless it reads the schema as a shape. */
function certainlyAccepts(schema: z.ZodType, value: unknown): boolean {
  const described = shapeOf(schema);
  return described !== null && fits(described, value);
}

describe("certainlyAccepts", () => {
  it.each(schemas)("never accepts a value zod refuses, and picks what zod returns (%s)", (_name, schema) => {
    let accepted = 0;
    fc.assert(
      fc.property(shaped(schema), (value) => {
        if (!certainlyAccepts(schema, value)) return;
        accepted += 1;
        const parsed = schema.safeParse(value);
        expect(parsed.success).toBe(true);
        const described = shapeOf(schema) as Shape;
        if (described.type === "object") expect(JSON.stringify(pickShape(described, value as object))).toBe(JSON.stringify(parsed.data));
      }),
      // A fixed seed: the acceptance count below must not depend on the draw.
      { numRuns: 1000, seed: 24 },
    );
    expect(accepted).toBeGreaterThan(20);
  });

  it("asks zod about schemas it does not read (refinements, transforms, catch-alls)", () => {
    expect(certainlyAccepts(z.string().refine((s) => s.length > 3), "ab")).toBe(false);
    expect(certainlyAccepts(z.string().transform((s) => s.length), "ab")).toBe(false);
    expect(certainlyAccepts(z.object({ a: z.string() }).catchall(z.number()), { a: "x", b: "y" })).toBe(false);
    expect(certainlyAccepts(z.number().multipleOf(2), 4)).toBe(false);
  });
});

describe("uncertainFields", () => {
  // iteration-start's param has no fields: nothing to flag.
  const objectSchemas = schemas.filter(([, schema]) => {
    const def = schema._zod.def as unknown as Def;
    return def.type === "object" && Object.keys(def.shape as object).length > 0;
  });

  it.each(objectSchemas)("names every key zod reports an issue under, and none when zod accepts (%s)", (_name, schema) => {
    let flagged = 0;
    fc.assert(
      fc.property(shaped(schema), (value) => {
        const keys = uncertainFields(shapeOf(schema) as ObjectShape, value);
        const parsed = schema.safeParse(value);
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          expect(keys).toBeNull();
          return;
        }
        expect(keys).not.toBeNull();
        if (keys?.length === 0) expect(parsed.success).toBe(true);
        else flagged += 1;
        for (const issue of parsed.error?.issues ?? []) expect(keys, JSON.stringify(issue.path)).toContain(issue.path[0]);
      }),
      { numRuns: 1000, seed: 24 },
    );
    expect(flagged).toBeGreaterThan(20);
  });

  it("lists the fields it cannot vouch for, in the shape's order", () => {
    const described = shape.object({ a: shape.string, b: shape.optional(shape.number), c: shape.array(shape.string) });
    expect(uncertainFields(described, { a: "x", c: ["y"] })).toEqual([]);
    expect(uncertainFields(described, { c: "y", b: "2", a: 1 })).toEqual(["a", "b", "c"]);
    expect(uncertainFields(described, ["x"])).toBeNull();
  });
});

describe("shapes", () => {
  /** A shape without the wording of its issues, which zod keeps in its checks (not read back). */
  const unworded = (described: Shape): unknown => JSON.parse(JSON.stringify(described, (key, value: unknown) => (key === "tooShort" ? undefined : value)));

  it.each(Object.entries(NODE_SPECS))("builds the zod schema its node type documents, read back as the same shape (%s)", (_type, spec) => {
    expect(unworded(shapeOf(zodSchemaOf(spec.paramShape)) as Shape)).toEqual(unworded(spec.paramShape));
  });

  /** zod's issues as the catalog passes them on. */
  const zodIssuesOf = (described: Shape, value: unknown) =>
    (zodSchemaOf(described).safeParse(value).error?.issues ?? []).map((issue) => ({ path: issue.path, message: issue.message, unionMismatch: issue.code === "invalid_union" }));

  it.each(Object.entries(NODE_SPECS))("fits exactly the params zod accepts, and words a misfit's issues as zod does or leaves them to zod (%s)", (_type, spec) => {
    let worded = 0;
    fc.assert(
      fc.property(shaped(zodSchemaOf(spec.paramShape)), (value) => {
        const zodIssues = zodIssuesOf(spec.paramShape, value);
        expect(fits(spec.paramShape, value)).toBe(zodIssues.length === 0);
        const issues = shapeIssues(spec.paramShape, value);
        if (issues === null) return;
        worded += 1;
        expect(issues).toEqual(zodIssues);
      }),
      { numRuns: 1000, seed: 24 },
    );
    expect(worded).toBeGreaterThan(100);
  });

  it("words wrong types, tuple lengths and union misfits as zod does", () => {
    const aggregator = NODE_SPECS["variable-aggregator"].paramShape;
    const value = { variables: [["a", "1", "x"], [2, "1"], "b"] };
    expect(shapeIssues(aggregator, value)).toEqual([
      { path: ["variables", 0], message: "Too big: expected array to have <=2 items", unionMismatch: false },
      { path: ["variables", 1, 0], message: "Invalid input: expected string, received number", unionMismatch: false },
      { path: ["variables", 2], message: "Invalid input: expected tuple, received string", unionMismatch: false },
    ]);
    const operator = NODE_SPECS["list-operator"].paramShape;
    expect(shapeIssues(operator, { variable: ["a", "1"], operator: ["sort", 1] })).toEqual([{ path: ["operator"], message: "Invalid input", unionMismatch: true }]);
    // A count out of range is the one form's own issue, not a union misfit: zod words it.
    expect(shapeIssues(operator, { variable: ["a", "1"], operator: ["limit", 25] })).toBeNull();
  });

  it("reads run records by a shape equal to the zod schema of the API contract", () => {
    expect(shapeOf(runRecordSchema())).toEqual(RUN_RECORD_SHAPE);
  });

  it("words a too-short list as the shape says", () => {
    const parsed = zodSchemaOf(NODE_SPECS["question-classifier"].paramShape).safeParse({ query_variable_selector: ["q", "1"], classes: ["a"] });
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([[["classes"], "A classifier needs at least two classes"]]);
  });

  it("reads no shape from schemas with refinements, transforms or catch-alls, so zod decides those", () => {
    expect(shapeOf(z.object({ a: z.string() }).catchall(z.number()))).toBeNull();
    expect(shapeOf(z.object({ a: z.string() }).refine((value) => value.a !== "x"))).toBeNull();
    expect(shapeOf(z.string().regex(/x/))).toBeNull();
    expect(shapeOf(z.array(z.string().transform((s) => s.length)))).toBeNull();
    expect(shapeOf(z.object({ a: z.string(), b: z.array(z.number().int().min(1)).min(2) }))).toEqual(
      shape.object({ a: shape.string, b: { type: "array", element: { type: "number", int: true, min: 1 }, minLength: 2 } }),
    );
  });
});

describe.skipIf(!benchmarkDir)(`the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const files = benchmarkDir ? readdirSync(path.join(benchmarkDir, "runs")).filter((name) => name.endsWith(".json")) : [];
  const runs = files.map((name) => JSON.parse(readFileSync(path.join(benchmarkDir as string, "runs", name), "utf8")) as Record<string, unknown>[]);

  it("decides every node param as zod does", () => {
    let params = 0;
    let refused = 0;
    for (const record of runs.flat()) {
      let workflow: { nodes_info?: { type?: string; param?: unknown }[] } | null = null;
      try {
        workflow = JSON.parse(String(record.workflow));
      } catch {
        continue;
      }
      for (const node of Array.isArray(workflow?.nodes_info) ? workflow.nodes_info : []) {
        const spec = NODE_SPECS[node?.type as keyof typeof NODE_SPECS];
        if (!spec) continue;
        params += 1;
        const zodAccepts = zodSchemaOf(spec.paramShape).safeParse(node.param).success;
        const where = `${record.task} ${record.round} ${node.type}`;
        expect(fits(spec.paramShape, node.param), where).toBe(zodAccepts);
        if (zodAccepts) continue;
        refused += 1;
        // Every misfit the runs hold is worded without zod, as zod words it.
        const parsed = zodSchemaOf(spec.paramShape).safeParse(node.param);
        const zodIssues = (parsed.error?.issues ?? []).map((issue) => ({ path: issue.path, message: issue.message, unionMismatch: issue.code === "invalid_union" }));
        expect(shapeIssues(spec.paramShape, node.param), where).toEqual(zodIssues);
      }
    }
    expect(params).toBeGreaterThan(5000);
    expect(refused).toBeGreaterThan(0);
  });

  it("reads every run file as zod alone reads it", () => {
    let records = 0;
    for (const [i, items] of runs.entries()) {
      const parsed = parseRunFile(files[i] as string, items);
      if (!parsed.ok) throw new Error(parsed.issues.map((issue) => issue.message).join("\n"));
      expect(parsed.value).toHaveLength(items.length);
      // The same keys in the same order and the same values as zod's own output.
      parsed.value.forEach((record, j) => expect(JSON.stringify(record)).toBe(JSON.stringify(runRecordSchema().parse(items[j]))));
      records += parsed.value.length;
    }
    expect(records).toBeGreaterThan(900);
  });
});
