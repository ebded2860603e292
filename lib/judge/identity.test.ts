import { describe, expect, it } from "vitest";
import { callCacheMaterial, canonicalJson, endpointIdentity, judgeIdentityJson } from "./identity";

const call = {
  endpoint: "http://127.0.0.1:8000/v1",
  model: "judge",
  params: { temperature: 0, max_tokens: 8192 },
  messages: [{ role: "user" as const, content: "hi" }],
  sample: 0,
};

describe("identities", () => {
  it("normalises base URLs that name the same endpoint", () => {
    expect(endpointIdentity("HTTP://LocalHost:8000/v1/")).toBe("http://localhost:8000/v1");
    expect(endpointIdentity("http://localhost:8000/V1")).toBe("http://localhost:8000/V1");
    expect(endpointIdentity("https://api.example.org")).toBe("https://api.example.org");
  });

  it("keeps credentials and key-like query parameters out of the identity", () => {
    expect(endpointIdentity("https://user:hunter2@proxy.example.org/v1/?api-version=2024-10&api_key=sk-1&token=t")).toBe(
      "https://proxy.example.org/v1?api-version=2024-10",
    );
  });

  it("serialises objects with sorted keys at every level", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });

  it("gives equal cache material for equal calls whatever the parameter order, and distinct material otherwise", () => {
    const same = callCacheMaterial({ ...call, params: { max_tokens: 8192, temperature: 0 } });
    expect(callCacheMaterial(call)).toBe(same);
    const variants = [
      { ...call, endpoint: "http://127.0.0.1:8001/v1" },
      { ...call, model: "other" },
      { ...call, params: { temperature: 0.2, max_tokens: 8192 } },
      { ...call, messages: [{ role: "user" as const, content: "hi!" }] },
      { ...call, messages: [{ role: "system" as const, content: "hi" }] },
      { ...call, sample: 1 },
    ].map(callCacheMaterial);
    expect(new Set([callCacheMaterial(call), ...variants]).size).toBe(variants.length + 1);
  });

  it("writes the stored judge identity with its five fields", () => {
    expect(JSON.parse(judgeIdentityJson({ endpoint: "e", model: "m", params: { temperature: 0 }, promptFingerprint: "p", strict: false }))).toEqual({
      endpoint: "e",
      model: "m",
      params: { temperature: 0 },
      promptFingerprint: "p",
      strict: false,
    });
  });
});
