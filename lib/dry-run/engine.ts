// Runs a converted Dify graph as Dify 1.9's graph engine does: edges are UNKNOWN, TAKEN or SKIPPED; a node is ready
// when none of its incoming edges is UNKNOWN and one is TAKEN; the edges of a branch not chosen are SKIPPED and a node
// whose incoming edges are all SKIPPED is skipped in turn (graph_engine/graph_state_manager.py is_node_ready,
// graph_traversal/skip_propagator.py). The first failing node stops the run. An iteration runs its own canvas
// (nodes whose iteration_id is it, rooted at its start node) once per item (nodes/iteration/iteration_node.py).

import type { DifyEdge, DifyGraph, DifyNode } from "@/lib/workflow/dify-graph";
import type { JsonValue } from "@/lib/workflow/python-values";
import { NODE_EXECUTORS } from "./nodes";
import type { VariablePool } from "./pool";
import { valuePreview } from "./values";
import { failed, selectorOf, succeeded, type ChartPreview, type ChartRenderer, type CodeRunner, type DocumentReader, type FileMaker, type ModelService, type NodeOutcome, type StepArtifacts, type TracedFile } from "./types";

export interface TraceStep {
  nodeId: string;
  /** The node's id as the response wrote it (set by dryRunTurn), for drawing the trace on the response's graph. */
  workflowId?: string;
  type: string;
  title: string;
  /** uncertain: the node failed on mocked content, so the real run may not; the dry run goes on without its outputs. */
  status: "succeeded" | "failed" | "skipped" | "uncertain";
  /** Outputs are stand-ins from a mocked model or service. */
  mocked: boolean;
  reason: string | null;
  /** The iteration round, for nodes inside an iteration. */
  iteration?: number;
  /** What the node read (selector -> preview) and produced (variable -> preview). */
  inputs?: Record<string, string>;
  outputs?: Record<string, string>;
  /** The files a tool returned (name, type, size, whether real or a placeholder). */
  files?: TracedFile[];
  /** A chart tool's chart, rendered by us from its text. */
  chart?: ChartPreview;
}

export interface EngineServices {
  model: ModelService;
  code: CodeRunner | null;
  /** Reads uploaded case files for document extractors; absent: their text is a stand-in. */
  documents?: DocumentReader | null;
  /** Writes exporters' files so their outputs carry a real size; absent: size 0. */
  files?: FileMaker | null;
  /** Renders chart tools' charts as SVG previews for the trace; absent: none. */
  charts?: ChartRenderer | null;
  /** Node executions allowed in one run (Dify's WORKFLOW_MAX_EXECUTION_STEPS). */
  maxSteps: number;
}

/** Kept Markdown and chart SVG per run's trace (an iteration may export hundreds of times); beyond, files are listed without their Markdown and charts are not drawn. Ours. */
export const MAX_TRACE_ARTIFACTS = 400_000;

export type GraphRun = { status: "succeeded" } | { status: "failed"; nodeId: string; reason: string };

interface Canvas {
  nodes: Map<string, DifyNode>;
  incoming: Map<string, DifyEdge[]>;
  outgoing: Map<string, DifyEdge[]>;
}

function canvasOf(graph: DifyGraph, iterationId: string | null): Canvas {
  // A node inside an iteration names it in iteration_id; the iteration's start node only as its parent. Dify's
  // Graph.init keeps every node in the top-level graph, so a child of a node that is no iteration runs at top level.
  const iterations = new Set(graph.nodes.filter((node) => node.data.type === "iteration").map((node) => node.id));
  const owner = (node: DifyNode): string | null => {
    const parent = (node.data.iteration_id as string | undefined) ?? node.parentId ?? null;
    return parent !== null && iterations.has(parent) ? parent : null;
  };
  const nodes = new Map(graph.nodes.filter((node) => owner(node) === iterationId).map((node) => [node.id, node]));
  const incoming = new Map<string, DifyEdge[]>();
  const outgoing = new Map<string, DifyEdge[]>();
  for (const edge of graph.edges) {
    if (!nodes.has(edge.source) || !nodes.has(edge.target)) continue;
    incoming.set(edge.target, [...(incoming.get(edge.target) ?? []), edge]);
    outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge]);
  }
  return { nodes, incoming, outgoing };
}

export class GraphEngine {
  readonly trace: TraceStep[] = [];
  private steps = 0;
  /** Characters of kept Markdown and chart SVG left for this run's trace. */
  private artifactBudget = MAX_TRACE_ARTIFACTS;

  constructor(private readonly graph: DifyGraph, private readonly services: EngineServices) {}

