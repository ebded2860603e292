import { describe, expect, it } from "vitest";
import { modelDiffHref, readModelDiffQuery, readResponseDiffQuery, readRound, readTurnDiffQuery, responseDiffHref, turnDiffHref } from "./links";

function params(href: string): Record<string, string> {
  return Object.fromEntries(new URL(href, "http://x").searchParams);
}

describe("diff links", () => {
  it("builds turn diff links with only the parts given, URL-encoded", () => {
    expect(turnDiffHref({ runId: "r1" })).toBe("/diff/turns?run=r1");
    const href = turnDiffHref({ runId: "r 1", task: "Study&Plan", round: 3 });
    expect(href.startsWith("/diff/turns?")).toBe(true);
    expect(params(href)).toEqual({ run: "r 1", task: "Study&Plan", round: "3" });
    expect(turnDiffHref({ runId: "r1", task: null, round: null })).toBe("/diff/turns?run=r1");
  });

  it("builds model and response diff links", () => {
    expect(params(modelDiffHref({ turn: "StudyPlanner_2", a: "ra", b: "rb" }))).toEqual({ turn: "StudyPlanner_2", a: "ra", b: "rb" });
    expect(modelDiffHref({ turn: "T_1", a: "ra" })).toBe("/diff/models?turn=T_1&a=ra");
    expect(params(responseDiffHref("x/1", "y?2"))).toEqual({ a: "x/1", b: "y?2" });
  });

  it("reads back what the builders write", () => {
    const turn = readTurnDiffQuery(params(turnDiffHref({ runId: "run-9", task: "Task_With_Underscores", round: 2 })));
    expect(turn).toEqual({ runId: "run-9", task: "Task_With_Underscores", round: 2, roundInvalid: false });
    expect(readModelDiffQuery(params(modelDiffHref({ turn: "A_3", a: "p", b: "q" })))).toEqual({ turn: "A_3", a: "p", b: "q" });
    expect(readResponseDiffQuery(params(responseDiffHref("p", "q")))).toEqual({ a: "p", b: "q" });
  });

  it("takes the first of repeated values and treats blank ones as missing", () => {
    expect(readTurnDiffQuery({ run: ["a", "b"], task: "  ", round: undefined })).toEqual({ runId: "a", task: null, round: null, roundInvalid: false });
    expect(readModelDiffQuery({})).toEqual({ turn: null, a: null, b: null });
  });

  it("accepts only positive integer rounds and flags anything else", () => {
    expect(readRound("1")).toBe(1);
    expect(readRound("12")).toBe(12);
    for (const bad of ["0", "-1", "2.5", "2x", "", " 2", "1e3", "0x2"]) expect(readRound(bad), bad).toBeNull();
    expect(readTurnDiffQuery({ run: "r", round: "two" })).toMatchObject({ round: null, roundInvalid: true });
  });
});
