// Replays the official simplified-JSON -> Coze converter, quirks included (coze-export spec §4, §11): the workflow
// document it would write, or the first condition that makes it fail, as one diagnostic.

import { err, ok, type Result } from "../result";
import type { ParamPath } from "./catalog";
import type { DiagnosticCode } from "./diagnostic-codes";
import type { Diagnostic, DiagnosticLocation } from "./diagnostics";
import type { Position } from "./dify-graph";
import { readInlineIdToken, replaceInlineReferences } from "./inline-references";
import { layoutTopLevel, readEdges, readTopLevelGraph, type TopLevelEdge } from "./layout";
import { isNodeTypeId } from "./node-types";
import { NODE_SPECS } from "./nodes";
import { ConversionFailure, fail, idLabel, nodeLocation } from "./nodes/failure";
import type { CozeBuildContext, CozeMapping, CozeRef, CozeRewrite } from "./nodes/types";
import { describeKind, isJsonObject, ownValue, preview, pyEq, pyHashKey, pyItem, pyIter, pyParseInt, type JsonValue } from "./python-values";

export type CozeWorkflow = Record<string, unknown>;

export interface CozeOptions {
  /** The HTTP nodes' bearer token; the official converter writes "EMPTY" when it has none. */
  githubToken?: string;
}

const COZE_CELL = { width: 460, height: 260 } as const;
const CHILD_Y = 100;
const END_ID = "900001";

type NodeMapping = Extract<CozeMapping, { kind: "node" }>;

interface CozeBuilt {
  index: number;
  workflowId: string;
  type: string;
  /** null: the type has no Coze node (list-operator, unknown types); fails at its first use. */
  mapping: NodeMapping | null;
  cozeId: string;
  title: string;
  position: Position;
  parameters: Record<string, unknown>;
  targetType?: JsonValue;
  branchCount: number;
  /** Batches: the children attached to it (nodes_info order), its routed inner edges and canvas position. */
  children: CozeBuilt[];
  innerEdges: { source: CozeBuilt; port: JsonValue; target: CozeBuilt }[];
  canvasPosition: Position | null;
}

/** Python `int(port)`: integers, booleans, floats (truncated) and integer strings; null when it would raise. */
function pythonInt(value: JsonValue): number | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === "string") {
    const trimmed = value.trim();
    return /^[+-]?\d+(?:_\d+)*$/.test(trimmed) ? Number(trimmed.replace(/_/g, "")) : null;
  }
  return null;
}

/** The official `search_var_coze`: output names remapped by a substring of the referenced node's title (§6.2). */
function remapVariable(variable: JsonValue, node: CozeBuilt): JsonValue {
  const title = node.title;
  if (title.includes("Document Extractor") && variable === "text") return "data";
  if (title.includes("Iteration") && variable === "item") return "iterator_selector";
  if (title.includes("Text to Speech") && variable === "files") return "data.link";
  if (title.includes("Image Generator") && variable === "files") return "data";
  if (title.includes("Mermaid Converter") && variable === "files") return "editUrl";
  if (title.includes("Doc Maker") && variable === "files") return node.targetType === "png" ? "url" : "data";
  if (title.includes("_charts") && variable === "text") return "data";
  if (title.includes("Web Search") && variable === "json") return "data";
  if (title.includes("Question Classifier") && variable === "class_name") return "classificationId";
  return variable;
}

class CozeConverter implements CozeBuildContext {
  readonly githubToken: string;
  private readonly registry = new Map<string, CozeBuilt>();
  private readonly list: CozeBuilt[] = [];
  private readonly innerIds = new Set<CozeBuilt>();
  private nodesInfo: readonly JsonValue[] = [];
  private current: { id: string; index: number; type: string } | null = null;
  /** Drawn ids start above the start node's fixed 100001 and skip the end node's 900001. */
  private nextId = 100002;
  /** The port of the last edge of the whole `edges` list (the official inner-classifier test reads it). */
  private lastInputPort: JsonValue = null;

  constructor(options: CozeOptions) {
    this.githubToken = options.githubToken ?? "";
  }

  // -- the build context node types call back into ---------------------------------------------------------------

  nodeRef(): string {
    return this.current ? `Node ${idLabel(this.current.id)}` : "A node";
  }

  at(path: ParamPath): DiagnosticLocation {
    return { ...nodeLocation(this.current?.id), paramPath: path };
  }

