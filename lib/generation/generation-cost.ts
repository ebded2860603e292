// What generating one turn cost, from its stored attempts: the grade card's latency, tokens and retries criteria.
// Latency and tokens add up over every attempt (a retry is paid for too); a figure no attempt recorded stays null.

export interface AttemptCost {
  latencyMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface GenerationCost {
  latencyMs: number | null;
  tokens: number | null;
  retries: number | null;
}

const sumOrNull = (values: readonly (number | null)[]): number | null => {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0);
};

/** No attempts (a recorded run, or raw output): every figure null, so the criteria say the run records none. */
export function generationCost(attempts: readonly AttemptCost[]): GenerationCost {
  if (attempts.length === 0) return { latencyMs: null, tokens: null, retries: null };
  const tokens = attempts.map((attempt) => (attempt.inputTokens === null && attempt.outputTokens === null ? null : (attempt.inputTokens ?? 0) + (attempt.outputTokens ?? 0)));
  return { latencyMs: sumOrNull(attempts.map((attempt) => attempt.latencyMs)), tokens: sumOrNull(tokens), retries: attempts.length - 1 };
}
