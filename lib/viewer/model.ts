// The viewer's model of a workflow, with every diagnostic anchored to what it is about; total, so any JSON (unknown
// types, missing ids, dangling edges) gives a drawable model.

import {
  exposedVariables,
  nodeFacts,
  officialVariableType,
  realVariableType,
  selectorRefs,
  textFieldPaths,
  type FactsContext,
  type NodeFacts,
  type ParamPath,
} from "../workflow/catalog";
import { findInlineReferences } from "../workflow/convert";
import type { Diagnostic, ResponseField } from "../workflow/diagnostics";
import { buildModel, lastNodeWithId, type NodeEntry, type WorkflowModel } from "../workflow/analysis/model";
import { valueAt } from "../workflow/analysis/params";
import { NODE_TYPES, type NodeFamily, type NodeTypeId } from "../workflow/node-types";
import { preview, type JsonValue } from "../workflow/python-values";
import { declaredPorts, isBranching, summarizeNode, typeTitle, type SummaryLine, type ViewPort } from "./summary";

export type { SummaryLine, ViewPort } from "./summary";

/** Visual family: the node-type families, plus unknown types and placeholders for nodes that do not exist. */
export type ViewFamily = NodeFamily | "unknown" | "missing";

export interface ViewReference {
  via: "selector" | "inline";
  /** Where the reference sits inside the node's param (for inline ones: the text field). */
  path: ParamPath;
  variable: string;
  /** The referenced id as written (null when an inline token is not a literal). */
  nodeId: string | null;
  /** The referenced node on the canvas (a placeholder key when it does not exist; null when unresolvable). */
  targetKey: string | null;
  /** The official converter's inferred type, as text ("error" when referencing it fails). */
  official: string;
  /** What the platform really provides ("unknown" / "not exposed"). */
  real: string;
}

export interface ViewExposed {
  name: string;
  official: string;
  real: string;
  quirk?: string;
}

export interface ViewNode {
  /** Canvas id: `n<index>` for nodes_info entries, `missing:<id>` for placeholders. */
  key: string;
  /** Position in nodes_info; null for placeholders. */
  index: number | null;
  /** The id as written (numbers and booleans as text); null when the node has none. */
  workflowId: string | null;
  /** What `?node=` holds to select this node. */
  urlValue: string;
  /** The type as written (or a preview when it is not a string). */
  type: string;
  knownType: NodeTypeId | null;
  family: ViewFamily;
  title: string;
  /** The iteration container this node sits in. */
  parentKey: string | null;
  container: boolean;
  summary: SummaryLine[];
  /** Output ports in order; ports only edges use (out of range, on an End node) have kind "invalid". */
  ports: ViewPort[];
  branching: boolean;
  param: JsonValue | null;
  references: ViewReference[];
  exposes: ViewExposed[];
  /** Ids of the diagnostics drawn on this node. */
  diagnostics: number[];
  /** For placeholders: why it is drawn. */
  note?: string;
}

export interface ViewEdge {
  /** `e<index>` for workflow edges, `r:<source>><target>` for references drawn from diagnostics. */
  key: string;
  kind: "flow" | "reference";
  /** Index into the workflow's edges (flow edges). */
  index: number | null;
  source: string;
  sourceHandle: string;
  target: string;
  label?: string;
  /** One end is a placeholder for a node that does not exist. */
  dangling: boolean;
  diagnostics: number[];
}

export interface ViewDiagnostic extends Diagnostic {
  id: number;
  /** Nodes the diagnostic is drawn on. */
  nodeKeys: string[];
  /** The edge it marks (a workflow edge, or the reference edge drawn for it). */
  edgeKey: string | null;
  /** The response text it points into, when it has a text position and no graph anchor. */
  textField: ResponseField | null;
}

