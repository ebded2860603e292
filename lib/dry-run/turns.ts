// Dry runs of a run's responses: each turn that passes the pass stage is converted and its three test cases run;
// and the recorded Dify outcome of a test, to compare with the prediction.

import type { RunRecord } from "@/lib/benchmark/runs";
import type { TurnSpec } from "@/lib/benchmark/turn";
import { convertWorkflow } from "@/lib/workflow/convert";
import type { ResponseInput } from "@/lib/workflow/response";
import { parseResponse } from "@/lib/workflow/response";
import type { EngineServices } from "./engine";
import { dryRunTestCase, type DryRunExecution } from "./execute";

export interface DryRunTestResult {
  test: 1 | 2 | 3;
  execution: DryRunExecution;
}

export interface DryRunTurnRequest {
  input: ResponseInput;
  turn: TurnSpec;
  caseFileExists: ((name: string) => boolean) | null;
  services: EngineServices;
}

/** The three executions of a turn, or null when its workflow does not convert (it would not pass). */
export async function dryRunTurn(request: DryRunTurnRequest): Promise<DryRunTestResult[] | null> {
  const parsed = parseResponse(request.input);
  if (!parsed.json.ok) return null;
  const conversion = convertWorkflow(parsed.json.value, { floats: parsed.json.floats });
  if (!conversion.ok) return null;
  const workflowIds = new Map([...conversion.value.difyIds].map(([workflowId, difyId]) => [difyId, workflowId]));
  const results: DryRunTestResult[] = [];
  for (const [index, test] of request.turn.tests.entries()) {
    if (index > 2) break;
    const execution = await dryRunTestCase({ graph: conversion.value.graph, test: test.inputs, fileChecks: request.turn.fileChecks, caseFileExists: request.caseFileExists, services: request.services });
    for (const step of execution.trace) {
      const workflowId = workflowIds.get(step.nodeId);
      if (workflowId !== undefined) step.workflowId = workflowId;
      // Selectors read as the response wrote them: `<node id>.<variable>`.
      if (step.inputs) step.inputs = Object.fromEntries(Object.entries(step.inputs).map(([selector, preview]) => [selector.replace(/^[^.]+/, (id) => workflowIds.get(id) ?? id), preview]));
    }
    results.push({ test: (index + 1) as 1 | 2 | 3, execution });
  }
  return results;
}

/**
 * The recorded Dify outcome of a test: "reached the judge or passed with files only" when the test passed or the
 * resolve judge gave a reason; "failed before the judge" when it failed without one (no outputs, an error answer, or
 * a failed file check: resolve_stage.py writes llm_evaluate_reason_testN only for judged tests).
 */
export type RecordedOutcome = "reached-judge" | "failed-before-judge";

export function recordedOutcome(record: RunRecord, position: 1 | 2 | 3): RecordedOutcome | null {
  const verdict = record[`test${position}`];
  if (typeof verdict !== "boolean") return null;
  if (verdict) return "reached-judge";
  return typeof record[`llm_evaluate_reason_test${position}`] === "string" ? "reached-judge" : "failed-before-judge";
}

/** What the dry run predicts in the same terms. */
export function predictedOutcome(execution: DryRunExecution): RecordedOutcome {
  return execution.outcome === "failed" || execution.fileCheck === "failed" ? "failed-before-judge" : "reached-judge";
}
