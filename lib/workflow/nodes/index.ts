// Every node type's spec, keyed by type: the one place the converter, the catalog and the analysis look a type up.
// Adding a type means adding its module here; the record's type makes a missing one a compile error.

import type { NodeTypeId } from "../node-types";
import { codeNode } from "./code";
import { documentExtractorNode } from "./document-extractor";
import { echartsNode } from "./echarts";
import { endNode } from "./end";
import { googleSearchNode } from "./google-search";
import { httpRequestNode } from "./http-request";
import { ifElseNode } from "./if-else";
import { iterationNode } from "./iteration";
import { iterationStartNode } from "./iteration-start";
import { listOperatorNode } from "./list-operator";
import { llmNode } from "./llm";
import { markdownExporterNode } from "./markdown-exporter";
import { mermaidConverterNode } from "./mermaid-converter";
import { parameterExtractorNode } from "./parameter-extractor";
import { questionClassifierNode } from "./question-classifier";
import { startNode } from "./start";
import { templateTransformNode } from "./template-transform";
import { text2imageNode } from "./text2image";
import { ttsNode } from "./tts";
import type { NodeSpec } from "./types";
import { variableAggregatorNode } from "./variable-aggregator";

export const NODE_SPECS: Readonly<Record<NodeTypeId, NodeSpec>> = {
  start: startNode,
  end: endNode,
  llm: llmNode,
  "question-classifier": questionClassifierNode,
  code: codeNode,
  "document-extractor": documentExtractorNode,
  "http-request": httpRequestNode,
  "if-else": ifElseNode,
  "list-operator": listOperatorNode,
  "parameter-extractor": parameterExtractorNode,
  "template-transform": templateTransformNode,
  "variable-aggregator": variableAggregatorNode,
  iteration: iterationNode,
  "iteration-start": iterationStartNode,
  tts: ttsNode,
  text2image: text2imageNode,
  "mermaid-converter": mermaidConverterNode,
  "markdown-exporter": markdownExporterNode,
  "google-search": googleSearchNode,
  echarts: echartsNode,
};

export type { NodeSpec } from "./types";
