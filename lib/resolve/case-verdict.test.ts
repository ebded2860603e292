import { describe, expect, it } from "vitest";
import { caseVerdictAfterChecks } from "./case-verdict";

describe("a test case's verdict after its checks", () => {
  it("passes without a judge when every output went to the file checks, and waits for the judge otherwise", () => {
    expect(caseVerdictAfterChecks(0, null)).toBe(true);
    expect(caseVerdictAfterChecks(2, null)).toBeNull();
    expect(caseVerdictAfterChecks(2, true)).toBe(true);
    expect(caseVerdictAfterChecks(1, false)).toBe(false);
  });
});
