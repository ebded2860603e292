// The `markdown-exporter` node type: A document (docx, pdf, …) from Markdown text.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { describeKind, isJsonObject, ownValue, preview, type JsonValue } from "../python-values";
import { mixed } from "./dify-common";
import { fail } from "./failure";
import { buildTool, FILES_OUT, toolVariables, type ToolSpec } from "./tool";
import { apiParam, PLUGIN_ICON, singleReferenceValue, stringInput } from "./coze-common";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";
import { MARKDOWN_TARGET_TYPES } from "./vocabulary";

const TOOL: ToolSpec = {
  name(param) {
    const target = isJsonObject(param) ? ownValue(param, "target_type") : undefined;
    return typeof target === "string" ? `md_to_${target}` : null;
  },
  provider: "bowenliang123/md_exporter/md_exporter",
  label: (_name, target) => (target === "png" ? `Markdown to ${target} image` : `Markdown to ${target} file`),
  configurations: () => ({}),
  parameters(ctx, param) {
    const parameters = { md_text: mixed(ctx.emittedText(ctx.param(param, "md_text"), ["md_text"])) };
    const targetType = ctx.param(param, "target_type");
    if (typeof targetType !== "string") {
      fail({
        code: "target-type-not-string",
        message: `${ctx.nodeRef()}: target_type is ${describeKind(targetType)} ${preview(targetType)}; expected one of docx, pptx, pdf, png, html, md.`,
        location: ctx.at(["target_type"]),
      });
    }
    return { parameters, name: `md_to_${targetType}`, target: targetType };
  },
  titledByName: true,
};

function toDify(ctx: DifyBuildContext, param: JsonValue, _title: string, ordinal: number): DifyPart {
  return buildTool(ctx, "markdown-exporter", TOOL, param, ordinal);
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const target = ctx.param(param, "target_type");
  const text = singleReferenceValue(ctx, ctx.param(param, "md_text"), ["md_text"]);
  if (target === "png") {
    return {
      targetType: target,
      parameters: {
        apiParam: apiParam("7589192736172146734", "generatePosterImage", "7589192736172130350", "MD2Image"),
        node_inputs: [{ name: "markdown", input: { value: text } }],
        node_outputs: { url: { type: "string", value: null } },
      },
    };
  }
  const pptx = target === "pptx";
  const nodeInputs: Record<string, unknown>[] = [{ name: "formatted_markdown", input: { value: text } }, stringInput("title", "Final Document")];
  if (!pptx) nodeInputs.push(stringInput("to_format", target === "md" ? "markdown" : target));
  return {
    targetType: target,
    parameters: {
      apiParam: pptx
        ? apiParam("7365715035999682597", "create_pptx", "7365715035999649829", "Doc Maker")
        : apiParam("7365715035999666213", "create_document", "7365715035999649829", "Doc Maker"),
      node_inputs: nodeInputs,
      node_outputs: { data: { type: "string", value: null } },
    },
  };
}

export const markdownExporterNode: NodeSpec = {
  type: "markdown-exporter",
  info: NODE_TYPES["markdown-exporter"],
  paramShape: shape.object({ target_type: shape.string, md_text: shape.string }),
  requiredParams: ["target_type", "md_text"],
  textParams: ["md_text"],
  selectorParams: [],
  variables: toolVariables("markdown-exporter", TOOL, FILES_OUT),
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "plugin",
    baseTitle: "Doc Maker",
    icon: PLUGIN_ICON,
    description: "Generate documents in specified formats based on the provided text.",
    build: toCoze,
  },
  checkParams(ctx) {
    const target = ownValue(ctx.param, "target_type");
    if (target !== undefined && typeof target !== "string") {
      ctx.report("target-type-not-string", ["target_type"], `${ctx.where} \`target_type\` is ${preview(target)}; expected one of ${MARKDOWN_TARGET_TYPES.join(", ")}.`);
    } else ctx.vocabulary(target, ["target_type"], MARKDOWN_TARGET_TYPES, "target type");
  },
};
