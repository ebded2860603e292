// What a node's execution reads and returns, and the services a dry run stands in for (models, tools, code).

import type { DifyData } from "@/lib/workflow/dify-graph";
import type { JsonValue } from "@/lib/workflow/python-values";
import type { VariablePool } from "./pool";
import type { DryFile, FileKind } from "./values";

/** A file a tool node returned, as the trace keeps it (never its bytes). */
export interface TracedFile {
  name: string;
  extension: string;
  kind: FileKind;
  size: number;
  /** written: real bytes of the target's type; placeholder: a valid file of the type standing in for a rendering; none: no bytes (size 0). */
  content: "written" | "placeholder" | "none";
  /** The Markdown an exporter's file was written from, kept when short enough to write the file again on download. */
  markdown?: string;
}

/** Whether the trace holds what it takes to write this file again: a placeholder image, or an exporter's kept Markdown. */
export function isDownloadable(file: TracedFile): boolean {
  return (file.content === "placeholder" && file.extension === ".png") || (file.content === "written" && file.markdown !== undefined);
}

/** Our preview of a chart tool's answer: the chart its text describes, as an SVG (Dify's tool returns the text only). */
export interface ChartPreview {
  svg: string;
  /** What the chart shows, in words: the image's alt text. */
  alt: string;
}

/** What a tool node's trace step shows beside its outputs. */
export interface StepArtifacts {
  files?: TracedFile[];
  chart?: ChartPreview;
}

export type NodeOutcome =
  | {
      status: "succeeded";
      outputs: Record<string, JsonValue>;
      /** The outputs are stand-ins (a mocked model or service produced them, or read mocked content). */
      mocked: boolean;
      /** A branching node's chosen source handle. */
      handle?: string;
      artifacts?: StepArtifacts;
    }
  | {
      status: "failed";
      /** One sentence, as Dify's node error says it. */
      reason: string;
      /** The failure depends on mocked content (so it is not a prediction about the real run). */
      mocked: boolean;
    };

/** The model behind LLM, question-classifier and parameter-extractor nodes: a deterministic mock or an endpoint. */
export interface ModelService {
  readonly kind: "mock" | "endpoint";
  complete(request: { system: string; user: string; nodeTitle: string }): Promise<{ ok: true; text: string } | { ok: false; reason: string }>;
  /** The index of the chosen class. */
  classify(request: { query: string; classes: readonly string[]; instruction: string }): Promise<number>;
  extract(request: { query: string; parameters: readonly { name: string; type: string; description: string }[]; instruction: string }): Promise<Record<string, JsonValue>>;
}

export type CodeRunResult =
  | { ok: true; result: JsonValue }
  | { ok: false; kind: "error" | "timeout" | "memory"; reason: string };

/** Runs model-written code outside the app's process (see lib/server/sandbox); null: code nodes are not executed. */
export interface CodeRunner {
  run(request: { language: "python3" | "javascript"; code: string; inputs: Record<string, JsonValue> }): Promise<CodeRunResult>;
}

/** ourLimit: the parse ran over our time or memory limit, which Dify lacks, so the failure is no prediction. */
export type DocumentText = { ok: true; text: string } | { ok: false; reason: string; ourLimit?: boolean };

/** Reads an uploaded test file's text as Dify's document extractor does (lib/server/dry-run/document-reader.ts). */
export interface DocumentReader {
  /** null: the file's content is not at hand (no case files given, or a format not read), so its text is a stand-in. */
  read(file: DryFile): Promise<DocumentText | null>;
}

/** An exporter's written file (its size), or the plugin's failure for this Markdown. */
export type MadeFile = { size: number } | { failure: string };

/** Writes an exporter's real file from its Markdown (lib/server/dry-run/exporter-files.ts); null: not made here. */
export interface FileMaker {
  make(request: { extension: string; markdown: string }): Promise<MadeFile | null>;
}

export interface ChartRequest {
  chart: "line" | "bar" | "pie";
  title: string;
  /** x-axis labels (line, bar) or category names (pie). */
  labels: string[];
  values: number[];
}

/** Renders a chart tool's chart as an SVG preview (lib/server/dry-run/chart-svg.ts); null: not rendered. */
export interface ChartRenderer {
  render(request: ChartRequest): Promise<ChartPreview | null>;
}

export interface NodeContext {
  pool: VariablePool;
  model: ModelService;
  code: CodeRunner | null;
  documents: DocumentReader | null;
  files: FileMaker | null;
  charts: ChartRenderer | null;
  nodeId: string;
  title: string;
}

export interface NodeExecutor {
  run(data: DifyData, ctx: NodeContext): Promise<NodeOutcome>;
}

export function succeeded(outputs: Record<string, JsonValue>, mocked: boolean, handle?: string): NodeOutcome {
  return handle === undefined ? { status: "succeeded", outputs, mocked } : { status: "succeeded", outputs, mocked, handle };
}

export function succeededWith(outputs: Record<string, JsonValue>, mocked: boolean, artifacts: StepArtifacts): NodeOutcome {
  return { status: "succeeded", outputs, mocked, artifacts };
}

export function failed(reason: string, mocked = false): NodeOutcome {
  return { status: "failed", reason, mocked };
}

export function selectorOf(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((part) => typeof part === "string") ? (value as string[]) : null;
}
