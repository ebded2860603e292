// The `document-extractor` node type: Text of a file (or files): its input must be file or array[file].
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { ownValue, preview, type JsonValue } from "../python-values";
import { fail, idLabel } from "./failure";
import { selector } from "./schema";
import { apiParam, PLUGIN_ICON, refInput } from "./coze-common";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, FactsOf, NodeSpec, NodeVariables } from "./types";
import { found } from "./variables";

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
  if (ctx.checkOnly) return { facts: { type: "document-extractor", isArrayFile } };
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

const variables: NodeVariables<FactsOf<"document-extractor">> = {
  facts: (param, ctx) => ({ type: "document-extractor", isArrayFile: ctx.inputType(ownValue(param, "variable_selector")) === "array[file]" }),
  /** Quirk: `text` is typed as the extractor's input kind, not as string. */
  officialType: (facts) => found(facts.isArrayFile ? "array[file]" : "file"),
  realType: (facts, variable) => (variable === "text" ? (facts.isArrayFile ? "array[string]" : "string") : undefined),
  names: () => ["text"],
  quirk: () => "The official inference types `text` as the extractor's input kind (file or array[file]).",
};

export const documentExtractorNode: NodeSpec = {
  type: "document-extractor",
  info: NODE_TYPES["document-extractor"],
  paramShape: shape.object({ variable_selector: selector }),
  requiredParams: ["variable_selector"],
  textParams: [],
  selectorParams: [{ key: "variable_selector", shape: "selector" }],
  variables,
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
