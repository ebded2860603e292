import { describe, expect, it } from "vitest";
import { buildTaskMatrix, caseStates, comparisonPair, decodeMatrix, encodeMatrix, matrixExportRows, summarizeTurns, toneOf, verdictLabel, verdictText, type MatrixCell, type MatrixRow } from "./turns";

describe("turn verdicts", () => {
  it("reads the three test cases: run and judged, not run after a pass-stage failure, or unknown without resolve data", () => {
    expect(caseStates(true, true, new Map([[1, true], [2, false], [3, true]]))).toEqual(["pass", "fail", "pass"]);
    // A passing turn without a stored case counts it as not resolved (the official denominator counts it).
    expect(caseStates(true, true, new Map([[1, true]]))).toEqual(["pass", "fail", "fail"]);
    expect(caseStates(false, true, new Map())).toEqual(["not-run", "not-run", "not-run"]);
    expect(caseStates(true, false, new Map())).toEqual(["unknown", "unknown", "unknown"]);
  });

  it("words every tone, so colour never carries alone", () => {
    expect(toneOf({ valid: true, failStep: null, casesPassed: 3 })).toBe("good");
    expect(toneOf({ valid: true, failStep: null, casesPassed: null })).toBe("good");
    expect(toneOf({ valid: true, failStep: null, casesPassed: 1 })).toBe("partial");
    expect(toneOf({ valid: true, failStep: null, casesPassed: 0 })).toBe("pass-only");
    expect(toneOf({ valid: false, failStep: "step_1_2", casesPassed: 0 })).toBe("bad");
    expect(verdictText({ valid: false, failStep: "step_1_2", casesPassed: 0 })).toBe("✗ step_1_2");
    expect(verdictText({ valid: true, failStep: null, casesPassed: 2 })).toBe("✓ 2/3");
    expect(verdictLabel({ valid: true, failStep: null, casesPassed: 2 })).toBe("passed; 2 of 3 test cases resolved");
    expect(verdictLabel(null)).toBe("no response");
  });

  it("summarizes turns by the official definitions", () => {
    const summary = summarizeTurns([
      { valid: true, cases: ["pass", "fail", "pass"] },
      { valid: false, cases: ["not-run", "not-run", "not-run"] },
      { valid: true, cases: ["pass", "pass", "pass"] },
    ]);
    expect(summary).toEqual({ turns: 3, passed: 2, casesPassed: 5, cases: 9, casesNotJudged: 0 });
    expect(summarizeTurns([{ valid: true, cases: ["unknown", "unknown", "unknown"] }])).toEqual({ turns: 1, passed: 1, casesPassed: null, cases: null, casesNotJudged: 0 });
  });

  it("gives no resolve rate while a case is not judged, and counts those cases", () => {
    expect(caseStates(true, true, new Map([[1, true], [2, null], [3, false]]))).toEqual(["pass", "not-judged", "fail"]);
    expect(caseStates(false, true, new Map([[1, null]]))).toEqual(["not-run", "not-run", "not-run"]);
    const summary = summarizeTurns([
      { valid: true, cases: ["pass", "not-judged", "not-judged"] },
      { valid: true, cases: ["pass", "pass", "fail"] },
    ]);
    expect(summary).toEqual({ turns: 2, passed: 2, casesPassed: null, cases: null, casesNotJudged: 2 });
  });
});

