import { describe, expect, it } from "vitest";
import { compareRuns, type PairTurn } from "./compare";

function turn(key: string, passed: boolean, cases: boolean[] | null, responseId = `${key}-r`): PairTurn {
  const [task, round] = key.split("_");
  return { turn: key, task: task!, domain: "AIGC", round: Number(round), responseId, passed, cases };
}

describe("comparing two runs", () => {
  const a = [
    turn("T_1", true, [true, true, false], "a1"),
    turn("T_2", true, [true, false, false], "a2"),
    turn("T_3", false, [false, false, false], "a3"),
    turn("U_1", true, [true, true, true], "a4"),
    turn("V_1", false, [false, false, false], "a5"),
  ];
  const b = [
    turn("T_1", true, [true, false, false], "b1"),
    turn("T_2", false, [false, false, false], "b2"),
    turn("T_3", true, [true, true, true], "b3"),
    turn("U_1", false, [false, false, false], "b4"),
    turn("W_1", true, [true, true, true], "b6"),
  ];
  const result = compareRuns(a, b);

  it("pairs the turns both answered and lists the others", () => {
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.pass.counts).toEqual({ n: 4, bothPass: 1, aOnly: 2, bOnly: 1, bothFail: 0 });
    expect(result.value.onlyA).toEqual(["V_1"]);
    expect(result.value.onlyB).toEqual(["W_1"]);
  });

  it("lists every shared turn with both verdicts, and the exact McNemar p-value of the pass stage", () => {
    if (!result.ok) return;
    expect(result.value.turns.map((row) => [row.turn, row.passA, row.passB, row.responseA, row.responseB])).toEqual([
      ["T_1", true, true, "a1", "b1"],
      ["T_2", true, false, "a2", "b2"],
      ["T_3", false, true, "a3", "b3"],
      ["U_1", true, false, "a4", "b4"],
    ]);
    // b = 2, c = 1: 2 · P(X ≤ 1 | n = 3) = 2 · 4/8, capped at 1.
    expect(result.value.pass.exact).toMatchObject({ b: 2, c: 1, method: "exact-binomial", pValue: 1 });
  });

  it("runs McNemar's test on turns for pass and on test cases for resolve", () => {
    if (!result.ok) return;
    expect([result.value.pass.mcnemar.b, result.value.pass.mcnemar.c, result.value.pass.mcnemar.method]).toEqual([2, 1, "exact-binomial"]);
    // Cases (12 paired): A only on T_1#2, T_2#1, U_1#1-3 = 5; B only on T_3#1-3 = 3.
    expect(result.value.resolve?.counts).toMatchObject({ n: 12, aOnly: 5, bOnly: 3 });
    expect(result.value.resolve?.rateA).toMatchObject({ num: 6, den: 12 });
    expect(result.value.pass.bootstrap?.n).toBe(4);
  });

  it("lists the turns where exactly one passes, with both responses", () => {
    if (!result.ok) return;
    expect(result.value.discordant.map((entry) => [entry.turn, entry.passes, entry.responseA, entry.responseB, entry.casesA, entry.casesB])).toEqual([
      ["T_2", "a", "a2", "b2", 1, 0],
      ["T_3", "b", "a3", "b3", 0, 3],
      ["U_1", "a", "a4", "b4", 3, 0],
    ]);
  });

  it("compares no resolve rates when a run has no resolve data, and refuses runs with no turn in common", () => {
    const raw = compareRuns(a, b.map((entry) => ({ ...entry, cases: null })));
    expect(raw.ok && raw.value.resolve).toBeNull();
    expect(compareRuns([turn("X_1", true, null)], [turn("Y_1", true, null)]).ok).toBe(false);
  });
});
