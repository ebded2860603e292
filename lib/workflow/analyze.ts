// Every located format, graph, semantics and consistency problem of a parsed response, more than the official
// verdict finds; total over any input and linear-ish in the workflow size.

import type { TurnSpec } from "../benchmark/turn";
import type { Diagnostic } from "./diagnostics";
import type { FloatLiterals } from "./json-text";
import type { JsonValue } from "./python-values";
import type { ParsedResponse } from "./response";
import { ruleJudge, type RuleJudgeResult } from "./rule-judge";
import { checkEdges, checkGraph, buildGraphIndex } from "./analysis/graph";
import { checkInstructionVariables, checkStartEnd, checkTaskVariables } from "./analysis/io";
import { checkIterations } from "./analysis/iteration";
import { buildModel } from "./analysis/model";
import { checkParams } from "./analysis/params";
import { checkReferences } from "./analysis/references";
import { checkSelection } from "./analysis/selection";
import { checkStructure, checkTopLevel } from "./analysis/structure";

/** What the analysis needs of a benchmark turn. */
export type AnalysisTurn = Pick<TurnSpec, "inputVars" | "outputVars" | "keyNodes">;

export interface AnalyzeOptions {
  floats?: FloatLiterals | null;
  /** The node_selection text; selection checks run only when it is given (null: the tag was missing). */
  nodeSelection?: string | null;
  turn?: AnalysisTurn;
  /** A rule-judge result computed by the caller, to avoid judging twice. */
  judge?: RuleJudgeResult;
  /** The official step_1_3 diagnostics when the caller already ran that check ([] = it passed). */
  variableCheck?: readonly Diagnostic[];
  /** Variable names the instruction itself states (checked against the start inputs and End outputs). */
  instructionVariables?: readonly string[];
}

export function analyzeValue(value: JsonValue, options: AnalyzeOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const model = buildModel(value, options.floats ?? null);
  if (!checkTopLevel(model, out)) return out;
  checkStructure(model, out);
  checkParams(model, out);
  checkEdges(model, out);
  const graph = buildGraphIndex(model);
  checkGraph(model, graph, out);
  checkIterations(model, out);
  checkReferences(model, graph, out);
  checkStartEnd(model, out);
  if (options.turn) checkTaskVariables(model, options.turn, out, options.variableCheck);
  if (options.instructionVariables) checkInstructionVariables(model, options.instructionVariables, out);
  if (options.nodeSelection !== undefined) {
    const judge =
      options.judge ?? ruleJudge({ nodeSelection: options.nodeSelection, workflow: value, keyNodes: options.turn?.keyNodes ?? [] });
    checkSelection(model, options.nodeSelection, judge, out);
  }
  return out;
}

export function analyzeWorkflow(
  parsed: ParsedResponse,
  turn?: AnalysisTurn,
  judge?: RuleJudgeResult,
  variableCheck?: readonly Diagnostic[],
): Diagnostic[] {
  if (!parsed.json.ok) return [];
  return analyzeValue(parsed.json.value, { floats: parsed.json.floats, nodeSelection: parsed.nodeSelection, turn, judge, variableCheck });
}
