// Edge and graph checks: edge shape, endpoints, branch ports, canvas crossings, connectivity, cycles, reachability.
// Builds the adjacency index the reference checks reuse; every pass is linear in nodes + edges.

import { CATALOG, outputPorts, type OutputPort } from "../catalog";
import type { Diagnostic } from "../diagnostics";
import { isFloatLiteral } from "../json-text";
import { isArray, preview, pyHashKey, pySortBy, type JsonValue } from "../python-values";
import { makeDiagnostic } from "../diagnostic-codes";
import { describeNode, edgeLocation, groupByKey, nodeLocation, vertexOfId, type EdgeEntry, type NodeEntry, type WorkflowModel } from "./model";

export interface GraphIndex {
  /** The distinct node ids in list order; the graph's vertices are their positions in this list (NodeEntry.vertex). */
  ids: readonly string[];
  /** Per vertex: the iteration whose canvas it is on (the id's part before the first "-"), or null at top level. */
  canvases: readonly (string | null)[];
  /** Successor and predecessor vertices over usable edges whose endpoints exist, in edge order. */
  successors: readonly (readonly number[])[];
  predecessors: readonly (readonly number[])[];
  /** Every edge leads to a later vertex (as nodes are usually listed), so the graph has no cycle. */
  forward: boolean;
  /** True when `ancestorId` is upstream of `node` (by edges, or as the iteration that contains it). */
  isUpstream(ancestorId: string, node: NodeEntry): boolean;
  /** isUpstream for an ancestor already looked up: the vertex of its id. */
  isUpstreamVertex(ancestor: number, node: NodeEntry): boolean;
}

/**
 * The neighbours of a vertex without edges, shared: an array's first push reserves room for 17 items, so each vertex
 * gets its own array only with its first neighbour, as a one-item literal.
 */
const NO_NEIGHBOURS: readonly number[] = Object.freeze([]);

export function buildGraphIndex(model: WorkflowModel): GraphIndex {
  const { edges, ids, byId, lastNodes } = model;
  const count = ids.length;
  // Per vertex, its canvas and the vertex of that iteration, which is upstream of it (-1: top level, or no such node);
  // read from the id's last node, as every node with one id has the same parent.
  const canvases: (string | null)[] = [];
  const containers: number[] = [];
  for (let vertex = 0; vertex < count; vertex += 1) {
    const canvas = (lastNodes[vertex] as NodeEntry).parentId;
    canvases.push(canvas);
    containers.push(canvas === null ? -1 : vertexOfId(model, canvas));
  }
  const successors = new Array<readonly number[]>(count).fill(NO_NEIGHBOURS);
  const predecessors = new Array<readonly number[]>(count).fill(NO_NEIGHBOURS);
  let forward = true;
  for (let i = 0; i < edges.length; i += 1) {
    const edge = edges[i] as EdgeEntry;
    if (!edge.usable) continue;
    const source = edge.sourceVertex;
    const target = edge.targetVertex;
    if (source < 0 || target < 0) continue;
    if (target <= source) forward = false;
    const after = successors[source] as readonly number[];
    if (after === NO_NEIGHBOURS) successors[source] = [target];
    else (after as number[]).push(target);
    const before = predecessors[target] as readonly number[];
    if (before === NO_NEIGHBOURS) predecessors[target] = [source];
    else (before as number[]).push(source);
  }
  // Small graphs listed upstream first (nearly all) get every vertex's ancestors as a bit mask in one pass; others
  // walk the ancestors of one vertex at a time, one array stamped per walk serving a node's references in a row.
  const masks = ancestorMasks(predecessors, containers);
  const upstream: Ancestors = { of: -1, stamp: 0, marks: masks ? [] : new Array<number>(ids.length).fill(0) };
  const isUpstreamVertex = (ancestor: number, node: NodeEntry): boolean => {
    const vertex = node.vertex;
    if (vertex < 0 || ancestor === vertex) return false;
    if (masks) return ((masks[vertex] as number) & (1 << ancestor)) !== 0;
    if (upstream.of !== vertex) markAncestors(upstream, vertex, predecessors, containers);
    return upstream.marks[ancestor] === upstream.stamp;
  };
  return {
    ids,
    canvases,
    successors,
    predecessors,
    forward,
    isUpstream(ancestorId, node) {
      const group = byId.get(ancestorId);
      return group !== undefined && isUpstreamVertex((group[0] as NodeEntry).vertex, node);
    },
    isUpstreamVertex,
  };
}

