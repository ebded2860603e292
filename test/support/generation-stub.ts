// A stub "model" for generation journeys: a fixed three-node workflow, not a model's work. The first time it sees a
// message it answers without workflow tags (so an agentic turn makes a second attempt); after that it answers the
// fixed workflow inside a ```json fence (so the official fence-stripping repair applies). Zero-shot calls (a system
// message first) get the fenced workflow at once.
import type { StubHandler } from "./openai-stub";

export const STUB_WORKFLOW = JSON.stringify({
  nodes_info: [
    { id: "1", type: "start", param: { variables: [["query", "string"]] } },
    { id: "2", type: "llm", param: { system: "You are a helpful assistant.", user: "{{#1.query#}}" } },
    { id: "3", type: "end", param: { outputs: [["result", ["text", "2"]]] } },
  ],
  edges: [
    ["1", 0, "2"],
    ["2", 0, "3"],
  ],
});

export const STUB_ANSWER = [
  "<node_selection>start, llm, end</node_selection>",
  "<design_principle>Stub answer: the same fixed three-node workflow for every question (a loopback stub, not a model).</design_principle>",
  "<workflow>```json",
  STUB_WORKFLOW,
  "```</workflow>",
].join("\n");

export const STUB_NO_TAGS = "Stub reply without workflow tags: the agentic loop should try again.";

/** The handler, with its own memory of the messages it has seen. */
export function generationStubHandler(delayMs = 0): StubHandler {
  const seen = new Set<string>();
  return (request) => {
    if (request.messages[0]?.role === "system") return { kind: "reply", content: STUB_ANSWER, delayMs };
    const last = request.messages.at(-1)?.content ?? "";
    if (!seen.has(last)) {
      seen.add(last);
      return { kind: "reply", content: STUB_NO_TAGS, delayMs };
    }
    return { kind: "reply", content: STUB_ANSWER, delayMs };
  };
}
