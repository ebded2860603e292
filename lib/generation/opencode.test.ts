import { describe, expect, it } from "vitest";
import { chooseStep, DENIED_TOOLS, OPENCODE_KEY_VARIABLE, opencodeConfig, opencodeModel, opencodeSteps } from "./opencode";

const event = (type: string, extra: Record<string, unknown> = {}) => JSON.stringify({ type, sessionID: "ses_1", ...extra });
const text = (value: string) => event("text", { part: { type: "text", text: value } });
const ALL_TAGS = "<node_selection>a</node_selection><design_principle>b</design_principle><workflow>{}</workflow>";

describe("opencode steps", () => {
  it("collects each step's text between step_start and step_finish, skipping blank steps and non-JSON lines", () => {
    const stdout = [
      event("step_start"),
      text("I will read "),
      text("the skill."),
      event("tool_use", { part: { tool: "read" } }),
      event("step_finish"),
      "not json at all",
      event("step_start"),
      text("   "),
      event("step_finish"),
      event("step_start"),
      event("text", { content: "from content" }),
      event("step_finish"),
    ].join("\n");
    const parsed = opencodeSteps(stdout);
    expect(parsed).toEqual({ ok: true, steps: ["I will read the skill.", "from content"], sessionId: "ses_1", events: 11 });
  });
  it("keeps the step text after step_finish until the next step_start, as the official parser does", () => {
    const parsed = opencodeSteps([event("step_start"), text("a"), event("step_finish"), text("b"), event("step_finish")].join("\n"));
    expect(parsed.ok && parsed.steps).toEqual(["a", "ab"]);
  });
  it("splits lines where Python's splitlines does, so a raw U+2028 breaks an event as it does officially", () => {
    const parsed = opencodeSteps([event("step_start"), `{"type": "text", "part": {"text": "x\u2028y"}}`, event("step_finish")].join("\n"));
    expect(parsed.ok && parsed.steps).toEqual([]);
  });
  it("fails where the official parser raises: a JSON line that is not an object, a text that is not a string", () => {
    expect(opencodeSteps(`${event("step_start")}\n5`).ok).toBe(false);
    expect(opencodeSteps(event("text", { part: { text: 7 } })).ok).toBe(false);
    expect(opencodeSteps(event("text", { part: null })).ok).toBe(false);
  });
});

describe("opencode step selection", () => {
  it("takes the last step with all three closing tags, then the last with </workflow>, then the last step", () => {
    expect(chooseStep(["x", ALL_TAGS, "<workflow>{}</workflow>", "y"], "")).toEqual({ text: ALL_TAGS, hasTags: true, index: 1 });
    expect(chooseStep(["<workflow>1</workflow>", "<workflow>2</workflow>", "z"], "")).toEqual({ text: "<workflow>2</workflow>", hasTags: true, index: 1 });
    expect(chooseStep(["a", "b"], "raw")).toEqual({ text: "b", hasTags: false, index: 1 });
  });
  it("falls back to the whole stdout without tags when there are no steps, even if stdout holds </workflow>", () => {
    expect(chooseStep([], "<workflow>{}</workflow>")).toEqual({ text: "<workflow>{}</workflow>", hasTags: false, index: null });
  });
});

describe("opencode configuration", () => {
  it("names the endpoint as the only provider, reads the key from the environment and denies the forbidden tools", () => {
    const config = opencodeConfig({ baseURL: "http://127.0.0.1:9/v1", model: "org/model-1" });
    expect(config).toMatchObject({
      autoupdate: false,
      share: "disabled",
      enabled_providers: ["c2w"],
      provider: { c2w: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://127.0.0.1:9/v1", apiKey: `{env:${OPENCODE_KEY_VARIABLE}}` }, models: { "org/model-1": { name: "org/model-1" } } } },
    });
    expect(Object.keys(config.permission as object)).toEqual([...DENIED_TOOLS]);
    expect(JSON.stringify(config)).not.toMatch(/sk-|secret/);
    expect(opencodeModel("org/model-1")).toBe("c2w/org/model-1");
  });
});
