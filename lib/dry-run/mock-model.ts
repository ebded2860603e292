// The deterministic mock model of a dry run (the default: nothing external). Its text is labelled as a mock; the
// classifier picks the class whose name shares the most words with the query (the first on a tie); the extractor
// answers every parameter with its type's default, as Dify's extractor does when the model's answer is unusable,
// except that a list holds one element (our modelling choice: a model asked for a list names at least one item).

import { parameterDefault } from "./nodes/parameter-extractor";
import type { ModelService } from "./types";

// Words of a text; a CamelCase class name ("SpeechDraft") reads as its words, as a model reads it.
const words = (text: string): Set<string> => new Set(text.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

export function classIndexByOverlap(query: string, classes: readonly string[]): number {
  const queryWords = words(query);
  let best = 0;
  let bestScore = -1;
  classes.forEach((name, index) => {
    const score = [...words(name)].filter((word) => queryWords.has(word)).length;
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

export const mockModel: ModelService = {
  kind: "mock",
  async complete({ nodeTitle }) {
    return { ok: true, text: `[mock answer of ${nodeTitle}]` };
  },
  async classify({ query, classes }) {
    return classIndexByOverlap(query, classes);
  },
  async extract({ parameters }) {
    return Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.type.startsWith("array[") ? [parameterDefault(parameter.type.slice(6, -1))] : parameterDefault(parameter.type)]));
  },
};
