// Official step_1_2: replays the official Dify converter in its exact order (the first failing check is the verdict,
// with Python semantics from python-values.ts); what each node type emits lives in nodes/<type>.ts.

import { err, ok, type Result } from "../result";
import { officialVariableType, type NodeFacts, type ParamPath, type TypeLookupFailure } from "./catalog";
import type { DiagnosticCode } from "./diagnostic-codes";
import type { Diagnostic, DiagnosticLocation } from "./diagnostics";
import { sequentialIdSource, type DifyData, type DifyEdge, type DifyGraph, type DifyNode, type IdSource, type Position } from "./dify-graph";
import { readInlineIdToken, replaceInlineReferences, scanInlineReferences, type InlineReferenceMatch } from "./inline-references";
import { isFloatLiteral, type FloatLiterals } from "./json-text";
import { DIFY_CELL, UNPLACED, layoutTopLevel, readEdges, readTopLevelGraph, unplacedTopLevel, type TopLevelEdge } from "./layout";
import { NODE_TYPES, isNodeTypeId, type NodeTypeId } from "./node-types";
import { NODE_SPECS } from "./nodes";
import { ConversionFailure, fail, formatPath, idLabel, nodeLocation } from "./nodes/failure";
import type { ConversionFailureSpec, DifyBuildContext, ResolvedSelector as NodeResolvedSelector } from "./nodes/types";
import {
  describeKind,
  isArray,
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
  pyStr,
  type JsonObject,
  type JsonValue,
} from "./python-values";
import { anchorShape } from "./shape-anchor";

export { randomIdSource, sequentialIdSource } from "./dify-graph";
export type { DifyData, DifyEdge, DifyGraph, DifyNode, IdSource, Position } from "./dify-graph";
export { findInlineReferences, readInlineIdToken, type InlineReference } from "./inline-references";

// -- output types ------------------------------------------------------------------------------------------------

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

// -- constants of the emitted DSL --------------------------------------------------------------------------------

const CHILD_Z = 1002;
const CHILD_Y = 68;
const ITERATION_START_X = 24;

// -- the converter -------------------------------------------------------------------------------------------------

/** A node as registered in the official id lookup; `null` facts means an unknown type (the official None). */
interface Built {
  index: number;
  workflowId: string;
  type: string;
  facts: NodeFacts | null;
  difyId: string;
  data: DifyData | null;
  position: Readonly<Position>;
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

interface ResolvedSelector extends NodeResolvedSelector {
  node: Built;
}

class Converter implements DifyBuildContext {
  readonly checkOnly: boolean;
  readonly ids: IdSource;
  readonly floats: FloatLiterals | null;
  readonly githubToken: string;
  private readonly registry = new Map<string, Built>();
  private readonly built: Built[] = [];
  private nodesInfo: readonly JsonValue[] = [];
  /** The node being built (index -1: none), kept raw: its labels are only made for a failure message. */
  private currentIndex = -1;
  private currentId: JsonValue = null;
  private currentType: JsonValue = null;

  /** The node being built, for failure locations. */
  private get current(): { id: string; index: number; type: string } | null {
    if (this.currentIndex < 0) return null;
    const { currentId: id, currentType: type } = this;
    return { id: typeof id === "string" ? id : preview(id), index: this.currentIndex, type: typeof type === "string" ? type : preview(type) };
  }

  private setCurrent(index: number, id: JsonValue, type: JsonValue): void {
    this.currentIndex = index;
    this.currentId = id;
    this.currentType = type;
  }

  nodeRef(): string {
    return this.current ? `Node ${idLabel(this.current.id)}` : "A node";
  }

  at(path: ParamPath): DiagnosticLocation {
    return { ...nodeLocation(this.current?.id), paramPath: path };
  }

  fail(spec: ConversionFailureSpec): never {
    return fail(spec);
  }

