import "server-only";
// A dry run's model on the user's OpenAI-compatible endpoint: LLM nodes get the model's text (a local execution, never
// a Dify resolve rate); the classifier and extractor ask for a class name or a JSON object and, when the answer is
// unusable, fall back as Dify does (the first matching class; the parameters' type defaults).

import { classIndexByOverlap, mockModel } from "@/lib/dry-run/mock-model";
import type { ModelService } from "@/lib/dry-run/types";
import type { JsonValue } from "@/lib/workflow/python-values";
import type { ChatClient } from "@/lib/server/llm";

export function endpointModel(client: ChatClient): ModelService {
  const ask = async (system: string, user: string): Promise<string | null> => {
    const answer = await client.complete([
      ...(system ? [{ role: "system" as const, content: system }] : []),
      { role: "user" as const, content: user },
    ]);
    return answer.ok ? answer.content : null;
  };
  return {
    kind: "endpoint",
    async complete({ system, user }) {
      const answer = await client.complete([...(system ? [{ role: "system" as const, content: system }] : []), { role: "user" as const, content: user }]);
      return answer.ok ? { ok: true, text: answer.content } : { ok: false, reason: `The model endpoint failed: ${answer.error.message}` };
    },
    async classify({ query, classes, instruction }) {
      const answer = await ask(`Classify the input into exactly one of these classes and answer with the class name only: ${classes.join(" | ")}. ${instruction}`, query);
      const index = answer === null ? -1 : classes.findIndex((name) => answer.trim().toLowerCase() === name.toLowerCase());
      return index >= 0 ? index : classIndexByOverlap(answer ?? query, classes);
    },
    async extract(request) {
      const answer = await ask(`Extract these parameters from the input and answer with one JSON object only: ${JSON.stringify(request.parameters)}. ${request.instruction}`, request.query);
      const defaults = await mockModel.extract(request);
      if (answer === null) return defaults;
      try {
        const parsed = JSON.parse(answer.replace(/^```(?:json)?\s*|\s*```$/g, "")) as Record<string, JsonValue>;
        return Object.fromEntries(Object.entries(defaults).map(([name, fallback]) => [name, parsed[name] ?? fallback]));
      } catch {
        return defaults;
      }
    },
  };
}