  /** Runs the canvas of `iterationId` (null: the top level) from `rootId`. */
  async run(rootId: string, pool: VariablePool, iterationId: string | null = null, round?: number): Promise<GraphRun> {
    const canvas = canvasOf(this.graph, iterationId);
    const edgeState = new Map<string, "taken" | "skipped">();
    const done = new Set<string>();
    const queue: string[] = [rootId];
    const ready = (id: string): boolean => {
      const edges = canvas.incoming.get(id) ?? [];
      return edges.every((edge) => edgeState.has(edge.id)) && edges.some((edge) => edgeState.get(edge.id) === "taken");
    };
    const skip = (id: string): void => {
      const stack = [id];
      while (stack.length > 0) {
        const current = stack.pop() as string;
        if (done.has(current)) continue;
        const edges = canvas.incoming.get(current) ?? [];
        if (!edges.every((edge) => edgeState.get(edge.id) === "skipped")) {
          if (ready(current)) queue.push(current);
          continue;
        }
        done.add(current);
        const node = canvas.nodes.get(current);
        if (node) this.trace.push({ nodeId: current, type: String(node.data.type), title: String(node.data.title ?? ""), status: "skipped", mocked: false, reason: null, ...(round === undefined ? {} : { iteration: round }) });
        for (const edge of canvas.outgoing.get(current) ?? []) {
          edgeState.set(edge.id, "skipped");
          stack.push(edge.target);
        }
      }
    };
    while (queue.length > 0) {
      const id = queue.shift() as string;
      if (done.has(id)) continue;
      done.add(id);
      const node = canvas.nodes.get(id);
      if (!node) continue;
      this.steps += 1;
      if (this.steps > this.services.maxSteps) return { status: "failed", nodeId: id, reason: `Max steps ${this.services.maxSteps} reached.` };
      const stopRecording = pool.record();
      const outcome = await this.execute(node, pool);
      const reads = stopRecording();
      const type = String(node.data.type);
      this.trace.push({
        nodeId: id,
        type: type === "tool" ? String(node.data.tool_name ?? "tool") : type,
        title: String(node.data.title ?? ""),
        status: outcome.status === "failed" && outcome.mocked ? "uncertain" : outcome.status,
        mocked: outcome.mocked,
        reason: outcome.status === "failed" ? outcome.reason : null,
        ...(round === undefined ? {} : { iteration: round }),
        inputs: Object.fromEntries([...reads].map(([selector, found]) => [selector, valuePreview(found.value)])),
        outputs: outcome.status === "succeeded" ? Object.fromEntries(Object.entries(outcome.outputs).map(([name, value]) => [name, valuePreview(value)])) : {},
        ...(outcome.status === "succeeded" && outcome.artifacts ? this.withinBudget(outcome.artifacts) : undefined),
      });
      if (outcome.status === "failed" && !outcome.mocked) return { status: "failed", nodeId: outcome.nodeId ?? id, reason: outcome.reason };
      if (outcome.status === "succeeded") pool.setAll(id, outcome.outputs, outcome.mocked);
      const edges = canvas.outgoing.get(id) ?? [];
      const targets: string[] = [];
      for (const edge of edges) {
        const taken = outcome.status === "failed" || outcome.handle === undefined || edge.sourceHandle === outcome.handle;
        edgeState.set(edge.id, taken ? "taken" : "skipped");
        targets.push(edge.target);
      }
      for (const target of targets) {
        if (ready(target)) queue.push(target);
        else skip(target);
      }
    }
    return { status: "succeeded" };
  }

  private withinBudget(artifacts: StepArtifacts): StepArtifacts {
    const kept: StepArtifacts = {};
    if (artifacts.files) {
      kept.files = artifacts.files.map((file) => {
        if (file.markdown === undefined) return file;
        if (file.markdown.length <= this.artifactBudget) {
          this.artifactBudget -= file.markdown.length;
          return file;
        }
        const { markdown: _dropped, ...listed } = file;
        return listed;
      });
    }
    if (artifacts.chart && artifacts.chart.svg.length <= this.artifactBudget) {
      this.artifactBudget -= artifacts.chart.svg.length;
      kept.chart = artifacts.chart;
    }
    return kept;
  }

  private async execute(node: DifyNode, pool: VariablePool): Promise<(NodeOutcome & { nodeId?: undefined }) | { status: "failed"; reason: string; mocked: boolean; nodeId: string }> {
    const type = String(node.data.type);
    if (type === "iteration") return this.iterate(node, pool);
    const executor = NODE_EXECUTORS[type];
    if (!executor) return failed(`Node type ${type} is not supported.`);
    return executor.run(node.data, { pool, model: this.services.model, code: this.services.code, documents: this.services.documents ?? null, files: this.services.files ?? null, charts: this.services.charts ?? null, nodeId: node.id, title: String(node.data.title ?? type) });
  }

  private async iterate(node: DifyNode, pool: VariablePool): Promise<NodeOutcome | { status: "failed"; reason: string; mocked: boolean; nodeId: string }> {
    const selector = selectorOf(node.data.iterator_selector);
    const found = selector ? pool.get(selector) : undefined;
    if (!found) return failed(`Iterator variable ${JSON.stringify(selector)} not found`, !pool.missingVariable(selector ?? []).certain);
    const items = found.value;
    if (items === null || (Array.isArray(items) && items.length === 0)) return succeeded({ output: [] }, found.mocked);
    // The type of a node's output is fixed by its node type (an LLM's text is a string), whatever the content.
    if (!Array.isArray(items)) return failed(`Invalid iterator value: ${JSON.stringify(items).slice(0, 60)}, please provide a list.`);
    const outputSelector = selectorOf(node.data.output_selector);
    const startId = String(node.data.start_node_id ?? `${node.id}start`);
    const outputs: JsonValue[] = [];
    let mocked = found.mocked;
    for (const [index, item] of items.entries()) {
      const roundPool = pool.child();
      roundPool.set(node.id, "item", { value: item, mocked: found.mocked });
      roundPool.set(node.id, "index", { value: index, mocked: false });
      const run = await this.run(startId, roundPool, node.id, index);
      if (run.status === "failed") return { status: "failed", reason: `Iteration ${index + 1}: ${run.reason}`, mocked: false, nodeId: run.nodeId };
      const value = outputSelector ? roundPool.get(outputSelector) : undefined;
      outputs.push(value?.value ?? null);
      mocked ||= value?.mocked ?? false;
    }
    // flatten_output: a list of lists becomes one list.
    const flattened = node.data.flatten_output !== false && outputs.length > 0 && outputs.every(Array.isArray) ? (outputs as JsonValue[][]).flat() : outputs;
    return succeeded({ output: flattened }, mocked);
  }
}
