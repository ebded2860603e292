// Question classifier: the model picks one class; the outputs are `class_name` and `class_id`, and the edges of the
// chosen class's handle (its id) are taken (nodes/question_classifier/question_classifier_node.py).

import { selectorOf, succeeded, type NodeExecutor } from "../types";
import { segmentText } from "../values";

export const questionClassifierExecutor: NodeExecutor = {
  async run(data, ctx) {
    const selector = selectorOf(data.query_variable_selector);
    const found = selector ? ctx.pool.get(selector) : undefined;
    const query = segmentText(found?.value);
    const classes = Array.isArray(data.classes) ? (data.classes as { id?: unknown; name?: unknown }[]) : [];
    const names = classes.map((item) => String(item.name ?? ""));
    const index = classes.length === 0 ? -1 : await ctx.model.classify({ query, classes: names, instruction: typeof data.instructions === "string" ? data.instructions : "" });
    const chosen = classes[index];
    if (!chosen) return succeeded({ class_name: "", class_id: "" }, true, "");
    return succeeded({ class_name: String(chosen.name ?? ""), class_id: String(chosen.id ?? ""), usage: {} }, ctx.model.kind === "mock" || (found?.mocked ?? false), String(chosen.id ?? ""));
  },
};
