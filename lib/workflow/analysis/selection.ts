// node_selection consistency (official step_1_4, judged by the rule judge): key nodes declared, declared == used.
// Locates each problem in the selection text (declared types) or on the first node of a type (used types).

import type { Diagnostic, DiagnosticLocation } from "../diagnostics";
import { positionAt } from "../json-text";
import { NODE_TYPES, isNodeTypeId } from "../node-types";
import type { RuleJudgeResult } from "../rule-judge";
import { makeDiagnostic } from "../diagnostic-codes";
import { describeNode, nodeLocation, type NodeEntry, type WorkflowModel } from "./model";

function displayName(type: string): string {
  return isNodeTypeId(type) ? NODE_TYPES[type].displayName : type;
}

function selectionSpan(text: string, offset: number, length: number): DiagnosticLocation {
  const { line, column } = positionAt(text, offset);
  return { field: "node_selection", offset, length, line, column };
}

function firstOfType(model: WorkflowModel, type: string): NodeEntry | undefined {
  return model.nodes.find((node) => node.type === type);
}

export function checkSelection(
  model: WorkflowModel,
  nodeSelection: string | null,
  judge: RuleJudgeResult,
  out: Diagnostic[],
): void {
  const text = nodeSelection ?? "";
  for (const key of judge.missingKeyNodes) {
    const user = firstOfType(model, key);
    const usage = user ? `; ${describeNode(user)} uses it` : "; no node uses it either";
    out.push(
      makeDiagnostic("key-node-not-declared", `The task's key node "${key}" is not declared in node_selection${usage}.`, {
        location: { field: "node_selection" },
        hint: `Add "${displayName(key)}" to node_selection${user ? "" : " and use it in the workflow"}.`,
      }),
    );
  }
  for (const type of judge.undeclaredUsed) {
    const node = firstOfType(model, type);
    out.push(
      makeDiagnostic("node-type-undeclared", `The workflow uses "${type}"${node ? ` (${describeNode(node)})` : ""}, which node_selection does not declare.`, {
        location: node ? nodeLocation(node) : { field: "node_selection" },
        hint: type === "iteration-start" ? "Declare Iteration-Start too: the judge counts it as a node type." : `Add "${displayName(type)}" to node_selection.`,
      }),
    );
  }
  for (const type of judge.declaredUnused) {
    const mention = judge.mentions.find((m) => m.type === type);
    out.push(
      makeDiagnostic("declared-node-unused", `node_selection declares "${mention?.text ?? type}" (${type}), but no node has that type.`, {
        location: mention ? selectionSpan(text, mention.offset, mention.length) : { field: "node_selection" },
        hint: "Remove it from node_selection, or add the node.",
      }),
    );
  }
  for (const fragment of judge.unmapped) {
    out.push(
      makeDiagnostic("selection-fragment-unmapped", `node_selection item "${fragment.text}" names no node type.`, {
        location: selectionSpan(text, fragment.offset, fragment.length),
      }),
    );
  }
}