  param(param: JsonValue, key: string): JsonValue {
    if (!isJsonObject(param)) fail({ code: "param-not-object", message: `${this.nodeRef()} has a "param" that is ${describeKind(param)}; expected an object.`, location: nodeLocation(this.current?.id) });
    const value = ownValue(param, key);
    if (value === undefined) fail({ code: "missing-param", message: `${this.nodeRef()} (${this.current?.type}) has no param "${key}", which the Coze converter requires.`, location: this.at([key]) });
    return value;
  }

  iterate(value: JsonValue, path: ParamPath, expected: string): readonly JsonValue[] {
    const items = pyIter(value);
    if (!items) fail({ code: "malformed-param", message: `${this.nodeRef()}: ${path.join(".")} is ${describeKind(value)}; expected ${expected}.`, location: this.at(path) });
    return items;
  }

  item(value: JsonValue, index: number, path: ParamPath, expected: string, code: DiagnosticCode = "malformed-param"): JsonValue {
    const item = pyItem(value, index);
    if (item === undefined) fail({ code, message: `${this.nodeRef()}: ${path.join(".")} is ${preview(value)}; expected ${expected}.`, location: this.at(path) });
    return item;
  }

  selectorTarget(selector: JsonValue, path: ParamPath): { variable: JsonValue; node: CozeBuilt } {
    const expected = "a [variable, nodeId] pair";
    const variable = this.item(selector, 0, path, expected, "malformed-selector");
    const refId = this.item(selector, 1, path, expected, "malformed-selector");
    if (pyHashKey(refId) === undefined) {
      fail({ code: "malformed-selector", message: `${this.nodeRef()}: ${path.join(".")} has ${describeKind(refId)} ${preview(refId)} where the node id should be.`, location: this.at(path) });
    }
    return { variable, node: this.lookup(refId, this.at(path)) };
  }

  selector(selector: JsonValue, path: ParamPath): CozeRef {
    const { variable, node } = this.selectorTarget(selector, path);
    return { path: remapVariable(variable, node), ref_node: node.cozeId };
  }

  rewrite(value: JsonValue, path: ParamPath): CozeRewrite {
    if (typeof value !== "string") {
      fail({ code: "text-param-not-string", message: `${this.nodeRef()}: ${path.join(".")} is ${describeKind(value)} ${preview(value)}; this field is text and must be a string.`, location: this.at(path) });
    }
    const records: [string, string][] = [];
    const text = value.includes("{{#")
      ? replaceInlineReferences(value, ({ offset, length, token, variable }) => {
          const whole = value.slice(offset, offset + length);
          const location = { ...this.at(path), offset, length: whole.length };
          const id = readInlineIdToken(token);
          if (id === null) {
            fail({ code: "malformed-inline-reference", message: `${this.nodeRef()}: the reference ${preview(whole, 50)} names ${preview(token, 40)}, which is not a node id.`, location });
          }
          const node = this.lookup(id, location);
          records.push([variable, node.cozeId]);
          return `{{_${node.cozeId}_${variable}}}`;
        })
      : value;
    return { text, records };
  }

  // -- registry --------------------------------------------------------------------------------------------------

  /** `id_dict[id]`: registered, and a node Coze has (iteration-starts never are). */
  private lookup(refId: JsonValue, location: DiagnosticLocation): CozeBuilt {
    const node = typeof refId === "string" ? this.registry.get(refId) : undefined;
    if (!node) {
      const listed = this.nodesInfo.findIndex((entry) => isJsonObject(entry) && pyEq(ownValue(entry, "id") ?? null, refId));
      const startOfCanvas = listed >= 0 && isJsonObject(this.nodesInfo[listed]) && ownValue(this.nodesInfo[listed] as never, "type") === "iteration-start";
      if (startOfCanvas) {
        fail({ code: "reference-iteration-start", message: `${this.nodeRef()} references the iteration-start ${idLabel(refId)}, which Coze has no node for.`, location, hint: "Read item and index from the iteration node itself." });
      }
      fail({
        code: listed >= 0 ? "forward-reference" : "reference-unknown-node",
        message: listed >= 0 ? `${this.nodeRef()} references ${idLabel(refId)}, which is listed later in nodes_info.` : `${this.nodeRef()} references ${idLabel(refId)}, which does not exist.`,
        location,
        targetNodeId: typeof refId === "string" ? refId : undefined,
      });
    }
    if (!node.mapping) {
      fail({ code: "coze-no-equivalent", message: `${this.nodeRef()} references ${idLabel(node.workflowId)} (${node.type}), which has no Coze equivalent.`, location, targetNodeId: node.workflowId });
    }
    return node;
  }

  private drawId(): string {
    let id = String(this.nextId++);
    if (id === END_ID) id = String(this.nextId++);
    return id;
  }

  // -- the pass --------------------------------------------------------------------------------------------------

