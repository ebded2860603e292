// Official step_1_2: replays the official simplified-JSON -> Dify converter in its exact processing order.
// Either returns the Dify graph it would emit, or the first condition that makes the official converter throw.
//
// Public API (stable):
//   convertWorkflow(value, options?) -> Result<Conversion, Diagnostic>   (exactly one diagnostic on failure)
//   conversionFailure(value, options?) -> Diagnostic | null   the same verdict without building the Dify graph
//     options: { floats?: FloatLiterals | null (from parseResponse, so `1.0` ports fail like in Python),
//                ids?: IdSource, githubToken?: string }
//   Conversion = { graph: { nodes: DifyNode[]; edges: DifyEdge[] }, nodes: ConvertedNode[], difyIds, edgeHandles }
//   sequentialIdSource() / randomIdSource()  — injectable id generators (sequential ones make output stable)
//   findInlineReferences(text) -> InlineReference[]  — the official `{{#id.var#}}` matches with their id token read
//   readInlineIdToken(token) -> string | null        — the id an inline token resolves to (null: not a literal)
//
// Order replayed (§3.1): scan edges for top-level ones; lay out the top-level graph (exactly-3 edges, hashable
// endpoints, sortable ports); build nodes_info in list order, registering each id (references resolve only to
// earlier nodes; an iteration's output_selector is matched when its child is built); resolve all edge endpoints;
// emit edges (branch ports) and nodes. The first failing condition is the one reported. Nothing stricter than
// the official code is checked (§3.3): duplicate ids, unknown variable names on string-typed nodes, missing
// start/end nodes and the like all convert.
//
// Python semantics matter (a string edge is a sequence of characters, `True` indexes like 1, a dict iterates its
// keys); they come from python-values.ts so that every verdict matches the official converter.

import { err, ok, type Result } from "../result";
import {
  officialVariableType,
  type DeclaredVariable,
  type NodeFacts,
  type ParamPath,
  type ToolNodeType,
  type TypeLookupFailure,
} from "./catalog";
import { makeDiagnostic, type DiagnosticCode } from "./diagnostic-codes";
import type { Diagnostic, DiagnosticLocation } from "./diagnostics";
import { isFloatLiteral, type FloatLiterals } from "./json-text";
import { NODE_TYPES, isNodeTypeId, type NodeTypeId } from "./node-types";
import { evalPythonLiteral, literalToString } from "./python-literal";
import {
  describeKind,
  isJsonObject,
  ownValue,
  preview,
  pyContains,
  pyEq,
  pyHashKey,
  pyItem,
  pyIter,
  pyLen,
  pyParseInt,
  pySortBy,
  pyStr,
  pyStripChars,
  type JsonObject,
  type JsonValue,
} from "./python-values";
import { anchorShape } from "./shape-anchor";

// -- output types ------------------------------------------------------------------------------------------------

export interface IdSource {
  /** A node id: "1" followed by 12 digits in the official converter. */
  nodeId(): string;
  /** A question-classifier class id (same format). */
  classId(): string;
  /** An if-else case or condition id (uuid4 in the official converter). */
  uuid(): string;
}

export interface Position {
  x: number;
  y: number;
}

export type DifyData = Record<string, unknown>;

export interface DifyNode {
  data: DifyData;
  height: 52;
  id: string;
  position: Position;
  positionAbsolute: Position;
  selected?: false;
  sourcePosition: "right";
  targetPosition: "left";
  type: "custom" | "custom-iteration-start";
  width: 242;
  zIndex?: 1002;
  parentId?: string;
  draggable?: false;
  selectable?: false;
}

export interface DifyEdge {
  data: { isInIteration: boolean; sourceType: string; targetType: string; iteration_id?: string };
  id: string;
  source: string;
  sourceHandle: string;
  target: string;
  targetHandle: "target";
  type: "custom";
  zIndex: 0 | 1002;
}

export interface DifyGraph {
  nodes: DifyNode[];
  edges: DifyEdge[];
}

export interface ConvertedNode {
  /** Position in nodes_info. */
  index: number;
  workflowId: string;
  difyId: string;
  type: NodeTypeId;
  /** What the official inference reads from this node (final state, after iteration outputs were matched). */
  facts: NodeFacts;
  /** Workflow id of the canvas parent, for ids with `-`. */
  parentWorkflowId: string | null;
}

export interface Conversion {
  graph: DifyGraph;
  /** One per nodes_info entry, in order (same length as graph.nodes). */
  nodes: ConvertedNode[];
  /** Workflow id -> Dify id, as the official lookups see it (a duplicate id maps to its last node). */
  difyIds: ReadonlyMap<string, string>;
  /** Source handle of each workflow edge, by edge index. */
  edgeHandles: string[];
}

export interface ConvertOptions {
  floats?: FloatLiterals | null;
  ids?: IdSource;
  githubToken?: string;
}

// -- id sources --------------------------------------------------------------------------------------------------
// Method shorthand, not named arrows: tsx (esbuild keepNames) wraps every named arrow in a __name() call that
// redefines its `name` on each creation, and a sequential source is created per conversion.

export function sequentialIdSource(): IdSource {
  let nodes = 0;
  let classes = 0;
  let uuids = 0;
  return {
    nodeId() {
      return `1${String(++nodes).padStart(12, "0")}`;
    },
    classId() {
      return `15${String(++classes).padStart(11, "0")}`;
    },
    uuid() {
      return `00000000-0000-4000-8000-${(++uuids).toString(16).padStart(12, "0")}`;
    },
  };
}

function randomDigits(count: number): string {
  const bytes = new Uint8Array(count);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => String(b % 10)).join("");
}

export function randomIdSource(): IdSource {
  return {
    nodeId() {
      return `1${randomDigits(12)}`;
    },
    classId() {
      return `1${randomDigits(12)}`;
    },
    uuid() {
      return globalThis.crypto.randomUUID();
    },
  };
}

// -- failures ----------------------------------------------------------------------------------------------------

class ConversionFailure {
  constructor(readonly diagnostic: Diagnostic) {}
}

interface FailureSpec {
  code: DiagnosticCode;
  message: string;
  location?: DiagnosticLocation;
  targetNodeId?: string;
  hint?: string;
}

/** Every conversion failure is an error of step_1_2, whatever the code's default (the converter throws on it). */
function fail(spec: FailureSpec): never {
  const { code, message, ...extras } = spec;
  throw new ConversionFailure(makeDiagnostic(code, message, { ...extras, severity: "error", officialStep: "step_1_2" }));
}

/** An id as shown in messages: JSON-quoted, so newlines and quotes inside it stay visible on one line. */
function idLabel(id: JsonValue | undefined): string {
  return preview(id, 48);
}

// -- inline references -------------------------------------------------------------------------------------------

