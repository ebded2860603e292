// The `question-classifier` node type: Routes by the model's choice among `classes`: one output port per class.
// Its param shape, outputs and checks, and its Dify conversion in the official converter's reading order.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { isJsonObject, ownValue, preview, pyIter, type JsonValue } from "../python-values";
import { plainTextField } from "./checks";
import { CLASSIFIER_MODEL, modelBlock } from "./dify-common";
import { selector } from "./schema";
import { CLASSIFIER_LLM_PARAM, cozeIcon, refInput } from "./coze-common";
import { fixedOutputs } from "./variables";
import type { CozeBuildContext, CozeNodeParts, DifyBuildContext, DifyPart, NodeSpec } from "./types";

function toDify(ctx: DifyBuildContext, param: JsonValue, title: string): DifyPart {
  const query = ctx.resolveSelector(ctx.param(param, "query_variable_selector"), ["query_variable_selector"]);
  const instruction = isJsonObject(param) ? (ownValue(param, "instruction") ?? "") : "";
  const classes = ctx.iterate(ctx.param(param, "classes"), ["classes"], "an array of class labels");
  const classData = classes.map((name) => ({ id: ctx.ids.classId(), name }));
  if (ctx.checkOnly) return { facts: { type: "question-classifier" }, handles: classData.map((c) => c.id) };
  return {
    facts: { type: "question-classifier" },
    handles: classData.map((c) => c.id),
    data: {
      classes: classData,
      instructions: instruction,
      model: modelBlock(CLASSIFIER_MODEL),
      query_variable_selector: [query.node.difyId, query.variable],
      selected: false,
      title,
      type: "question-classifier",
      vision: { enabled: false },
    },
  };
}

function toCoze(ctx: CozeBuildContext, param: JsonValue): CozeNodeParts {
  const query = ctx.selector(ctx.param(param, "query_variable_selector"), ["query_variable_selector"]);
  const classes = [...ctx.iterate(ctx.param(param, "classes"), ["classes"], "an array of class labels")];
  // The last class becomes the implicit default branch (with two or more classes).
  if (classes.length >= 2) classes.pop();
  const instruction = isJsonObject(param) ? (ownValue(param, "instruction") ?? "") : "";
  return {
    branchCount: classes.length,
    parameters: {
      intents: classes.map((name) => ({ name })),
      llmParam: {
        ...CLASSIFIER_LLM_PARAM,
        prompt: { type: "string", value: { content: "{{query}}", type: "literal" } },
        systemPrompt: { type: "string", value: { content: instruction, type: "literal" } },
      },
      node_inputs: [refInput("query", query)],
      node_outputs: { classificationId: { type: "integer", value: null } },
    },
  };
}

const variables = fixedOutputs("question-classifier", { class_name: "string" });

export const questionClassifierNode: NodeSpec = {
  type: "question-classifier",
  info: NODE_TYPES["question-classifier"],
  paramShape: shape.object({
    query_variable_selector: selector,
    classes: shape.array(shape.string, { count: 2, tooShort: "A classifier needs at least two classes" }),
    instruction: shape.optional(shape.string),
  }),
  requiredParams: ["query_variable_selector", "classes"],
  textParams: [],
  selectorParams: [{ key: "query_variable_selector", shape: "selector" }],
  variables,
  branching: true,
  ports(param) {
    const classes = pyIter(ownValue(param, "classes") ?? null) ?? [];
    return classes.map((label, i) => ({ index: i, label: typeof label === "string" ? label : JSON.stringify(label), kind: "class" }));
  },
  toDify,
  coze: {
    kind: "node",
    cozeType: "intent",
    baseTitle: "Question Classifier",
    icon: cozeIcon("icon-Intent-v2.jpg"),
    description: "Intent Classifier: Recognizes user intent and matches it to a predefined option.",
    build: toCoze,
  },
  checkParams(ctx) {
    plainTextField(ctx, "instruction");
    const classes = ownValue(ctx.param, "classes");
    if (classes === undefined) return;
    const labels = Array.isArray(classes) ? classes.filter((label) => typeof label === "string") : [];
    if (!Array.isArray(classes) || labels.length !== classes.length || labels.length < 2) {
      ctx.report("param-shape", ["classes"], `${ctx.where} \`classes\` is ${preview(classes)}; a classifier needs a list of at least two class names.`);
    }
  },
};