  run(root: JsonValue, name: string): CozeWorkflow {
    if (!isJsonObject(root)) fail({ code: "workflow-not-object", message: `The workflow JSON is ${describeKind(root)}; expected an object.` });
    const edges = readEdges(root);
    const positions = layoutTopLevel(readTopLevelGraph(edges), COZE_CELL);
    this.walkNodes(ownValue(root, "nodes_info"), positions);
    const topEdges = this.routeEdges(edges);
    const nodes = this.list.filter((node) => !this.innerIds.has(node)).map((node) => this.emitNode(node, true));
    return {
      description: "coze workflow",
      edges: topEdges.map(({ source, port, target }) => this.emitEdge(source, port, target, false)),
      icon: "plugin_icon/workflow.png",
      id: 1,
      mode: "workflow",
      name,
      nodes,
      schema_version: "1.0.0",
    };
  }

  private walkNodes(nodesInfo: JsonValue | undefined, positions: Map<string, Position>): void {
    if (nodesInfo === undefined) fail({ code: "workflow-missing-nodes", message: 'The workflow has no "nodes_info" key.' });
    const items = pyIter(nodesInfo);
    if (!items) fail({ code: "workflow-missing-nodes", message: `"nodes_info" is ${describeKind(nodesInfo)}; expected an array of nodes.` });
    this.nodesInfo = items;
    const typeCounts = new Map<string, number>();
    let pending: JsonValue = null;
    items.forEach((node, index) => {
      if (!isJsonObject(node)) fail({ code: "node-not-object", message: `nodes_info[${index}] is ${describeKind(node)}; expected an object.` });
      const type = ownValue(node, "type");
      const param = ownValue(node, "param");
      const id = ownValue(node, "id");
      if (type === undefined || param === undefined || id === undefined) {
        fail({ code: "node-missing-field", message: `Node #${index} lacks "id", "type" or "param".`, location: nodeLocation(typeof id === "string" ? id : undefined) });
      }
      const typeKey = pyHashKey(type);
      if (typeKey === undefined) fail({ code: "unknown-node-type", message: `Node #${index} has type ${preview(type)}, which is not a type string.` });
      if (typeof id !== "string") fail({ code: "node-id-not-string", message: `Node #${index} has id ${preview(id)}; ids must be strings.`, hint: 'Quote the id: "3".' });
      const ordinal = (typeCounts.get(typeKey) ?? 0) + 1;
      typeCounts.set(typeKey, ordinal);
      this.current = { id, index, type: typeof type === "string" ? type : preview(type) };
      const isChild = id.includes("-");
      let position: Position;
      if (isChild) {
        const k = pyParseInt(id.split("-")[1] as string);
        if (k === undefined) fail({ code: "malformed-child-id", message: `Node ${idLabel(id)}: the part after "-" is not an integer.`, location: nodeLocation(id) });
        position = { x: (k - 2) * COZE_CELL.width, y: CHILD_Y };
      } else {
        const placed = positions.get(id);
        if (!placed) fail({ code: "node-without-edges", message: `Top-level node ${idLabel(id)} appears in no top-level edge, so it cannot be placed.`, location: nodeLocation(id) });
        position = { ...placed };
        if (type === "iteration") {
          pending = this.param(param, "output_selector");
          if (pending !== null && pyItem(pending, 1) === undefined) {
            fail({ code: "malformed-selector", message: `${this.nodeRef()}: output_selector ${preview(pending)} is not a [variable, childId] pair.`, location: this.at(["output_selector"]) });
          }
        }
      }
      if (type === "iteration-start") return; // Coze batches have an implicit start: never built or registered.
      const built = this.construct(index, id, type, param, ordinal, position);
      if (isChild) this.attach(built, id);
      this.registry.set(id, built);
      this.list.push(built);
      if (pending !== null && pyEq(pyItem(pending, 1) as JsonValue, id)) {
        this.bindOutput(pending, built);
        pending = null;
      }
    });
    this.current = null;
  }

  private construct(index: number, id: string, type: JsonValue, param: JsonValue, ordinal: number, position: Position): CozeBuilt {
    const mapping = isNodeTypeId(type) ? NODE_SPECS[type].coze : null;
    const built: CozeBuilt = {
      index,
      workflowId: id,
      type: typeof type === "string" ? type : preview(type),
      mapping: null,
      cozeId: "",
      title: "",
      position,
      parameters: {},
      branchCount: 0,
      children: [],
      innerEdges: [],
      canvasPosition: null,
    };
    if (!mapping || mapping.kind !== "node") return built;
    const parts = mapping.build(this, param);
    built.mapping = mapping;
    built.cozeId = mapping.fixedId ?? this.drawId();
    const base = parts.baseTitle ?? mapping.baseTitle;
    built.title = ordinal > 1 ? `${base} ${ordinal}` : base;
    built.parameters = parts.parameters;
    built.targetType = parts.targetType;
    built.branchCount = parts.branchCount ?? 0;
    if (mapping.cozeType === "batch") built.canvasPosition = { x: position.x - 100, y: -400 * ordinal };
    return built;
  }

