import "server-only";
// Leaderboard data: benchmarks to choose from, measured counts (each run's own judge: run-counts.ts; a chosen judge:
// judged-by.ts), published figures, and failure counts. Every function checks the actor may read before it queries.
import { buildBoard, publishedRateRows, type Board, type ModelInfo, type PublishedFigure } from "@/lib/leaderboard/board";
import type { PredictedExecution } from "@/lib/leaderboard/predicted";
import { DEMO_IMPORTER, benchmarkParam, chooseBenchmark, defaultBenchmark, orderBenchmarks, type BenchmarkChoice } from "@/lib/leaderboard/benchmarks";
import { ratesFromCounts, summarizeCounts } from "@/lib/leaderboard/counts";
import { encodeBoard, type WireBoard } from "@/lib/leaderboard/wire";
import { RECORDED_CHOICE, describeJudgeChoice, type JudgeChoice } from "@/lib/judge/choice";
import { PUBLISHED_SOURCE, PUBLISHED_TABLE1 } from "@/lib/published/table1";
import type { RateRow } from "@/lib/stats/rates";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import { getPredictedExecution } from "./dry-run";
import { getJudgedCounts, getJudgedFailureCounts, type RunJudging } from "./judged-by";
import { cachedRead } from "./read-cache";
import { countsPerSeries, getOwnJudgeCounts, int, type FailureCounts, type MeasuredCounts, type RunInfo } from "./run-counts";
import { getDefaultBenchmarkSetting } from "./settings";
import type { SessionUser } from "../session";

export async function listBenchmarkChoices(db: Database, actor: SessionUser | null): Promise<BenchmarkChoice[]> {
  assertAllowed(actor, "read");
  const rows = await db.$queryRawUnsafe<{ id: string; name: string; version: string; importedAt: unknown; importedBy: string | null; runCount: unknown; turnCount: unknown }[]>(
    `SELECT b."id" AS id, b."name" AS name, b."version" AS version, b."importedAt" AS "importedAt", b."importedBy" AS "importedBy",
            (SELECT COUNT(*) FROM "Run" r WHERE r."benchmarkId" = b."id") AS "runCount",
            (SELECT COUNT(*) FROM "Turn" t WHERE t."benchmarkId" = b."id") AS "turnCount"
     FROM "Benchmark" b`,
  );
  return orderBenchmarks(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      version: row.version,
      runCount: int(row.runCount),
      turnCount: int(row.turnCount),
      importedAt: row.importedAt instanceof Date ? row.importedAt.toISOString() : typeof row.importedAt === "number" || typeof row.importedAt === "bigint" ? new Date(Number(row.importedAt)).toISOString() : String(row.importedAt),
      demo: row.importedBy === DEMO_IMPORTER,
    })),
  );
}

export interface BenchmarkSelection {
  choices: BenchmarkChoice[];
  benchmark: BenchmarkChoice | null;
  /** What links should carry as ?benchmark= (the name when unique). */
  param: string;
  /** The benchmark pages open on when their URL names none. */
  defaultId: string | null;
}

export async function selectBenchmark(db: Database, actor: SessionUser | null, requested: string | null | undefined): Promise<BenchmarkSelection> {
  const [choices, settingId] = await Promise.all([listBenchmarkChoices(db, actor), getDefaultBenchmarkSetting(db, actor)]);
  const benchmark = chooseBenchmark(choices, requested, settingId);
  return { choices, benchmark, param: benchmark ? benchmarkParam(benchmark, choices) : "", defaultId: defaultBenchmark(choices, settingId)?.id ?? null };
}

/**
 * Counts per (run, domain, round) in one GROUP BY: turns, passed turns (PassResult.valid: the run's own judge's
 * verdict — recorded, an evaluation's LLM judge, or the rule judge), resolved test cases (CaseResult.verdict) and those
 * not judged yet (a null verdict: while a run has any, it has no resolve rate); each run pools into its series
 * (model × configuration). Only covering
 * indexes are read, never the large response and verdict rows; the query goes turn by turn (a benchmark's turns
 * are answered only by its runs, so Run is not joined) and INDEXED BY pins the covering indexes, which SQLite would
 * not choose without ANALYZE statistics. The groups come back packed per run ("position,round,turns,passed,cases;…",
 * with the domain's position): the driver adapter costs more per row than SQLite does per group.
 */
