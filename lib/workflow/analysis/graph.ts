// Edge and graph checks: edge shape, endpoints, branch ports, canvas crossings, connectivity, cycles, reachability.
// Builds the adjacency index the reference checks reuse; every pass is linear in nodes + edges.

import { CATALOG, outputPorts, type OutputPort } from "../catalog";
import type { Diagnostic } from "../diagnostics";
import { isFloatLiteral } from "../json-text";
import { preview, pyHashKey, pySortBy, type JsonValue } from "../python-values";
import { makeDiagnostic } from "../diagnostic-codes";
import { describeNode, edgeLocation, lastNodeWithId, nodeLocation, type EdgeEntry, type NodeEntry, type WorkflowModel } from "./model";

export interface GraphIndex {
  /** Successor and predecessor ids over usable edges whose endpoints exist. */
  successors: ReadonlyMap<string, readonly string[]>;
  predecessors: ReadonlyMap<string, readonly string[]>;
  /** True when `ancestorId` is upstream of `node` (by edges, or as the iteration that contains it). */
  isUpstream(ancestorId: string, node: NodeEntry): boolean;
}

/** The iteration whose canvas an id belongs to (the part before the first "-"), or null at top level. */
function containerOf(id: string): string | null {
  const dash = id.indexOf("-");
  return dash < 0 ? null : id.slice(0, dash);
}