/** Bits of a 32-bit mask: one per vertex, for graphs of at most this many. */
const MASK_VERTICES = 32;

/**
 * Per vertex, its upstream vertices as bits, when there are at most 32 and every edge and container link comes from
 * an earlier vertex (so one pass in list order sees each vertex's sources complete); null otherwise.
 */
export function ancestorMasks(predecessors: readonly (readonly number[])[], containers: readonly number[]): number[] | null {
  const count = predecessors.length;
  if (count > MASK_VERTICES) return null;
  const masks: number[] = [];
  for (let vertex = 0; vertex < count; vertex += 1) {
    let mask = 0;
    const sources = predecessors[vertex] as readonly number[];
    for (let i = 0; i < sources.length; i += 1) {
      const source = sources[i] as number;
      if (source >= vertex) return null;
      mask |= (masks[source] as number) | (1 << source);
    }
    const container = containers[vertex] as number;
    if (container >= vertex) return null;
    if (container >= 0) mask |= (masks[container] as number) | (1 << container);
    masks.push(mask);
  }
  return masks;
}

/** The vertices upstream of vertex `of` are those whose mark equals `stamp`. */
interface Ancestors {
  of: number;
  stamp: number;
  marks: number[];
}

/**
 * Marks the vertices upstream of `vertex`: reachable backwards over edges and from a canvas child to its iteration.
 * A module function, as tsx re-names inner named closures per call.
 */
function markAncestors(ancestors: Ancestors, vertex: number, predecessors: readonly (readonly number[])[], containers: readonly number[]): void {
  const stamp = ancestors.stamp + 1;
  const marks = ancestors.marks;
  ancestors.of = vertex;
  ancestors.stamp = stamp;
  const stack = [vertex];
  while (stack.length > 0) {
    const current = stack.pop() as number;
    const sources = predecessors[current] as readonly number[];
    for (let i = 0; i < sources.length; i += 1) {
      const next = sources[i] as number;
      if (marks[next] === stamp) continue;
      marks[next] = stamp;
      stack.push(next);
    }
    const container = containers[current] as number;
    if (container >= 0 && marks[container] !== stamp) {
      marks[container] = stamp;
      stack.push(container);
    }
  }
}

// -- edge shape and endpoints ---------------------------------------------------------------------------------------

function isUnhashable(value: JsonValue | undefined): boolean {
  return value !== undefined && pyHashKey(value) === undefined;
}

function checkEdgeShape(edge: EdgeEntry, out: Diagnostic[]): boolean {
  const raw = edge.raw;
  if (!isArray(raw)) {
    out.push(makeDiagnostic("malformed-edge", `edges[${edge.index}] is ${preview(raw)}, not [sourceId, port, targetId].`, { location: edgeLocation(edge) }));
    return false;
  }
  if (typeof raw[0] !== "string") {
    out.push(makeDiagnostic("malformed-edge", `edges[${edge.index}] starts with ${preview(raw[0])}; the source must be a string id.`, { location: edgeLocation(edge), hint: "Quote node ids in edges." }));
    return false;
  }
  if (edge.topLevel && raw.length !== 3) {
    const hint = raw.length === 4 ? "Drop the fourth element: edges carry no target port." : "Write [sourceId, port, targetId].";
    out.push(makeDiagnostic("malformed-edge", `edges[${edge.index}] ${preview(raw)} has ${raw.length} elements; top-level edges need exactly 3.`, { location: edgeLocation(edge), hint }));
    return false;
  }
  if (raw.length < 3) {
    out.push(makeDiagnostic("malformed-edge", `edges[${edge.index}] ${preview(raw)} has no target.`, { location: edgeLocation(edge) }));
    return false;
  }
  if (typeof raw[2] !== "string" && isUnhashable(raw[2])) {
    out.push(makeDiagnostic("malformed-edge", `edges[${edge.index}] has the target ${preview(raw[2])}, which is not an id.`, { location: edgeLocation(edge) }));
    return false;
  }
  return true;
}