export interface WorkflowView {
  nodes: ViewNode[];
  edges: ViewEdge[];
  diagnostics: ViewDiagnostic[];
  /** Whether `nodes_info` held anything to draw, and few enough nodes to lay out (MAX_DRAWN_NODES). */
  drawable: boolean;
  /** More nodes than MAX_DRAWN_NODES: listed with their diagnostics, not drawn. */
  tooLargeToDraw: boolean;
}

/**
 * The most nodes a graph is laid out with: the layout's cost grows faster than its size, and a workflow this large
 * (the benchmark's largest has 36 nodes) is no longer read as a drawing.
 */
export const MAX_DRAWN_NODES = 400;

export interface WorkflowViewInput {
  /** The parsed workflow JSON value (any shape); undefined or null when it did not parse. */
  workflow: JsonValue | undefined;
  diagnostics?: readonly Diagnostic[];
}

// -- types as text --------------------------------------------------------------------------------------------------

function officialText(type: JsonValue | undefined): string {
  if (type === undefined) return "error";
  if (type === null) return "null";
  return typeof type === "string" ? type : preview(type, 30);
}

function realText(type: string | null | undefined): string {
  if (type === undefined) return "not exposed";
  return type ?? "unknown";
}

// -- facts (lenient: resolved through the last node with an id, cycles cut) --------------------------------------

function factsResolver(model: WorkflowModel): { factsOf: (entry: NodeEntry) => NodeFacts | null; ctx: FactsContext } {
  const memo = new Map<number, NodeFacts | null>();
  const visiting = new Set<number>();
  const selectorType = (selector: JsonValue | undefined): JsonValue | undefined => {
    if (!Array.isArray(selector) || selector.length < 2 || typeof selector[1] !== "string") return undefined;
    const target = lastNodeWithId(model, selector[1]);
    const facts = target ? factsOf(target) : null;
    if (!facts) return undefined;
    const lookup = officialVariableType(facts, selector[0] as JsonValue);
    return lookup.ok ? lookup.type : undefined;
  };
  const ctx: FactsContext = { inputType: selectorType, iterationChildType: selectorType };
  function factsOf(entry: NodeEntry): NodeFacts | null {
    const cached = memo.get(entry.index);
    if (cached !== undefined) return cached;
    if (visiting.has(entry.index)) return null;
    visiting.add(entry.index);
    const facts = nodeFacts({ type: entry.type, param: entry.param ?? {} }, ctx);
    visiting.delete(entry.index);
    memo.set(entry.index, facts);
    return facts;
  }
  return { factsOf, ctx };
}

// -- builder --------------------------------------------------------------------------------------------------------

const nodeKey = (index: number): string => `n${index}`;

function endpointText(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : preview(value, 24);
}

class ViewBuilder {
  readonly nodes: ViewNode[] = [];
  readonly edges: ViewEdge[] = [];
  private readonly placeholders = new Map<string, ViewNode>();
  private readonly edgeByKey = new Map<string, ViewEdge>();
  private readonly nodesById = new Map<string, ViewNode[]>();
  private readonly model: WorkflowModel;

  constructor(model: WorkflowModel) {
    this.model = model;
  }

  build(): void {
    const { factsOf, ctx } = factsResolver(this.model);
    const idCounts = new Map<string, number>();
    for (const entry of this.model.nodes) {
      const id = this.workflowIdOf(entry);
      if (id !== null) idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
    }
    for (const entry of this.model.nodes) {
      const node = this.nodeOf(entry, idCounts);
      this.nodes.push(node);
      if (node.workflowId !== null) {
        const list = this.nodesById.get(node.workflowId);
        if (list) list.push(node);
        else this.nodesById.set(node.workflowId, [node]);
      }
    }
    for (const entry of this.model.nodes) {
      const node = this.nodes[entry.index] as ViewNode;
      node.parentKey = this.parentKeyOf(entry);
      node.references = this.referencesOf(entry, factsOf);
      node.exposes = entry.known
        ? exposedVariables({ type: entry.type, param: entry.param ?? {} }, ctx).map((variable) => {
            const exposed: ViewExposed = { name: variable.name, official: officialText(variable.officialType), real: realText(variable.realType) };
            if (variable.quirk) exposed.quirk = variable.quirk;
            return exposed;
          })
        : [];
    }
    for (const edge of this.model.edges) this.addFlowEdge(edge.index, edge.raw);
  }

