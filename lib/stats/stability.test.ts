// Stability across runs on three recorded runs built from the shared benchmark's runs (three files standing in for
// three runs of one model), checked against a count made here by hand from the records.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { locateBenchmarkDir } from "@/lib/server/benchmark-location";
import { stabilityAcrossRuns, type StabilityRunTurn, type StabilityTurnInput } from "./stability";

const benchmark = locateBenchmarkDir({ projectDir: path.resolve(__dirname, "../..") });
const RUN_FILES = ["gpt_5d2.json", "gpt_5d1.json", "glm_4d7.json"];

type Record_ = { task: string; round: number; valid: boolean; test1?: boolean; test2?: boolean; test3?: boolean };

describe.skipIf(!benchmark.ok)("stability across three recorded runs", () => {
  const runs = RUN_FILES.map((file) => JSON.parse(readFileSync(path.join(benchmark.dir, "runs", file), "utf8")) as Record_[]);
  const query = JSON.parse(readFileSync(path.join(benchmark.dir, "dataset", "query.json"), "utf8")) as { task: string; category?: string }[];
  const domainOf = new Map(query.map((entry) => [entry.task, entry.category ?? "unknown"]));

  const turns: StabilityTurnInput[] = [];
  const keys = new Map<string, StabilityTurnInput>();
  runs.forEach((records, index) => {
    for (const record of records) {
      const key = `${record.task}:${record.round}`;
      let turn = keys.get(key);
      if (!turn) {
        turn = { turnKey: key, task: record.task, round: record.round, domain: domainOf.get(record.task) ?? "unknown", byRun: new Map<string, StabilityRunTurn>() };
        keys.set(key, turn);
        turns.push(turn);
      }
      (turn.byRun as Map<string, StabilityRunTurn>).set(RUN_FILES[index]!, { passed: record.valid, cases: [record.test1 ?? false, record.test2 ?? false, record.test3 ?? false] });
    }
  });
  const stability = stabilityAcrossRuns(RUN_FILES, turns, 3);

  it("counts, per turn, the runs it passes in, as a hand count over the records does", () => {
    const hand = new Map<string, number>();
    for (const records of runs) for (const record of records) hand.set(`${record.task}:${record.round}`, (hand.get(`${record.task}:${record.round}`) ?? 0) + (record.valid ? 1 : 0));
    expect(stability.turns).toHaveLength(79);
    expect(stability.incomplete).toBe(0);
    for (const turn of stability.turns) expect(turn.passes, turn.turnKey).toBe(hand.get(turn.turnKey));
    const histogram = [0, 1, 2, 3].map((k) => [...hand.values()].filter((passes) => passes === k).length);
    expect(stability.histogram).toEqual(histogram);
    expect(histogram.reduce((sum, count) => sum + count, 0)).toBe(79);
    // pass@3: some run passes; pass^3: all three do.
    expect(stability.overall.passAtN).toMatchObject({ k: 79 - histogram[0]!, n: 79 });
    expect(stability.overall.passAllN).toMatchObject({ k: histogram[3]!, n: 79 });
    expect(stability.flipping.map((turn) => turn.turnKey).sort()).toEqual([...hand].filter(([, passes]) => passes === 1 || passes === 2).map(([key]) => key).sort());
    expect(stability.flipping.length).toBeGreaterThan(0);
  });

  it("counts test cases resolved in some run and in every run, per domain summing to the whole", () => {
    let some = 0;
    let all = 0;
    for (const turn of turns) {
      for (const test of ["test1", "test2", "test3"] as const) {
        const resolved = runs.map((records) => records.find((record) => `${record.task}:${record.round}` === turn.turnKey)!).map((record) => record.valid && record[test] === true);
        if (resolved.some(Boolean)) some += 1;
        if (!resolved.includes(false)) all += 1;
      }
    }
    expect(stability.overall.resolveAtN).toMatchObject({ k: some, n: 237 });
    expect(stability.overall.resolveAllN).toMatchObject({ k: all, n: 237 });
    expect(stability.domains.reduce((sum, domain) => sum + domain.turns, 0)).toBe(79);
    expect(stability.domains.reduce((sum, domain) => sum + domain.passAllN.k, 0)).toBe(stability.overall.passAllN.k);
    // The same Wilson interval the leaderboard draws.
    const interval = stability.overall.passAtN.interval!;
    expect(interval.lower).toBeLessThan(interval.estimate);
    expect(interval.upper).toBeGreaterThan(interval.estimate);
  });
});

describe("stability edge cases", () => {
  it("leaves out turns a run did not answer, and has no resolve figure while a case is not judged", () => {
    const byRun = (outcomes: [string, StabilityRunTurn][]) => new Map(outcomes);
    const stability = stabilityAcrossRuns(
      ["a", "b"],
      [
        { turnKey: "T:1", task: "T", round: 1, domain: "D", byRun: byRun([["a", { passed: true, cases: [true, null, false] }], ["b", { passed: false, cases: [] }]]) },
        { turnKey: "T:2", task: "T", round: 2, domain: "D", byRun: byRun([["a", { passed: true, cases: [true, true, true] }]]) },
      ],
      3,
    );
    expect(stability.incomplete).toBe(1);
    expect(stability.turns).toEqual([{ turnKey: "T:1", task: "T", round: 1, domain: "D", passes: 1, passingRuns: ["a"], failingRuns: ["b"] }]);
    expect(stability.overall.resolveAtN).toBeNull();
    expect(stability.histogram).toEqual([0, 1, 0]);
  });
});
