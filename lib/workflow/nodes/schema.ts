// Zod building blocks of the documented param shapes (§2.7), shared by the node types' schemas.
// The shapes are the documented ones; the converter accepts more (the analysis says where), so they never decide a verdict.

import * as z from "zod";

/** `[variableName, sourceNodeId]` — the variable comes first. */
export const selector = z.tuple([z.string(), z.string()]);
/** `[name, [variableName, sourceNodeId]]` as in code/template variables and end outputs. */
export const namedSelector = z.tuple([z.string(), selector]);
export const ifElseCondition = z.union([
  z.tuple([selector, z.string()]),
  z.tuple([selector, z.string(), z.string()]),
]);
const operatorCount = z.number().int().min(1).max(20);
export const listOperator = z.union([
  z.tuple([z.literal("extract_by"), operatorCount]),
  z.tuple([z.literal("limit"), operatorCount]),
  z.tuple([z.literal("order_by"), z.enum(["asc", "desc"])]),
  // Three elements even for `empty` / `not empty`: the official converter reads index 2 unconditionally.
  z.tuple([z.literal("filter_by"), z.string(), z.union([z.string(), z.number(), z.boolean()])]),
]);
