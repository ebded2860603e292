import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkDir } from "@/test/support/benchmark-dir";
import {
  aggregateRates,
  compareDomains,
  isOfficialRound,
  isOfficialRow,
  passRate,
  perRunRates,
  resolveRate,
  runSpread,
  sortDomains,
  type RateRow,
  type TurnOutcome,
} from "./rates";

function turn(model: string, runId: string, domain: string, task: string, round: number, passed: boolean, casesPassed: number | null): TurnOutcome {
  return { model, runId, domain, task, round, passed, casesPassed };
}

// m1/r1 has resolve data; its failed or untested turns count 3 cases each, passing 0.
// m1/r2 has none (all null); m2/r1 has one turn and no resolve data.
const OUTCOMES: TurnOutcome[] = [
  turn("m1", "r1", "Research", "T1", 1, true, 3),
  turn("m1", "r1", "Research", "T1", 2, true, 1),
  turn("m1", "r1", "Research", "T1", 4, false, null),
  turn("m1", "r1", "Developer", "T2", 1, false, 0),
  turn("m1", "r1", "Developer", "T2", 2, true, 2),
  turn("m1", "r1", "Zeta", "T3", 1, true, 0),
  turn("m1", "r1", "AIGC", "T4", 3, false, null),
  turn("m1", "r2", "Research", "T1", 1, true, null),
  turn("m1", "r2", "Research", "T1", 2, false, null),
  turn("m1", "r2", "Developer", "T2", 1, true, null),
  turn("m2", "r1", "Education", "T5", 1, true, null),
];