export async function getMeasuredCounts(db: Database, actor: SessionUser | null, benchmarkId: string, judge: JudgeChoice = RECORDED_CHOICE): Promise<MeasuredCounts> {
  assertAllowed(actor, "read");
  const recorded = await getOwnJudgeCounts(db, benchmarkId, judge.kind === "recorded" ? undefined : describeJudgeChoice(judge));
  return judge.kind === "recorded" ? recorded : getJudgedCounts(db, actor, benchmarkId, judge, recorded);
}

export async function getPublishedFigures(db: Database, actor: SessionUser | null): Promise<PublishedFigure[]> {
  assertAllowed(actor, "read");
  const rows = await db.$queryRawUnsafe<{ modelName: string; displayName: string; family: string | null; access: string | null; domain: string; passRate: number; resolveRate: number }[]>(
    `SELECT "modelName", "displayName", "family", "access", "domain", "passRate", "resolveRate" FROM "PublishedResult" WHERE "source" = ?`,
    PUBLISHED_SOURCE,
  );
  // The paper's order (closed models first), so published-only rows read like Table 1.
  const paperOrder = new Map(PUBLISHED_TABLE1.map((model, index) => [model.name, index]));
  rows.sort((a, b) => (paperOrder.get(a.modelName) ?? paperOrder.size) - (paperOrder.get(b.modelName) ?? paperOrder.size) || (a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : 0));
  return rows.map((row) => ({
    modelName: row.modelName,
    displayName: row.displayName,
    family: row.family,
    access: row.access,
    domain: row.domain,
    passRate: Number(row.passRate),
    resolveRate: Number(row.resolveRate),
  }));
}

export interface MeasuredRates {
  counts: MeasuredCounts;
  rates: RateRow[];
}

/** Pooled rate rows of every model measured on the benchmark (overall, domains, rounds). */
export async function getMeasuredRates(db: Database, actor: SessionUser | null, benchmarkId: string, judge: JudgeChoice = RECORDED_CHOICE): Promise<MeasuredRates> {
  const counts = await getMeasuredCounts(db, actor, benchmarkId, judge);
  const rates = ratesFromCounts(counts.cells);
  if (!rates.ok) throw new Error(`inconsistent counts in the database: ${rates.issues.map((found) => found.message).join("; ")}`);
  return { counts, rates: rates.value };
}

export interface LeaderboardData {
  selection: BenchmarkSelection;
  board: Board;
  /** The board in the compact form pages send to the browser. */
  wire: WireBoard;
  /** Runs on the selected benchmark. */
  runCount: number;
  /** Under a chosen judge or panel: what it covers of every run; null for the recorded verdicts. */
  judging: RunJudging[] | null;
  /** Models with a run still being generated: their figures are partial. */
  inProgressModels: string[];
}

export interface ReadOptions {
  /** Skip the read cache (benchmarks measure the uncached path with it). */
  fresh?: boolean;
  /** Whose step 1_4 and resolve verdicts decide the figures; the recorded ones by default. */
  judge?: JudgeChoice;
}

async function computeBoard(db: Database, actor: SessionUser | null, benchmarkId: string | null, judge: JudgeChoice): Promise<{ board: Board; wire: WireBoard; runCount: number; judging: RunJudging[] | null; inProgressModels: string[] }> {
  const published = await getPublishedFigures(db, actor);
  if (!benchmarkId) {
    const board = buildBoard(null, published);
    return { board, wire: encodeBoard(board), runCount: 0, judging: null, inProgressModels: [] };
  }
  const counts = await getMeasuredCounts(db, actor, benchmarkId, judge);
  const summary = summarizeCounts(counts.cells);
  if (!summary.ok) throw new Error(`inconsistent counts in the database: ${summary.issues.map((found) => found.message).join("; ")}`);
  const runs = new Map<string, number>();
  for (const run of counts.runs) runs.set(run.series, (runs.get(run.series) ?? 0) + 1);
  const models = await withPredictedExecution(db, actor, benchmarkId, counts);
  const board = buildBoard({ models, rates: summary.value.rates, spreads: summary.value.spreads, runs }, published);
  const inProgressModels = [...new Set(counts.runs.filter((run) => run.status === "in-progress").map((run) => run.series))];
  return { board, wire: encodeBoard(board), runCount: counts.runs.length, judging: counts.judging ?? null, inProgressModels };
}

/** The counts' rows with their "Predicted execution" (dry-run) figure, over the runs that count in their figures. */
async function withPredictedExecution(db: Database, actor: SessionUser | null, benchmarkId: string, counts: MeasuredCounts): Promise<ModelInfo[]> {
  const counted = new Set(counts.cells.map((cell) => cell.runId));
  const predicted = await getPredictedExecution(db, actor, benchmarkId, counts.runs.filter((run) => counted.has(run.id)));
  return counts.models.map((model) => {
    const figure = predicted.get(model.name);
    return figure ? { ...model, predicted: figure } : model;
  });
}