  private workflowIdOf(entry: NodeEntry): string | null {
    if (entry.id !== null) return entry.id;
    if (typeof entry.rawId === "number" || typeof entry.rawId === "boolean") return String(entry.rawId);
    return null;
  }

  private nodeOf(entry: NodeEntry, idCounts: ReadonlyMap<string, number>): ViewNode {
    const workflowId = this.workflowIdOf(entry);
    const isObject = entry.raw !== null && typeof entry.raw === "object" && !Array.isArray(entry.raw);
    const rawType = isObject ? (entry.raw as Record<string, JsonValue>)["type"] : undefined;
    const known = entry.known;
    const unique = workflowId !== null && idCounts.get(workflowId) === 1 && !workflowId.startsWith("#") && !workflowId.startsWith("missing:");
    return {
      key: nodeKey(entry.index),
      index: entry.index,
      workflowId,
      urlValue: unique ? (workflowId as string) : `#${entry.index}`,
      type: entry.type ?? (rawType === undefined ? "(no type)" : preview(rawType, 24)),
      knownType: known,
      family: known ? NODE_TYPES[known].family : "unknown",
      title: isObject ? typeTitle(rawType) : "Not a node object",
      parentKey: null,
      container: known === "iteration",
      summary: isObject ? summarizeNode(rawType, entry.rawParam) : [{ label: "value", value: preview(entry.raw, 60), mono: true }],
      ports: isObject ? declaredPorts(rawType, entry.rawParam) : [{ id: "p0", label: "source", kind: "source" }],
      branching: isBranching(rawType),
      param: entry.rawParam ?? null,
      references: [],
      exposes: [],
      diagnostics: [],
    };
  }

  private parentKeyOf(entry: NodeEntry): string | null {
    if (entry.parentId === null) return null;
    const parent = lastNodeWithId(this.model, entry.parentId);
    if (!parent || parent.index === entry.index || parent.known !== "iteration" || parent.parentId !== null) return null;
    return nodeKey(parent.index);
  }

  /** The node a lookup by id finds (the last one with that id), or a placeholder for a missing one. */
  nodeFor(id: string): ViewNode {
    const list = this.nodesById.get(id);
    if (list) return list[list.length - 1] as ViewNode;
    return this.placeholder(id);
  }

  nodesWithId(id: string): ViewNode[] {
    return this.nodesById.get(id) ?? [];
  }

  private placeholder(label: string): ViewNode {
    const key = `missing:${label}`;
    const existing = this.placeholders.get(key);
    if (existing) return existing;
    const node: ViewNode = {
      key,
      index: null,
      workflowId: label,
      urlValue: key,
      type: "missing",
      knownType: null,
      family: "missing",
      title: `Missing node ${label}`,
      parentKey: null,
      container: false,
      summary: [],
      ports: [{ id: "p0", label: "source", kind: "source" }],
      branching: false,
      param: null,
      references: [],
      exposes: [],
      diagnostics: [],
      note: `No node in nodes_info has the id ${JSON.stringify(label)}.`,
    };
    this.placeholders.set(key, node);
    this.nodes.push(node);
    return node;
  }

