import { describe, expect, it } from "vitest";
import { calibrate, driftChecks, humanLabel, judgeVersionKey, weekOf, type CalibrationItem } from "./calibration";

const day = (text: string) => new Date(`${text}T12:00:00Z`);

describe("humanLabel", () => {
  it("is the majority of each annotator's latest vote, dated by the latest vote", () => {
    const label = humanLabel([
      { annotator: "ann", pass: false, at: day("2026-01-01"), judgeVisible: false },
      { annotator: "ann", pass: true, at: day("2026-01-03"), judgeVisible: false }, // ann changed her mind: counts once, as pass
      { annotator: "bob", pass: true, at: day("2026-01-02"), judgeVisible: false },
      { annotator: "cy", pass: false, at: day("2026-01-02"), judgeVisible: false },
    ]);
    expect(label).toEqual({ pass: true, at: day("2026-01-03") });
  });
  it("has no label on a tie or without votes", () => {
    expect(humanLabel([{ annotator: "a", pass: true, at: day("2026-01-01"), judgeVisible: false }, { annotator: "b", pass: false, at: day("2026-01-01"), judgeVisible: false }])).toBeNull();
    expect(humanLabel([])).toBeNull();
  });
});

describe("weekOf", () => {
  it("is the Monday of the UTC week", () => {
    expect(weekOf(day("2026-11-23"))).toBe("2026-11-23"); // a Monday
    expect(weekOf(day("2026-11-29"))).toBe("2026-11-23"); // the Sunday after
    expect(weekOf(day("2026-11-30"))).toBe("2026-11-30");
  });
});

describe("calibrate", () => {
  const vote = (pass: boolean, date: string, annotator = "ann", judgeVisible = false) => ({ annotator, pass, at: day(date), judgeVisible });
  // Week of 2026-11-23: four items; week of 2026-11-30: two items.
  const items: CalibrationItem[] = [
    { id: "1", votes: [vote(true, "2026-11-24")], judges: new Map([["j", true], ["rule", true]]) },
    { id: "2", votes: [vote(true, "2026-11-24")], judges: new Map([["j", true], ["rule", false]]) },
    { id: "3", votes: [vote(false, "2026-11-25")], judges: new Map([["j", true], ["rule", false]]) },
    { id: "4", votes: [vote(false, "2026-11-26")], judges: new Map([["j", false]]) },
    { id: "5", votes: [vote(true, "2026-12-01")], judges: new Map([["j", false]]) },
    { id: "6", votes: [vote(false, "2026-12-02")], judges: new Map([["j", true]]) },
    { id: "tie", votes: [vote(true, "2026-12-02", "a"), vote(false, "2026-12-02", "b")], judges: new Map([["j", true]]) },
    // Cast with the judge's verdict visible: left out, whatever it says.
    { id: "seen", votes: [vote(false, "2026-12-02", "a", true), vote(false, "2026-12-02", "b", true)], judges: new Map([["j", true]]) },
  ];
  const result = calibrate(items);

  it("counts labelled and tied items, and the votes left out because the verdict was visible", () => {
    expect(result.labelled).toBe(6);
    expect(result.tied).toBe(1);
    expect(result.blindVotes).toBe(8);
    expect(result.visibleVotes).toBe(2);
    expect(result.judges.map((judge) => judge.judge)).toEqual(["j", "rule"]);
  });
  it("computes raw agreement and Cohen's kappa per judge (hand-computed)", () => {
    const j = result.judges[0]!;
    // j vs human over 6 items: TT, TT, TF, FF, FT, TF → a=2, b=2, c=1, d=1; agree 3 of 6.
    expect(j.overall.n).toBe(6);
    expect(j.overall.agree).toBe(3);
    expect(j.overall.rate).toBe(0.5);
    // κ = 2(ad − bc) / ((a+b)(b+d) + (a+c)(c+d)) = 2(2 − 2) / (4·3 + 3·2) = 0
    expect(j.overall.kappa.kappa).toBe(0);
    const rule = result.judges[1]!;
    // rule vs human over items 1–3: TT, FT, FF → a=1, b=0, c=1, d=1; κ = 2(1 − 0) / (1·1 + 2·2) = 0.4
    expect(rule.overall.n).toBe(3);
    expect(rule.overall.agree).toBe(2);
    expect(rule.overall.kappa.kappa).toBeCloseTo(0.4, 12);
  });
  it("splits agreement by week of the human label so drift shows", () => {
    const j = result.judges[0]!;
    expect(j.weeks.map((week) => [week.week, week.n, week.agree])).toEqual([
      ["2026-11-23", 4, 3],
      ["2026-11-30", 2, 0],
    ]);
    // Week one: TT, TT, TF, FF → a=2, b=1, c=0, d=1; κ = 2(2 − 0) / (3·2 + 2·1) = 0.5
    expect(j.weeks[0]!.kappa.kappa).toBe(0.5);
    expect(j.weeks[1]!.rate).toBe(0);
  });
});