function pushTo(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function buildGraphIndex(model: WorkflowModel): GraphIndex {
  const successors = new Map<string, string[]>();
  const predecessors = new Map<string, string[]>();
  for (const edge of model.edges) {
    if (!edge.usable || !model.byId.has(edge.source as string) || !model.byId.has(edge.target as string)) continue;
    pushTo(successors, edge.source as string, edge.target as string);
    pushTo(predecessors, edge.target as string, edge.source as string);
  }
  const ancestorCache = new Map<string, ReadonlySet<string>>();
  return {
    successors,
    predecessors,
    isUpstream(ancestorId, node) {
      return node.id !== null && ancestorsOf(node.id, model, predecessors, ancestorCache).has(ancestorId);
    },
  };
}

/**
 * Ids upstream of `id`: reachable backwards over edges, where a canvas child (a node id with "-") also has its
 * iteration as a parent. Memoised per index; a module function, as tsx re-names inner named closures per call.
 */
function ancestorsOf(
  id: string,
  model: WorkflowModel,
  predecessors: ReadonlyMap<string, readonly string[]>,
  cache: Map<string, ReadonlySet<string>>,
): ReadonlySet<string> {
  const cached = cache.get(id);
  if (cached) return cached;
  const seen = new Set<string>([id]);
  const stack = [id];
  while (stack.length > 0) {
    const current = stack.pop() as string;
    const sources = predecessors.get(current) ?? NONE;
    const container = model.byId.has(current) ? containerOf(current) : null;
    // The edge sources, then the container.
    for (let i = 0; i <= sources.length; i += 1) {
      const next = i < sources.length ? (sources[i] as string) : container;
      if (next === null || seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  seen.delete(id);
  cache.set(id, seen);
  return seen;
}

// -- edge shape and endpoints ---------------------------------------------------------------------------------------

function isUnhashable(value: JsonValue | undefined): boolean {
  return value !== undefined && pyHashKey(value) === undefined;
}

function checkEdgeShape(edge: EdgeEntry, out: Diagnostic[]): boolean {
  const raw = edge.raw;
  if (!Array.isArray(raw)) {
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
  if (isUnhashable(raw[2])) {
    out.push(makeDiagnostic("malformed-edge", `edges[${edge.index}] has the target ${preview(raw[2])}, which is not an id.`, { location: edgeLocation(edge) }));
    return false;
  }
  return true;
}

function checkEndpoints(model: WorkflowModel, edge: EdgeEntry, out: Diagnostic[]): void {
  const raw = edge.raw as JsonValue[];
  checkEndpoint(model, edge, "source", raw[0], out);
  checkEndpoint(model, edge, "target", raw[2], out);
}

function checkEndpoint(model: WorkflowModel, edge: EdgeEntry, end: "source" | "target", value: JsonValue | undefined, out: Diagnostic[]): void {
  if (typeof value === "string" && model.byId.has(value)) return;
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

function checkBranchPort(model: WorkflowModel, edge: EdgeEntry, out: Diagnostic[]): void {
  const source = lastNodeWithId(model, edge.source as string);
  const ports = branchPorts(source);
  if (ports === null || !source) return;
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
  return edge.topLevel && Array.isArray(edge.raw) && edge.raw.length === 3;
}

function checkComparablePorts(edges: readonly EdgeEntry[], out: Diagnostic[]): void {
  // The usual case: every port is a number, so no source's ports can be incomparable.
  if (edges.every((edge) => !isLaidOut(edge) || hasNumericPort(edge))) return;
  const bySource = new Map<string, EdgeEntry[]>();
  for (const edge of edges) {
    if (!isLaidOut(edge)) continue;
    const list = bySource.get(edge.source as string);
    if (list) list.push(edge);
    else bySource.set(edge.source as string, [edge]);
  }
  for (const [source, list] of bySource) {
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

function checkCanvasCrossing(model: WorkflowModel, edge: EdgeEntry, out: Diagnostic[]): void {
  const source = lastNodeWithId(model, edge.source as string);
  const target = lastNodeWithId(model, edge.target as string);
  if (!source || !target || source.parentId === target.parentId) return;
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
  for (const edge of model.edges) {
    if (!checkEdgeShape(edge, out)) continue;
    wellFormed.push(edge);
    checkEndpoints(model, edge, out);
  }
  checkComparablePorts(wellFormed, out);
  for (const edge of wellFormed) {
    if (!edge.usable || !model.byId.has(edge.source as string)) continue;
    checkBranchPort(model, edge, out);
    if (model.byId.has(edge.target as string)) checkCanvasCrossing(model, edge, out);
    if (lastNodeWithId(model, edge.source as string)?.known === "end") {
      out.push(makeDiagnostic("edge-from-end", `edges[${edge.index}] leaves the end node "${edge.source}"; an End finishes the run.`, { location: edgeLocation(edge) }));
    }
  }
}

// -- connectivity ------------------------------------------------------------------------------------------------

/** The converter places top-level nodes by their top-level edges; a node in none has no position. */
function checkLayoutMembership(model: WorkflowModel, out: Diagnostic[]): void {
  const mentioned = new Set<string>();
  for (const edge of model.edges) {
    if (!edge.topLevel || !Array.isArray(edge.raw)) continue;
    mentioned.add(edge.source as string);
    if (typeof edge.raw[2] === "string") mentioned.add(edge.raw[2]);
  }
  for (const node of model.nodes) {
    if (node.id === null || node.parentId !== null || mentioned.has(node.id)) continue;
    out.push(
      makeDiagnostic("node-without-edges", `${describeNode(node)} appears in no top-level edge, so it is disconnected (and the converter cannot place it).`, {
        location: nodeLocation(node),
        hint: "Connect it with an edge, or delete it.",
      }),
    );
  }
}

function branchesWithoutEdges(model: WorkflowModel, graph: GraphIndex, out: Diagnostic[]): void {
  for (const node of model.nodes) {
    const ports = branchPorts(node);
    if (ports === null || node.id === null || !graph.successors.has(node.id)) continue;
    const count = ports.length;
    const used = new Set<number>();
    for (const edge of model.edges) {
      if (edge.source !== node.id) continue;
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

/** Strongly connected components with more than one node, or with a self-loop (iterative Tarjan). */
function findCycles(ids: readonly string[], successors: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const root of ids) {
    if (index.has(root)) continue;
    const work: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter);
    counter += 1;
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { id: string; next: number };
      const next = successors.get(frame.id) ?? [];
      if (frame.next < next.length) {
        const child = next[frame.next] as string;
        frame.next += 1;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter);
          counter += 1;
          stack.push(child);
          onStack.add(child);
          work.push({ id: child, next: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.id, Math.min(low.get(frame.id) as number, index.get(child) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id) as number, low.get(frame.id) as number));
      if (low.get(frame.id) !== index.get(frame.id)) continue;
      const component: string[] = [];
      for (;;) {
        const member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
        if (member === frame.id) break;
      }
      const selfLoop = component.length === 1 && (successors.get(frame.id) ?? []).includes(frame.id);
      if (component.length > 1 || selfLoop) cycles.push(component.reverse());
    }
  }
  return cycles;
}

/** Kahn's test: true when repeatedly removing nodes without incoming edges empties the graph. */
function isAcyclic(ids: Iterable<string>, successors: ReadonlyMap<string, readonly string[]>): boolean {
  const indegree = new Map<string, number>();
  for (const id of ids) indegree.set(id, 0);
  for (const targets of successors.values()) for (const target of targets) indegree.set(target, (indegree.get(target) ?? 0) + 1);
  const ready: string[] = [];
  for (const [id, degree] of indegree) if (degree === 0) ready.push(id);
  let removed = 0;
  while (ready.length > 0) {
    const id = ready.pop() as string;
    removed += 1;
    for (const target of successors.get(id) ?? []) {
      const degree = (indegree.get(target) as number) - 1;
      indegree.set(target, degree);
      if (degree === 0) ready.push(target);
    }
  }
  return removed === indegree.size;
}

/** Cycles among edges within one canvas; edges across a canvas boundary are reported as crossings instead. */
function crossesCanvas(successors: ReadonlyMap<string, readonly string[]>): boolean {
  for (const [source, targets] of successors) {
    const container = containerOf(source);
    for (const target of targets) if (containerOf(target) !== container) return true;
  }
  return false;
}

function checkCycles(model: WorkflowModel, graph: GraphIndex, out: Diagnostic[]): void {
  // Without edges across canvas boundaries (the usual case) the same-canvas graph is the whole graph.
  let sameCanvas: ReadonlyMap<string, readonly string[]> = graph.successors;
  if (crossesCanvas(graph.successors)) {
    const within = new Map<string, string[]>();
    for (const [source, targets] of graph.successors) {
      const container = containerOf(source);
      for (const target of targets) if (containerOf(target) === container) pushTo(within, source, target);
    }
    sameCanvas = within;
  }
  if (isAcyclic(model.byId.keys(), sameCanvas)) return;
  for (const cycle of findCycles([...model.byId.keys()], sameCanvas)) {
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

const NONE: readonly string[] = [];

function concat(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] {
  if (!b) return a ?? NONE;
  return a ? [...a, ...b] : b;
}

function traverse(starts: readonly string[], next: (id: string) => readonly string[]): Set<string> {
  const seen = new Set(starts);
  const stack = [...starts];
  while (stack.length > 0) {
    for (const neighbour of next(stack.pop() as string)) {
      if (seen.has(neighbour)) continue;
      seen.add(neighbour);
      stack.push(neighbour);
    }
  }
  return seen;
}

function checkReachability(model: WorkflowModel, graph: GraphIndex, out: Diagnostic[]): void {
  const start = model.nodes.find((node) => node.known === "start" && node.id !== null);
  const iterationStarts = new Map<string, string[]>();
  for (const node of model.nodes) {
    if (node.known === "iteration-start" && node.id !== null && node.parentId !== null) pushTo(iterationStarts, node.parentId, node.id);
  }
  const reached = start ? traverse([start.id as string], (id) => concat(graph.successors.get(id), iterationStarts.get(id))) : null;
  const ends = model.nodes.filter((node) => node.known === "end" && node.id !== null).map((node) => node.id as string);
  const reachesEnd = ends.length > 0 ? traverse(ends, (id) => graph.predecessors.get(id) ?? []) : null;
  const reported = new Set<string>();
  for (const node of model.nodes) {
    if (node.id === null || reported.has(node.id) || !node.known) continue;
    reported.add(node.id);
    if (reached && !reached.has(node.id)) {
      out.push(
        makeDiagnostic("unreachable-node", `${describeNode(node)} cannot be reached from the start node "${start?.id}".`, {
          location: nodeLocation(node),
          hint: node.parentId ? `Connect it from "${node.parentId}-1" (the iteration-start) or an earlier child.` : "Connect it to the flow, or delete it.",
        }),
      );
    } else if (reachesEnd && node.parentId === null && node.known !== "end" && !reachesEnd.has(node.id)) {
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