  private referencesOf(entry: NodeEntry, factsOf: (entry: NodeEntry) => NodeFacts | null): ViewReference[] {
    if (!entry.known || !entry.param) return [];
    const node = { type: entry.type, param: entry.param };
    const references: ViewReference[] = [];
    const resolve = (via: ViewReference["via"], path: ParamPath, variable: JsonValue, nodeId: string | null): void => {
      const target = nodeId === null ? undefined : lastNodeWithId(this.model, nodeId);
      const facts = target ? factsOf(target) : null;
      let official = "error";
      let real = "not exposed";
      if (facts) {
        const lookup = officialVariableType(facts, variable);
        official = lookup.ok ? officialText(lookup.type) : "error";
        real = realText(realVariableType(facts, variable));
      } else if (target) {
        official = "error";
        real = "unknown";
      }
      references.push({
        via,
        path,
        variable: typeof variable === "string" ? variable : preview(variable, 30),
        nodeId,
        targetKey: nodeId === null ? null : target ? nodeKey(target.index) : `missing:${nodeId}`,
        official,
        real,
      });
    };
    for (const ref of selectorRefs(node)) {
      resolve("selector", ref.path, ref.variable, typeof ref.nodeId === "string" ? ref.nodeId : preview(ref.nodeId, 24));
    }
    for (const path of textFieldPaths(node)) {
      const value = valueAt(entry.param, path);
      if (typeof value !== "string") continue;
      for (const inline of findInlineReferences(value)) resolve("inline", path, inline.variable, inline.nodeId);
    }
    return references;
  }

  private handleFor(source: ViewNode, port: JsonValue | undefined): string {
    const declared = source.ports.filter((p) => p.kind !== "invalid");
    if (!source.branching) {
      if (declared.length > 0) return (declared[0] as ViewPort).id;
      return this.invalidPort(source, "out", "out (End nodes have no outputs)");
    }
    const index = typeof port === "boolean" ? Number(port) : typeof port === "number" && Number.isInteger(port) ? port : null;
    if (index !== null) {
      // Python indexing: -1 is the last port (ELSE for an if-else).
      const normalised = index < 0 ? index + declared.length : index;
      const match = declared[normalised];
      if (normalised >= 0 && match) return match.id;
    }
    const text = preview(port, 16);
    return this.invalidPort(source, text, `port ${text}`);
  }

  private invalidPort(node: ViewNode, token: string, label: string): string {
    const id = `x:${token}`;
    if (!node.ports.some((p) => p.id === id)) node.ports.push({ id, label, kind: "invalid" });
    return id;
  }

  private addFlowEdge(index: number, raw: JsonValue): void {
    if (!Array.isArray(raw) || raw.length < 3) return;
    const [rawSource, port, rawTarget] = raw;
    const source = typeof rawSource === "string" ? this.nodeFor(rawSource) : this.placeholder(endpointText(rawSource));
    const target = typeof rawTarget === "string" ? this.nodeFor(rawTarget) : this.placeholder(endpointText(rawTarget));
    const sourceHandle = this.handleFor(source, port);
    const edge: ViewEdge = {
      key: `e${index}`,
      kind: "flow",
      index,
      source: source.key,
      sourceHandle,
      target: target.key,
      dangling: source.family === "missing" || target.family === "missing",
      diagnostics: [],
    };
    if (source.branching) {
      const label = source.ports.find((p) => p.id === sourceHandle)?.label;
      if (label) edge.label = label;
    }
    this.edges.push(edge);
    this.edgeByKey.set(edge.key, edge);
  }

  edge(key: string): ViewEdge | undefined {
    return this.edgeByKey.get(key);
  }

  /** The dashed edge drawn for a reference problem: from the referenced node (or its placeholder) to the reader. */
  referenceEdge(reader: ViewNode, targetId: string, code: string): ViewEdge | null {
    const target = this.nodeFor(targetId);
    if (target.key === reader.key) return null;
    const key = `r:${target.key}>${reader.key}`;
    const existing = this.edgeByKey.get(key);
    if (existing) return existing;
    const edge: ViewEdge = {
      key,
      kind: "reference",
      index: null,
      source: target.key,
      sourceHandle: "ref-out",
      target: reader.key,
      label: code.replace(/-/g, " "),
      dangling: target.family === "missing",
      diagnostics: [],
    };
    this.edges.push(edge);
    this.edgeByKey.set(key, edge);
    return edge;
  }
}

