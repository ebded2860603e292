// The `markdown-exporter` node type: A document (docx, pdf, …) from Markdown text.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import { ownValue, preview, type JsonValue } from "../python-values";
import { buildTool, FILES_OUT } from "./dify-common";
import type { DifyBuildContext, DifyPart, NodeSpec } from "./types";
import { MARKDOWN_TARGET_TYPES } from "./vocabulary";

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "markdown-exporter", param, ordinal);
}

export const markdownExporterNode: NodeSpec = {
  type: "markdown-exporter",
  info: NODE_TYPES["markdown-exporter"],
  paramSchema: z.object({ target_type: z.string(), md_text: z.string() }),
  requiredParams: ["target_type", "md_text"],
  textParams: ["md_text"],
  selectorParams: [],
  outputs: FILES_OUT,
  branching: false,
  toDify,
  checkParams(ctx) {
    const target = ownValue(ctx.param, "target_type");
    if (target !== undefined && typeof target !== "string") {
      ctx.report("target-type-not-string", ["target_type"], `${ctx.where} \`target_type\` is ${preview(target)}; expected one of ${MARKDOWN_TARGET_TYPES.join(", ")}.`);
    } else ctx.vocabulary(target, ["target_type"], MARKDOWN_TARGET_TYPES, "target type");
  },
};
