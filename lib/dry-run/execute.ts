// One dry-run execution of a test case: inputs as the resolve stage uploads them, Dify's input checks, the graph
// run, and the resolve stage's own file checks on the outputs.

import type { TestInputValue } from "@/lib/benchmark/dataset";
import type { DifyGraph } from "@/lib/workflow/dify-graph";
import type { JsonValue } from "@/lib/workflow/python-values";
import { buildRunInputs, fileCheckFailure } from "@/lib/resolve/official";
import { GraphEngine, type EngineServices, type TraceStep } from "./engine";
import { codeDataFailure } from "./nodes/code";
import { prepareInputs } from "./nodes/start";
import { VariablePool } from "./pool";
import { outputExtensions, outputKind, uploadedFile, type DryFile, type OutputKind } from "./values";

export interface DryRunRequest {
  graph: DifyGraph;
  test: Readonly<Record<string, TestInputValue>>;
  /** The turn's check_resolve_stage entry: output variable -> extension. */
  fileChecks: Readonly<Record<string, string>>;
  /** Whether a named case file exists; null when the case files were not given (every file is assumed present). */
  caseFileExists: ((name: string) => boolean) | null;
  services: EngineServices;
}

export interface DryRunOutput {
  kind: OutputKind;
  extensions: string[];
}

export interface DryRunExecution {
  outcome: "completed" | "failed";
  failedNode: string | null;
  reason: string | null;
  outputs: Record<string, DryRunOutput>;
  fileCheck: "passed" | "failed" | "none";
  /** Why the file check failed, as the resolve stage says it. */
  fileCheckReason: string | null;
  trace: TraceStep[];
  /** Whether any output is a stand-in from a mocked model or service. */
  mocked: boolean;
}

function failure(nodeId: string | null, reason: string, trace: TraceStep[] = []): DryRunExecution {
  return { outcome: "failed", failedNode: nodeId, reason, outputs: {}, fileCheck: "none", fileCheckReason: null, trace, mocked: false };
}

export async function dryRunTestCase(request: DryRunRequest): Promise<DryRunExecution> {
  const start = request.graph.nodes.find((node) => node.data.type === "start" && !node.parentId);
  if (!start) return failure(null, "The workflow has no Start node.");
  for (const node of request.graph.nodes) {
    const problem = node.data.type === "code" ? codeDataFailure(node.data) : null;
    if (problem) return failure(node.id, problem, [{ nodeId: node.id, type: "code", title: String(node.data.title ?? "code"), status: "failed", mocked: false, reason: problem }]);
  }
  const uploads = new Map<string, DryFile>();
  let missing: string | null = null;
  const given = buildRunInputs(request.test, (file) => {
    if (request.caseFileExists && !request.caseFileExists(file.value)) missing ??= file.value;
    const id = `upload-${uploads.size + 1}`;
    uploads.set(id, uploadedFile(file.mime_type, 0, file.value));
    return id;
  });
  if (missing !== null) return failure(null, `The case file "${missing}" is missing, so the test cannot be run.`);
  const values: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(given)) {
    if (Array.isArray(value)) values[name] = value.map((item) => uploads.get(item.upload_file_id ?? "") ?? null);
    else if (typeof value === "object") values[name] = uploads.get(value.upload_file_id ?? "") ?? null;
    else values[name] = value;
  }
  const prepared = prepareInputs(start.data, values);
  if (!prepared.ok) return failure(start.id, prepared.reason);
  const pool = new VariablePool();
  pool.setAll(start.id, prepared.inputs, false);
  const engine = new GraphEngine(request.graph, request.services);
  const run = await engine.run(start.id, pool);
  if (run.status === "failed") return failure(run.nodeId, run.reason, engine.trace);
  const endIds = new Set(engine.trace.filter((step) => step.type === "end" && step.status === "succeeded" && step.iteration === undefined).map((step) => step.nodeId));
  const raw: Record<string, JsonValue> = {};
  let mocked = false;
  for (const node of request.graph.nodes) {
    if (!endIds.has(node.id)) continue;
    for (const output of Array.isArray(node.data.outputs) ? (node.data.outputs as { variable?: unknown }[]) : []) {
      const found = pool.get([node.id, String(output.variable)]);
      raw[String(output.variable)] = found?.value ?? null;
      mocked ||= found?.mocked ?? false;
    }
  }
  // The resolve stage counts a run without outputs as failed before any check (resolve_stage.py: `if not outputs`).
  if (Object.keys(raw).length === 0) {
    // Only a branch chosen from real content is a prediction; a mock model's choice says nothing about the real run.
    if (engine.trace.some((step) => (step.type === "if-else" || step.type === "question-classifier") && step.mocked)) {
      return { outcome: "completed", failedNode: null, reason: "No End node ran on the branch the mock model's content chose; the real run may take another.", outputs: {}, fileCheck: "none", fileCheckReason: null, trace: engine.trace, mocked: true };
    }
    return failure(null, "No End node ran, so the run has no outputs.", engine.trace);
  }
  const outputs = Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, { kind: outputKind(value), extensions: outputExtensions(value) }]));
  const checks = Object.keys(request.fileChecks).length;
  const problem = checks === 0 ? null : fileCheckFailure(raw, request.fileChecks);
  return {
    outcome: "completed",
    failedNode: null,
    reason: null,
    outputs,
    fileCheck: checks === 0 ? "none" : problem === null ? "passed" : "failed",
    fileCheckReason: problem,
    trace: engine.trace,
    mocked,
  };
}
