// The 20 Chat2Workflow node type ids with their display names and the names models use for them.
// Other modules (catalog, node-selection matching, viewer) build on this list; it has no dependencies.

export const NODE_TYPE_IDS = [
  "start",
  "end",
  "llm",
  "question-classifier",
  "code",
  "document-extractor",
  "http-request",
  "if-else",
  "list-operator",
  "parameter-extractor",
  "template-transform",
  "variable-aggregator",
  "iteration",
  "iteration-start",
  "tts",
  "text2image",
  "mermaid-converter",
  "markdown-exporter",
  "google-search",
  "echarts",
] as const;

export type NodeTypeId = (typeof NODE_TYPE_IDS)[number];

/** Visual families the viewer groups node types into. */
export type NodeFamily = "io" | "model" | "logic" | "transform" | "container" | "tool";

export interface NodeTypeInfo {
  id: NodeTypeId;
  /** Title the official converter gives the node in Dify. */
  displayName: string;
  family: NodeFamily;
  /**
   * Extra names a `node_selection` may use for this type, besides the id and display name.
   * Matching normalises case, spaces, hyphens and underscores before comparing.
   */
  aliases: readonly string[];
}

export const NODE_TYPES: Readonly<Record<NodeTypeId, NodeTypeInfo>> = {
  start: { id: "start", displayName: "Start", family: "io", aliases: [] },
  end: { id: "end", displayName: "End", family: "io", aliases: [] },
  llm: { id: "llm", displayName: "LLM", family: "model", aliases: ["Large Language Model"] },
  "question-classifier": {
    id: "question-classifier",
    displayName: "Question Classifier",
    family: "model",
    aliases: ["Classifier"],
  },
  code: { id: "code", displayName: "Code", family: "transform", aliases: ["Code Node"] },
  "document-extractor": {
    id: "document-extractor",
    displayName: "Document Extractor",
    family: "transform",
    aliases: ["Doc Extractor", "Document Parser"],
  },
  "http-request": { id: "http-request", displayName: "HTTP Request", family: "tool", aliases: ["HTTP"] },
  "if-else": { id: "if-else", displayName: "If-Else", family: "logic", aliases: ["Condition", "Conditional Branch"] },
  "list-operator": { id: "list-operator", displayName: "List Operator", family: "transform", aliases: [] },
  "parameter-extractor": {
    id: "parameter-extractor",
    displayName: "Parameter Extractor",
    family: "model",
    aliases: [],
  },
  "template-transform": {
    id: "template-transform",
    displayName: "Template",
    family: "transform",
    aliases: ["Template Transform", "Template Transformer", "Jinja Template"],
  },
  "variable-aggregator": {
    id: "variable-aggregator",
    displayName: "Variable Aggregator",
    family: "logic",
    aliases: ["Aggregator", "Variable Aggregation"],
  },
  iteration: { id: "iteration", displayName: "Iteration", family: "container", aliases: [] },
  "iteration-start": {
    id: "iteration-start",
    displayName: "Iteration Start",
    family: "container",
    aliases: [],
  },
  tts: { id: "tts", displayName: "Text to Speech", family: "tool", aliases: ["TTS", "Text2Speech"] },
  text2image: {
    id: "text2image",
    displayName: "Z-Image Text to Image",
    family: "tool",
    aliases: ["Text to Image", "Text2Image", "Z-Image"],
  },
  "mermaid-converter": {
    id: "mermaid-converter",
    displayName: "Mermaid Converter",
    family: "tool",
    aliases: [],
  },
  "markdown-exporter": {
    id: "markdown-exporter",
    displayName: "Markdown Exporter",
    family: "tool",
    aliases: ["Markdown Exportor", "Markdown Export", "MD Exporter"],
  },
  "google-search": { id: "google-search", displayName: "Google Search", family: "tool", aliases: ["Google"] },
  echarts: { id: "echarts", displayName: "ECharts", family: "tool", aliases: ["Echarts Chart"] },
};

const NODE_TYPE_ID_SET: ReadonlySet<string> = new Set(NODE_TYPE_IDS);

export function isNodeTypeId(value: unknown): value is NodeTypeId {
  return typeof value === "string" && NODE_TYPE_ID_SET.has(value);
}
