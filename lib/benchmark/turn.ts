// One turn's specification (inputs, outputs, key nodes, test cases, file checks) assembled from the two check
// files, so the scorer reads the check data in one shape.

import { splitTurnKey, turnKey, type CheckPassEntry, type TestCaseData } from "./dataset";

export interface TurnSpec {
  task: string;
  round: number;
  /** Names the start node must declare (compared as a set). */
  inputVars: string[];
  /** Output names of the single End node, or one list per End node. */
  outputVars: string[] | string[][];
  /** Node types a response must select (`related_nodes`). */
  keyNodes: string[];
  tests: TestCaseData[];
  /** Output variable -> required file extension (e.g. ".pdf"); empty when the turn has no file outputs. */
  fileChecks: Record<string, string>;
}

/** The End-node groups a turn requires: a flat list is one group. */
export function outputGroups(outputVars: string[] | string[][]): string[][] {
  if (outputVars.length === 0) return [];
  return typeof outputVars[0] === "string" ? [outputVars as string[]] : (outputVars as string[][]);
}

export function buildTurnSpecs(
  checkPass: Record<string, CheckPassEntry>,
  checkResolve: Record<string, Record<string, string>> = {},
): Map<string, TurnSpec> {
  const specs = new Map<string, TurnSpec>();
  for (const [key, entry] of Object.entries(checkPass)) {
    const parts = splitTurnKey(key);
    if (!parts) continue;
    specs.set(turnKey(parts.task, parts.round), {
      task: parts.task,
      round: parts.round,
      inputVars: entry.inputVar,
      outputVars: entry.outputVar,
      keyNodes: entry.relatedNodes,
      tests: entry.tests,
      fileChecks: checkResolve[key] ?? {},
    });
  }
  return specs;
}
