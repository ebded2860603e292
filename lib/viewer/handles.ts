// Where each handle of a laid-out node sits, handed to React Flow up front so edges draw on the first paint
// without measuring the DOM.

import { HEADER_HEIGHT, portRowCenter } from "./geometry";
import type { LaidOutNode } from "./layout";
import { portRows } from "./model";

export type HandleSide = "left" | "right" | "top" | "bottom";

export interface HandleSpec {
  id: string;
  type: "source" | "target";
  side: HandleSide;
  /** Centre of the handle along its side, from the node's top (left/right sides) or left (top/bottom). */
  offset: number;
}

export function handleSpecs(node: Pick<LaidOutNode, "ports" | "branching" | "summary" | "container" | "family" | "width" | "height">): HandleSpec[] {
  const rows = portRows(node);
  const middle = node.container || rows.length > 0 ? HEADER_HEIGHT / 2 : node.height / 2;
  const specs: HandleSpec[] = [{ id: "in", type: "target", side: "left", offset: middle }];
  if (!node.branching) {
    const plain = node.ports.find((port) => port.kind !== "invalid");
    if (plain) specs.push({ id: plain.id, type: "source", side: "right", offset: middle });
  }
  const lines = node.container ? 0 : node.summary.length;
  rows.forEach((port, row) => {
    // A container's rows would sit in its header; containers have no branch rows, so this is ordinary nodes only.
    specs.push({ id: port.id, type: "source", side: "right", offset: portRowCenter(lines, row) });
  });
  specs.push({ id: "ref-in", type: "target", side: "top", offset: node.width / 2 }, { id: "ref-out", type: "source", side: "bottom", offset: node.width / 2 });
  return specs;
}