function anchorDiagnostics(builder: ViewBuilder, diagnostics: readonly Diagnostic[]): ViewDiagnostic[] {
  return diagnostics.map((diagnostic, id) => {
    const location = diagnostic.location;
    const view: ViewDiagnostic = { ...diagnostic, id, nodeKeys: [], edgeKey: null, textField: null };
    if (location?.nodeId !== undefined) {
      const readers = builder.nodesWithId(location.nodeId);
      view.nodeKeys = readers.map((node) => node.key);
      for (const node of readers) node.diagnostics.push(id);
      const reader = readers[readers.length - 1];
      if (reader && diagnostic.targetNodeId !== undefined && location.edgeIndex === undefined) {
        const edge = builder.referenceEdge(reader, diagnostic.targetNodeId, diagnostic.code);
        if (edge) {
          edge.diagnostics.push(id);
          view.edgeKey = edge.key;
          const target = builder.nodeFor(diagnostic.targetNodeId);
          if (target.family === "missing") target.diagnostics.push(id);
        }
      }
    }
    if (location?.edgeIndex !== undefined) {
      const edge = builder.edge(`e${location.edgeIndex}`);
      if (edge) {
        edge.diagnostics.push(id);
        view.edgeKey = edge.key;
        for (const end of [edge.source, edge.target]) {
          const node = builder.nodes.find((n) => n.key === end);
          if (node?.family === "missing" && !node.diagnostics.includes(id)) node.diagnostics.push(id);
        }
      }
    }
    if (location?.field !== undefined && view.nodeKeys.length === 0 && view.edgeKey === null) view.textField = location.field;
    return view;
  });
}

export function buildWorkflowView(input: WorkflowViewInput): WorkflowView {
  const model = buildModel(input.workflow ?? null);
  const builder = new ViewBuilder(model);
  builder.build();
  const diagnostics = anchorDiagnostics(builder, input.diagnostics ?? []);
  // Parents first (React Flow needs a container before its children), each followed by its children.
  const children = new Map<string, ViewNode[]>();
  for (const node of builder.nodes) {
    if (node.parentKey === null) continue;
    const list = children.get(node.parentKey);
    if (list) list.push(node);
    else children.set(node.parentKey, [node]);
  }
  const ordered: ViewNode[] = [];
  for (const node of builder.nodes) {
    if (node.parentKey !== null) continue;
    ordered.push(node, ...(children.get(node.key) ?? []));
  }
  const tooLargeToDraw = ordered.length > MAX_DRAWN_NODES;
  return { nodes: ordered, edges: builder.edges, diagnostics, drawable: model.nodes.length > 0 && !tooLargeToDraw, tooLargeToDraw };
}

/** The ports drawn as labelled rows: every port of a branching node, else only the invalid ones. */
export function portRows(node: Pick<ViewNode, "ports" | "branching">): ViewPort[] {
  return node.branching ? node.ports : node.ports.filter((port) => port.kind === "invalid");
}

/** The node a `?node=` value selects: a unique id, `#<index>`, or `missing:<id>`; null when none matches. */
export function findNodeKey(view: Pick<WorkflowView, "nodes">, value: string | null | undefined): string | null {
  if (!value) return null;
  const exact = view.nodes.find((node) => node.urlValue === value);
  if (exact) return exact.key;
  const byId = view.nodes.filter((node) => node.workflowId === value && node.index !== null);
  if (byId.length > 0) return (byId[byId.length - 1] as ViewNode).key;
  return null;
}

/** The node to focus for a diagnostic: its own node, else the node its edge starts from; null for text/global ones. */
export function nodeAnchorOf(view: Pick<WorkflowView, "edges">, diagnostic: ViewDiagnostic): string | null {
  const own = diagnostic.nodeKeys[diagnostic.nodeKeys.length - 1];
  if (own) return own;
  if (diagnostic.edgeKey === null) return null;
  const edge = view.edges.find((e) => e.key === diagnostic.edgeKey);
  return edge ? edge.source : null;
}
