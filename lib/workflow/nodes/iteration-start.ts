// The `iteration-start` node type: the first child (`<iteration>-1`) of an iteration's canvas. It has no params and
// exposes nothing; the converter only attaches it to its iteration.

import { shape } from "../../zod-fast-path";
import { NODE_TYPES } from "../node-types";
import { exposesNothing } from "./variables";
import type { DifyPart, NodeSpec } from "./types";

function toDify(): DifyPart {
  return {
    facts: { type: "iteration-start" },
    data: { desc: "", isInIteration: true, selected: false, title: "", type: "iteration-start" },
  };
}

export const iterationStartNode: NodeSpec = {
  type: "iteration-start",
  info: NODE_TYPES["iteration-start"],
  paramShape: shape.object({}),
  requiredParams: [],
  textParams: [],
  selectorParams: [],
  variables: exposesNothing("iteration-start"),
  branching: false,
  toDify,
  coze: { kind: "implicit" },
};
