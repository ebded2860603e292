// A compact encoding of the board for the page payload: counts and percentages the client rebuilds every figure from.
// decode(encode(board)) equals board, except run-to-run spreads (shown to 0.1 pp), which travel to six decimals.

import { CASES_PER_TURN } from "../stats/rates";
import { PUBLISHED_TURNS } from "../published/denominators";
import type { PredictedExecution } from "./predicted";
import { METRICS, SOURCES, measuredMetric, publishedMetric, type Board, type BoardRow, type Metric, type MetricName, type MetricPair, type RankInfo, type Source } from "./board";

/** [num, den] for one run or no spread; [num, den, n, mean, sd, min, max] with the run-to-run spread. */
export type WireMeasured = [number, number] | [number, number, number, number, number | null, number, number] | null;
/** Per column: measured pass, measured resolve, published pass %, published resolve %, and resolve cases not judged. */
export type WireCell = [WireMeasured, WireMeasured, number | null, number | null] | [WireMeasured, WireMeasured, number | null, number | null, number];

export interface WireRow {
  name: string;
  displayName: string;
  family: string | null;
  access: string | null;
  /** Measured series: the model's name, its configuration, its judge and the turns that judge has yet to decide. */
  model?: string;
  configuration?: string;
  judge?: string;
  awaitingJudge?: number;
  predicted?: PredictedExecution;
  runs: number;
  /** 1: measured, 2: published. */
  in: number;
  cells: WireCell[];
  /** Plain rank, tie flag (1/0) and Rank (UB) per source and metric, measured pass first; 0 for none. */
  ranks: number[];
}

export interface WireBoard {
  columns: string[];
  families: string[];
  rows: WireRow[];
}

const six = (value: number) => Math.round(value * 1e6) / 1e6;

function encodeMeasured(metric: Metric | null): WireMeasured {
  if (!metric) return null;
  const spread = metric.spread;
  return spread ? [metric.num, metric.den, spread.n, six(spread.mean), spread.sd === null ? null : six(spread.sd), six(spread.min), six(spread.max)] : [metric.num, metric.den];
}

/** The published percentage back from the metric (rate × 100), rounded to the paper's two decimals. */
const percentOf = (metric: Metric | null) => (metric ? Math.round(metric.rate * 10_000) / 100 : null);

/** The series fields a row has (published-only rows have none). */
function seriesFields(row: Pick<BoardRow, "model" | "configuration" | "judge" | "awaitingJudge" | "predicted">): Pick<WireRow, "model" | "configuration" | "judge" | "awaitingJudge" | "predicted"> {
  return {
    ...(row.model === undefined ? {} : { model: row.model }),
    ...(row.configuration === undefined ? {} : { configuration: row.configuration }),
    ...(row.judge === undefined ? {} : { judge: row.judge }),
    ...(row.awaitingJudge === undefined ? {} : { awaitingJudge: row.awaitingJudge }),
    ...(row.predicted === undefined ? {} : { predicted: row.predicted }),
  };
}

export function encodeBoard(board: Board): WireBoard {
  return {
    columns: board.columns,
    families: board.families,
    rows: board.rows.map((row) => ({
      name: row.name,
      displayName: row.displayName,
      family: row.family,
      access: row.access,
      ...seriesFields(row),
      runs: row.runs,
      in: (row.inMeasured ? 1 : 0) | (row.inPublished ? 2 : 0),
      cells: board.columns.map((column) => {
        const cell = row.cells[column]!;
        const figures: [WireMeasured, WireMeasured, number | null, number | null] = [encodeMeasured(cell.pass.measured), encodeMeasured(cell.resolve.measured), percentOf(cell.pass.published), percentOf(cell.resolve.published)];
        return cell.resolve.notJudged ? [...figures, cell.resolve.notJudged] : figures;
      }),
      ranks: SOURCES.flatMap((source) => METRICS.flatMap((metric) => [row.ranks[source][metric].rank ?? 0, row.ranks[source][metric].tied ? 1 : 0, row.ranks[source][metric].upperBound ?? 0])),
    })),
  };
}

function decodeMeasured(wire: WireMeasured, runs: number): Metric | null {
  if (!wire) return null;
  const spread = wire.length === 7 ? { n: wire[2], mean: wire[3], sd: wire[4], min: wire[5], max: wire[6] } : null;
  return measuredMetric(wire[0], wire[1], runs, spread);
}

function pair(measured: Metric | null, published: Metric | null, notJudged?: number): MetricPair {
  return { measured, published, delta: measured && published ? measured.rate - published.rate : null, ...(notJudged ? { notJudged } : {}) };
}

export function decodeBoard(wire: WireBoard): Board {
  const rows: BoardRow[] = wire.rows.map((row) => {
    const cells: Record<string, Record<MetricName, MetricPair>> = {};
    wire.columns.forEach((column, index) => {
      const [passMeasured, resolveMeasured, passPublished, resolvePublished, notJudged] = row.cells[index] ?? [null, null, null, null];
      const turns = PUBLISHED_TURNS[column] ?? 0;
      cells[column] = {
        pass: pair(decodeMeasured(passMeasured, row.runs), passPublished === null ? null : publishedMetric(passPublished, turns, 1)),
        resolve: pair(decodeMeasured(resolveMeasured, row.runs), resolvePublished === null ? null : publishedMetric(resolvePublished, turns, CASES_PER_TURN), notJudged),
      };
    });
    const ranks = {} as Record<Source, Record<MetricName, RankInfo>>;
    let index = 0;
    for (const source of SOURCES) {
      ranks[source] = {} as Record<MetricName, RankInfo>;
      for (const metric of METRICS) {
        const rank = row.ranks[index] ?? 0;
        const upperBound = row.ranks[index + 2] ?? 0;
        ranks[source][metric] = { rank: rank === 0 ? null : rank, tied: row.ranks[index + 1] === 1, upperBound: upperBound === 0 ? null : upperBound };
        index += 3;
      }
    }
    return {
      name: row.name,
      displayName: row.displayName,
      family: row.family,
      access: row.access,
      ...seriesFields(row),
      inMeasured: (row.in & 1) === 1,
      inPublished: (row.in & 2) === 2,
      runs: row.runs,
      cells,
      ranks,
    };
  });
  return { columns: wire.columns, families: wire.families, rows };
}
