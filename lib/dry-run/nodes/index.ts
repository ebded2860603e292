// Each Dify node type's execution, keyed by the DSL's `data.type`. Iteration runs in the engine (it runs a graph).

import type { NodeExecutor } from "../types";
import { codeExecutor } from "./code";
import { documentExtractorExecutor } from "./document-extractor";
import { endExecutor } from "./end";
import { httpRequestExecutor } from "./http-request";
import { ifElseExecutor } from "./if-else";
import { listOperatorExecutor } from "./list-operator";
import { llmExecutor } from "./llm";
import { parameterExtractorExecutor } from "./parameter-extractor";
import { questionClassifierExecutor } from "./question-classifier";
import { startExecutor } from "./start";
import { templateTransformExecutor } from "./template-transform";
import { toolExecutor } from "./tool";
import { variableAggregatorExecutor } from "./variable-aggregator";

export const NODE_EXECUTORS: Readonly<Record<string, NodeExecutor>> = {
  start: startExecutor,
  end: endExecutor,
  llm: llmExecutor,
  "question-classifier": questionClassifierExecutor,
  "parameter-extractor": parameterExtractorExecutor,
  code: codeExecutor,
  "document-extractor": documentExtractorExecutor,
  "http-request": httpRequestExecutor,
  "if-else": ifElseExecutor,
  "list-operator": listOperatorExecutor,
  "template-transform": templateTransformExecutor,
  "variable-aggregator": variableAggregatorExecutor,
  tool: toolExecutor,
  "iteration-start": { run: async () => ({ status: "succeeded", outputs: {}, mocked: false }) },
};
