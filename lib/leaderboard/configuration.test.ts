import { describe, expect, it } from "vitest";
import { modelOfSeries, runConfiguration, seriesId, seriesLabel } from "./configuration";

const generated = (mode: string, overrides: { temperature?: number; maxTokens?: number } | null = null) => ({ origin: "generated", mode, overrides });
const gptJudge = { kind: "llm" as const, members: ["gpt-5.1"], samples: 1 };

describe("run configurations", () => {
  it("names official recorded runs by their model alone, and every other configuration with a key", () => {
    const recorded = runConfiguration({ origin: "recorded", mode: null, overrides: null }, { kind: "recorded" });
    expect(recorded).toEqual({ key: "", setup: "official recorded run", judge: "recorded verdicts", label: "official recorded run" });
    expect(seriesId("gpt_5d2", recorded)).toBe("gpt_5d2");
    const imported = runConfiguration({ origin: "imported", mode: null, overrides: null }, { kind: "rule" });
    expect(imported.label).toBe("imported output · rule judge (not the official LLM judge)");
    expect(seriesId("demo_delta", imported)).toMatch(/^demo_delta~imported\.[0-9a-f]{8}$/);
    expect(modelOfSeries(seriesId("demo_delta", imported))).toBe("demo_delta");
    expect(modelOfSeries("gpt_5d2")).toBe("gpt_5d2");
  });

  it("describes a generated run by its mode, the parameters its calls sent and its judge", () => {
    expect(runConfiguration(generated("zero-shot"), gptJudge).label).toBe("Zero-shot (official) · T 0.7 · max 32768 · judge: gpt-5.1 ×1");
    expect(runConfiguration(generated("zero-shot", { temperature: 0.2 }), gptJudge).label).toBe("Zero-shot (official) · T 0.2 · max 32768 · judge: gpt-5.1 ×1");
    expect(runConfiguration(generated("agentic"), { kind: "rule" }).label).toBe("Agentic, no agent framework (ours) · T server default · max server default · rule judge (not the official LLM judge)");
    expect(runConfiguration(generated("agentic-opencode"), gptJudge).label).toBe("Agentic with opencode (official) · opencode's own sampling · judge: gpt-5.1 ×1");
  });

  it("gives runs made or judged differently different keys, and runs made alike the same one", () => {
    const key = (mode: string, judge: Parameters<typeof runConfiguration>[1], overrides: { temperature?: number } | null = null) => runConfiguration(generated(mode, overrides), judge).key;
    expect(key("zero-shot", gptJudge)).toBe(key("zero-shot", { ...gptJudge }));
    expect(key("zero-shot", gptJudge)).not.toBe(key("agentic", gptJudge));
    expect(key("zero-shot", gptJudge)).not.toBe(key("zero-shot", { kind: "rule" }));
    expect(key("zero-shot", gptJudge)).not.toBe(key("zero-shot", { ...gptJudge, samples: 3 }));
    expect(key("zero-shot", gptJudge)).not.toBe(key("zero-shot", gptJudge, { temperature: 0 }));
    // The default parameters written out are the same configuration as leaving them to the protocol.
    expect(key("zero-shot", gptJudge, { temperature: 0.7 })).toBe(key("zero-shot", gptJudge));
  });

  it("keeps a row's key when a page re-views it under another judge, and says which judge that is", () => {
    const own = runConfiguration(generated("zero-shot"), gptJudge);
    const viewed = runConfiguration(generated("zero-shot"), gptJudge, "the rule judge");
    expect(viewed.key).toBe(own.key);
    expect(viewed.label).toBe("Zero-shot (official) · T 0.7 · max 32768 · the rule judge");
    expect(runConfiguration({ origin: "recorded", mode: null, overrides: null }, { kind: "recorded" }, "the rule judge").label).toBe("official recorded run · the rule judge");
  });

  it("labels a row with its configuration where one string must tell rows of one model apart", () => {
    expect(seriesLabel({ name: "gpt_5d2", displayName: "GPT-5.2", model: "gpt_5d2", configuration: "official recorded run" })).toBe("GPT-5.2");
    expect(seriesLabel({ name: "q~zero-shot.1", displayName: "Qwen", model: "q", configuration: "Zero-shot (official) · T 0.7 · max 32768 · judge: j ×1" })).toBe("Qwen (Zero-shot (official) · T 0.7 · max 32768 · judge: j ×1)");
  });
});