function reportEndpoint(edge: EdgeEntry, end: "source" | "target", value: JsonValue | undefined, out: Diagnostic[]): void {
  const what = typeof value === "string" ? `"${value}"` : `${preview(value)} (not a string)`;
  out.push(
    makeDiagnostic("edge-unknown-node", `edges[${edge.index}] ${end} ${what} names no node.`, {
      location: edgeLocation(edge),
      targetNodeId: typeof value === "string" ? value : undefined,
      hint: typeof value === "string" ? undefined : "Node ids are strings; quote them in edges.",
    }),
  );
}

/** The ports of a branching node (its type's port rule), or null for ordinary nodes. */
function branchPorts(node: NodeEntry | undefined): OutputPort[] | null {
  if (!node || !node.known || !CATALOG[node.known].branching) return null;
  return outputPorts({ type: node.known, param: node.param });
}

function portAsInt(model: WorkflowModel, edge: EdgeEntry): number | null {
  const port = edge.port;
  if (typeof port === "boolean") return port ? 1 : 0;
  if (typeof port !== "number" || !Number.isInteger(port)) return null;
  return isFloatLiteral(model.floats, edge.raw as JsonValue[], 1) ? null : port;
}

function checkBranchPort(model: WorkflowModel, edge: EdgeEntry, source: NodeEntry, out: Diagnostic[]): void {
  const ports = branchPorts(source);
  if (ports === null) return;
  const count = ports.length;
  const elsePort = ports.find((candidate) => candidate.kind === "else");
  const port = portAsInt(model, edge);
  const kind = elsePort ? `${count - 1} case(s) plus ELSE (port ${elsePort.index})` : `${count} class(es)`;
  if (port === null) {
    out.push(
      makeDiagnostic("edge-port-not-integer", `edges[${edge.index}] leaves ${describeNode(source)} through port ${preview(edge.port)}, which is not an integer.`, {
        location: edgeLocation(edge),
        hint: `Use an integer port: ${kind}.`,
      }),
    );
    return;
  }
  if (port < -count || port >= count) {
    const elseHint = elsePort ? ` The ELSE branch is port ${elsePort.index}.` : " A classifier has no else port.";
    out.push(
      makeDiagnostic("branch-port-out-of-range", `edges[${edge.index}] uses port ${port} of ${describeNode(source)}, which has ${kind}.`, {
        location: edgeLocation(edge),
        hint: `Valid ports are 0..${count - 1}.${elseHint}`,
      }),
    );
  }
}

/** Numbers and booleans always compare in Python, so such ports never make the layout's sort raise. */
function hasNumericPort(edge: EdgeEntry): boolean {
  return typeof edge.port === "number" || typeof edge.port === "boolean";
}

/** The layout sorts each source's top-level edges by port; mixed kinds (0 and "0", or null) make Python raise. */
function isLaidOut(edge: EdgeEntry): boolean {
  return edge.topLevel && isArray(edge.raw) && edge.raw.length === 3;
}

function checkComparablePorts(edges: readonly EdgeEntry[], out: Diagnostic[]): void {
  // The usual case: every port is a number, so no source's ports can be incomparable.
  if (edges.every(hasNumericPort)) return;
  for (const [source, list] of edgesBySource(edges.filter(isLaidOut))) {
    if (list.length < 2 || list.every(hasNumericPort) || !pySortBy(list, (edge) => edge.port ?? null).raises) continue;
    const ports = list.map((edge) => preview(edge.port)).join(", ");
    out.push(
      makeDiagnostic("edge-ports-incomparable", `The edges leaving "${source}" use ports of mixed kinds (${ports}), which cannot be ordered.`, {
        location: edgeLocation(list[0] as EdgeEntry),
        hint: "Use integer ports everywhere (0 for ordinary nodes).",
      }),
    );
  }
}

