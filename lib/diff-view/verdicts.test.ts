import { describe, expect, it } from "vitest";
import { verdictInputOf, verdictRows, type VerdictInput } from "./verdicts";

const passing: VerdictInput = {
  officialFailStep: null,
  ruleJudge: true,
  failStep: null,
  recorded: { valid: true, failStep: null },
  resolve: { hasResolve: true, cases: [{ position: 2, verdict: false }, { position: 1, verdict: true }, { position: 3, verdict: true }] },
};

const failing: VerdictInput = {
  officialFailStep: "step_1_2",
  ruleJudge: false,
  failStep: "step_1_2",
  recorded: { valid: false, failStep: "step_1_2" },
  resolve: { hasResolve: true, cases: [] },
};

describe("verdictRows", () => {
  it("shows each check for both sides and flags the rows that differ", () => {
    const rows = verdictRows(passing, failing);
    expect(rows.map((row) => row.id)).toEqual(["official", "rule-judge", "ours", "recorded", "resolve"]);
    expect(rows.filter((row) => !row.differs).map((row) => row.id)).toEqual([]);
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId.official!.a).toEqual({ text: "passes", tone: "good" });
    expect(byId.official!.b).toEqual({ text: "fails at step 1.2 (conversion)", tone: "bad" });
    expect(byId.recorded!.b.text).toBe("invalid, step 1.2 (conversion)");
    expect(byId.resolve!.a).toMatchObject({ text: "2 / 3 tests resolved", detail: "test 1 ✓ · test 2 ✗ · test 3 ✓" });
    expect(byId.resolve!.b.text).toBe("not run (did not pass)");
  });

  it("marks equal rows as the same", () => {
    expect(verdictRows(passing, passing).some((row) => row.differs)).toBe(false);
  });

  it("says when a side has no recorded verdict, no resolve results or no parsed workflow", () => {
    const raw: VerdictInput = { officialFailStep: "step_1_1", ruleJudge: null, failStep: "step_1_1", recorded: null, resolve: { hasResolve: false, cases: [] } };
    const rows = Object.fromEntries(verdictRows(raw, raw).map((row) => [row.id, row.a.text]));
    expect(rows["rule-judge"]).toMatch(/not reached/);
    expect(rows.recorded).toMatch(/none/);
    expect(rows.resolve).toMatch(/no resolve results/);
  });

  it("builds a side's input from recomputed verdicts and the stored record", () => {
    expect(
      verdictInputOf({ officialFailStep: null, ruleJudge: true, failStep: null }, { recorded: { valid: true, failStep: null }, cases: [{ position: 1, verdict: true }], run: { hasResolve: true } }),
    ).toEqual({ officialFailStep: null, ruleJudge: true, failStep: null, recorded: { valid: true, failStep: null }, resolve: { hasResolve: true, cases: [{ position: 1, verdict: true }] } });
  });
});
