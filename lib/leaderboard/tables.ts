// The app's exportable tables by name, so a download button given a table name and its rows renders the same
// columns as the CLI; plus the wide "as shown" leaderboard table, whose columns depend on the benchmark's domains.

import type { BoardRow, MetricName } from "./board";
import { CATEGORY_COLUMNS, DOMAIN_COLUMNS, FAIL_STEP_COLUMNS, ROUND_COLUMNS, SCATTER_COLUMNS } from "./charts";
import { DISCORDANT_COLUMNS } from "./compare";
import { LEADERBOARD_COLUMNS, PREDICTED_EXECUTION_COLUMNS, type Column } from "./export";
import { MATRIX_COLUMNS, MODEL_TURN_COLUMNS } from "./turns";
import { primarySource, type BoardState } from "./view";

export interface TaskExportRow {
  task: string;
  domain: string;
  rounds: number;
  turns: number;
  responses: number;
  passed: number;
  passRate: number | null;
  casesPassed: number | null;
  cases: number | null;
  /** Cases no LLM judge has answered: while any is, there is no resolve rate. */
  casesNotJudged: number | null;
  resolveRate: number | null;
}

/** A task's pooled counts over every run's responses (and, for resolve, over the runs with resolve data). */
export interface TaskCounts {
  name: string;
  domain: string;
  rounds: number;
  turns: number;
  responses: number;
  passed: number;
  resolveResponses: number;
  casesPassed: number;
  /** Cases of those responses no LLM judge has answered (0 when absent). */
  casesNotJudged?: number;
}

export function taskExportRow(task: TaskCounts): TaskExportRow {
  const hasResolve = task.resolveResponses > 0;
  const notJudged = task.casesNotJudged ?? 0;
  return {
    task: task.name,
    domain: task.domain,
    rounds: task.rounds,
    turns: task.turns,
    responses: task.responses,
    passed: task.passed,
    passRate: task.responses ? task.passed / task.responses : null,
    casesPassed: hasResolve ? task.casesPassed : null,
    cases: hasResolve ? 3 * task.resolveResponses : null,
    casesNotJudged: hasResolve ? notJudged : null,
    resolveRate: hasResolve && notJudged === 0 ? task.casesPassed / (3 * task.resolveResponses) : null,
  };
}

export const TASK_COLUMNS: readonly Column<TaskExportRow>[] = [
  { key: "task", value: (row) => row.task },
  { key: "domain", value: (row) => row.domain },
  { key: "rounds", value: (row) => row.rounds },
  { key: "turns", value: (row) => row.turns },
  { key: "responses", value: (row) => row.responses },
  { key: "passed", value: (row) => row.passed },
  { key: "passRate", value: (row) => row.passRate },
  { key: "casesPassed", value: (row) => row.casesPassed },
  { key: "cases", value: (row) => row.cases },
  { key: "resolveRate", value: (row) => row.resolveRate },
  { key: "casesNotJudged", value: (row) => row.casesNotJudged },
];

export const EXPORT_TABLES = {
  leaderboard: LEADERBOARD_COLUMNS,
  rounds: ROUND_COLUMNS,
  failSteps: FAIL_STEP_COLUMNS,
  categories: CATEGORY_COLUMNS,
  domains: DOMAIN_COLUMNS,
  scatter: SCATTER_COLUMNS,
  matrix: MATRIX_COLUMNS,
  modelTurns: MODEL_TURN_COLUMNS,
  discordant: DISCORDANT_COLUMNS,
  tasks: TASK_COLUMNS,
} as const;

export type ExportTableName = keyof typeof EXPORT_TABLES;
export type RowOf<Name extends ExportTableName> = (typeof EXPORT_TABLES)[Name] extends readonly Column<infer Row>[] ? Row : never;

/** One wide row per model, as the leaderboard shows it (the rows filtered and sorted by the view). */
export type BoardViewRow = BoardRow;

/**
 * Columns of the leaderboard as shown: rank, model, then per column the rate of each metric for the view's source
 * (side by side: measured, published and their difference), with the counts they rest on.
 */
/** The table as shown; with `predicted` (the page shows that column) the rows end with the predicted execution. */
export function boardViewColumns(columns: readonly string[], state: Pick<BoardState, "source" | "rankBy">, predicted = false): Column<BoardRow>[] {
  const source = primarySource(state.source);
  const out: Column<BoardRow>[] = [
    { key: "rank", value: (row) => row.ranks[source][state.rankBy].rank },
    { key: "rank_ub", value: (row) => row.ranks[source][state.rankBy].upperBound },
    { key: "model", value: (row) => row.model ?? row.name },
    { key: "configuration", value: (row) => row.configuration ?? null },
    { key: "judge", value: (row) => row.judge ?? null },
    { key: "displayName", value: (row) => row.displayName },
    { key: "family", value: (row) => row.family },
    { key: "access", value: (row) => row.access },
    { key: "runs", value: (row) => row.runs },
  ];
  const metrics: MetricName[] = ["pass", "resolve"];
  const sources = state.source === "both" ? (["measured", "published"] as const) : ([state.source] as const);
  for (const column of columns) {
    for (const metric of metrics) {
      for (const which of sources) {
        const prefix = state.source === "both" ? `${column} ${metric} ${which}` : `${column} ${metric}`;
        out.push({ key: `${prefix} rate`, value: (row) => row.cells[column]?.[metric][which]?.rate ?? null });
        out.push({ key: `${prefix} num`, value: (row) => row.cells[column]?.[metric][which]?.num ?? null });
        out.push({ key: `${prefix} den`, value: (row) => row.cells[column]?.[metric][which]?.den ?? null });
      }
      if (state.source === "both") out.push({ key: `${column} ${metric} delta`, value: (row) => row.cells[column]?.[metric].delta ?? null });
    }
  }
  if (predicted) out.push(...PREDICTED_EXECUTION_COLUMNS);
  return out;
}
