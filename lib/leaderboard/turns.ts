// Per-turn views: the verdicts of one response (pass, fail step, the three test cases) in words and tones, and the
// task matrix (one row per run, one column per turn). Tones always come with text, so colour never carries alone.

import { CASES_PER_TURN } from "../stats/rates";
import type { Column } from "./export";

export type CaseState = "pass" | "fail" | "not-run" | "not-judged" | "unknown";

/**
 * The three test cases of a turn. A turn that failed the pass stage was never run, and each of its cases counts as
 * failed in the resolve rate; a run without resolve data (raw model output) has nothing to say about them.
 */
export function caseStates(valid: boolean, hasResolve: boolean, verdicts: ReadonlyMap<number, boolean | null>): CaseState[] {
  return Array.from({ length: CASES_PER_TURN }, (_, index) => {
    if (!hasResolve) return "unknown";
    if (!valid) return "not-run";
    const verdict = verdicts.get(index + 1);
    // A null verdict: text outputs no LLM judge has answered yet, neither resolved nor failed.
    if (verdict === null) return "not-judged";
    return verdict === undefined ? "fail" : verdict ? "pass" : "fail";
  });
}

export type Tone = "good" | "partial" | "pass-only" | "bad" | "missing";

export interface TurnVerdict {
  valid: boolean;
  failStep: string | null;
  /** Cases resolved, null when the run has no resolve data. */
  casesPassed: number | null;
  /** Cases whose text outputs no LLM judge has answered: neither resolved nor failed (0 when absent). */
  casesNotJudged?: number;
}

export function toneOf(verdict: TurnVerdict | null): Tone {
  if (verdict === null) return "missing";
  if (!verdict.valid) return "bad";
  if (verdict.casesPassed === null || (verdict.casesPassed === CASES_PER_TURN && !verdict.casesNotJudged)) return "good";
  return verdict.casesPassed === 0 ? "pass-only" : "partial";
}

/** Short visible text for a cell, e.g. "✓ 2/3", "✓ 1/3 · 2 not judged" or "✗ step_1_2". */
export function verdictText(verdict: TurnVerdict | null): string {
  if (verdict === null) return "—";
  if (!verdict.valid) return `✗ ${verdict.failStep ?? "failed"}`;
  if (verdict.casesPassed === null) return "✓ pass";
  return `✓ ${verdict.casesPassed}/${CASES_PER_TURN}${verdict.casesNotJudged ? ` · ${verdict.casesNotJudged} not judged` : ""}`;
}

/** The same in full words, for screen readers and titles. */
export function verdictLabel(verdict: TurnVerdict | null): string {
  if (verdict === null) return "no response";
  if (!verdict.valid) return `failed the pass stage${verdict.failStep ? ` at ${verdict.failStep}` : ""}`;
  const resolve =
    verdict.casesPassed === null
      ? "no resolve data"
      : `${verdict.casesPassed} of ${CASES_PER_TURN} test cases resolved${verdict.casesNotJudged ? `, ${verdict.casesNotJudged} not judged (no LLM judge has answered them)` : ""}`;
  return `passed; ${resolve}`;
}

// -- the task matrix -----------------------------------------------------------------------------------------------

export interface MatrixTurn {
  turnId: string;
  round: number;
  key: string;
}

export interface MatrixRun {
  runId: string;
  model: string;
  displayName: string;
  label: string;
  hasResolve: boolean;
  /** The run's leaderboard row (model × configuration) and the judge of its verdicts, when known. */
  series?: string;
  judge?: string;
}

export interface MatrixResponse {
  responseId: string;
  runId: string;
  turnId: string;
  valid: boolean;
  failStep: string | null;
  /** Resolved cases stored for the response (0 when none). */
  casesPassed: number;
  /** Cases stored without a verdict: not judged (0 when none). */
  casesNotJudged?: number;
}

export interface MatrixCell extends TurnVerdict {
  responseId: string | null;
  tone: Tone;
}

export interface MatrixRow extends MatrixRun {
  /** Show the run label beside the model: the model has several runs here. */
  showLabel: boolean;
  cells: MatrixCell[];
  passed: number;
  responses: number;
}

export interface MatrixColumn extends MatrixTurn {
  passed: number;
  responses: number;
}

export interface TaskMatrix {
  columns: MatrixColumn[];
  rows: MatrixRow[];
}

const compareText = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0);