/** Everything the leaderboard page shows: measured figures for the chosen benchmark and the published ones. */
export async function loadLeaderboard(db: Database, actor: SessionUser | null, requestedBenchmark: string | null, options: ReadOptions = {}): Promise<LeaderboardData> {
  assertAllowed(actor, "read");
  const selection = await selectBenchmark(db, actor, requestedBenchmark);
  const id = selection.benchmark?.id ?? null;
  const judge = options.judge ?? RECORDED_CHOICE;
  const computed = options.fresh
    ? await computeBoard(db, actor, id, judge)
    : await cachedRead(db, `leaderboard:${id ?? ""}:${judge.param}`, () => computeBoard(db, actor, id, judge));
  return { selection, ...computed };
}

export type ExportSource = "measured" | "published";

/** A measured rate row as exported: the model's name, with the configuration and judge of its series (and, overall, its predicted execution). */
export type ExportRateRow = RateRow & { configuration?: string; judge?: string; predicted?: PredictedExecution };

/**
 * Rate rows for export: measured from the benchmark's runs (one row set per series, named by its model, its
 * configuration and the judge of its figures), or the published Table 1 with its implied counts.
 */
export async function getExportRates(db: Database, actor: SessionUser | null, source: ExportSource, requestedBenchmark: string | null, judge: JudgeChoice = RECORDED_CHOICE): Promise<{ rows: ExportRateRow[]; benchmark: BenchmarkChoice | null }> {
  if (source === "published") return { rows: publishedRateRows(await getPublishedFigures(db, actor)), benchmark: null };
  const selection = await selectBenchmark(db, actor, requestedBenchmark);
  if (!selection.benchmark) return { rows: [], benchmark: null };
  const { counts, rates } = await getMeasuredRates(db, actor, selection.benchmark.id, judge);
  const series = new Map((await withPredictedExecution(db, actor, selection.benchmark.id, counts)).map((info) => [info.name, info]));
  const rows = rates.map((row) => {
    const info = series.get(row.model);
    const predicted = row.scope === "overall" ? info?.predicted : undefined;
    return { ...row, model: info?.model ?? row.model, configuration: info?.configuration ?? "", judge: info?.judge ?? "", ...(predicted ? { predicted } : {}) };
  });
  return { rows, benchmark: selection.benchmark };
}

/**
 * Turns per series and fail step, and failed turns per series and category of their first diagnostic, over the given
 * runs (a counts' `runs`): as each run's own judge decided them, or as the chosen judge does.
 */
export async function getFailureCounts(db: Database, actor: SessionUser | null, runs: readonly Pick<RunInfo, "id" | "series">[], judge: JudgeChoice = RECORDED_CHOICE): Promise<FailureCounts> {
  assertAllowed(actor, "read");
  if (runs.length === 0) return { steps: [], categories: [] };
  if (judge.kind === "judges") return getJudgedFailureCounts(db, actor, judge, runs);
  const runList = runs.map(() => "?").join(", ");
  const steps = await db.$queryRawUnsafe<{ runId: string; failStep: string | null; turns: unknown }[]>(
    `SELECT r."runId" AS "runId", CASE WHEN p."valid" = TRUE THEN NULL ELSE COALESCE(p."failStep", 'unknown') END AS "failStep", COUNT(*) AS turns
     FROM "Response" r
     JOIN "PassResult" p INDEXED BY "PassResult_responseId_valid_failStep_idx" ON p."responseId" = r."id"
     WHERE r."runId" IN (${runList})
     GROUP BY r."runId", 2`,
    ...runs.map((run) => run.id),
  );
  const categories = await db.$queryRawUnsafe<{ runId: string; category: string | null; turns: unknown }[]>(
    `SELECT r."runId" AS "runId", g."category" AS category, COUNT(*) AS turns
     FROM "Response" r
     JOIN "PassResult" p ON p."responseId" = r."id" AND p."valid" = FALSE
     LEFT JOIN "Diagnostic" g ON g."passResultId" = p."id" AND g."position" = 0
     WHERE r."runId" IN (${runList})
     GROUP BY r."runId", g."category"`,
    ...runs.map((run) => run.id),
  );
  return countsPerSeries(runs, steps, categories);
}
