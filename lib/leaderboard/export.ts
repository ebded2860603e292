// CSV and JSON renderings of the app's tables, shared by the download buttons, the export route and the CLI so all
// three produce the same bytes. CSV follows RFC 4180 and defuses text cells a spreadsheet would run as formulas.

import { csvDocument, type CellValue } from "../csv";
import { isOfficialRow, type RateRow } from "../stats/rates";
import { PREDICTED_EXECUTION_LABEL, type PredictedExecution } from "./predicted";

export type { CellValue };

export interface Column<Row> {
  /** Key in the JSON rows and header of the CSV column. */
  key: string;
  value: (row: Row) => CellValue;
}

export type ExportFormat = "csv" | "json";

export function toCsv<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  return csvDocument(columns.map((column) => column.key), rows.map((row) => columns.map((column) => column.value(row))));
}

export function toJsonRows<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): Record<string, CellValue>[] {
  return rows.map((row) => Object.fromEntries(columns.map((column) => [column.key, column.value(row)])));
}

export function render<Row>(columns: readonly Column<Row>[], rows: readonly Row[], format: ExportFormat): string {
  return format === "csv" ? toCsv(columns, rows) : `${JSON.stringify(toJsonRows(columns, rows), null, 2)}\n`;
}

export const MIME_TYPES: Record<ExportFormat, string> = { csv: "text/csv; charset=utf-8", json: "application/json; charset=utf-8" };

/** A file name made of safe characters only, e.g. "leaderboard-measured-chat2workflow.csv". */
export function exportFileName(parts: readonly string[], format: ExportFormat): string {
  const stem = parts
    .map((part) => part.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, ""))
    .filter((part) => part.length > 0)
    .join("-");
  return `${stem || "export"}.${format}`;
}

/** One leaderboard export row: the counts behind a rate, for a model overall, in a domain or in a round. */
export interface LeaderboardExportRow {
  model: string;
  /** Measured rows: how the pooled runs were made and judged ("official recorded run"; "Zero-shot (official) · T 0.7 · …"). */
  configuration?: string;
  /** Measured rows: who judged them ("recorded verdicts", "judge: gpt-5.1 ×1", "rule judge (not the official LLM judge)"). */
  judge?: string;
  scope: RateRow["scope"];
  key: string;
  passNum: number;
  passDen: number;
  resolveNum: number | null;
  resolveDen: number | null;
  /** Measured rows with test cases not judged yet: how many (resolveNum and resolveDen are then null). */
  resolveNotJudged?: number;
  /** Published rows: the percentages as printed (the counts are derived from them, for intervals). */
  passPercent?: number;
  resolvePercent?: number | null;
  /** Measured overall rows with dry-run results: the row's predicted execution (ours, not a resolve rate). */
  predicted?: PredictedExecution;
}

export const LEADERBOARD_COLUMNS: readonly Column<LeaderboardExportRow>[] = [
  { key: "model", value: (row) => row.model },
  { key: "scope", value: (row) => row.scope },
  { key: "key", value: (row) => row.key },
  { key: "passNum", value: (row) => row.passNum },
  { key: "passDen", value: (row) => row.passDen },
  { key: "resolveNum", value: (row) => row.resolveNum },
  { key: "resolveDen", value: (row) => row.resolveDen },
];

/**
 * Rate rows as exported. By default only what the official statistics print: overall, every domain, rounds 1–3
 * (round 4 has too few turns for a per-round line, but counts in the overall and domain rows).
 */
export function leaderboardExportRows(rows: readonly (RateRow & Pick<LeaderboardExportRow, "configuration" | "judge" | "predicted">)[], options: { allRounds?: boolean } = {}): LeaderboardExportRow[] {
  return rows
    .filter((row) => options.allRounds || isOfficialRow(row))
    .map((row) => ({
      model: row.model,
      ...(row.configuration === undefined ? {} : { configuration: row.configuration, judge: row.judge ?? "" }),
      scope: row.scope,
      key: row.key,
      passNum: row.passNum,
      passDen: row.passDen,
      resolveNum: row.resolveNum,
      resolveDen: row.resolveDen,
      ...(row.resolveNotJudged ? { resolveNotJudged: row.resolveNotJudged } : {}),
      ...(row.passPercent === undefined ? {} : { passPercent: row.passPercent, resolvePercent: row.resolvePercent ?? null }),
      ...(row.predicted === undefined ? {} : { predicted: row.predicted }),
    }));
}

/**
 * Ours, after the measured figures and empty unless a row's runs were dry-run (overall rows only): executions predicted
 * to reach the judge of those counted, the passing turns and fully dry-run runs they cover, and runs only partly dry-run.
 */
export const PREDICTED_EXECUTION_COLUMNS: readonly Column<{ predicted?: PredictedExecution }>[] = [
  { key: "predictedExecutionNum", value: (row) => (row.predicted ? row.predicted.reached : null) },
  { key: "predictedExecutionDen", value: (row) => (row.predicted ? row.predicted.executions : null) },
  { key: "predictedExecutionTurns", value: (row) => (row.predicted ? row.predicted.turns : null) },
  { key: "predictedExecutionRuns", value: (row) => (row.predicted ? row.predicted.runs : null) },
  { key: "predictedExecutionPartialRuns", value: (row) => (row.predicted ? row.predicted.partialRuns : null) },
  { key: "predictedExecutionBy", value: (row) => (row.predicted ? PREDICTED_EXECUTION_LABEL : null) },
];

/** Measured rows name the configuration and judge of each row: rows of one model differ by them. */
export const MEASURED_LEADERBOARD_COLUMNS: readonly Column<LeaderboardExportRow>[] = [
  LEADERBOARD_COLUMNS[0]!,
  { key: "configuration", value: (row) => row.configuration ?? null },
  { key: "judge", value: (row) => row.judge ?? null },
  ...LEADERBOARD_COLUMNS.slice(1),
  ...PREDICTED_EXECUTION_COLUMNS,
];

/**
 * Published figures add the percentages exactly as the paper prints them: their counts (rate × runs × turns, rounded)
 * serve intervals and pooling, and dividing them can differ from the printed figure in the last digit.
 */
export const PUBLISHED_LEADERBOARD_COLUMNS: readonly Column<LeaderboardExportRow>[] = [
  ...LEADERBOARD_COLUMNS,
  { key: "passPercent", value: (row) => row.passPercent ?? null },
  { key: "resolvePercent", value: (row) => row.resolvePercent ?? null },
];

export function leaderboardColumns(source: "measured" | "published"): readonly Column<LeaderboardExportRow>[] {
  return source === "published" ? PUBLISHED_LEADERBOARD_COLUMNS : MEASURED_LEADERBOARD_COLUMNS;
}