/** The official matcher, `\{\{#([^.]+)\.(.+?)#\}\}` without flags: Python's `.` excludes only `\n`. */
const INLINE_REFERENCE = /\{\{#([^.]+)\.([^\n]+?)#\}\}/g;
const QUOTES_STRIPPED_IN_ORDER = ["'", '"', "'"] as const;

/** The node id an inline-reference token names, or null when the official eval() would fail. */
const PLAIN_ID_TOKEN = /^(?:'([^'\\\n]*)'|"([^"\\\n]*)"|([1-9][0-9]*|0))$/;

export function readInlineIdToken(token: string): string | null {
  // Fast path for the forms models write: '3', "3" and 3.
  const plain = PLAIN_ID_TOKEN.exec(token);
  if (plain && !token.includes("-")) return plain[1] ?? plain[2] ?? plain[3] ?? null;
  if (token.includes("-")) {
    let id = token;
    for (const quote of QUOTES_STRIPPED_IN_ORDER) id = pyStripChars(id, quote);
    return id;
  }
  const literal = evalPythonLiteral(token);
  return literal ? literalToString(literal) : null;
}

export interface InlineReference {
  /** Offset of `{{#` in the text. */
  offset: number;
  length: number;
  token: string;
  variable: string;
  /** The node id the token resolves to; null when it is not a literal (a conversion error). */
  nodeId: string | null;
}

export function findInlineReferences(text: string): InlineReference[] {
  if (!text.includes("{{#")) return [];
  const refs: InlineReference[] = [];
  // An exec loop rather than matchAll, which clones the regex on every call.
  INLINE_REFERENCE.lastIndex = 0;
  for (let match = INLINE_REFERENCE.exec(text); match !== null; match = INLINE_REFERENCE.exec(text)) {
    const token = match[1] as string;
    refs.push({
      offset: match.index,
      length: match[0].length,
      token,
      variable: match[2] as string,
      nodeId: readInlineIdToken(token),
    });
  }
  return refs;
}

// -- layout (§8, deterministic) -------------------------------------------------------------------------------------

/** An endpoint value the layout can hash (Python: a str, int, float, bool or None). */
type EndpointValue = string | number | boolean | null;

interface TopEdge {
  source: EndpointValue;
  port: JsonValue;
  /** The target's key number (see TopLevelGraph). */
  target: number;
  /** Position of the edge in `edges`. */
  index: number;
}

/**
 * The top-level edges by endpoint key (pyHashKey, so 1, 1.0 and True are one key), each key numbered in order of
 * first appearance: the official layout's dict iteration order, kept in arrays instead of string-keyed maps.
 */
interface TopLevelGraph {
  /** The endpoint value each key number stands for. */
  originals: EndpointValue[];
  /** Key numbers that start an edge, in order of first appearance as a source. */
  sources: number[];
  /** Outgoing edges by source key number (sorted by port once all are read). */
  outgoing: (TopEdge[] | undefined)[];
}

const LAYER_WIDTH = 300;
const ROW_HEIGHT = 200;

/**
 * Layered grid: layer = longest path from a source (bounded on cycles), row order by the mean row of the
 * already placed parents. Layer-0 order is first appearance (the official code uses set order, which varies).
 */
function layoutTopLevel({ originals, sources, outgoing }: TopLevelGraph): Map<string, Position> {
  const n = originals.length;
  const layer = new Array<number>(n).fill(0);
  for (let round = 0; round < n; round++) {
    let changed = false;
    for (const source of sources) {
      const next = (layer[source] as number) + 1;
      for (const edge of outgoing[source] as TopEdge[]) {
        if ((layer[edge.target] as number) < next) {
          layer[edge.target] = next;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  const parents: number[][] = Array.from({ length: n }, () => []);
  for (const source of sources) for (const edge of outgoing[source] as TopEdge[]) (parents[edge.target] as number[]).push(source);
  // Keys by layer, each layer in order of first appearance.
  const byLayer = Array.from({ length: n }, (_, key) => key).sort((a, b) => (layer[a] as number) - (layer[b] as number) || a - b);
  const rows = new Array<number>(n).fill(-1);
  const positions = new Map<string, Position>();
  for (let start = 0; start < n; ) {
    const l = layer[byLayer[start] as number] as number;
    let end = start;
    while (end < n && layer[byLayer[end] as number] === l) end++;
    let group = byLayer.slice(start, end);
    if (l > 0 && group.length > 1) {
      const means = group.map((key) => meanParentRow(parents[key] as number[], rows));
      group = group
        .map((_, i) => i)
        .sort((a, b) => (means[a] as number) - (means[b] as number) || a - b)
        .map((i) => group[i] as number);
    }
    group.forEach((key, row) => {
      rows[key] = row;
      const original = originals[key];
      if (typeof original === "string") positions.set(original, { x: l * LAYER_WIDTH, y: row * ROW_HEIGHT });
    });
    start = end;
  }
  return positions;
}

const UNPLACED: Readonly<Position> = { x: 0, y: 0 };

/** What buildNodes needs of the layout when no graph is emitted: which ids are placed (all at the origin). */
function unplaced(originals: readonly EndpointValue[]): Map<string, Position> {
  const positions = new Map<string, Position>();
  for (const original of originals) if (typeof original === "string") positions.set(original, UNPLACED);
  return positions;
}

/** The number of an endpoint key, numbering it when it is new. */
function keyNumber(graph: TopLevelGraph, numbers: Map<string, number>, key: string, value: EndpointValue): number {
  let number = numbers.get(key);
  if (number === undefined) {
    number = graph.originals.length;
    numbers.set(key, number);
    graph.originals.push(value);
    graph.outgoing.push(undefined);
  }
  return number;
}

/** Mean row of the parents already placed (0 when none is); `rows` holds -1 for keys not placed yet. */
function meanParentRow(parents: readonly number[], rows: readonly number[]): number {
  let sum = 0;
  let count = 0;
  for (const parent of parents) {
    const row = rows[parent] as number;
    if (row >= 0) {
      sum += row;
      count++;
    }
  }
  return count ? sum / count : 0;
}

// -- constants of the emitted DSL --------------------------------------------------------------------------------

const LLM_MODEL = { provider: "langgenius/tongyi/tongyi", name: "qwen3-vl-plus", mode: "chat" } as const;
const CLASSIFIER_MODEL = { provider: "langgenius/tongyi/tongyi", name: "qwen3-max", mode: "chat" } as const;
const FILE_TYPES = ["image", "document", "audio", "video"];
const UPLOAD_METHODS = ["local_file", "remote_url"];
const CHILD_Z = 1002;
const CHILD_Y = 68;
const ITERATION_START_X = 24;

function modelBlock(model: { provider: string; name: string; mode: string }): DifyData {
  return {
    completion_params: { temperature: 0.7, max_tokens: 32768 },
    mode: model.mode,
    name: model.name,
    provider: model.provider,
  };
}

interface ToolSpec {
  provider: string;
  label: (param: { toolName: string; target: string }) => string;
  configurations: () => DifyData;
}

const TOOL_SPECS: Record<ToolNodeType, ToolSpec> = {
  text2image: {
    provider: "sawyer-shi/tongyi_aigc/tongyi_aigc",
    label: () => "Z-Image Text to Image",
    configurations: () => ({
      model: { type: "constant", value: "z-image-turbo" },
      prompt_extend: { type: "constant", value: false },
      seed: { type: "constant", value: null },
      size: { type: "constant", value: "1024*1024" },
    }),
  },
  tts: {
    provider: "audio",
    label: () => "Text To Speech",
    configurations: () => ({
      model: { type: "constant", value: "langgenius/openai/openai#gpt-4o-mini-tts" },
      size: { type: "mixed", value: null },
    }),
  },
  "markdown-exporter": {
    provider: "bowenliang123/md_exporter/md_exporter",
    label: ({ target }) => (target === "png" ? `Markdown to ${target} image` : `Markdown to ${target} file`),
    configurations: () => ({}),
  },
  "mermaid-converter": {
    provider: "hjlarry/mermaid_converter/mermaid_converter",
    label: () => "Mermaid Converter",
    configurations: () => ({
      output_format: { type: "constant", value: "png" },
      theme: { type: "constant", value: "default" },
    }),
  },
  "google-search": {
    provider: "langgenius/google/google",
    label: () => "Google Search",
    configurations: () => ({ as_agent_tool: { type: "constant", value: false } }),
  },
  echarts: {
    provider: "langgenius/echarts/echarts",
    label: ({ toolName }) => ({ line_chart: "Line Chart", pie_chart: "Pie Chart", bar_chart: "Bar Chart" })[toolName] ?? "",
    configurations: () => ({}),
  },
};

// -- the converter -------------------------------------------------------------------------------------------------

/** A node as registered in the official id lookup; `null` facts means an unknown type (the official None). */
interface Built {
  index: number;
  workflowId: string;
  type: string;
  facts: NodeFacts | null;
  difyId: string;
  data: DifyData | null;
  position: Position;
  parentDifyId: string | null;
  parentWorkflowId: string | null;
  /** if-else and classifier: the handle of each port. */
  handles: string[] | null;
}

interface Endpoint {
  source: Built;
  port: JsonValue;
  target: Built;
  index: number;
  edge: JsonValue;
}

interface ResolvedSelector {
  variable: JsonValue;
  node: Built;
  type: JsonValue;
}

class Converter {
  private readonly ids: IdSource;
  private readonly floats: FloatLiterals | null;
  private readonly githubToken: string;
  private readonly registry = new Map<string, Built>();
  private readonly built: Built[] = [];
  private nodesInfo: readonly JsonValue[] = [];
  /** The node being built, for failure locations. */
  private current: { id: string; index: number; type: string } | null = null;

  private nodeRef(): string {
    return this.current ? `Node ${idLabel(this.current.id)}` : "A node";
  }

  /**
   * @param withGraph false when only the verdict is wanted: nodes are not laid out and the Dify graph is not emitted
   * (every check still runs, in the same order).
   */
  constructor(
    options: ConvertOptions,
    private readonly withGraph = true,
  ) {
    this.ids = options.ids ?? sequentialIdSource();
    this.floats = options.floats ?? null;
    this.githubToken = options.githubToken ?? "";
  }

  run(root: JsonValue): Conversion {
    const endpoints = this.buildAll(root);
    const { difyEdges, handles } = this.emitEdges(endpoints);
    const difyNodes = this.emitNodes();
    const difyIds = new Map<string, string>();
    for (const [id, node] of this.registry) difyIds.set(id, node.difyId);
    return {
      graph: { nodes: difyNodes, edges: difyEdges },
      nodes: this.built.map((node) => ({
        index: node.index,
        workflowId: node.workflowId,
        difyId: node.difyId,
        type: node.type as NodeTypeId,
        facts: node.facts as NodeFacts,
        parentWorkflowId: node.parentWorkflowId,
      })),
      difyIds,
      edgeHandles: handles,
    };
  }

  /** Runs every check of `run` without emitting the graph; throws the same first failure. */
  check(root: JsonValue): void {
    for (const endpoint of this.buildAll(root)) this.edgeHandle(endpoint);
    for (const node of this.built) if (!node.data) this.failUnknownEmitted(node);
  }

  /** Reads and lays out the edges, builds every node and resolves the edge endpoints. */
  private buildAll(root: JsonValue): Endpoint[] {
    if (!isJsonObject(root)) {
      fail({
        code: "workflow-not-object",
        message: `The workflow JSON is ${describeKind(root)}; expected an object with "nodes_info" and "edges".`,
      });
    }
    const edges = this.readEdges(root);
    const positions = this.layout(edges);
    this.buildNodes(root, positions);
    return this.resolveEdgeEndpoints(edges);
  }

  // -- edges and layout ------------------------------------------------------------------------------------------

  private readEdges(root: JsonObject): { edge: JsonValue; index: number; topLevel: boolean }[] {
    const edges = ownValue(root, "edges");
    if (edges === undefined) {
      fail({ code: "workflow-missing-edges", message: 'The workflow has no "edges" key; both "nodes_info" and "edges" are required.' });
    }
    const items = pyIter(edges);
    if (!items) {
      fail({ code: "workflow-missing-edges", message: `"edges" is ${describeKind(edges)}; expected an array of [source, port, target].` });
    }
    return items.map((edge, index) => {
      const source = pyItem(edge, 0);
      if (source === undefined) {
        fail({
          code: "malformed-edge",
          message: `Edge ${index} is ${preview(edge)}; expected an array [source, port, target].`,
          location: { edgeIndex: index },
        });
      }
      const child = pyContains(source, "-");
      if (child === undefined) {
        fail({
          code: "malformed-edge",
          message: `Edge ${index} starts at ${preview(source)}, ${describeKind(source)}; node ids must be strings such as "2".`,
          location: { edgeIndex: index },
          hint: "Quote the ids in edges.",
        });
      }
      return { edge, index, topLevel: !child };
    });
  }

  private layout(edges: { edge: JsonValue; index: number; topLevel: boolean }[]): Map<string, Position> {
    const graph: TopLevelGraph = { originals: [], sources: [], outgoing: [] };
    const numbers = new Map<string, number>();
    for (const { edge, index, topLevel } of edges) {
      if (!topLevel) continue;
      const parts = pyIter(edge) ?? [];
      if (parts.length !== 3) {
        fail({
          code: "malformed-edge",
          message: `Top-level edge ${index} has ${parts.length} elements (${preview(edge)}); top-level edges must be exactly [source, port, target].`,
          location: { edgeIndex: index },
          hint: parts.length > 3 ? "Drop the extra element; the target port is not part of the format." : undefined,
        });
      }
      const [source, port, target] = parts as [JsonValue, JsonValue, JsonValue];
      const sourceKey = pyHashKey(source);
      const targetKey = pyHashKey(target);
      if (sourceKey === undefined || targetKey === undefined) {
        const bad = sourceKey === undefined ? source : target;
        fail({
          code: "malformed-edge",
          message: `Edge ${index} has ${describeKind(bad)} ${preview(bad)} as an endpoint; endpoints must be node id strings.`,
          location: { edgeIndex: index },
        });
      }
      const from = keyNumber(graph, numbers, sourceKey, source as EndpointValue);
      const to = keyNumber(graph, numbers, targetKey, target as EndpointValue);
      let list = graph.outgoing[from];
      if (!list) {
        list = [];
        graph.outgoing[from] = list;
        graph.sources.push(from);
      }
      list.push({ source: source as EndpointValue, port, target: to, index });
    }
    for (const from of graph.sources) {
      const list = graph.outgoing[from] as TopEdge[];
      if (list.length < 2) continue;
      const { sorted, raises } = pySortBy(list, (edge) => edge.port);
      if (raises) {
        const ports = list.map((edge) => preview(edge.port)).join(", ");
        fail({
          code: "edge-ports-incomparable",
          message: `The edges leaving ${idLabel(list[0]?.source ?? null)} have ports that cannot be ordered (${ports}); ports must all be integers.`,
          location: { edgeIndex: list[0]?.index ?? 0 },
          hint: "Use integer ports such as 0, not strings or null.",
        });
      }
      graph.outgoing[from] = sorted;
    }
    return this.withGraph ? layoutTopLevel(graph) : unplaced(graph.originals);
  }

  // -- nodes -----------------------------------------------------------------------------------------------------

  private buildNodes(root: JsonObject, positions: Map<string, Position>): void {
    const nodesInfo = ownValue(root, "nodes_info");
    if (nodesInfo === undefined) {
      fail({ code: "workflow-missing-nodes", message: 'The workflow has no "nodes_info" key; both "nodes_info" and "edges" are required.' });
    }
    const count = pyLen(nodesInfo);
    if (count === undefined) {
      fail({ code: "workflow-missing-nodes", message: `"nodes_info" is ${describeKind(nodesInfo)}; expected an array of nodes.` });
    }
    const typeCounts = new Map<string, number>();
    let pendingOutput: JsonValue = null;
    this.nodesInfo = Array.isArray(nodesInfo) ? nodesInfo : [];
    for (let i = 0; i < count; i++) {
      const node = pyItem(nodesInfo, i);
      if (node === undefined) {
        fail({ code: "workflow-missing-nodes", message: `"nodes_info" is ${describeKind(nodesInfo)}; expected an array of nodes.` });
      }
      if (!isJsonObject(node)) {
        fail({
          code: "node-not-object",
          message: `nodes_info[${i}] is ${describeKind(node)}; expected an object {"id", "type", "param"}.`,
        });
      }
      const type = ownValue(node, "type");
      if (type === undefined) this.failNodeKey(i, node, "type");
      const typeKey = pyHashKey(type);
      if (typeKey === undefined) {
        const rawId = ownValue(node, "id");
        const nodeId = typeof rawId === "string" ? rawId : undefined;
        fail({
          code: "unknown-node-type",
          message: `Node ${nodeId === undefined ? `#${i}` : idLabel(nodeId)} has type ${preview(type)}; the type must be one of the 20 type strings.`,
          location: nodeLocation(nodeId),
        });
      }
      const ordinal = (typeCounts.get(typeKey) ?? 0) + 1;
      typeCounts.set(typeKey, ordinal);
      const param = ownValue(node, "param");
      if (param === undefined) this.failNodeKey(i, node, "param");
      const id = ownValue(node, "id");
      if (id === undefined) this.failNodeKey(i, node, "id");
      const isChild = pyContains(id, "-");
      if (isChild === undefined || (isChild && typeof id !== "string") || (!isChild && pyHashKey(id) === undefined)) {
        fail({
          code: "node-id-not-string",
          message: `Node #${i} (${preview(type)}) has id ${preview(id)}, ${describeKind(id)}; ids must be strings such as "3".`,
          hint: 'Quote the id: "3".',
        });
      }
      const nodeId = id as string;
      this.current = { id: typeof id === "string" ? id : preview(id), index: i, type: typeof type === "string" ? type : preview(type) };
      let position: Position;
      let childIndex = 0;
      if (isChild) {
        const parsed = pyParseInt(nodeId.split("-")[1] as string);
        if (parsed === undefined) {
          fail({
            code: "malformed-child-id",
            message: `Node ${idLabel(nodeId)} is a canvas child id, but ${idLabel(nodeId.split("-")[1])} after the first "-" is not an integer; expected "<parentId>-<k>".`,
            location: nodeLocation(nodeId),
          });
        }
        childIndex = parsed;
        position = { x: type === "iteration-start" ? ITERATION_START_X : (parsed - 2) * LAYER_WIDTH + 100, y: CHILD_Y };
      } else {
        const placed = typeof id === "string" ? positions.get(id) : undefined;
        if (!placed) {
          fail({
            code: "node-without-edges",
            message: `Top-level node ${idLabel(id)} (${this.current.type}) appears in no top-level edge, so the converter cannot place it; every top-level node must be an edge source or target.`,
            location: nodeLocation(typeof id === "string" ? id : undefined),
            hint: "Connect the node with an edge, or remove it.",
          });
        }
        position = { ...placed };
        if (type === "iteration") {
          position.y = -400 * ordinal;
          const selector = this.param(param, "output_selector", "missing-param");
          pendingOutput = selector;
        }
      }
      const built = this.construct(i, nodeId, type as JsonValue, param, ordinal, position);
      if (isChild) this.attachToParent(built, nodeId);
      this.registry.set(nodeId, built);
      this.built.push(built);
      if (pendingOutput !== null) pendingOutput = this.matchIterationOutput(pendingOutput, built, childIndex);
    }
    this.current = null;
  }

  private failNodeKey(index: number, node: JsonObject, key: "type" | "param" | "id"): never {
    const id = ownValue(node, "id");
    fail({
      code: "node-missing-field",
      message: `Node ${typeof id === "string" ? idLabel(id) : `#${index}`} has no "${key}"; every node needs "id", "type" and "param".`,
      location: nodeLocation(typeof id === "string" ? id : undefined),
    });
  }

  private attachToParent(built: Built, nodeId: string): void {
    const parentId = nodeId.split("-")[0] as string;
    const parent = this.registry.get(parentId);
    if (!parent) {
      const later = this.laterIndexOf(parentId) >= 0;
      fail({
        code: later ? "child-parent-missing" : "child-parent-missing",
        message: later
          ? `Canvas child ${idLabel(nodeId)} is listed before its parent ${idLabel(parentId)}; the parent must come earlier in nodes_info.`
          : `Canvas child ${idLabel(nodeId)} names parent ${idLabel(parentId)} (the part before the first "-"), which does not exist.`,
        location: nodeLocation(nodeId),
        targetNodeId: parentId,
      });
    }
    if (parent.facts === null) {
      fail({
        code: "reference-unknown-type",
        message: `Canvas child ${idLabel(nodeId)} belongs to ${idLabel(parentId)}, whose type ${preview(parent.type)} is not a node type.`,
        location: nodeLocation(nodeId),
        targetNodeId: parentId,
      });
    }
    built.parentWorkflowId = parentId;
    built.parentDifyId = parent.difyId;
    if (built.data) {
      built.data.isInIteration = true;
      if (built.type === "iteration-start") built.difyId = `${parent.difyId}start`;
      else built.data.iteration_id = parent.difyId;
    }
  }

  private matchIterationOutput(pending: JsonValue, built: Built, childIndex: number): JsonValue {
    const target = pyItem(pending, 1);
    if (target === undefined) {
      fail({
        code: "malformed-selector",
        message: `The pending iteration output_selector ${preview(pending)} is not a [variable, childId] pair.`,
        location: { ...nodeLocation(this.current?.id), paramPath: ["output_selector"] },
      });
    }
    if (!pyEq(target, built.workflowId)) return pending;
    const id = built.workflowId;
    const parts = id.split("-");
    if (parts.length !== 2) {
      fail({
        code: "iteration-output-not-child",
        message: `An iteration's output_selector points at ${idLabel(id)}, which is not a canvas child; it must name a node "<iterationId>-<k>" inside the iteration.`,
        location: nodeLocation(id),
        targetNodeId: id,
        hint: "Point output_selector at the last node inside the iteration, e.g. [\"text\", \"2-3\"].",
      });
    }
    const variable = pyItem(pending, 0) as JsonValue;
    const lookup = built.facts ? officialVariableType(built.facts, variable) : null;
    if (!lookup || !lookup.ok) {
      this.failTypeLookup(lookup, variable, built, ["output_selector"], true);
    }
    const outputType = `array[${pyStr(lookup.type)}]`;
    const parent = this.registry.get(parts[0] as string);
    if (!parent || !parent.data) {
      fail({
        code: "iteration-output-parent-missing",
        message: `The output child ${idLabel(id)} names parent ${idLabel(parts[0])}, which is not a built node.`,
        location: nodeLocation(id),
      });
    }
    const outputSelector = [built.difyId, variable];
    setIterationOutput(parent, outputSelector, outputType, lookup.type);
    const back = this.built.length - (childIndex + 1);
    const alsoSet = back >= 0 ? this.built[back] : undefined;
    if (!alsoSet || !alsoSet.data) {
      fail({
        code: "iteration-output-index",
        message: `The output child ${idLabel(id)} has index ${childIndex}, but only ${this.built.length} nodes precede it; the official converter counts ${childIndex + 1} nodes back from the child to find its iteration.`,
        location: nodeLocation(id),
        hint: "Number canvas children consecutively right after their iteration.",
      });
    }
    setIterationOutput(alsoSet, outputSelector, outputType, lookup.type);
    return null;
  }

  // -- per-type construction -------------------------------------------------------------------------------------

  private construct(index: number, id: string, type: JsonValue, param: JsonValue, ordinal: number, position: Position): Built {
    const built: Built = {
      index,
      workflowId: id,
      type: typeof type === "string" ? type : preview(type),
      facts: null,
      difyId: "",
      data: null,
      position,
      parentDifyId: null,
      parentWorkflowId: null,
      handles: null,
    };
    if (!isNodeTypeId(type)) {
      if (id.includes("-")) this.failUnknownType(id, type);
      // A top-level unknown type registers as None and fails at its first use (at the latest, its edges).
      return built;
    }
    const title = ordinal > 1 ? `${NODE_TYPES[type].displayName} ${ordinal}` : NODE_TYPES[type].displayName;
    const part = this.buildPart(type, param, title, ordinal);
    built.facts = part.facts;
    built.data = part.data;
    built.handles = part.handles ?? null;
    built.difyId = this.ids.nodeId();
    if (part.facts.type === "iteration") part.data.start_node_id = `${built.difyId}start`;
    return built;
  }

  private buildPart(type: NodeTypeId, param: JsonValue, title: string, ordinal: number): { facts: NodeFacts; data: DifyData; handles?: string[] } {
    switch (type) {
      case "start":
        return this.buildStart(param, title);
      case "end":
        return this.buildEnd(param, title);
      case "llm":
        return this.buildLlm(param, title);
      case "question-classifier":
        return this.buildClassifier(param, title);
      case "code":
        return this.buildCode(param, title);
      case "document-extractor":
        return this.buildDocumentExtractor(param, title);
      case "http-request":
        return this.buildHttp(param, title);
      case "if-else":
        return this.buildIfElse(param, title);
      case "list-operator":
        return this.buildListOperator(param, title);
      case "parameter-extractor":
        return this.buildParameterExtractor(param, title);
      case "template-transform":
        return this.buildTemplate(param, title);
      case "variable-aggregator":
        return this.buildAggregator(param, title);
      case "iteration":
        return this.buildIteration(param, title);
      case "iteration-start":
        return {
          facts: { type: "iteration-start" },
          data: { desc: "", isInIteration: true, selected: false, title: "", type: "iteration-start" },
        };
      default:
        return this.buildTool(type, param, ordinal);
    }
  }

  private failUnknownType(id: string, type: JsonValue): never {
    const hint =
      type === "template"
        ? 'Use "template-transform"; "Template" is only its display name.'
        : "Use one of the 20 node type strings, e.g. \"llm\" or \"template-transform\".";
    fail({
      code: "unknown-node-type",
      message: `Node ${idLabel(id)} has type ${preview(type)}, which is not a Chat2Workflow node type.`,
      location: nodeLocation(id),
      hint,
    });
  }

  /** Python `param[key]`: param must be a dict and hold the key. */
  private param(param: JsonValue, key: string, missingCode: DiagnosticCode = "missing-param"): JsonValue {
    if (!isJsonObject(param)) {
      fail({
        code: "param-not-object",
        message: `${this.nodeRef()} has a "param" that is ${describeKind(param)}; expected an object.`,
        location: nodeLocation(this.current?.id),
      });
    }
    const value = ownValue(param, key);
    if (value === undefined) {
      fail({
        code: missingCode,
        message: `${this.nodeRef()} (${this.current?.type}) has no param "${key}", which the converter requires.`,
        location: { ...nodeLocation(this.current?.id), paramPath: [key] },
      });
    }
    return value;
  }

  private iterate(value: JsonValue, path: ParamPath, expected: string): readonly JsonValue[] {
    const items = pyIter(value);
    if (!items) {
      fail({
        code: "malformed-param",
        message: `${this.nodeRef()}: ${formatPath(path)} is ${describeKind(value)}; expected ${expected}.`,
        location: { ...nodeLocation(this.current?.id), paramPath: path },
      });
    }
    return items;
  }

  private item(value: JsonValue, index: number, path: ParamPath, expected: string, code: DiagnosticCode = "malformed-param"): JsonValue {
    const item = pyItem(value, index);
    if (item === undefined) {
      fail({
        code,
        message: `${this.nodeRef()}: ${formatPath(path)} is ${preview(value)}; expected ${expected}.`,
        location: { ...nodeLocation(this.current?.id), paramPath: path },
      });
    }
    return item;
  }

  /** Resolves `[var, id]` exactly as the official `ref_var = sel[0]; node = id_dict[sel[1]]; search_var(...)`. */
  private resolveSelector(selector: JsonValue, path: ParamPath, entryHint?: string): ResolvedSelector {
    const expected = "a [variable, nodeId] pair";
    if (typeof selector === "string") {
      const flattened = entryHint ? ` (${entryHint})` : "";
      if (pyItem(selector, 1) === undefined) {
        fail({
          code: "malformed-selector",
          message: `${this.nodeRef()}: ${formatPath(path)} is the string ${preview(selector)}, not ${expected}${flattened}.`,
          location: { ...nodeLocation(this.current?.id), paramPath: path },
        });
      }
    }
    const variable = this.item(selector, 0, path, expected, "malformed-selector");
    const refId = this.item(selector, 1, path, expected, "malformed-selector");
    const node = this.lookupNode(refId, path, typeof selector === "string" ? entryHint : undefined);
    return { variable, node, type: this.typeOf(variable, node, path) };
  }

  private lookupNode(refId: JsonValue, path: ParamPath, flattenedHint?: string): Built {
    if (pyHashKey(refId) === undefined) {
      const nested = Array.isArray(refId);
      fail({
        code: "malformed-selector",
        message: `${this.nodeRef()}: ${formatPath(path)} has ${describeKind(refId)} ${preview(refId)} where the source node id should be.`,
        location: { ...nodeLocation(this.current?.id), paramPath: path },
        hint: nested
          ? this.current?.type === "variable-aggregator"
            ? "Aggregator variables are flat pairs [var, id], not [name, [var, id]]."
            : "A selector is [variable, nodeId]."
          : undefined,
      });
    }
    const node = typeof refId === "string" ? this.registry.get(refId) : undefined;
    if (!node) this.failUnknownReference(refId, path, flattenedHint);
    if (node.facts === null) {
      fail({
        code: "reference-unknown-type",
        message: `${this.nodeRef()}: ${formatPath(path)} references ${idLabel(node.workflowId)}, whose type ${preview(node.type)} is not a node type.`,
        location: { ...nodeLocation(this.current?.id), paramPath: path },
        targetNodeId: node.workflowId,
        hint: node.type === "template" ? 'Use "template-transform" as the type of that node.' : undefined,
      });
    }
    return node;
  }

  private laterIndexOf(id: string): number {
    const start = this.current ? this.current.index : 0;
    for (let i = start; i < this.nodesInfo.length; i++) {
      const node = this.nodesInfo[i];
      if (isJsonObject(node) && node.id === id) return i;
    }
    return -1;
  }

  private failUnknownReference(refId: JsonValue, path: ParamPath, flattenedHint?: string): never {
    const later = typeof refId === "string" ? this.laterIndexOf(refId) : -1;
    const where = `${this.nodeRef()}: ${formatPath(path)}`;
    if (later >= 0) {
      fail({
        code: "forward-reference",
        message: `${where} references node ${idLabel(refId)}, which is defined later in nodes_info (position ${later}); a node can only reference nodes listed before it.`,
        location: { ...nodeLocation(this.current?.id), paramPath: path },
        targetNodeId: refId as string,
        hint: "Reorder nodes_info so that every node comes after the nodes it reads.",
      });
    }
    const looksSwapped = typeof refId === "string" && !/^[\w-]*\d[\w-]*$/.test(refId);
    fail({
      code: "reference-unknown-node",
      message: `${where} references node ${idLabel(refId)}, which does not exist.${flattenedHint ? ` (${flattenedHint})` : ""}`,
      location: { ...nodeLocation(this.current?.id), paramPath: path },
      targetNodeId: typeof refId === "string" ? refId : undefined,
      hint: looksSwapped ? "Selectors are [variable, nodeId]: the variable comes first." : undefined,
    });
  }

  private typeOf(variable: JsonValue, node: Built, path: ParamPath): JsonValue {
    const lookup = officialVariableType(node.facts as NodeFacts, variable);
    if (!lookup.ok) this.failTypeLookup(lookup, variable, node, path, false);
    return lookup.type;
  }

  private failTypeLookup(
    lookup: { ok: false; code: TypeLookupFailure; message: string } | null,
    variable: JsonValue,
    node: Built,
    path: ParamPath,
    outputMatching: boolean,
  ): never {
    const where = outputMatching
      ? `The iteration output_selector [${preview(variable)}, ${idLabel(node.workflowId)}]`
      : `${this.nodeRef()}: ${formatPath(path)}`;
    const code = lookup?.code ?? "reference-unknown-type";
    const hints: Partial<Record<TypeLookupFailure, string>> = {
      "reference-no-outputs":
        node.type === "iteration-start"
          ? 'Read `item` and `index` from the iteration node itself (e.g. ["item", "2"]), not from its iteration-start.'
          : "End, if-else and iteration-start nodes have no output variables.",
      "undeclared-code-output": "Declare the variable in the code node's outputs.",
    };
    fail({
      code,
      message: `${where} reads ${preview(variable)} from ${idLabel(node.workflowId)} (${node.type}): ${lookup?.message ?? "unknown node type"}.`,
      location: { ...nodeLocation(this.current?.id), paramPath: path },
      targetNodeId: node.workflowId,
      hint: lookup ? hints[lookup.code] : undefined,
    });
  }

  /** The official two-part split of a dotted name: `a.b` -> [id, a, b]; more dots are an error. */
  private valueSelector(difyId: string, variable: JsonValue, path: ParamPath): JsonValue[] {
    if (!pyContains(variable, ".")) return [difyId, variable];
    if (typeof variable !== "string") {
      fail({
        code: "variable-name-not-string",
        message: `${this.nodeRef()}: ${formatPath(path)} names the variable ${preview(variable)}, which is not a string.`,
        location: { ...nodeLocation(this.current?.id), paramPath: path },
      });
    }
    const parts = variable.split(".");
    if (parts.length !== 2) {
      fail({
        code: "variable-name-too-deep",
        message: `${this.nodeRef()}: the variable ${idLabel(variable)} at ${formatPath(path)} has ${parts.length - 1} dots; only one sub-field level (such as "file.type") is allowed.`,
        location: { ...nodeLocation(this.current?.id), paramPath: path },
      });
    }
    return [difyId, parts[0] as string, parts[1] as string];
  }

  private textLocation(path: ParamPath, offset: number, length: number): DiagnosticLocation {
    return { ...nodeLocation(this.current?.id), paramPath: path, offset, length };
  }

  /** Rewrites `{{#id.var#}}` in a text param to Dify ids, failing like the official batch_replace_ids. */
  private rewriteText(value: JsonValue, path: ParamPath): string {
    if (typeof value !== "string") {
      const selectorLike = Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string");
      fail({
        code: "text-param-not-string",
        message: `${this.nodeRef()}: ${formatPath(path)} is ${describeKind(value)} ${preview(value)}; this field is text and must be a string.`,
        location: { ...nodeLocation(this.current?.id), paramPath: path },
        hint: selectorLike ? `Write the reference inline instead: "{{#'${String(value[1])}'.${String(value[0])}#}}".` : undefined,
      });
    }
    if (!value.includes("{{#")) return value;
    return value.replace(INLINE_REFERENCE, (whole: string, token: string, variable: string, offset: number) => {
      const id = readInlineIdToken(token);
      if (id === null) {
        fail({
          code: "malformed-inline-reference",
          message: `${this.nodeRef()}: in ${formatPath(path)}, the reference ${preview(whole, 50)} names ${preview(token, 40)} as its node, which is not a node id (a bare number or a quoted string).`,
          location: this.textLocation(path, offset, whole.length),
          hint: token.includes("#}}")
            ? "A reference without a dot runs on into the next one; every reference is {{#'<nodeId>'.<variable>#}}."
            : "References name nodes by id: {{#'3'.text#}}. Use item/index through the iteration id: {{#'2'.item#}}.",
        });
      }
      const node = this.registry.get(id);
      if (!node) {
        const later = this.laterIndexOf(id);
        fail({
          code: later >= 0 ? "forward-reference" : "reference-unknown-node",
          message:
            later >= 0
              ? `${this.nodeRef()}: ${formatPath(path)} references ${idLabel(id)} inline, which is defined later in nodes_info; a node can only reference nodes listed before it.`
              : `${this.nodeRef()}: ${formatPath(path)} references ${idLabel(id)} inline, which does not exist.`,
          location: this.textLocation(path, offset, whole.length),
          targetNodeId: id,
          hint: token.includes("#}}") ? "A reference without a dot runs on into the next one; every reference is {{#'<nodeId>'.<variable>#}}." : undefined,
        });
      }
      if (node.facts === null) {
        fail({
          code: "reference-unknown-type",
          message: `${this.nodeRef()}: ${formatPath(path)} references ${idLabel(id)}, whose type ${preview(node.type)} is not a node type.`,
          location: this.textLocation(path, offset, whole.length),
          targetNodeId: id,
        });
      }
      return `{{#${node.difyId}.${variable}#}}`;
    });
  }

  // Each builder reads param in the official order, so the first failure is the official one.

  private buildStart(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const variables = this.param(param, "variables");
    const items = this.iterate(variables, ["variables"], "an array of [name, type]");
    const declared: DeclaredVariable[] = [];
    const data: DifyData[] = [];
    items.forEach((entry, i) => {
      const type = this.item(entry, 1, ["variables", i], "a [name, type] pair", "malformed-start-variable");
      const name = pyItem(entry, 0) as JsonValue;
      declared.push({ name, type });
      data.push(startVariableData(name, type));
    });
    return { facts: { type: "start", variables: declared }, data: { selected: false, title, type: "start", variables: data } };
  }

  /** `[[name, [var, id]], …]` entries of code, template and end: resolve all, then split dotted names. */
  private buildNamedInputs(param: JsonValue, key: string): { name: JsonValue; resolved: ResolvedSelector; path: ParamPath }[] {
    const list = this.param(param, key);
    const items = this.iterate(list, [key], "an array of [name, [variable, nodeId]]");
    return items.map((entry, i) => {
      const ref = this.item(entry, 1, [key, i], "a [name, [variable, nodeId]] entry", "malformed-entry");
      const path: ParamPath = [key, i, 1];
      const hint = typeof ref === "string" ? "entries are [name, [variable, nodeId]], not flattened [name, variable, nodeId]" : undefined;
      const resolved = this.resolveSelector(ref, path, hint);
      return { name: pyItem(entry, 0) as JsonValue, resolved, path };
    });
  }

  private inputData(inputs: { name: JsonValue; resolved: ResolvedSelector; path: ParamPath }[]): DifyData[] {
    return inputs.map(({ name, resolved, path }) => ({
      value_selector: this.valueSelector(resolved.node.difyId, resolved.variable, [...path, 0]),
      value_type: resolved.type,
      variable: name,
    }));
  }

  private buildEnd(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const outputs = this.inputData(this.buildNamedInputs(param, "outputs"));
    return { facts: { type: "end" }, data: { outputs, selected: false, title, type: "end" } };
  }

  private buildLlm(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const system = this.rewriteText(this.param(param, "system"), ["system"]);
    const user = this.rewriteText(this.param(param, "user"), ["user"]);
    return {
      facts: { type: "llm" },
      data: {
        context: { enabled: false, variable_selector: [] },
        model: modelBlock(LLM_MODEL),
        prompt_template: [
          { role: "system", text: system },
          { role: "user", text: user },
        ],
        selected: false,
        title,
        type: "llm",
        vision: { enabled: false },
      },
    };
  }

  private buildClassifier(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData; handles: string[] } {
    const query = this.resolveSelector(this.param(param, "query_variable_selector"), ["query_variable_selector"]);
    const instruction = isJsonObject(param) ? (ownValue(param, "instruction") ?? "") : "";
    const classes = this.iterate(this.param(param, "classes"), ["classes"], "an array of class labels");
    const classData = classes.map((name) => ({ id: this.ids.classId(), name }));
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

  private buildCode(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const inputs = this.buildNamedInputs(param, "variables");
    const code = this.param(param, "code");
    const outputList = this.param(param, "outputs");
    const variables = this.inputData(inputs);
    const outputs = new Map<string, DeclaredVariable>();
    const outputData: Record<string, DifyData> = {};
    this.iterate(outputList, ["outputs"], "an array of [name, type]").forEach((entry, i) => {
      const type = this.item(entry, 1, ["outputs", i], "a [name, type] pair");
      const name = this.item(entry, 0, ["outputs", i], "a [name, type] pair");
      const key = pyHashKey(name);
      if (key === undefined) {
        fail({
          code: "malformed-param",
          message: `${this.nodeRef()}: output name ${preview(name)} at outputs[${i}] is ${describeKind(name)}; expected a string.`,
          location: { ...nodeLocation(this.current?.id), paramPath: ["outputs", i, 0] },
        });
      }
      outputs.set(key, { name, type });
      outputData[pyStr(name)] = { children: null, type };
    });
    return {
      facts: { type: "code", outputs },
      data: { code, code_language: "python3", outputs: outputData, selected: false, title, type: "code", variables },
    };
  }

  private buildDocumentExtractor(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const input = this.resolveSelector(this.param(param, "variable_selector"), ["variable_selector"]);
    if (input.type !== "file" && input.type !== "array[file]") {
      fail({
        code: "document-extractor-input-type",
        message: `${this.nodeRef()}: the document extractor reads ${preview(input.variable)} from ${idLabel(input.node.workflowId)}, typed ${preview(input.type)}; its input must be a file or array[file].`,
        location: { ...nodeLocation(this.current?.id), paramPath: ["variable_selector"] },
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

  private buildHttp(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const url = this.resolveSelector(this.param(param, "url"), ["url"]);
    if (typeof url.variable !== "string") {
      fail({
        code: "variable-name-not-string",
        message: `${this.nodeRef()}: the url variable ${preview(url.variable)} is not a string.`,
        location: { ...nodeLocation(this.current?.id), paramPath: ["url", 0] },
      });
    }
    return {
      facts: { type: "http-request" },
      data: {
        authorization: { config: null, type: "no-auth" },
        body: { data: [], type: "none" },
        headers: this.githubToken ? `Authorization:Bearer:${this.githubToken}` : "",
        method: "get",
        params: "",
        retry_config: { max_retries: 3, retry_enabled: true, retry_interval: 100 },
        selected: false,
        ssl_verify: true,
        timeout: { max_connect_timeout: 0, max_read_timeout: 0, max_write_timeout: 0 },
        title,
        type: "http-request",
        url: `{{#${url.node.difyId}.${url.variable}#}}`,
        variables: [],
      },
    };
  }

  private buildIfElse(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData; handles: string[] } {
    const cases = this.iterate(this.param(param, "cases"), ["cases"], "an array of [logic, conditions]");
    interface Cond {
      resolved: ResolvedSelector;
      operator: JsonValue;
      value: JsonValue | undefined;
      path: ParamPath;
    }
    const parsed: { logic: string; conditions: Cond[] }[] = cases.map((ifCase, i) => {
      const expected = "a [logic, [condition, …]] case";
      const logic = this.item(ifCase, 0, ["cases", i], expected, "malformed-if-else");
      if (logic !== "or" && !Array.isArray(ifCase)) {
        // The official code assigns case[0] = 'and', which only a list allows.
        fail({
          code: "malformed-if-else",
          message: `${this.nodeRef()}: cases[${i}] is ${preview(ifCase)}; expected ${expected}.`,
          location: { ...nodeLocation(this.current?.id), paramPath: ["cases", i] },
        });
      }
      const conditionList = this.item(ifCase, 1, ["cases", i], expected, "malformed-if-else");
      const conditions = this.iterate(conditionList, ["cases", i, 1], "an array of conditions").map((condition, j): Cond => {
        const path: ParamPath = ["cases", i, 1, j];
        const expectedCondition = "a condition [[variable, nodeId], operator, value?]";
        const ref = this.item(condition, 0, path, expectedCondition, "malformed-if-else");
        const variable = this.item(ref, 0, [...path, 0], expectedCondition, "malformed-if-else");
        const refId = this.item(ref, 1, [...path, 0], expectedCondition, "malformed-if-else");
        const flattened = typeof ref === "string" ? "a condition is [[variable, nodeId], operator, value], not [variable, nodeId, operator]" : undefined;
        const node = this.lookupNode(refId, [...path, 0], flattened);
        const type = this.typeOf(variable, node, [...path, 0]);
        const operator = this.item(condition, 1, path, expectedCondition, "malformed-if-else");
        const value = pyLen(condition) === 3 ? this.rewriteText(pyItem(condition, 2) as JsonValue, [...path, 2]) : undefined;
        return { resolved: { variable, node, type }, operator, value, path };
      });
      return { logic: logic === "or" ? "or" : "and", conditions };
    });
    const handles: string[] = [];
    const caseData = parsed.map(({ logic, conditions }) => {
      const caseId = this.ids.uuid();
      handles.push(caseId);
      return {
        case_id: caseId,
        conditions: conditions.map((condition) => this.conditionData(condition)),
        id: caseId,
        logical_operator: logic,
      };
    });
    handles.push("false");
    return { facts: { type: "if-else" }, handles, data: { cases: caseData, selected: false, title, type: "if-else" } };
  }

  private conditionData(condition: {
    resolved: ResolvedSelector;
    operator: JsonValue;
    value: JsonValue | undefined;
    path: ParamPath;
  }): DifyData {
    const { resolved, operator, path } = condition;
    let value: JsonValue = condition.value ?? "";
    if (value === "true") value = true;
    else if (value === "false") value = false;
    const selector = this.valueSelector(resolved.node.difyId, resolved.variable, [...path, 0, 0]);
    const data: DifyData = {
      comparison_operator: operator,
      id: this.ids.uuid(),
      value: selector.length === 3 ? [value] : value,
      varType: resolved.type,
      variable_selector: selector,
    };
    if (resolved.type === "number") {
      if (typeof value !== "string") {
        fail({
          code: "if-else-boolean-on-number",
          message: `${this.nodeRef()}: the condition at ${formatPath(path)} compares a number with '${String(value)}'; the converter turns 'true'/'false' into booleans and then fails on a number variable.`,
          location: { ...nodeLocation(this.current?.id), paramPath: [...path, 2] },
          hint: "Compare numbers with numeric strings such as \"0\".",
        });
      }
      if (value.includes("{{#")) data.numberVarType = "variable";
    }
    if (resolved.type === "array[file]") {
      data.sub_variable_condition = {
        case_id: this.ids.uuid(),
        conditions: [{ comparison_operator: "in", id: this.ids.uuid(), key: "type", value: [value], varType: "string" }],
        logical_operator: "and",
      };
    }
    return data;
  }

  private buildListOperator(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const input = this.resolveSelector(this.param(param, "variable"), ["variable"]);
    const operator = this.param(param, "operator");
    const expected = 'an operator such as ["extract_by", 1], ["limit", 3], ["order_by", "asc"] or ["filter_by", op, value]';
    const kind = this.item(operator, 0, ["operator"], expected, "malformed-list-operator");
    let filterValue: JsonValue | undefined;
    if (kind === "filter_by") {
      filterValue = this.item(operator, 2, ["operator"], 'a three-element ["filter_by", op, value] (even for "empty")', "malformed-list-operator");
      if (typeof filterValue === "string") filterValue = this.rewriteText(filterValue, ["operator", 2]);
    }
    if (typeof input.type !== "string") {
      fail({
        code: "list-operator-input-untyped",
        message: `${this.nodeRef()}: the list operator's input ${preview(input.variable)} from ${idLabel(input.node.workflowId)} (${input.node.type}) has no type under the official inference (${preview(input.type)}).`,
        location: { ...nodeLocation(this.current?.id), paramPath: ["variable"] },
        targetNodeId: input.node.workflowId,
        hint:
          input.node.type === "iteration"
            ? "The iteration's output type is only known once its output_selector child is built."
            : "The official inference types this variable as null (see the catalog quirks).",
      });
    }
    const varType = input.type;
    const isFileArray = varType === "array[file]";
    const data: DifyData = {
      extract_by: { enabled: false, serial: "" },
      filter_by: { conditions: [{ comparison_operator: "contains", key: "", value: "" }], enabled: false },
      item_var_type: (varType.split("[").pop() ?? "").split("]")[0] ?? "",
      limit: { enabled: false, size: 10 },
      order_by: { enabled: false, key: "", value: "asc" },
      selected: false,
      title,
      type: "list-operator",
      var_type: varType,
      variable: [input.node.difyId, input.variable],
    };
    if (kind === "filter_by") {
      const op = this.item(operator, 1, ["operator"], expected, "malformed-list-operator");
      const text = pyStr(filterValue as JsonValue, isFloatLiteral(this.floats, operator as object, 2));
      const value: JsonValue = text === "true" ? true : text === "false" ? false : text;
      const condition: DifyData = { comparison_operator: op, key: "", value: "" };
      if (isFileArray) {
        condition.key = "type";
        condition.value = [value];
      } else if (op !== "empty" && op !== "not empty") {
        condition.value = value;
      }
      data.filter_by = { conditions: [condition], enabled: true };
    } else if (kind === "extract_by") {
      data.extract_by = { enabled: true, serial: pyStr(this.item(operator, 1, ["operator"], expected, "malformed-list-operator"), isFloatLiteral(this.floats, operator as object, 1)) };
    } else if (kind === "limit") {
      data.limit = { enabled: true, size: this.item(operator, 1, ["operator"], expected, "malformed-list-operator") };
    } else if (kind === "order_by") {
      data.order_by = { enabled: true, key: isFileArray ? "name" : "", value: this.item(operator, 1, ["operator"], expected, "malformed-list-operator") };
    }
    return { facts: { type: "list-operator", varType }, data };
  }

  private buildParameterExtractor(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const query = this.resolveSelector(this.param(param, "query"), ["query"]);
    const instruction = this.rewriteText(this.param(param, "instruction", "missing-param"), ["instruction"]);
    const list = this.param(param, "parameters");
    const declared: DeclaredVariable[] = [];
    const parameters = this.iterate(list, ["parameters"], "an array of [description, name, type]").map((entry, i) => {
      const expected = "a [description, name, type] triple";
      const description = this.item(entry, 0, ["parameters", i], expected, "malformed-parameter");
      const name = this.item(entry, 1, ["parameters", i], expected, "malformed-parameter");
      const type = this.item(entry, 2, ["parameters", i], expected, "malformed-parameter");
      declared.push({ name, type });
      return { description, name, required: true, type };
    });
    return {
      facts: { type: "parameter-extractor", parameters: declared },
      data: {
        instruction,
        model: modelBlock(CLASSIFIER_MODEL),
        parameters,
        query: [query.node.difyId, query.variable],
        reasoning_mode: "prompt",
        selected: false,
        title,
        type: "parameter-extractor",
        vision: { enabled: false },
      },
    };
  }

  private buildTemplate(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const inputs = this.buildNamedInputs(param, "variables");
    const template = this.param(param, "template");
    const variables = this.inputData(inputs);
    return { facts: { type: "template-transform" }, data: { selected: false, template, title, type: "template-transform", variables } };
  }

  private buildAggregator(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const items = this.iterate(this.param(param, "variables"), ["variables"], "an array of [variable, nodeId]");
    const inputs = items.map((entry, i) => ({ resolved: this.resolveSelector(entry, ["variables", i]), path: ["variables", i] as ParamPath }));
    const first = inputs[0];
    if (!first) {
      fail({
        code: "empty-aggregator",
        message: `${this.nodeRef()}: the variable aggregator has no variables; it needs at least one [variable, nodeId].`,
        location: { ...nodeLocation(this.current?.id), paramPath: ["variables"] },
      });
    }
    const variables = inputs.map(({ resolved, path }) => this.valueSelector(resolved.node.difyId, resolved.variable, [...path, 0]));
    return {
      facts: { type: "variable-aggregator", outputType: first.resolved.type },
      data: { output_type: first.resolved.type, selected: false, title, type: "variable-aggregator", variables },
    };
  }

  private buildIteration(param: JsonValue, title: string): { facts: NodeFacts; data: DifyData } {
    const input = this.resolveSelector(this.param(param, "iterator_selector"), ["iterator_selector"]);
    return {
      facts: { type: "iteration", inputType: input.type, outputType: null },
      data: {
        error_handle_mode: "terminated",
        flatten_output: true,
        is_parallel: false,
        iterator_input_type: input.type,
        iterator_selector: [input.node.difyId, input.variable],
        output_selector: null,
        output_type: null,
        parallel_nums: 10,
        selected: false,
        title,
        type: "iteration",
      },
    };
  }

  private buildTool(type: ToolNodeType, param: JsonValue, ordinal: number): { facts: NodeFacts; data: DifyData } {
    const parameters: Record<string, { type: "mixed"; value: string }> = {};
    let name: string;
    let target = "";
    switch (type) {
      case "text2image":
        parameters.prompt = mixed(this.rewriteText(this.param(param, "prompt"), ["prompt"]));
        name = "z_image_text_2_image";
        break;
      case "tts":
        parameters.text = mixed(this.rewriteText(this.param(param, "text"), ["text"]));
        name = "tts";
        break;
      case "markdown-exporter": {
        parameters.md_text = mixed(this.rewriteText(this.param(param, "md_text"), ["md_text"]));
        const targetType = this.param(param, "target_type");
        if (typeof targetType !== "string") {
          fail({
            code: "target-type-not-string",
            message: `${this.nodeRef()}: target_type is ${describeKind(targetType)} ${preview(targetType)}; expected one of docx, pptx, pdf, png, html, md.`,
            location: { ...nodeLocation(this.current?.id), paramPath: ["target_type"] },
          });
        }
        target = targetType;
        name = `md_to_${targetType}`;
        break;
      }
      case "mermaid-converter":
        parameters.mermaid_code = mixed(this.rewriteText(this.param(param, "mermaid_code"), ["mermaid_code"]));
        name = "mermaid_converter";
        break;
      case "google-search":
        parameters.query = mixed(this.rewriteText(this.param(param, "query"), ["query"]));
        name = "google_search";
        break;
      case "echarts": {
        const chart = this.rewriteText(this.param(param, "chart_type"), ["chart_type"]);
        const chartTitle = this.rewriteText(this.param(param, "chart_title"), ["chart_title"]);
        const values = this.rewriteText(this.param(param, "data"), ["data"]);
        const axis = this.rewriteText(this.param(param, "x_axisORcategories"), ["x_axisORcategories"]);
        parameters.data = mixed(values);
        parameters.title = mixed(chartTitle);
        parameters[chart === "pie" ? "categories" : "x_axis"] = mixed(axis);
        name = `${chart}_chart`;
        break;
      }
    }
    const spec = TOOL_SPECS[type];
    const named = type === "markdown-exporter" || type === "echarts";
    const baseTitle = named ? name : NODE_TYPES[type].displayName;
    return {
      facts: { type: "tool", nodeType: type, toolName: name },
      data: {
        provider_id: spec.provider,
        provider_name: spec.provider,
        provider_type: "builtin",
        selected: false,
        title: ordinal > 1 ? `${baseTitle} ${ordinal}` : baseTitle,
        tool_configurations: spec.configurations(),
        tool_label: spec.label({ toolName: name, target }),
        tool_name: name,
        tool_node_version: "2",
        tool_parameters: parameters,
        type: "tool",
      },
    };
  }

  // -- edges, after all nodes -----------------------------------------------------------------------------------

  private resolveEdgeEndpoints(edges: { edge: JsonValue; index: number }[]): Endpoint[] {
    return edges.map(({ edge, index }) => {
      const sourceId = pyItem(edge, 0) as JsonValue;
      const source = this.edgeEndpoint(sourceId, index, "source");
      const port = pyItem(edge, 1);
      if (port === undefined) {
        fail({
          code: "malformed-edge",
          message: `Edge ${index} is ${preview(edge)}; expected [source, port, target].`,
          location: { edgeIndex: index },
        });
      }
      const targetId = pyItem(edge, 2);
      if (targetId === undefined) {
        fail({
          code: "malformed-edge",
          message: `Edge ${index} is ${preview(edge)}; expected [source, port, target].`,
          location: { edgeIndex: index },
        });
      }
      const target = this.edgeEndpoint(targetId, index, "target");
      return { source, port, target, index, edge };
    });
  }

  private edgeEndpoint(id: JsonValue, index: number, role: "source" | "target"): Built {
    const node = typeof id === "string" ? this.registry.get(id) : undefined;
    if (!node) {
      fail({
        code: "edge-unknown-node",
        message: `Edge ${index} has ${role} ${idLabel(id)}, which is not a node id in nodes_info.`,
        location: { edgeIndex: index },
        targetNodeId: typeof id === "string" ? id : undefined,
      });
    }
    return node;
  }

  /** The source handle of an edge, after the checks the official emitter makes on both ends (in its order). */
  private edgeHandle({ source, port, target, index, edge }: Endpoint): string {
    if (!source.data) this.failUnknownEmitted(source);
    const handle = source.handles ? this.branchHandle(source, port, index, edge) : "source";
    if (!target.data) this.failUnknownEmitted(target);
    return handle;
  }

  private emitEdges(endpoints: Endpoint[]): { difyEdges: DifyEdge[]; handles: string[] } {
    const handles: string[] = [];
    const difyEdges = endpoints.map((endpoint) => {
      const handle = this.edgeHandle(endpoint);
      const { source, target } = endpoint;
      // edgeHandle failed the conversion unless both ends were built.
      const sourceData = source.data as DifyData;
      const targetData = target.data as DifyData;
      handles.push(handle);
      const difyEdge: DifyEdge = {
        data: { isInIteration: false, sourceType: String(sourceData.type), targetType: String(targetData.type) },
        id: `${source.difyId}-${handle}-${target.difyId}-target`,
        source: source.difyId,
        sourceHandle: handle,
        target: target.difyId,
        targetHandle: "target",
        type: "custom",
        zIndex: 0,
      };
      if ("isInIteration" in sourceData) {
        difyEdge.data.isInIteration = sourceData.isInIteration === true;
        difyEdge.zIndex = CHILD_Z;
        // An iteration-start outside any canvas keeps the official default parentId "".
        const iterationId = source.type === "iteration-start" ? (source.parentDifyId ?? "") : sourceData.iteration_id;
        if (typeof iterationId === "string") difyEdge.data.iteration_id = iterationId;
      }
      return difyEdge;
    });
    return { difyEdges, handles };
  }

  private branchHandle(source: Built, port: JsonValue, index: number, edge: JsonValue): string {
    const handles = source.handles as string[];
    const n = handles.length;
    const describe = source.type === "if-else" ? `${n - 1} case(s) plus ELSE = ${n - 1}` : `${n} class(es)`;
    const isInt = typeof port === "boolean" || (typeof port === "number" && Number.isInteger(port) && !isFloatLiteral(this.floats, edge as object, 1));
    if (!isInt) {
      fail({
        code: "edge-port-not-integer",
        message: `Edge ${index} leaves ${source.type} ${idLabel(source.workflowId)} from port ${preview(port)}; a branch port must be an integer (0..${n - 1}: ${describe}).`,
        location: { edgeIndex: index },
        hint: "Write the port as a bare integer such as 0.",
      });
    }
    const i = Number(port);
    const handle = i < 0 ? handles[n + i] : handles[i];
    if (handle === undefined) {
      fail({
        code: "branch-port-out-of-range",
        message: `Edge ${index} leaves ${source.type} ${idLabel(source.workflowId)} from port ${i}, but it has ports 0..${n - 1} (${describe}).`,
        location: { edgeIndex: index },
        hint: source.type === "if-else" ? "The ELSE port is the number of cases." : "A classifier has one port per class and no default port.",
      });
    }
    return handle;
  }

  private failUnknownEmitted(node: Built): never {
    this.current = { id: node.workflowId, index: node.index, type: node.type };
    this.failUnknownType(node.workflowId, node.type);
  }

  private emitNodes(): DifyNode[] {
    return this.built.map((node) => {
      if (!node.data) this.failUnknownEmitted(node);
      const wrapper: DifyNode = {
        data: node.data,
        height: 52,
        id: node.difyId,
        position: { ...node.position },
        positionAbsolute: { ...node.position },
        selected: false,
        sourcePosition: "right",
        targetPosition: "left",
        type: "custom",
        width: 242,
      };
      if (node.data.isInIteration === true) {
        wrapper.zIndex = CHILD_Z;
        if (node.type === "iteration-start") {
          wrapper.parentId = node.parentDifyId ?? "";
          wrapper.type = "custom-iteration-start";
          wrapper.draggable = false;
          wrapper.selectable = false;
          delete wrapper.selected;
        } else {
          wrapper.parentId = String(node.data.iteration_id);
        }
      }
      return wrapper;
    });
  }
}

// -- helpers -------------------------------------------------------------------------------------------------------

function nodeLocation(id: string | undefined): DiagnosticLocation {
  return id === undefined ? {} : { nodeId: id };
}

function formatPath(path: ParamPath): string {
  return path.reduce<string>((out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${part}` : part), "param") || "param";
}

function mixed(value: string): { type: "mixed"; value: string } {
  return { type: "mixed", value };
}

function startVariableData(name: JsonValue, type: JsonValue): DifyData {
  if (type === "file" || type === "array[file]") {
    const list = type === "array[file]";
    return {
      allowed_file_extensions: [],
      allowed_file_types: [...FILE_TYPES],
      allowed_file_upload_methods: [...UPLOAD_METHODS],
      default: "",
      hint: "",
      label: name,
      max_length: list ? 10 : 32768,
      options: [],
      placeholder: "",
      required: false,
      type: list ? "file-list" : "file",
      variable: name,
    };
  }
  const mapped = type === "string" ? "paragraph" : type === "boolean" ? "checkbox" : type;
  return { default: "", hint: "", label: name, max_length: 32768, options: [], placeholder: "", required: false, type: mapped, variable: name };
}

/** The official output matching writes output_selector/output_type on a node's data, whatever its type. */
function setIterationOutput(node: Built, selector: JsonValue[], outputType: string, childType: JsonValue): void {
  if (!node.data) return;
  node.data.output_selector = selector;
  node.data.output_type = outputType;
  if (node.facts?.type === "iteration") {
    node.facts = { ...node.facts, outputType, outputChildType: childType };
  } else if (node.facts?.type === "variable-aggregator") {
    // The inference reads an aggregator's output_type from the same data field.
    node.facts = { ...node.facts, outputType };
  }
}

anchorShape(new Converter({}));

/**
 * The official step_1_2 verdict alone: the diagnostic convertWorkflow would fail with, or null when it converts.
 * Runs the same checks in the same order but does not lay out or emit the Dify graph.
 */
export function conversionFailure(value: JsonValue, options: ConvertOptions = {}): Diagnostic | null {
  try {
    new Converter(options, false).check(value);
    return null;
  } catch (error) {
    if (error instanceof ConversionFailure) return error.diagnostic;
    throw error;
  }
}

/** Converts a parsed workflow like the official converter; never throws for bad input. */
export function convertWorkflow(value: JsonValue, options: ConvertOptions = {}): Result<Conversion, Diagnostic> {
  try {
    return ok(new Converter(options).run(value));
  } catch (error) {
    if (error instanceof ConversionFailure) return err(error.diagnostic);
    throw error;
  }
}
