import { describe, expect, it } from "vitest";
import { generationCost } from "./generation-cost";

describe("generationCost", () => {
  it("adds latency and input plus output tokens over every attempt, and counts attempts after the first as retries", () => {
    expect(
      generationCost([
        { latencyMs: 171, inputTokens: 9249, outputTokens: 892 },
        { latencyMs: 240, inputTokens: 10_500, outputTokens: 1_010 },
      ]),
    ).toEqual({ latencyMs: 411, tokens: 9249 + 892 + 10_500 + 1_010, retries: 1 });
  });

  it("keeps a figure no attempt recorded null, and has no figures without attempts", () => {
    expect(generationCost([{ latencyMs: 90, inputTokens: null, outputTokens: null }])).toEqual({ latencyMs: 90, tokens: null, retries: 0 });
    expect(generationCost([{ latencyMs: null, inputTokens: 12, outputTokens: null }])).toEqual({ latencyMs: null, tokens: 12, retries: 0 });
    expect(generationCost([])).toEqual({ latencyMs: null, tokens: null, retries: null });
  });
});