/** Rows by model display name (then run order as given); columns by round. */
export function buildTaskMatrix(turns: readonly MatrixTurn[], runs: readonly MatrixRun[], responses: readonly MatrixResponse[]): TaskMatrix {
  const sortedTurns = [...turns].sort((a, b) => a.round - b.round);
  const byCell = new Map(responses.map((response) => [`${response.runId}\u0000${response.turnId}`, response]));
  const runsPerModel = new Map<string, number>();
  for (const run of runs) runsPerModel.set(run.model, (runsPerModel.get(run.model) ?? 0) + 1);
  const order = new Map(runs.map((run, index) => [run.runId, index]));
  const rows = [...runs]
    .sort((a, b) => compareText(a.displayName, b.displayName) || compareText(a.model, b.model) || (order.get(a.runId) ?? 0) - (order.get(b.runId) ?? 0))
    .map((run): MatrixRow => {
      const cells = sortedTurns.map((turn): MatrixCell => {
        const response = byCell.get(`${run.runId}\u0000${turn.turnId}`);
        if (!response) return { responseId: null, valid: false, failStep: null, casesPassed: null, tone: "missing" };
        const notJudged = run.hasResolve && response.valid ? (response.casesNotJudged ?? 0) : 0;
        const verdict: TurnVerdict = { valid: response.valid, failStep: response.failStep, casesPassed: run.hasResolve ? response.casesPassed : null, ...(notJudged > 0 ? { casesNotJudged: notJudged } : {}) };
        return { ...verdict, responseId: response.responseId, tone: toneOf(verdict) };
      });
      return {
        ...run,
        showLabel: (runsPerModel.get(run.model) ?? 0) > 1,
        cells,
        passed: cells.filter((cell) => cell.responseId !== null && cell.valid).length,
        responses: cells.filter((cell) => cell.responseId !== null).length,
      };
    });
  const columns = sortedTurns.map((turn, index): MatrixColumn => {
    const present = rows.map((row) => row.cells[index]!).filter((cell) => cell.responseId !== null);
    return { ...turn, passed: present.filter((cell) => cell.valid).length, responses: present.length };
  });
  return { columns, rows };
}

/** The matrix flattened to one row per response, for export. */
export interface MatrixExportRow {
  model: string;
  run: string;
  /** Who made the run's verdicts. */
  judge: string | null;
  turn: string;
  round: number;
  responseId: string | null;
  valid: boolean | null;
  failStep: string | null;
  casesPassed: number | null;
  casesNotJudged: number | null;
}

export function matrixExportRows(matrix: TaskMatrix): MatrixExportRow[] {
  return matrix.rows.flatMap((row) =>
    matrix.columns.map((column, index) => {
      const cell = row.cells[index]!;
      return {
        model: row.model,
        run: row.label,
        judge: row.judge ?? null,
        turn: column.key,
        round: column.round,
        responseId: cell.responseId,
        valid: cell.responseId === null ? null : cell.valid,
        failStep: cell.failStep,
        casesPassed: cell.casesPassed,
        casesNotJudged: cell.casesPassed === null ? null : (cell.casesNotJudged ?? 0),
      };
    }),
  );
}

export const MATRIX_COLUMNS: readonly Column<MatrixExportRow>[] = [
  { key: "model", value: (row) => row.model },
  { key: "run", value: (row) => row.run },
  { key: "judge", value: (row) => row.judge },
  { key: "turn", value: (row) => row.turn },
  { key: "round", value: (row) => row.round },
  { key: "responseId", value: (row) => row.responseId },
  { key: "valid", value: (row) => row.valid },
  { key: "failStep", value: (row) => row.failStep },
  { key: "casesPassed", value: (row) => row.casesPassed },
  { key: "casesNotJudged", value: (row) => row.casesNotJudged },
];

// -- a model's turns (drill-down) ----------------------------------------------------------------------------------

export interface ModelTurnRow {
  responseId: string;
  runId: string;
  runLabel: string;
  task: string;
  domain: string;
  round: number;
  turn: string;
  valid: boolean;
  failStep: string | null;
  topDiagnosticCode: string | null;
  topDiagnosticMessage: string | null;
  cases: CaseState[];
}

export const MODEL_TURN_COLUMNS: readonly Column<ModelTurnRow>[] = [
  { key: "run", value: (row) => row.runLabel },
  { key: "task", value: (row) => row.task },
  { key: "domain", value: (row) => row.domain },
  { key: "round", value: (row) => row.round },
  { key: "turn", value: (row) => row.turn },
  { key: "valid", value: (row) => row.valid },
  { key: "failStep", value: (row) => row.failStep },
  { key: "topDiagnosticCode", value: (row) => row.topDiagnosticCode },
  { key: "topDiagnosticMessage", value: (row) => row.topDiagnosticMessage },
  ...[0, 1, 2].map((index): Column<ModelTurnRow> => ({ key: `test${index + 1}`, value: (row) => row.cases[index] ?? null })),
  { key: "responseId", value: (row) => row.responseId },
];