function checkCanvasCrossing(edge: EdgeEntry, source: NodeEntry, target: NodeEntry, out: Diagnostic[]): void {
  if (source.parentId === target.parentId) return;
  if (target.parentId === source.id && target.known === "iteration-start") {
    out.push(
      makeDiagnostic("iteration-start-edge", `edges[${edge.index}] links iteration "${source.id}" to its own iteration-start; the canvas needs no such edge.`, {
        location: edgeLocation(edge),
      }),
    );
    return;
  }
  out.push(
    makeDiagnostic("edge-crosses-iteration", `edges[${edge.index}] crosses an iteration canvas boundary: ${describeNode(source)} → ${describeNode(target)}.`, {
      location: edgeLocation(edge),
      hint: "Connect the iteration node itself to the outside; inside the canvas, start from the iteration-start child.",
    }),
  );
}

export function checkEdges(model: WorkflowModel, out: Diagnostic[]): void {
  const wellFormed: EdgeEntry[] = [];
  const edges = model.edges;
  for (let i = 0; i < edges.length; i += 1) {
    const edge = edges[i] as EdgeEntry;
    if (!checkEdgeShape(edge, out)) continue;
    wellFormed.push(edge);
    // Well-formed edges have a string source; their target may be any hashable value (a vertex only as a string).
    const raw = edge.raw as JsonValue[];
    if (edge.sourceVertex < 0) reportEndpoint(edge, "source", raw[0], out);
    if (edge.targetVertex < 0) reportEndpoint(edge, "target", raw[2], out);
  }
  checkComparablePorts(wellFormed, out);
  const lastNodes = model.lastNodes;
  for (let i = 0; i < wellFormed.length; i += 1) {
    const edge = wellFormed[i] as EdgeEntry;
    const source = edge.usable && edge.sourceVertex >= 0 ? lastNodes[edge.sourceVertex] : undefined;
    if (!source) continue;
    if (source.known !== null && CATALOG[source.known].branching) checkBranchPort(model, edge, source, out);
    const target = edge.targetVertex < 0 ? undefined : lastNodes[edge.targetVertex];
    if (target && target.parentId !== source.parentId) checkCanvasCrossing(edge, source, target, out);
    if (source.known === "end") {
      out.push(makeDiagnostic("edge-from-end", `edges[${edge.index}] leaves the end node "${edge.source}"; an End finishes the run.`, { location: edgeLocation(edge) }));
    }
  }
}

// -- connectivity ------------------------------------------------------------------------------------------------

/** The converter places top-level nodes by their top-level edges; a node in none has no position. */
function checkLayoutMembership(model: WorkflowModel, out: Diagnostic[]): void {
  // The ids top-level edges name, marked by vertex: an id no node has cannot matter here.
  const mentioned = new Uint8Array(model.ids.length);
  const { nodes, edges } = model;
  for (let i = 0; i < edges.length; i += 1) {
    const edge = edges[i] as EdgeEntry;
    if (!edge.topLevel) continue;
    if (edge.sourceVertex >= 0) mentioned[edge.sourceVertex] = 1;
    if (edge.targetVertex >= 0) mentioned[edge.targetVertex] = 1;
  }
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as NodeEntry;
    if (node.id === null || node.parentId !== null || mentioned[node.vertex] === 1) continue;
    out.push(
      makeDiagnostic("node-without-edges", `${describeNode(node)} appears in no top-level edge, so it is disconnected (and the converter cannot place it).`, {
        location: nodeLocation(node),
        hint: "Connect it with an edge, or delete it.",
      }),
    );
  }
}

function hasSuccessors(graph: GraphIndex, node: NodeEntry): boolean {
  return node.vertex >= 0 && (graph.successors[node.vertex] as readonly number[]).length > 0;
}

function branchesWithoutEdges(model: WorkflowModel, graph: GraphIndex, out: Diagnostic[]): void {
  let edgesFrom: Map<string, EdgeEntry[]> | null = null;
  const nodes = model.nodes;
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as NodeEntry;
    if (node.known === null || !CATALOG[node.known].branching || node.id === null || !hasSuccessors(graph, node)) continue;
    const ports = branchPorts(node) as OutputPort[];
    edgesFrom ??= edgesBySource(model.edges);
    const count = ports.length;
    const used = new Set<number>();
    for (const edge of edgesFrom.get(node.id) ?? []) {
      const port = portAsInt(model, edge);
      if (port !== null) used.add(port < 0 ? port + count : port);
    }
    for (const { index: port, kind } of ports) {
      if (used.has(port)) continue;
      const label = kind === "else" ? "ELSE" : kind === "case" ? `case ${port}` : `class ${port}`;
      out.push(
        makeDiagnostic("branch-not-connected", `${describeNode(node)} has no edge for ${label} (port ${port}); runs taking it stop there.`, {
          location: nodeLocation(node),
        }),
      );
    }
  }
}

