// Structural checks of the workflow object: top-level keys, node shape, ids, known types and child-id rules.
// Mirrors the per-node preconditions of the official converter (§3.2) and reports every violation, not the first.

import type { Diagnostic } from "../diagnostics";
import { matchNodeTypeName } from "../node-selection";
import { NODE_TYPE_IDS } from "../node-types";
import { describeKind, isJsonObject, ownValue, preview } from "../python-values";
import { makeDiagnostic } from "../diagnostic-codes";
import { describeNode, nodeLocation, registeredBefore, type NodeEntry, type WorkflowModel } from "./model";

/** Top-level shape. Returns false when nothing further can be analysed. */
export function checkTopLevel(model: WorkflowModel, out: Diagnostic[]): boolean {
  const { root } = model;
  if (!root) {
    out.push(
      makeDiagnostic("workflow-not-object", `The workflow JSON is ${describeKind(model.value)}, not an object.`, {
        location: { field: "workflow" },
        hint: 'Write {"nodes_info": [...], "edges": [...]}.',
      }),
    );
    return false;
  }
  const nodes = ownValue(root, "nodes_info");
  const edges = ownValue(root, "edges");
  if (!Array.isArray(nodes)) {
    const what = nodes === undefined ? "is missing" : `is ${describeKind(nodes)}, not a list`;
    out.push(makeDiagnostic("workflow-missing-nodes", `\`nodes_info\` ${what}.`, { location: { field: "workflow" } }));
  } else if (nodes.length === 0) {
    out.push(makeDiagnostic("workflow-empty", "`nodes_info` is empty: the workflow has no nodes.", { location: { field: "workflow" } }));
  }
  if (!Array.isArray(edges)) {
    const what = edges === undefined ? "is missing" : `is ${describeKind(edges)}, not a list`;
    out.push(makeDiagnostic("workflow-missing-edges", `\`edges\` ${what}.`, { location: { field: "workflow" } }));
  }
  return Array.isArray(nodes);
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** The type id a misspelt or display-name type most likely means ("template" -> "template-transform"). */
export function suggestNodeType(type: string): string | null {
  const named = matchNodeTypeName(type);
  if (named) return named;
  const lower = type.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const id of NODE_TYPE_IDS) {
    const distance = levenshtein(lower, id);
    if (distance < bestDistance) {
      best = id;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(lower.length / 4)) ? best : null;
}

function checkNodeShape(node: NodeEntry, out: Diagnostic[]): void {
  const object = isJsonObject(node.raw) ? node.raw : null;
  if (!object) {
    out.push(
      makeDiagnostic("node-not-object", `nodes_info[${node.index}] is ${describeKind(node.raw)}, not a node object.`, {
        location: nodeLocation(node),
        hint: 'Each node is {"id": "...", "type": "...", "param": {...}}.',
      }),
    );
    return;
  }
  const missing: string[] = [];
  if (node.rawId === undefined) missing.push("id");
  if (node.rawType === undefined) missing.push("type");
  if (node.rawParam === undefined) missing.push("param");
  if (missing.length > 0) {
    out.push(
      makeDiagnostic("node-missing-field", `${describeNode(node)} has no ${missing.map((k) => `\`${k}\``).join(" or ")}.`, {
        location: nodeLocation(node),
      }),
    );
  }
  if (node.rawId !== undefined && node.id === null) {
    out.push(
      makeDiagnostic("node-id-not-string", `nodes_info[${node.index}] has the id ${preview(node.rawId)}, which is not a string.`, {
        location: nodeLocation(node),
        hint: `Quote the id: "${preview(node.rawId)}".`,
      }),
    );
  }
  if (node.type !== null && node.known === null) {
    const suggestion = suggestNodeType(node.type);
    out.push(
      makeDiagnostic("unknown-node-type", `${describeNode(node)} has the unknown type "${node.type}".`, {
        location: nodeLocation(node),
        hint: suggestion ? `Did you mean "${suggestion}"?` : `Use one of: ${NODE_TYPE_IDS.join(", ")}.`,
      }),
    );
  } else if (node.type === null && node.rawType !== undefined) {
    out.push(
      makeDiagnostic("unknown-node-type", `${describeNode(node)} has a type that is not a string.`, {
        location: nodeLocation(node),
      }),
    );
  }
}

function checkDuplicateIds(model: WorkflowModel, out: Diagnostic[]): void {
  for (const [id, list] of model.byId) {
    if (list.length < 2) continue;
    const positions = list.map((node) => node.index).join(", ");
    for (const node of list.slice(1)) {
      out.push(
        makeDiagnostic("duplicate-node-id", `${list.length} nodes share the id "${id}" (nodes_info positions ${positions}); references resolve to the one listed last before them.`, {
          location: nodeLocation(node),
          hint: "Give every node its own id.",
        }),
      );
    }
  }
}

function checkChildId(model: WorkflowModel, node: NodeEntry, out: Diagnostic[]): void {
  if (node.id === null || node.parentId === null) return;
  if (node.childIndex === null) {
    out.push(
      makeDiagnostic("malformed-child-id", `The id "${node.id}" contains "-", which marks an iteration child, but the part after "-" is not an integer.`, {
        location: nodeLocation(node),
        hint: `Children of iteration "${node.parentId}" are "${node.parentId}-1", "${node.parentId}-2", …; use ids without "-" for top-level nodes.`,
      }),
    );
  }
  const parent = registeredBefore(model, node.parentId, node.index);
  if (!parent) {
    const later = model.byId.has(node.parentId);
    out.push(
      makeDiagnostic(
        "child-parent-missing",
        later
          ? `${describeNode(node)} is listed before its parent "${node.parentId}".`
          : `${describeNode(node)} belongs to iteration "${node.parentId}", which does not exist.`,
        {
          location: nodeLocation(node),
          targetNodeId: node.parentId,
          hint: later ? `Move node "${node.parentId}" above its children.` : undefined,
        },
      ),
    );
  } else if (parent.known !== "iteration") {
    out.push(
      makeDiagnostic("child-parent-not-iteration", `${describeNode(node)} is placed on the canvas of ${describeNode(parent)}, which is not an iteration.`, {
        location: nodeLocation(node),
        targetNodeId: parent.id ?? undefined,
        hint: 'Only iteration nodes have canvases; ids with "-" are reserved for their children.',
      }),
    );
  }
}

export function checkStructure(model: WorkflowModel, out: Diagnostic[]): void {
  const nodes = model.nodes;
  let withId = 0;
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as NodeEntry;
    checkNodeShape(node, out);
    if (node.id !== null) withId += 1;
    if (node.parentId !== null) checkChildId(model, node, out);
  }
  // Ids are shared only when there are fewer distinct ids than nodes with one.
  if (model.byId.size < withId) checkDuplicateIds(model, out);
}
