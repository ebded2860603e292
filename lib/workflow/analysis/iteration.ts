// Iteration canvas rules: the `<id>-1` iteration-start child, misplaced iteration-starts, and the structural
// validity of output_selector. Type resolution of the output child happens with the references (registration order).

import type { Diagnostic } from "../diagnostics";
import { ownValue, preview } from "../python-values";
import { makeDiagnostic } from "../diagnostic-codes";
import { describeNode, nodeLocation, type NodeEntry, type WorkflowModel } from "./model";

function childrenOf(model: WorkflowModel, parentId: string): NodeEntry[] {
  return model.nodes.filter((node) => node.parentId === parentId);
}

function checkIterationStartChild(model: WorkflowModel, iteration: NodeEntry, out: Diagnostic[]): void {
  const id = iteration.id as string;
  const children = childrenOf(model, id);
  const starts = children.filter((child) => child.known === "iteration-start");
  if (starts.length === 0) {
    out.push(
      makeDiagnostic("iteration-start-missing", `Iteration "${id}" has no iteration-start child, so its canvas has no entry point.`, {
        location: nodeLocation(iteration),
        hint: `Add {"id": "${id}-1", "type": "iteration-start", "param": {}} right after it.`,
      }),
    );
  }
  for (const start of starts) {
    if (start.id === `${id}-1`) continue;
    out.push(
      makeDiagnostic("iteration-start-misplaced", `The iteration-start of iteration "${id}" has the id "${start.id}"; it should be "${id}-1".`, {
        location: nodeLocation(start),
      }),
    );
  }
}

/** Where output_selector points, judged as the converter does: it matches the first node listed at or after the iteration. */
function checkOutputSelector(model: WorkflowModel, iteration: NodeEntry, out: Diagnostic[]): void {
  const selector = iteration.param ? ownValue(iteration.param, "output_selector") : undefined;
  if (selector === undefined) return;
  const location = nodeLocation(iteration, ["output_selector"]);
  const id = iteration.id as string;
  if (selector === null) {
    out.push(makeDiagnostic("iteration-output-unknown", `Iteration "${id}" has a null output_selector, so its \`output\` has no value.`, { location, severity: "warning" }));
    return;
  }
  if (!Array.isArray(selector) || selector.length < 2 || typeof selector[1] !== "string") {
    out.push(makeDiagnostic("iteration-output-unknown", `Iteration "${id}" output_selector ${preview(selector)} is not [variable, childId].`, { location }));
    return;
  }
  const childId = selector[1];
  const candidates = model.byId.get(childId) ?? [];
  const matched = candidates.find((node) => node.index >= iteration.index);
  const hint = `Point it at a node inside the canvas, e.g. ["text", "${id}-2"].`;
  if (candidates.length === 0) {
    out.push(makeDiagnostic("iteration-output-unknown", `Iteration "${id}" collects its output from "${childId}", which does not exist.`, { location, targetNodeId: childId, hint }));
    return;
  }
  if (!matched) {
    out.push(
      makeDiagnostic("iteration-output-unknown", `Iteration "${id}" collects its output from "${childId}", which is listed before the iteration; the output stays untyped.`, {
        location,
        targetNodeId: childId,
        severity: "warning",
      }),
    );
    return;
  }
  const dashes = childId.split("-").length - 1;
  if (dashes !== 1) {
    const what = matched === iteration ? "the iteration itself" : dashes === 0 ? `the top-level ${describeNode(matched)}` : `the nested ${describeNode(matched)}`;
    out.push(makeDiagnostic("iteration-output-not-child", `Iteration "${id}" output_selector points at ${what}, not at a node inside its canvas.`, { location, targetNodeId: childId, hint }));
  } else if (matched.parentId !== id) {
    out.push(
      makeDiagnostic("iteration-output-not-child", `Iteration "${id}" output_selector points at ${describeNode(matched)}, a child of iteration "${matched.parentId}".`, {
        location,
        targetNodeId: childId,
        officialStep: null,
        hint,
      }),
    );
  }
}

export function checkIterations(model: WorkflowModel, out: Diagnostic[]): void {
  const nodes = model.nodes;
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as NodeEntry;
    if (node.known === "iteration-start" && node.parentId === null) {
      out.push(
        makeDiagnostic("iteration-start-misplaced", `${describeNode(node)} is at top level; an iteration-start belongs inside an iteration as "<iterationId>-1".`, {
          location: nodeLocation(node),
        }),
      );
    }
    if (node.known !== "iteration" || node.id === null) continue;
    checkIterationStartChild(model, node, out);
    if (node.parentId === null) checkOutputSelector(model, node, out);
  }
}
