// Small checks several node types' param checks share.
// They report through the analysis's ParamCheckContext, so a node module never depends on the analysis itself.

import { describeKind, ownValue } from "../python-values";
import type { ParamCheckContext } from "./types";

/** A field the converter copies through as is; the platform needs it as text. */
export function plainTextField(ctx: ParamCheckContext, key: string): void {
  const value = ownValue(ctx.param, key);
  if (value !== undefined && typeof value !== "string") {
    ctx.report("param-shape", [key], `${ctx.where} \`${key}\` is ${describeKind(value)}; it must be a string.`);
  }
}
