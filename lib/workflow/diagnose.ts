// What can be found in a response without the task's check data (inputs, outputs, key nodes): the step_1_1 parse
// diagnostics, the official converter's first failure, and the analysis, with the variable names the instruction
// itself states checked against the start inputs and End outputs. What a model may be told; never throws.

import { analyzeValue } from "./analyze";
import { conversionFailure } from "./convert";
import type { Diagnostic } from "./diagnostics";
import { parseResponse, type ResponseInput } from "./response";
import { mergeDiagnostics, nodeOrderOf, sortDiagnostics } from "./score";

/** Sorted as scoreResponse sorts: errors first, then by place. */
export function diagnoseWithoutTask(input: ResponseInput, instructionVariables: readonly string[] = []): Diagnostic[] {
  const parsed = parseResponse(input);
  if (!parsed.json.ok) return sortDiagnostics(parsed.diagnostics);
  const { value, floats } = parsed.json;
  const analysis = analyzeValue(value, { floats, nodeSelection: parsed.nodeSelection, instructionVariables });
  const failure = parsed.diagnostics.length === 0 ? conversionFailure(value, { floats }) : null;
  const merged = mergeDiagnostics(parsed.diagnostics.length > 0 ? [...parsed.diagnostics, ...analysis] : analysis, failure ? [failure] : []);
  return sortDiagnostics(merged, nodeOrderOf(value));
}