  private attach(built: CozeBuilt, id: string): void {
    const parentId = id.split("-")[0] as string;
    const parent = this.registry.get(parentId);
    if (!parent || parent.mapping?.cozeType !== "batch") {
      fail({
        code: "child-parent-not-iteration",
        message: `Canvas child ${idLabel(id)} belongs to ${idLabel(parentId)}, which is ${parent ? `a ${parent.type}` : "not a node listed before it"}; only iterations hold children in Coze.`,
        location: nodeLocation(id),
        targetNodeId: parentId,
      });
    }
    if (!built.mapping) {
      fail({ code: "coze-no-equivalent", message: `Canvas child ${idLabel(id)} is a ${built.type}, which has no Coze equivalent.`, location: nodeLocation(id) });
    }
    parent.children.push(built);
    this.innerIds.add(built);
  }

  /** §8.3: the batch named by the child id's prefix, and the node k places back in the list, get the output. */
  private bindOutput(pending: JsonValue, child: CozeBuilt): void {
    const parts = child.workflowId.split("-");
    if (parts.length !== 2) {
      fail({ code: "iteration-output-not-child", message: `An iteration's output_selector points at ${idLabel(child.workflowId)}, which is not a direct canvas child.`, location: nodeLocation(child.workflowId) });
    }
    const k = pyParseInt(parts[1] as string);
    if (k === undefined) fail({ code: "malformed-child-id", message: `Output child ${idLabel(child.workflowId)}: the part after "-" is not an integer.`, location: nodeLocation(child.workflowId) });
    const output = { path: pyItem(pending, 0) as JsonValue, ref_node: child.cozeId };
    const parent = this.registry.get(parts[0] as string);
    if (!parent) fail({ code: "iteration-output-parent-missing", message: `Output child ${idLabel(child.workflowId)} names parent ${idLabel(parts[0])}, which is not a built node.`, location: nodeLocation(child.workflowId) });
    const back = this.list[this.list.length - k];
    for (const target of [parent, back]) {
      if (!target || target.mapping?.cozeType !== "batch") {
        fail({ code: "iteration-output-index", message: `Output child ${idLabel(child.workflowId)} is not ${k} places after its iteration, where the official converter looks for the batch.`, location: nodeLocation(child.workflowId) });
      }
      target.parameters.node_outputs = { output: { value: { type: "list", items: { value: null }, value: output } } };
    }
  }

  // -- edges -----------------------------------------------------------------------------------------------------

  private routeEdges(edges: readonly TopLevelEdge[]): { source: CozeBuilt; port: JsonValue; target: CozeBuilt }[] {
    const top: { source: CozeBuilt; port: JsonValue; target: CozeBuilt }[] = [];
    for (const { edge, index } of edges) {
      const sourceId = pyItem(edge, 0) as JsonValue;
      const port = pyItem(edge, 1);
      const targetId = pyItem(edge, 2);
      if (port === undefined || targetId === undefined || typeof sourceId !== "string" || typeof targetId !== "string") {
        fail({ code: "malformed-edge", message: `Edge ${index} is ${preview(edge)}; expected [source, port, target] with string ids.`, location: { edgeIndex: index } });
      }
      // The official filter meant for iteration-start ids; it also drops every id containing "-1" (2-10, 12-1).
      if (sourceId.includes("-1") || targetId.includes("-1")) continue;
      const source = this.edgeEndpoint(sourceId, index);
      const target = this.edgeEndpoint(targetId, index);
      if (sourceId.includes("-") || targetId.includes("-")) {
        const owner = this.registry.get(sourceId.split("-")[0] as string);
        if (!owner || owner.mapping?.cozeType !== "batch") {
          fail({ code: "edge-crosses-iteration", message: `Edge ${index} enters a canvas from ${idLabel(sourceId)}, which is not its iteration; Coze cannot route it.`, location: { edgeIndex: index } });
        }
        owner.innerEdges.push({ source, port, target });
      } else {
        top.push({ source, port, target });
      }
    }
    return top;
  }

