// Set-level changes around the graph: declared node types (node_selection), start inputs and End outputs, and the
// task's required inputs / outputs / key nodes when both turns are given. Pure; order follows the later side.

import { outputGroups } from "../benchmark/turn";
import { parseNodeSelection } from "../workflow/node-selection";
import type { NodeTypeId } from "../workflow/node-types";
import { canonicalJson } from "./keys";
import type { SideModel } from "./side";
import type { IoDiff, SetChange, TaskDiff } from "./types";

export function setChange<T>(before: readonly T[], after: readonly T[]): SetChange<T> {
  const b = new Set(before);
  const a = new Set(after);
  return {
    added: [...a].filter((item) => !b.has(item)),
    removed: [...b].filter((item) => !a.has(item)),
    kept: [...a].filter((item) => b.has(item)),
  };
}

export function diffSelection(before: SideModel, after: SideModel): SetChange<NodeTypeId> | null {
  if (before.nodeSelection === undefined || after.nodeSelection === undefined) return null;
  return setChange(parseNodeSelection(before.nodeSelection).types, parseNodeSelection(after.nodeSelection).types);
}

export function diffIo(before: SideModel, after: SideModel): IoDiff {
  const inputs = setChange(
    before.startVariables.map((v) => v.name),
    after.startVariables.map((v) => v.name),
  );
  const retyped = inputs.kept.flatMap((name) => {
    const b = before.startVariables.find((v) => v.name === name);
    const a = after.startVariables.find((v) => v.name === name);
    return b && a && canonicalJson(b.type) !== canonicalJson(a.type) ? [{ name, before: b.type, after: a.type }] : [];
  });
  return { inputs: { ...inputs, retyped }, outputs: setChange(before.endOutputs, after.endOutputs) };
}

export function diffTask(before: SideModel, after: SideModel): TaskDiff | null {
  if (!before.turn || !after.turn) return null;
  return {
    inputs: setChange(before.turn.inputVars, after.turn.inputVars),
    outputs: setChange(outputGroups(before.turn.outputVars).flat(), outputGroups(after.turn.outputVars).flat()),
    keyNodes: setChange(before.turn.keyNodes, after.turn.keyNodes),
  };
}
