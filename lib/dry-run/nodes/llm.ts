// LLM: the system and user prompts rendered from the pool (files in a prompt become attachments, not text), sent to
// the model; outputs `text`. Every `{{#node.var#}}` a prompt names must be in the pool (LLMNode._fetch_inputs raises
// VariableNotFoundError otherwise), and a prompt that renders to nothing fails with NoPromptFoundError (nodes/llm/node.py).

import { failed, succeeded, type NodeExecutor } from "../types";

export const llmExecutor: NodeExecutor = {
  async run(data, ctx) {
    const template = Array.isArray(data.prompt_template) ? (data.prompt_template as { role?: unknown; text?: unknown }[]) : [];
    const rendered = template.map((message) => ({ role: String(message.role), ...ctx.pool.render(typeof message.text === "string" ? message.text : "") }));
    const mocked = rendered.some((message) => message.mocked);
    const missing = rendered.flatMap((message) => message.missing);
    if (missing.length > 0) {
      const first = missing.find((variable) => variable.certain) ?? (missing[0] as (typeof missing)[number]);
      return failed(`Variable #${first.selector}# not found`, !first.certain);
    }
    if (rendered.every((message) => message.text === "" && message.files.length === 0)) {
      return failed("No prompt found in the LLM configuration: every prompt message is empty.", mocked);
    }
    const system = rendered.filter((message) => message.role === "system").map((message) => message.text).join("\n");
    const user = rendered.filter((message) => message.role !== "system").map((message) => message.text).join("\n");
    const answer = await ctx.model.complete({ system, user, nodeTitle: ctx.title });
    if (!answer.ok) return failed(answer.reason, false);
    return succeeded({ text: answer.text, reasoning_content: "", usage: {}, finish_reason: "stop" }, ctx.model.kind === "mock" || mocked);
  },
};
