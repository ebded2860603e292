import { describe, expect, it } from "vitest";
import { caseVerdictAfterChecks, notJudgedCount, panelCaseVerdict } from "./case-verdict";

describe("a test case's verdict after its checks", () => {
  it("passes without a judge when every output went to the file checks, and waits for the judge otherwise", () => {
    expect(caseVerdictAfterChecks(0, null)).toBe(true);
    expect(caseVerdictAfterChecks(2, null)).toBeNull();
    expect(caseVerdictAfterChecks(2, true)).toBe(true);
    expect(caseVerdictAfterChecks(1, false)).toBe(false);
  });

  it("decides a panel by each member's majority, then the members' majority; a silent member leaves it not judged", () => {
    const members = ["a", "b", "c"];
    // Pooling the seven samples would pass (4 of 7); member by member it fails (a passes, b and c fail).
    expect(panelCaseVerdict(members, new Map([["a", [true, true, true]], ["b", [true, false, false]], ["c", [false]]]))).toBe(false);
    expect(panelCaseVerdict(members, new Map([["a", [true]], ["b", [true]], ["c", [false]]]))).toBe(true);
    expect(panelCaseVerdict(members, new Map([["a", [true]], ["b", [true]]]))).toBeNull();
    expect(panelCaseVerdict(["a", "b"], new Map([["a", [true]], ["b", [false]]]))).toBe(false);
  });

  it("counts the cases not judged", () => {
    expect(notJudgedCount([{ verdict: true }, { verdict: null }, { verdict: false }, { verdict: null }])).toBe(2);
  });
});
