// The dry run's endpoint model against a loopback OpenAI-compatible stub (not a model): LLM nodes get the endpoint's
// text, the classifier and extractor use usable answers and fall back as Dify does on unusable ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChatClient } from "@/lib/server/llm";
import { serverError, startOpenAIStub, type OpenAIStub, type StubAnswer, type StubRequest } from "@/test/support/openai-stub";
import { endpointModel } from "./endpoint-model";

let stub: OpenAIStub;
let answer: (request: StubRequest) => StubAnswer = () => ({ kind: "reply", content: "" });

beforeAll(async () => {
  stub = await startOpenAIStub((request) => answer(request));
});

afterAll(async () => {
  await stub.close();
});

const model = () => endpointModel(createChatClient({ baseURL: stub.baseURL, apiKey: "sk-test", model: "stub-model", maxRetries: 1, backoffBaseMs: 1, backoffMaxMs: 1 }));

describe("the dry run's endpoint model", () => {
  it("sends an LLM node's system and user prompts and returns the endpoint's text", async () => {
    answer = () => ({ kind: "reply", content: "## Changelog\n- Faster import" });
    const before = stub.requests.length;
    expect(await model().complete({ system: "You write changelogs.", user: "Commits: feat: faster import", nodeTitle: "LLM" })).toEqual({ ok: true, text: "## Changelog\n- Faster import" });
    const request = stub.requests[before];
    expect(request?.model).toBe("stub-model");
    expect(request?.messages).toEqual([
      { role: "system", content: "You write changelogs." },
      { role: "user", content: "Commits: feat: faster import" },
    ]);
  });

  it("reports a failing endpoint as the node's failure", async () => {
    answer = () => serverError(500);
    const result = await model().complete({ system: "", user: "hello", nodeTitle: "LLM" });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/^The model endpoint failed: /);
  });

  it("takes the class the endpoint names, and otherwise the class sharing most words with its answer", async () => {
    answer = () => ({ kind: "reply", content: "  billing " });
    expect(await model().classify({ query: "I was charged twice", classes: ["Technical", "Billing"], instruction: "" })).toBe(1);
    answer = () => ({ kind: "reply", content: "This looks like a technical problem with login." });
    expect(await model().classify({ query: "cannot log in", classes: ["Billing", "Technical problem"], instruction: "" })).toBe(1);
  });

  it("reads the extracted parameters from a fenced JSON answer, and gives type defaults for what is missing or unusable", async () => {
    const parameters = [
      { name: "city", type: "string", description: "the city" },
      { name: "days", type: "number", description: "how many days" },
    ];
    answer = () => ({ kind: "reply", content: '```json\n{"city": "Lyon"}\n```' });
    const defaults = await model().extract({ query: "x", parameters: [parameters[1]!], instruction: "" });
    expect(await model().extract({ query: "Three days in Lyon", parameters, instruction: "" })).toEqual({ city: "Lyon", ...defaults });
    answer = () => ({ kind: "reply", content: "Sure! The city is Lyon." });
    const fallback = await model().extract({ query: "Three days in Lyon", parameters, instruction: "" });
    expect(Object.keys(fallback)).toEqual(["city", "days"]);
    expect(fallback.city).not.toBe("Lyon");
  });
});
