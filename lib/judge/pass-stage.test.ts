// The pass-stage rule under an evaluation's judge: early fails and Dify's refusals keep their step, a panel's
// majority (ties failing) decides step 1_4, and an item some member has not judged keeps its stored verdict.
import { describe, expect, it } from "vitest";
import { evaluationPassVerdict, reachesPassJudge } from "./pass-stage";

const reached = { valid: true, failStep: null, officialFailStep: null };

describe("evaluationPassVerdict", () => {
  it("keeps an early failure and Dify's refusal", () => {
    const early = { valid: false, failStep: "step_1_2", officialFailStep: "step_1_2" };
    expect(evaluationPassVerdict(early, ["j"], new Map([["j", [true]]]))).toEqual({ valid: false, failStep: "step_1_2" });
    const refused = { valid: false, failStep: "step_1_5", officialFailStep: null };
    expect(reachesPassJudge(refused)).toBe(false);
    expect(evaluationPassVerdict(refused, ["j"], new Map([["j", [true]]]))).toEqual({ valid: false, failStep: "step_1_5" });
  });

  it("lets the panel's majority decide step 1_4, ties failing", () => {
    expect(evaluationPassVerdict(reached, ["a", "b", "c"], new Map([["a", [false]], ["b", [true]], ["c", [true, true, false]]]))).toEqual({ valid: true, failStep: null });
    expect(evaluationPassVerdict(reached, ["a"], new Map([["a", [true, false]]]))).toEqual({ valid: false, failStep: "step_1_4" });
  });

  it("keeps the stored verdict when a member has not judged, or there is no judge", () => {
    expect(evaluationPassVerdict(reached, ["a", "b"], new Map([["a", [false]]]))).toEqual({ valid: true, failStep: null });
    expect(evaluationPassVerdict({ valid: false, failStep: "step_1_4", officialFailStep: null }, [], new Map())).toEqual({ valid: false, failStep: "step_1_4" });
  });
});