function unwrap<T>(result: { ok: true; value: T } | { ok: false; issues: unknown[] }): T {
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const brief = (row: RateRow) => [row.scope, row.key, row.passNum, row.passDen, row.resolveNum, row.resolveDen];

describe("aggregateRates", () => {
  const rows = unwrap(aggregateRates(OUTCOMES));

  it("pools a model's runs: numerators and denominators summed, resolve over the runs that have it", () => {
    // m1 pass: r1 4 of 7 + r2 2 of 3 = 6/10. Resolve only from r1: 3 + 1 + 0 + 0 + 2 + 0 + 0 = 6 of 3 × 7 = 21.
    // Research: pass 2/3 + 1/2 = 3/5, resolve (3 + 1 + 0)/9; Developer: 1/2 + 1/1 = 2/3, resolve (0 + 2)/6;
    // AIGC: 0/1, resolve 0/3 (r1 has resolve data, so its failed turn counts 3 cases, not null);
    // Zeta: 1/1, resolve 0/3. Unknown domains follow the official ones.
    // Rounds: 1 → T1, T2, T3 (r1) + T1, T2 (r2) = 4 of 5 passed, resolve (3 + 0 + 0)/9;
    //         2 → T1, T2 (r1) + T1 (r2) = 2/3, resolve (1 + 2)/6; 3 → 0/1, 0/3; 4 → 0/1, 0/3.
    expect(rows.filter((row) => row.model === "m1").map(brief)).toEqual([
      ["overall", "all", 6, 10, 6, 21],
      ["domain", "Research", 3, 5, 4, 9],
      ["domain", "Developer", 2, 3, 2, 6],
      ["domain", "AIGC", 0, 1, 0, 3],
      ["domain", "Zeta", 1, 1, 0, 3],
      ["round", "1", 4, 5, 3, 9],
      ["round", "2", 2, 3, 3, 6],
      ["round", "3", 0, 1, 0, 3],
      ["round", "4", 0, 1, 0, 3],
    ]);
  });

  it("leaves resolve null where no pooled run has resolve data", () => {
    expect(rows.filter((row) => row.model === "m2").map(brief)).toEqual([
      ["overall", "all", 1, 1, null, null],
      ["domain", "Education", 1, 1, null, null],
      ["round", "1", 1, 1, null, null],
    ]);
  });

  it("returns nothing for no outcomes", () => {
    expect(aggregateRates([])).toEqual({ ok: true, value: [] });
  });

  it("refuses duplicate turns, a task in two domains, cases on a failed turn and out-of-range values", () => {
    const result = aggregateRates([
      turn("m", "r", "Research", "T", 1, true, 3),
      turn("m", "r", "Research", "T", 1, true, 2),
      turn("m", "r", "Document", "T", 2, true, 1),
      turn("m", "r", "Research", "T", 3, false, 1),
      turn("m", "r", "Research", "T", 0, true, 4),
    ]);
    expect(result.ok || result.issues.map((found) => [found.code, found.path])).toEqual([
      ["duplicate-turn", [1]],
      ["inconsistent-domain", [2, "domain"]],
      ["cases-without-pass", [3, "casesPassed"]],
      ["invalid-outcome", [4, "round"]],
      ["invalid-outcome", [4, "casesPassed"]],
    ]);
  });
});

describe("perRunRates and runSpread", () => {
  it("gives each run its own rows", () => {
    const rows = unwrap(perRunRates(OUTCOMES));
    const overall = rows.filter((row) => row.scope === "overall").map((row) => [row.model, row.runId, row.passNum, row.passDen, row.resolveNum, row.resolveDen]);
    expect(overall).toEqual([
      ["m1", "r1", 4, 7, 6, 21],
      ["m1", "r2", 2, 3, null, null],
      ["m2", "r1", 1, 1, null, null],
    ]);
  });

  it("summarises the per-run rates with min, max, mean and sample standard deviation", () => {
    const rows = unwrap(runSpread(OUTCOMES));
    const overall = rows.find((row) => row.model === "m1" && row.scope === "overall");
    // Pass: r1 4/7, r2 2/3; mean (12/21 + 14/21)/2 = 13/21; each is 1/21 from it, so sd = √(2/21² / (2 − 1)) = √2/21.
    expect(overall?.pass.n).toBe(2);
    expect(overall?.pass.min).toBeCloseTo(4 / 7, 15);
    expect(overall?.pass.max).toBeCloseTo(2 / 3, 15);
    expect(overall?.pass.mean).toBeCloseTo(13 / 21, 15);
    expect(overall?.pass.sd).toBeCloseTo(Math.SQRT2 / 21, 15);
    // Resolve: only r1 has data → one value 6/21, no standard deviation.
    expect(overall?.resolve).toEqual({ n: 1, min: 6 / 21, max: 6 / 21, mean: 6 / 21, sd: null });
    // Developer: r1 1/2, r2 1/1 → mean 0.75, sd = √((0.25² + 0.25²)/1) = 0.353553.
    const developer = rows.find((row) => row.model === "m1" && row.key === "Developer");
    expect(developer?.pass).toMatchObject({ n: 2, min: 0.5, max: 1, mean: 0.75 });
    expect(developer?.pass.sd).toBeCloseTo(Math.sqrt(0.125), 15);
  });

  it("covers overall and domains by default, in model, scope and domain order", () => {
    const rows = unwrap(runSpread(OUTCOMES));
    expect(rows.map((row) => `${row.model}:${row.key}`)).toEqual([
      "m1:all",
      "m1:Research",
      "m1:Developer",
      "m1:AIGC",
      "m1:Zeta",
      "m2:all",
      "m2:Education",
    ]);
    expect(rows.find((row) => row.model === "m2")?.resolve).toBeNull();
    expect(unwrap(runSpread(OUTCOMES, ["round"])).map((row) => row.key)).toEqual(["1", "2", "3", "4", "1"]);
  });
});

describe("domain order, official rounds and rate helpers", () => {
  it("orders the official domains first, others after alphabetically", () => {
    expect(sortDomains(["Zeta", "AIGC", "Alpha", "Research", "Developer", "Research"])).toEqual(["Research", "Developer", "AIGC", "Alpha", "Zeta"]);
    expect(compareDomains("Education", "Document")).toBeGreaterThan(0);
  });

  it("marks rounds 1–3 as the ones the official statistics print", () => {
    expect([1, 2, 3, 4, 5].map(isOfficialRound)).toEqual([true, true, true, false, false]);
    expect(isOfficialRound("3")).toBe(true);
    expect(isOfficialRound("4")).toBe(false);
    expect(isOfficialRow({ scope: "round", key: "4" })).toBe(false);
    expect(isOfficialRow({ scope: "domain", key: "Research" })).toBe(true);
  });

  it("turns counts into rates without dividing by zero", () => {
    expect(passRate({ passNum: 3, passDen: 4 })).toBe(0.75);
    expect(passRate({ passNum: 0, passDen: 0 })).toBeNull();
    expect(resolveRate({ resolveNum: 6, resolveDen: 21 })).toBeCloseTo(2 / 7, 15);
    expect(resolveRate({ resolveNum: null, resolveDen: null })).toBeNull();
  });
});

/** Turns a recorded run into outcomes: pass = `valid`, cases = the testN verdicts (absent on failed turns). */
function outcomesFromRun(dir: string, file: string, domains: Map<string, string>): TurnOutcome[] {
  const records = JSON.parse(readFileSync(path.join(dir, "runs", file), "utf8")) as Record<string, unknown>[];
  const model = file.replace(/\.json$/, "");
  return records.map((record) => {
    const task = String(record.task);
    const tests = [record.test1, record.test2, record.test3];
    return {
      model,
      runId: "recorded",
      task,
      domain: domains.get(task) ?? "unknown",
      round: Number(record.round),
      passed: record.valid === true,
      casesPassed: record.valid === true ? tests.filter((test) => test === true).length : null,
    };
  });
}

describe.skipIf(!benchmarkDir)("on the recorded runs", () => {
  const dir = benchmarkDir ?? "";
  const queries = benchmarkDir ? (JSON.parse(readFileSync(path.join(dir, "dataset", "query.json"), "utf8")) as { task: string; category: string }[]) : [];
  const domains = new Map(queries.map((query) => [query.task, query.category]));
  const files = benchmarkDir ? readdirSync(path.join(dir, "runs")).filter((file) => file.endsWith(".json")) : [];

  it("reproduces the official denominators for every run (spec §6)", () => {
    expect(files.length).toBeGreaterThan(0);
    const outcomes = files.flatMap((file) => outcomesFromRun(dir, file, domains));
    const rows = unwrap(perRunRates(outcomes));
    for (const file of files) {
      const model = file.replace(/\.json$/, "");
      const dens = Object.fromEntries(rows.filter((row) => row.model === model).map((row) => [row.key, [row.passDen, row.resolveDen]]));
      expect(dens).toEqual({
        all: [79, 237],
        Research: [15, 45],
        Document: [15, 45],
        Enterprise: [12, 36],
        Developer: [8, 24],
        Education: [11, 33],
        AIGC: [18, 54],
        "1": [27, 81],
        "2": [27, 81],
        "3": [21, 63],
        "4": [4, 12],
      });
    }
  });

  it("counts GPT-5.2's recorded run as tallied independently from the file", () => {
    // Tallied from runs/gpt_5d2.json: 55 of 79 turns valid, 121 of 237 tests true; Research 12/15 and 29/45,
    // Developer 7/8 and 10/24; round 4: 3/4 and 6/12.
    const rows = unwrap(aggregateRates(outcomesFromRun(dir, "gpt_5d2.json", domains)));
    const pick = (key: string) => rows.filter((row) => row.key === key).map((row) => [row.passNum, row.resolveNum]);
    expect(pick("all")).toEqual([[55, 121]]);
    expect(pick("Research")).toEqual([[12, 29]]);
    expect(pick("Developer")).toEqual([[7, 10]]);
    expect(pick("4")).toEqual([[3, 6]]);
    expect(rows.filter(isOfficialRow).map((row) => row.key)).not.toContain("4");
  });
});
