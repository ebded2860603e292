// The evaluation's judge JSON as the resolve job reads it: an LLM judge needs endpoints; anything else runs without one.
import { describe, expect, it } from "vitest";
import { parseResolveJudge } from "./resolve-job";

describe("parseResolveJudge", () => {
  it("reads an LLM judge or panel with its samples (capped at 9), and falls back to no LLM judge", () => {
    expect(parseResolveJudge('{"kind":"llm","endpointIds":["a","b"],"samples":3}')).toEqual({ kind: "llm", endpointIds: ["a", "b"], samples: 3 });
    expect(parseResolveJudge('{"kind":"llm","endpointIds":["a"],"samples":50}')).toEqual({ kind: "llm", endpointIds: ["a"], samples: 9 });
    expect(parseResolveJudge('{"kind":"llm","endpointIds":["a"]}')).toEqual({ kind: "llm", endpointIds: ["a"], samples: 1 });
    expect(parseResolveJudge('{"kind":"llm","endpointIds":[]}')).toEqual({ kind: "none" });
    expect(parseResolveJudge('{"kind":"rule"}')).toEqual({ kind: "rule" });
    expect(parseResolveJudge("not json")).toEqual({ kind: "none" });
    expect(parseResolveJudge(null)).toEqual({ kind: "none" });
  });
});