  private edgeEndpoint(id: string, index: number): CozeBuilt {
    const node = this.registry.get(id);
    if (!node) fail({ code: "edge-unknown-node", message: `Edge ${index} names ${idLabel(id)}, which is not a registered node.`, location: { edgeIndex: index }, targetNodeId: id });
    return node;
  }

  private port(source: CozeBuilt, port: JsonValue): number {
    const value = pythonInt(port);
    if (value === null) {
      fail({ code: "edge-port-not-integer", message: `An edge leaves ${source.mapping?.cozeType} ${idLabel(source.workflowId)} from port ${preview(port)}, which is not an integer.`, location: nodeLocation(source.workflowId) });
    }
    return value;
  }

  /** §9 (top level) and §8.2 (inside a canvas, with the official off-by-one and the classifier's leaked port). */
  private emitEdge(source: CozeBuilt, port: JsonValue, target: CozeBuilt, inner: boolean, leakedPort?: JsonValue): Record<string, unknown> {
    const edge: Record<string, unknown> = { source_node: source.cozeId, target_node: target.cozeId };
    const kind = source.mapping?.cozeType;
    if (kind === "condition") {
      const p = this.port(source, port);
      const elsePort = inner ? source.branchCount - 1 : source.branchCount;
      edge.source_port = p === 0 ? "true" : p === elsePort ? "false" : `true_${p}`;
    } else if (kind === "intent") {
      const p = this.port(source, port);
      const tested = inner ? this.port(source, leakedPort ?? null) : p;
      const defaultPort = inner ? source.branchCount - 1 : source.branchCount;
      edge.source_port = tested === defaultPort ? "default" : `branch_${p}`;
    } else if (kind === "batch") {
      edge.source_port = "batch-output";
    }
    return edge;
  }

  private emitNode(node: CozeBuilt, topLevel: boolean): Record<string, unknown> {
    const mapping = node.mapping;
    if (!mapping) {
      this.current = { id: node.workflowId, index: node.index, type: node.type };
      fail({ code: "coze-no-equivalent", message: `Node ${idLabel(node.workflowId)} is a ${node.type}, which has no Coze equivalent.`, location: nodeLocation(node.workflowId) });
    }
    const wrapper: Record<string, unknown> = {
      description: mapping.description,
      icon: mapping.icon,
      id: node.cozeId,
      parameters: node.parameters,
      position: node.position,
      title: node.title,
      type: mapping.cozeType,
    };
    if (mapping.cozeType !== "batch" || !topLevel) return wrapper;
    const childK = (child: CozeBuilt): number => pyParseInt(child.workflowId.split("-")[1] as string) ?? 0;
    const ordered = node.children.map((child, i) => ({ child, i })).sort((a, b) => childK(a.child) - childK(b.child) || a.i - b.i);
    const first = ordered[0]?.child;
    const last = ordered[ordered.length - 1]?.child;
    if (!first || !last) {
      fail({ code: "coze-iteration-without-children", message: `Iteration ${idLabel(node.workflowId)} holds no node besides its iteration-start.`, location: nodeLocation(node.workflowId) });
    }
    const leaked = this.lastInputPort;
    wrapper.canvas_position = node.canvasPosition;
    wrapper.nodes = node.children.map((child) => this.emitNode(child, false));
    wrapper.edges = [
      ...node.innerEdges.map(({ source, port, target }) => this.emitEdge(source, port, target, true, leaked)),
      { source_node: node.cozeId, source_port: "batch-function-inline-output", target_node: first.cozeId },
      { source_node: last.cozeId, target_node: node.cozeId, target_port: "batch-function-inline-input" },
    ];
    return wrapper;
  }

  setLastInputPort(edges: readonly TopLevelEdge[]): void {
    const last = edges[edges.length - 1];
    this.lastInputPort = last ? (pyItem(last.edge, 1) ?? null) : null;
  }
}

/** Converts a parsed workflow like the official Coze converter; never throws for bad input. */
export function convertToCoze(value: JsonValue, name: string, options: CozeOptions = {}): Result<CozeWorkflow, Diagnostic> {
  const converter = new CozeConverter(options);
  try {
    if (isJsonObject(value)) {
      const edges = ownValue(value, "edges");
      const items = edges === undefined ? undefined : pyIter(edges);
      if (items) converter.setLastInputPort(items.map((edge, index) => ({ edge, index, topLevel: true })));
    }
    return ok(converter.run(value, name));
  } catch (error) {
    if (error instanceof ConversionFailure) {
      const { officialStep: _step, ...diagnostic } = error.diagnostic;
      return err({ ...diagnostic, message: `Coze: ${diagnostic.message}` });
    }
    throw error;
  }
}