export interface TurnSummary {
  turns: number;
  passed: number;
  /** Resolved cases and 3 × turns, over the turns of runs with resolve data; null when none has any or some are not judged. */
  casesPassed: number | null;
  cases: number | null;
  /** Cases not judged yet: while any is, there is no resolve rate. */
  casesNotJudged: number;
}

/** The pass and resolve counts of a list of turns, by the official definitions (every turn counts 3 cases). */
export function summarizeTurns(rows: readonly Pick<ModelTurnRow, "valid" | "cases">[]): TurnSummary {
  const withResolve = rows.filter((row) => row.cases.every((state) => state !== "unknown"));
  const casesNotJudged = rows.reduce((sum, row) => sum + row.cases.filter((state) => state === "not-judged").length, 0);
  const rated = withResolve.length > 0 && casesNotJudged === 0;
  return {
    turns: rows.length,
    passed: rows.filter((row) => row.valid).length,
    casesPassed: rated ? withResolve.reduce((sum, row) => sum + row.cases.filter((state) => state === "pass").length, 0) : null,
    cases: rated ? CASES_PER_TURN * withResolve.length : null,
    casesNotJudged,
  };
}

// -- the matrix on the wire ----------------------------------------------------------------------------------------

/** [responseId, valid (1/0), failStep, casesPassed, casesNotJudged when any]; null for a turn the run did not answer. */
export type WireMatrixCell = [string, number, string | null, number | null] | [string, number, string | null, number | null, number] | null;

export interface WireMatrix {
  turns: MatrixTurn[];
  runs: MatrixRun[];
  /** Per run (same order), per turn (same order). */
  cells: WireMatrixCell[][];
}

/** The matrix's inputs in compact form; decodeMatrix rebuilds the same matrix (rows keep their order). */
export function encodeMatrix(matrix: TaskMatrix): WireMatrix {
  return {
    turns: matrix.columns.map(({ turnId, round, key }) => ({ turnId, round, key })),
    runs: matrix.rows.map(({ runId, model, displayName, label, hasResolve, series, judge }) => ({ runId, model, displayName, label, hasResolve, ...(series === undefined ? {} : { series }), ...(judge === undefined ? {} : { judge }) })),
    cells: matrix.rows.map((row) =>
      row.cells.map((cell): WireMatrixCell => {
        if (cell.responseId === null) return null;
        return cell.casesNotJudged ? [cell.responseId, cell.valid ? 1 : 0, cell.failStep, cell.casesPassed, cell.casesNotJudged] : [cell.responseId, cell.valid ? 1 : 0, cell.failStep, cell.casesPassed];
      }),
    ),
  };
}

export function decodeMatrix(wire: WireMatrix): TaskMatrix {
  const responses: MatrixResponse[] = [];
  wire.runs.forEach((run, runIndex) =>
    wire.turns.forEach((turn, turnIndex) => {
      const cell = wire.cells[runIndex]?.[turnIndex];
      if (cell) responses.push({ responseId: cell[0], runId: run.runId, turnId: turn.turnId, valid: cell[1] === 1, failStep: cell[2], casesPassed: cell[3] ?? 0, ...(cell[4] ? { casesNotJudged: cell[4] } : {}) });
    }),
  );
  return buildTaskMatrix(wire.turns, wire.runs, responses);
}

const TONE_RANK: Record<Tone, number> = { good: 0, partial: 1, "pass-only": 2, bad: 3, missing: 4 };

/**
 * The pair a round's "Compare models" link opens: the best answer of that round (passes, most test cases resolved)
 * against the worst (fails, or resolves least), so the diff shows what separates them; the first two answers when
 * every answer scored the same. Null with fewer than two answers.
 */
export function comparisonPair(matrix: Pick<TaskMatrix, "rows">, column: number): { a: string; b: string } | null {
  const answered = matrix.rows
    .map((row, order) => ({ row, order, cell: row.cells[column] }))
    .filter((entry): entry is { row: MatrixRow; order: number; cell: MatrixCell } => entry.cell !== undefined && entry.cell.responseId !== null);
  if (answered.length < 2) return null;
  const score = (cell: MatrixCell) => TONE_RANK[cell.tone] * 100 - (cell.casesPassed ?? 0);
  const ranked = [...answered].sort((x, y) => score(x.cell) - score(y.cell) || x.order - y.order);
  const best = ranked[0]!;
  const worst = ranked[ranked.length - 1]!;
  if (score(best.cell) === score(worst.cell)) return { a: answered[0]!.row.runId, b: answered[1]!.row.runId };
  return { a: best.row.runId, b: worst.row.runId };
}
