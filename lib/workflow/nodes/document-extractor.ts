// The `document-extractor` node type: Text of a file (or files): its input must be file or array[file].
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { z } from "zod";
import { NODE_TYPES } from "../node-types";
import { preview, type JsonValue } from "../python-values";
import { fail, idLabel } from "./failure";
import { selector } from "./schema";
import { apiParam, PLUGIN_ICON, refInput } from "./coze-common";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const input = ctx.resolveSelector(ctx.param(param, "variable_selector"), ["variable_selector"]);
  if (input.type !== "file" && input.type !== "array[file]") {
    fail({
      code: "document-extractor-input-type",
      message: `${ctx.nodeRef()}: the document extractor reads ${preview(input.variable)} from ${idLabel(input.node.workflowId)}, typed ${preview(input.type)}; its input must be a file or array[file].`,
      location: ctx.at(["variable_selector"]),
      targetNodeId: input.node.workflowId,
      hint:
        input.type === null
          ? "The official type inference gives this variable no type (see the catalog quirks)."
          : "Feed it a file variable from the start node (declared as file or array[file]).",
    });
  }
  const isArrayFile = input.type === "array[file]";
  return {
    facts: { type: "document-extractor", isArrayFile },
    data: {
      is_array_file: isArrayFile,
      selected: false,
      title,
      type: "document-extractor",
      variable_selector: [input.node.difyId, input.variable],
    },
  };
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const input = ctx.selector(ctx.param(param, "variable_selector"), ["variable_selector"]);
  return {
    parameters: {
      apiParam: apiParam("7405805158996934683", "read", "7405805158996918299", "文件读取"),
      node_inputs: [refInput("url", input)],
      node_outputs: { data: { type: "string", value: null } },
    },
  };
}

export const documentExtractorNode: NodeSpec = {
  type: "document-extractor",
  info: NODE_TYPES["document-extractor"],
  paramSchema: z.object({ variable_selector: selector }),
  requiredParams: ["variable_selector"],
  textParams: [],
  selectorParams: [{ key: "variable_selector", shape: "selector" }],
  outputs: [{ name: "text", realType: "string" }],
  branching: false,
  toDify,
  coze: {
    kind: "node",
    cozeType: "plugin",
    baseTitle: "Document Extractor",
    icon: PLUGIN_ICON,
    description: "Document Reader: Extracts content from documents; supports HTML, XML, DOC/X, PPT/X, TXT, PDF, CSV, and XLSX.",
    build: toCoze,
  },
};