/** The edges leaving each source id, in edge order. */
const edgesBySource = (edges: readonly EdgeEntry[]): Map<string, EdgeEntry[]> => groupByKey(edges, (edge) => edge.source);

/** Strongly connected components with more than one vertex, or with a self-loop (iterative Tarjan). */
function findCycles(successors: readonly (readonly number[])[]): number[][] {
  const count = successors.length;
  const index = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const stack: number[] = [];
  const cycles: number[][] = [];
  let counter = 0;
  for (let root = 0; root < count; root += 1) {
    if (index[root] !== -1) continue;
    const work: Array<{ vertex: number; next: number }> = [{ vertex: root, next: 0 }];
    index[root] = counter;
    low[root] = counter;
    counter += 1;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const frame = work[work.length - 1] as { vertex: number; next: number };
      const next = successors[frame.vertex] as readonly number[];
      if (frame.next < next.length) {
        const child = next[frame.next] as number;
        frame.next += 1;
        if (index[child] === -1) {
          index[child] = counter;
          low[child] = counter;
          counter += 1;
          stack.push(child);
          onStack[child] = 1;
          work.push({ vertex: child, next: 0 });
        } else if (onStack[child] === 1) {
          low[frame.vertex] = Math.min(low[frame.vertex] as number, index[child] as number);
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low[parent.vertex] = Math.min(low[parent.vertex] as number, low[frame.vertex] as number);
      if (low[frame.vertex] !== index[frame.vertex]) continue;
      const component: number[] = [];
      for (;;) {
        const member = stack.pop() as number;
        onStack[member] = 0;
        component.push(member);
        if (member === frame.vertex) break;
      }
      const selfLoop = component.length === 1 && next.includes(frame.vertex);
      if (component.length > 1 || selfLoop) cycles.push(component.reverse());
    }
  }
  return cycles;
}

/** Kahn's test: true when repeatedly removing vertices without incoming edges empties the graph. */
function isAcyclic(successors: readonly (readonly number[])[]): boolean {
  const indegree = new Int32Array(successors.length);
  for (let vertex = 0; vertex < successors.length; vertex += 1) {
    const targets = successors[vertex] as readonly number[];
    for (let i = 0; i < targets.length; i += 1) {
      const target = targets[i] as number;
      indegree[target] = (indegree[target] as number) + 1;
    }
  }
  const ready: number[] = [];
  for (let vertex = 0; vertex < indegree.length; vertex += 1) if (indegree[vertex] === 0) ready.push(vertex);
  let removed = 0;
  while (ready.length > 0) {
    const vertex = ready.pop() as number;
    removed += 1;
    const targets = successors[vertex] as readonly number[];
    for (let i = 0; i < targets.length; i += 1) {
      const target = targets[i] as number;
      indegree[target] = (indegree[target] as number) - 1;
      if (indegree[target] === 0) ready.push(target);
    }
  }
  return removed === indegree.length;
}

/** The edges within one canvas; edges across a canvas boundary are reported as crossings instead. */
function sameCanvasSuccessors(graph: GraphIndex): readonly (readonly number[])[] {
  const { canvases, successors } = graph;
  let crosses = false;
  for (let source = 0; source < successors.length && !crosses; source += 1) {
    const targets = successors[source] as readonly number[];
    for (let i = 0; i < targets.length; i += 1) if (canvases[targets[i] as number] !== canvases[source]) crosses = true;
  }
  // Without edges across canvas boundaries (the usual case) the same-canvas graph is the whole graph.
  if (!crosses) return successors;
  return successors.map((targets, source) => targets.filter((target) => canvases[target] === canvases[source]));
}

function checkCycles(model: WorkflowModel, graph: GraphIndex, out: Diagnostic[]): void {
  if (graph.forward) return;
  const sameCanvas = sameCanvasSuccessors(graph);
  if (isAcyclic(sameCanvas)) return;
  for (const vertices of findCycles(sameCanvas)) {
    const cycle = vertices.map((vertex) => graph.ids[vertex] as string);
    const members = new Set(cycle);
    const edge = model.edges.find((e) => e.usable && members.has(e.source as string) && members.has(e.target as string));
    out.push(
      makeDiagnostic("cycle", `The edges form a cycle through ${cycle.map((id) => `"${id}"`).join(" → ")}; workflows must be acyclic.`, {
        location: edge ? edgeLocation(edge) : { nodeId: cycle[0] },
        hint: "Use an iteration node to repeat work.",
      }),
    );
  }
}

/** Marks the vertices reachable from `starts` over `next` and the `extra` links. */
function reachable(starts: readonly number[], next: readonly (readonly number[])[], extra: readonly (readonly number[] | undefined)[] | null): Uint8Array {
  const seen = new Uint8Array(next.length);
  const stack: number[] = [];
  for (let i = 0; i < starts.length; i += 1) {
    const start = starts[i] as number;
    if (seen[start] === 1) continue;
    seen[start] = 1;
    stack.push(start);
  }
  while (stack.length > 0) {
    const vertex = stack.pop() as number;
    const neighbours = next[vertex] as readonly number[];
    for (let i = 0; i < neighbours.length; i += 1) {
      const neighbour = neighbours[i] as number;
      if (seen[neighbour] === 1) continue;
      seen[neighbour] = 1;
      stack.push(neighbour);
    }
    const linked = extra?.[vertex];
    if (linked === undefined) continue;
    for (let i = 0; i < linked.length; i += 1) {
      const neighbour = linked[i] as number;
      if (seen[neighbour] === 1) continue;
      seen[neighbour] = 1;
      stack.push(neighbour);
    }
  }
  return seen;
}

function checkReachability(model: WorkflowModel, graph: GraphIndex, out: Diagnostic[]): void {
  const { nodes } = model;
  let start: NodeEntry | undefined;
  // An iteration leads to its iteration-start children.
  const iterationStarts: (number[] | undefined)[] = [];
  const ends: number[] = [];
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as NodeEntry;
    if (node.id === null) continue;
    if (node.known === "start") start ??= node;
    else if (node.known === "end") ends.push(node.vertex);
    else if (node.known === "iteration-start" && node.parentId !== null) {
      const parent = vertexOfId(model, node.parentId);
      if (parent >= 0) (iterationStarts[parent] ??= []).push(node.vertex);
    }
  }
  const reached = start ? reachable([start.vertex], graph.successors, iterationStarts) : null;
  const reachesEnd = ends.length > 0 ? reachable(ends, graph.predecessors, null) : null;
  const reported = new Uint8Array(graph.ids.length);
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as NodeEntry;
    if (node.id === null || !node.known) continue;
    const vertex = node.vertex;
    if (reported[vertex] === 1) continue;
    reported[vertex] = 1;
    if (reached && reached[vertex] !== 1) {
      out.push(
        makeDiagnostic("unreachable-node", `${describeNode(node)} cannot be reached from the start node "${start?.id}".`, {
          location: nodeLocation(node),
          hint: node.parentId ? `Connect it from "${node.parentId}-1" (the iteration-start) or an earlier child.` : "Connect it to the flow, or delete it.",
        }),
      );
    } else if (reachesEnd && node.parentId === null && node.known !== "end" && reachesEnd[vertex] !== 1) {
      out.push(
        makeDiagnostic("cannot-reach-end", `No path leads from ${describeNode(node)} to an End node; its result is never output.`, {
          location: nodeLocation(node),
        }),
      );
    }
  }
}

export function checkGraph(model: WorkflowModel, graph: GraphIndex, out: Diagnostic[]): void {
  checkLayoutMembership(model, out);
  checkCycles(model, graph, out);
  checkReachability(model, graph, out);
  branchesWithoutEdges(model, graph, out);
}