  /**
   * @param withGraph false when only the verdict is wanted: nodes are not laid out and the Dify graph is not emitted
   * (every check still runs, in the same order).
   */
  constructor(
    options: ConvertOptions,
    private readonly withGraph = true,
  ) {
    this.checkOnly = !withGraph;
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
    const endpoints = this.buildAll(root);
    for (let i = 0; i < endpoints.length; i++) this.edgeHandle(endpoints[i] as Endpoint);
    for (let i = 0; i < this.built.length; i++) {
      const node = this.built[i] as Built;
      if (!node.data) this.failUnknownEmitted(node);
    }
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

  private readEdges(root: JsonObject): TopLevelEdge[] {
    return readEdges(root);
  }

  private layout(edges: readonly TopLevelEdge[]): ReadonlyMap<string, Readonly<Position>> {
    return this.withGraph ? layoutTopLevel(readTopLevelGraph(edges)) : unplacedTopLevel(edges);
  }

  // -- nodes -----------------------------------------------------------------------------------------------------

  private buildNodes(root: JsonObject, positions: ReadonlyMap<string, Readonly<Position>>): void {
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
      const node = isArray(nodesInfo) ? nodesInfo[i] : pyItem(nodesInfo, i);
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
      // A string is hashable: its key is made only for the ordinal.
      if (typeof type !== "string" && pyHashKey(type) === undefined) {
        const rawId = ownValue(node, "id");
        const nodeId = typeof rawId === "string" ? rawId : undefined;
        fail({
          code: "unknown-node-type",
          message: `Node ${nodeId === undefined ? `#${i}` : idLabel(nodeId)} has type ${preview(type)}; the type must be one of the 20 type strings.`,
          location: nodeLocation(nodeId),
        });
      }
      // Check-only: the ordinal only titles and places the emitted node.
      let ordinal = 0;
      if (this.withGraph) {
        const typeKey = pyHashKey(type) as string;
        ordinal = (typeCounts.get(typeKey) ?? 0) + 1;
        typeCounts.set(typeKey, ordinal);
      }
      const param = ownValue(node, "param");
      if (param === undefined) this.failNodeKey(i, node, "param");
      const id = ownValue(node, "id");
      if (id === undefined) this.failNodeKey(i, node, "id");
      const isChild = typeof id === "string" ? id.includes("-") : pyContains(id, "-");
      if (isChild === undefined || (isChild && typeof id !== "string") || (!isChild && typeof id !== "string" && pyHashKey(id) === undefined)) {
        fail({
          code: "node-id-not-string",
          message: `Node #${i} (${preview(type)}) has id ${preview(id)}, ${describeKind(id)}; ids must be strings such as "3".`,
          hint: 'Quote the id: "3".',
        });
      }
      const nodeId = id as string;
      this.setCurrent(i, id, type);
      let position: Readonly<Position>;
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
        position = this.withGraph ? { x: type === "iteration-start" ? ITERATION_START_X : (parsed - 2) * DIFY_CELL.width + 100, y: CHILD_Y } : UNPLACED;
      } else {
        const placed = typeof id === "string" ? positions.get(id) : undefined;
        if (!placed) {
          fail({
            code: "node-without-edges",
            message: `Top-level node ${idLabel(id)} (${this.current?.type}) appears in no top-level edge, so the converter cannot place it; every top-level node must be an edge source or target.`,
            location: nodeLocation(typeof id === "string" ? id : undefined),
            hint: "Connect the node with an edge, or remove it.",
          });
        }
        position = this.withGraph ? { ...placed, y: type === "iteration" ? -400 * ordinal : placed.y } : placed;
        if (type === "iteration") {
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
    this.setCurrent(-1, null, null);
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

  // -- per-type construction (NodeSpec.toDify) --------------------------------------------------------------------

  private construct(index: number, id: string, type: JsonValue, param: JsonValue, ordinal: number, position: Readonly<Position>): Built {
    if (!isNodeTypeId(type)) {
      if (id.includes("-")) this.failUnknownType(id, type);
      // A top-level unknown type registers as None and fails at its first use (at the latest, its edges).
      const typeName = typeof type === "string" ? type : preview(type);
      return { index, workflowId: id, type: typeName, facts: null, difyId: "", data: null, position, parentDifyId: null, parentWorkflowId: null, handles: null };
    }
    // Check-only: titles appear only in the emitted data.
    const title = this.checkOnly ? "" : ordinal > 1 ? `${NODE_TYPES[type].displayName} ${ordinal}` : NODE_TYPES[type].displayName;
    const part = NODE_SPECS[type].toDify(this, param, title, ordinal);
    const facts = part.facts;
    // Check-only: the data a later node or edge may write to, never emitted.
    const data = part.data ?? {};
    // Check-only: Dify ids appear only in the emitted graph.
    const difyId = this.checkOnly ? "" : this.ids.nodeId();
    if (facts.type === "iteration") data.start_node_id = `${difyId}start`;
    // Every field written once, in the order of the unknown type's node above (one shape for both).
    return { index, workflowId: id, type, facts, difyId, data, position, parentDifyId: null, parentWorkflowId: null, handles: part.handles ?? null };
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
  param(param: JsonValue, key: string, missingCode: DiagnosticCode = "missing-param"): JsonValue {
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

  iterate(value: JsonValue, path: ParamPath, expected: string): readonly JsonValue[] {
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

  item(value: JsonValue, index: number, path: ParamPath, expected: string, code: DiagnosticCode = "malformed-param"): JsonValue {
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
  resolveSelector(selector: JsonValue, path: ParamPath, entryHint?: string): ResolvedSelector {
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
    // A list of two or more holds both items (what models write); anything else reads them Python's way, or fails.
    const pair = Array.isArray(selector) && selector.length >= 2;
    const variable = pair ? (selector[0] as JsonValue) : this.item(selector, 0, path, expected, "malformed-selector");
    const refId = pair ? (selector[1] as JsonValue) : this.item(selector, 1, path, expected, "malformed-selector");
    const node = this.lookupNode(refId, path, typeof selector === "string" ? entryHint : undefined);
    return { variable, node, type: this.typeOf(variable, node, path) };
  }

  lookupNode(refId: JsonValue, path: ParamPath, flattenedHint?: string): Built {
    if (typeof refId !== "string" && pyHashKey(refId) === undefined) {
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
    const start = Math.max(this.currentIndex, 0);
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
    const looksSwapped = typeof refId === "string" && !(/^[\w-]*$/.test(refId) && /\d/.test(refId));
    fail({
      code: "reference-unknown-node",
      message: `${where} references node ${idLabel(refId)}, which does not exist.${flattenedHint ? ` (${flattenedHint})` : ""}`,
      location: { ...nodeLocation(this.current?.id), paramPath: path },
      targetNodeId: typeof refId === "string" ? refId : undefined,
      hint: looksSwapped ? "Selectors are [variable, nodeId]: the variable comes first." : undefined,
    });
  }

  typeOf(variable: JsonValue, node: Built, path: ParamPath): JsonValue {
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
  valueSelector(difyId: string, variable: JsonValue, path: ParamPath): JsonValue[] {
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
  rewriteText(value: JsonValue, path: ParamPath): string {
    const text = this.textParam(value, path);
    if (!text.includes("{{#")) return text;
    return replaceInlineReferences(text, (match) => `{{#${this.inlineReferenceNode(text, path, match).difyId}.${match.variable}#}}`);
  }

  emittedText(value: JsonValue, path: ParamPath): string {
    if (!this.checkOnly) return this.rewriteText(value, path);
    // Check-only: the same failures in the same order, without building the rewritten text nobody reads.
    const text = this.textParam(value, path);
    if (!text.includes("{{#")) return text;
    const matches = scanInlineReferences(text);
    for (let i = 0; i < matches.length; i++) this.inlineReferenceNode(text, path, matches[i] as InlineReferenceMatch);
    return text;
  }

  /** The official batch_replace_ids needs a str: anything else fails the conversion. */
  private textParam(value: JsonValue, path: ParamPath): string {
    if (typeof value !== "string") {
      const selectorLike = Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === "string");
      fail({
        code: "text-param-not-string",
        message: `${this.nodeRef()}: ${formatPath(path)} is ${describeKind(value)} ${preview(value)}; this field is text and must be a string.`,
        location: { ...nodeLocation(this.current?.id), paramPath: path },
        hint: selectorLike ? `Write the reference inline instead: "{{#'${String(value[1])}'.${String(value[0])}#}}".` : undefined,
      });
    }
    return value;
  }

  /** The registered node an inline reference names, failing where the official id_dict lookup would. */
  private inlineReferenceNode(value: string, path: ParamPath, { offset, length, token }: InlineReferenceMatch): Built {
    const id = readInlineIdToken(token);
    if (id === null) {
      const whole = value.slice(offset, offset + length);
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
        location: this.textLocation(path, offset, length),
        targetNodeId: id,
        hint: token.includes("#}}") ? "A reference without a dot runs on into the next one; every reference is {{#'<nodeId>'.<variable>#}}." : undefined,
      });
    }
    if (node.facts === null) {
      fail({
        code: "reference-unknown-type",
        message: `${this.nodeRef()}: ${formatPath(path)} references ${idLabel(id)}, whose type ${preview(node.type)} is not a node type.`,
        location: this.textLocation(path, offset, length),
        targetNodeId: id,
      });
    }
    return node;
  }

  // Each builder reads param in the official order, so the first failure is the official one.

  // -- edges, after all nodes -----------------------------------------------------------------------------------

  private resolveEdgeEndpoints(edges: { edge: JsonValue; index: number }[]): Endpoint[] {
    const endpoints: Endpoint[] = [];
    for (let i = 0; i < edges.length; i++) {
      const { edge, index } = edges[i] as { edge: JsonValue; index: number };
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
      endpoints.push({ source, port, target, index, edge });
    }
    return endpoints;
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
    this.setCurrent(node.index, node.workflowId, node.type);
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
