// Building blocks of the documented param shapes (§2.7), shared by the node types' shapes.
// The shapes are the documented ones; the converter accepts more (the analysis says where), so they never decide a verdict.

import { shape, type Shape } from "../../zod-fast-path";

/** `[variableName, sourceNodeId]` — the variable comes first. */
export const selector = shape.tuple(shape.string, shape.string);
/** `[name, [variableName, sourceNodeId]]` as in code/template variables and end outputs. */
export const namedSelector = shape.tuple(shape.string, selector);
export const ifElseCondition = shape.union(shape.tuple(selector, shape.string), shape.tuple(selector, shape.string, shape.string));
const operatorCount = shape.integer(1, 20);
export const listOperator: Shape = shape.union(
  shape.tuple(shape.literal("extract_by"), operatorCount),
  shape.tuple(shape.literal("limit"), operatorCount),
  shape.tuple(shape.literal("order_by"), shape.enum(["asc", "desc"])),
  // Three elements even for `empty` / `not empty`: the official converter reads index 2 unconditionally.
  shape.tuple(shape.literal("filter_by"), shape.string, shape.union(shape.string, shape.number, shape.boolean)),
);