describe("calibrationChart", () => {
  it("gives one point per week and one series per judge, null where a judge has no items that week", async () => {
    const { calibrationChart } = await import("./calibration");
    const chart = calibrationChart(
      calibrate([
        { id: "1", votes: [{ annotator: "a", pass: true, at: day("2026-11-24"), judgeVisible: false }], judges: new Map([["j", true], ["rule", false]]) },
        { id: "2", votes: [{ annotator: "a", pass: true, at: day("2026-12-01"), judgeVisible: false }], judges: new Map([["j", true]]) },
      ]),
    );
    expect(chart.series.map((entry) => entry.name)).toEqual(["j", "rule"]);
    expect(chart.points).toEqual([
      { label: "2026-11-23", j0: 1, j1: 0 },
      { label: "2026-11-30", j0: 1, j1: null },
    ]);
  });
});

describe("drift (§8.6)", () => {
  // Four weeks starting Monday 2026-11-02; `agreements[w]` of `perWeek` labelled items agree with the judge that week.
  function weeks(agreements: readonly number[], perWeek = 20, judge = judgeVersionKey("gpt-judge", "fp-v1")): CalibrationItem[] {
    return agreements.flatMap((agreeing, week) =>
      Array.from({ length: perWeek }, (_, index) => {
        const date = new Date(Date.UTC(2026, 10, 2 + 7 * week + (index % 5), 12));
        return { id: `w${week}-${index}`, votes: [{ annotator: "ann", pass: true, at: date, judgeVisible: false }], judges: new Map([[judge, index < agreeing]]) };
      }),
    );
  }

  it("each week carries its agreement with a 95% Wilson interval, per judge and prompt version", () => {
    const calibration = calibrate([...weeks([18, 18]), ...weeks([10, 10], 20, judgeVersionKey("gpt-judge", "fp-v2"))]);
    expect(calibration.judges.map((judge) => [judge.judge, judge.promptVersion])).toEqual([["gpt-judge", "fp-v1"], ["gpt-judge", "fp-v2"]]);
    const week = calibration.judges[0]!.weeks[0]!;
    expect(week).toMatchObject({ n: 20, agree: 18, rate: 0.9 });
    expect(week.interval!.lower).toBeCloseTo(0.699, 3);
    expect(week.interval!.upper).toBeCloseTo(0.972, 3);
  });

  it("a seeded drop in the latest week raises the alert, naming the figures", () => {
    const [check] = driftChecks(calibrate(weeks([18, 19, 18, 9])));
    expect(check).toMatchObject({ judge: "gpt-judge", promptVersion: "fp-v1", alert: true, latest: { week: "2026-11-23", agree: 9, n: 20 }, baseline: { n: 60, agree: 55 } });
    // 55 of 60 → Wilson 95% lower bound (0.9167 + 1.92/60 − 1.96·√(0.9167·0.0833/60 + 0.96/3600)) / 1.064 = 0.8193; 45% lies below it.
    expect(check!.baseline.interval.lower).toBeCloseTo(0.8193, 3);
    expect(check!.explanation).toBe("gpt-judge · prompt fp-v1: week of 2026-11-23 agreed on 45.0% (9 of 20) below the 95% interval 81.9%–96.4% of the 3 earlier weeks (55 of 60)");
  });

  it("noise within the baseline interval raises nothing; nor does a latest week too small to say", () => {
    const [steady] = driftChecks(calibrate(weeks([18, 19, 18, 17])));
    expect(steady!.alert).toBe(false);
    expect(steady!.latest.rate).toBeGreaterThan(steady!.baseline.interval.lower);
    const tiny = calibrate([...weeks([18, 19, 18]), ...weeks([0, 0, 0, 0], 3).filter((item) => item.id.startsWith("w3"))]);
    expect(driftChecks(tiny)).toEqual([]);
  });
});