describe("the task matrix", () => {
  const turns = [
    { turnId: "t2", round: 2, key: "T_2" },
    { turnId: "t1", round: 1, key: "T_1" },
  ];
  const runs = [
    { runId: "r1", model: "zeta", displayName: "Zeta", label: "zeta.json", hasResolve: true },
    { runId: "r2", model: "alpha", displayName: "Alpha", label: "alpha.json", hasResolve: true },
    { runId: "r3", model: "alpha", displayName: "Alpha", label: "alpha-2.json", hasResolve: false },
  ];
  const matrix = buildTaskMatrix(turns, runs, [
    { responseId: "x1", runId: "r1", turnId: "t1", valid: true, failStep: null, casesPassed: 2 },
    { responseId: "x2", runId: "r1", turnId: "t2", valid: false, failStep: "step_1_3", casesPassed: 0 },
    { responseId: "x3", runId: "r2", turnId: "t1", valid: true, failStep: null, casesPassed: 3 },
    { responseId: "x4", runId: "r3", turnId: "t1", valid: true, failStep: null, casesPassed: 0 },
  ]);

  it("has a column per turn in round order and a row per run, sorted by model", () => {
    expect(matrix.columns.map((column) => [column.key, column.passed, column.responses])).toEqual([
      ["T_1", 3, 3],
      ["T_2", 0, 1],
    ]);
    expect(matrix.rows.map((row) => [row.runId, row.showLabel, row.passed, row.responses])).toEqual([
      ["r2", true, 1, 1],
      ["r3", true, 1, 1],
      ["r1", false, 1, 2],
    ]);
  });

  it("links each cell to its response, marks missing ones, and knows runs without resolve data", () => {
    const alpha = matrix.rows[0]!;
    expect(alpha.cells.map((cell) => [cell.responseId, cell.tone])).toEqual([
      ["x3", "good"],
      [null, "missing"],
    ]);
    expect(matrix.rows[1]!.cells[0]!.casesPassed).toBeNull();
    expect(matrix.rows[2]!.cells.map((cell) => cell.tone)).toEqual(["partial", "bad"]);
    expect(matrixExportRows(matrix)).toHaveLength(6);
    expect(matrixExportRows(matrix)[1]).toMatchObject({ model: "alpha", turn: "T_2", responseId: null, valid: null });
  });
});

describe("the matrix on the wire", () => {
  it("decodes to the matrix it encodes", () => {
    const matrix = buildTaskMatrix(
      [
        { turnId: "t1", round: 1, key: "T_1" },
        { turnId: "t2", round: 2, key: "T_2" },
      ],
      [
        { runId: "r1", model: "b", displayName: "B", label: "b.json", hasResolve: true },
        { runId: "r2", model: "a", displayName: "A", label: "a.json", hasResolve: false },
      ],
      [
        { responseId: "x1", runId: "r1", turnId: "t1", valid: true, failStep: null, casesPassed: 2 },
        { responseId: "x2", runId: "r2", turnId: "t2", valid: false, failStep: "step_1_1", casesPassed: 0 },
      ],
    );
    expect(decodeMatrix(JSON.parse(JSON.stringify(encodeMatrix(matrix))))).toEqual(matrix);
  });

  it("keeps a turn's cases not judged, so its cell says so instead of counting them failed", () => {
    const matrix = buildTaskMatrix(
      [{ turnId: "t1", round: 1, key: "T_1" }],
      [{ runId: "r1", model: "b", displayName: "B", label: "b.json", hasResolve: true }],
      [{ responseId: "x1", runId: "r1", turnId: "t1", valid: true, failStep: null, casesPassed: 1, casesNotJudged: 2 }],
    );
    const cell = matrix.rows[0]!.cells[0]!;
    expect(verdictText(cell)).toBe("✓ 1/3 · 2 not judged");
    expect(verdictLabel(cell)).toBe("passed; 1 of 3 test cases resolved, 2 not judged (no LLM judge has answered them)");
    expect(matrixExportRows(matrix)[0]).toMatchObject({ casesPassed: 1, casesNotJudged: 2 });
    expect(decodeMatrix(JSON.parse(JSON.stringify(encodeMatrix(matrix))))).toEqual(matrix);
    expect(toneOf(cell)).toBe("partial");
    expect(toneOf({ valid: true, failStep: null, casesPassed: 0, casesNotJudged: 3 })).toBe("pass-only");
  });
});

describe("comparisonPair", () => {
  const cell = (responseId: string | null, tone: MatrixCell["tone"], casesPassed: number | null): MatrixCell => ({ responseId, tone, casesPassed, valid: tone !== "bad", failStep: null });
  const row = (runId: string, cells: MatrixCell[]) => ({ runId, cells }) as unknown as MatrixRow;

  it("pairs the round's best answer with its worst, skipping runs without an answer", () => {
    const rows = [row("a", [cell(null, "missing", null)]), row("b", [cell("rb", "partial", 1)]), row("c", [cell("rc", "bad", 0)]), row("d", [cell("rd", "good", 3)])];
    expect(comparisonPair({ rows }, 0)).toEqual({ a: "d", b: "c" });
  });

  it("falls back to the first two answers when all scored alike, and to null with fewer than two", () => {
    expect(comparisonPair({ rows: [row("a", [cell("x", "good", 3)]), row("b", [cell("y", "good", 3)]), row("c", [cell("z", "good", 3)])] }, 0)).toEqual({ a: "a", b: "b" });
    expect(comparisonPair({ rows: [row("a", [cell("x", "good", 3)]), row("b", [cell(null, "missing", null)])] }, 0)).toBeNull();
  });
});
