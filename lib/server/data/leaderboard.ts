import "server-only";
// Leaderboard data: benchmarks to choose from, measured counts grouped in SQL per (run, domain, round), published
// figures, and failure counts. Every function checks the actor may read before it queries.
import { buildBoard, publishedRateRows, type Board, type ModelInfo, type PublishedFigure } from "@/lib/leaderboard/board";
import { benchmarkParam, chooseBenchmark, orderBenchmarks, type BenchmarkChoice } from "@/lib/leaderboard/benchmarks";
import type { CategoryCount, FailStepCount, RoundTurns } from "@/lib/leaderboard/charts";
import { ratesFromCounts, spreadFromCounts, type CellCount } from "@/lib/leaderboard/counts";
import { PUBLISHED_SOURCE, PUBLISHED_TABLE1 } from "@/lib/published/table1";
import type { RateRow } from "@/lib/stats/rates";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import type { SessionUser } from "../session";

/** SQLite returns integers as BigInt through the driver adapter; every count goes through this. */
export const int = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

export async function listBenchmarkChoices(db: Database, actor: SessionUser | null): Promise<BenchmarkChoice[]> {
  assertAllowed(actor, "read");
  const rows = await db.$queryRawUnsafe<{ id: string; name: string; version: string; importedAt: unknown; runCount: unknown; turnCount: unknown }[]>(
    `SELECT b."id" AS id, b."name" AS name, b."version" AS version, b."importedAt" AS importedAt,
            (SELECT COUNT(*) FROM "Run" r WHERE r."benchmarkId" = b."id") AS runCount,
            (SELECT COUNT(*) FROM "Turn" t WHERE t."benchmarkId" = b."id") AS turnCount
     FROM "Benchmark" b`,
  );
  return orderBenchmarks(
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      version: row.version,
      runCount: int(row.runCount),
      turnCount: int(row.turnCount),
      importedAt: row.importedAt instanceof Date ? row.importedAt.toISOString() : String(row.importedAt),
    })),
  );
}

export interface BenchmarkSelection {
  choices: BenchmarkChoice[];
  benchmark: BenchmarkChoice | null;
  /** What links should carry as ?benchmark= (the name when unique). */
  param: string;
}

export async function selectBenchmark(db: Database, actor: SessionUser | null, requested: string | null | undefined): Promise<BenchmarkSelection> {
  const choices = await listBenchmarkChoices(db, actor);
  const benchmark = chooseBenchmark(choices, requested);
  return { choices, benchmark, param: benchmark ? benchmarkParam(benchmark, choices) : "" };
}

export interface RunInfo {
  id: string;
  model: string;
  label: string;
  origin: string;
  hasResolve: boolean;
}

export interface MeasuredCounts {
  models: ModelInfo[];
  runs: RunInfo[];
  cells: CellCount[];
  /** Turns of the benchmark per round. */
  roundTurns: RoundTurns[];
  /** Turns of the benchmark per domain. */
  domainTurns: { domain: string; turns: number }[];
}

/**
 * Counts per (run, domain, round) in one GROUP BY: turns, passed turns (PassResult.valid: the recorded verdict for
 * recorded runs, the deterministic one for raw output) and resolved test cases (CaseResult.verdict).
 */
export async function getMeasuredCounts(db: Database, actor: SessionUser | null, benchmarkId: string): Promise<MeasuredCounts> {
  assertAllowed(actor, "read");
  const runs = await db.$queryRawUnsafe<{ id: string; label: string; origin: string; hasResolve: unknown; model: string; displayName: string; family: string | null; access: string | null }[]>(
    `SELECT r."id" AS id, r."label" AS label, r."origin" AS origin, r."hasResolve" AS hasResolve,
            m."name" AS model, m."displayName" AS displayName, m."family" AS family, m."access" AS access
     FROM "Run" r JOIN "Model" m ON m."id" = r."modelId"
     WHERE r."benchmarkId" = ?
     ORDER BY m."name", r."importedAt", r."id"`,
    benchmarkId,
  );
  const groups = await db.$queryRawUnsafe<{ runId: string; domain: string; round: unknown; turns: unknown; passed: unknown; casesPassed: unknown }[]>(
    `SELECT r."runId" AS runId, d."name" AS domain, t."round" AS round, COUNT(*) AS turns, SUM(p."valid") AS passed,
            SUM((SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = r."id" AND c."verdict" = 1)) AS casesPassed
     FROM "Run" ru
     JOIN "Response" r ON r."runId" = ru."id"
     JOIN "PassResult" p ON p."responseId" = r."id"
     JOIN "Turn" t ON t."id" = r."turnId"
     JOIN "Task" k ON k."id" = t."taskId"
     JOIN "Domain" d ON d."id" = k."domainId"
     WHERE ru."benchmarkId" = ?
     GROUP BY r."runId", d."name", t."round"`,
    benchmarkId,
  );
  const shape = await db.$queryRawUnsafe<{ domain: string; round: unknown; turns: unknown }[]>(
    `SELECT d."name" AS domain, t."round" AS round, COUNT(*) AS turns
     FROM "Turn" t JOIN "Task" k ON k."id" = t."taskId" JOIN "Domain" d ON d."id" = k."domainId"
     WHERE t."benchmarkId" = ? GROUP BY d."name", t."round"`,
    benchmarkId,
  );

  const runInfo: RunInfo[] = runs.map((run) => ({ id: run.id, model: run.model, label: run.label, origin: run.origin, hasResolve: int(run.hasResolve) === 1 }));
  const runById = new Map(runInfo.map((run) => [run.id, run]));
  const runOrder = new Map(runInfo.map((run, index) => [run.id, index]));
  const cells: CellCount[] = groups
    .filter((group) => runById.has(group.runId))
    .sort((a, b) => (runOrder.get(a.runId) ?? 0) - (runOrder.get(b.runId) ?? 0))
    .map((group) => {
      const run = runById.get(group.runId)!;
      return {
        model: run.model,
        runId: run.id,
        domain: group.domain,
        round: int(group.round),
        turns: int(group.turns),
        passed: int(group.passed),
        casesPassed: run.hasResolve ? int(group.casesPassed) : null,
      };
    });
  const models = new Map<string, ModelInfo>();
  for (const run of runs) models.set(run.model, { name: run.model, displayName: run.displayName, family: run.family, access: run.access });

  const rounds = new Map<number, number>();
  const domains = new Map<string, number>();
  for (const row of shape) {
    rounds.set(int(row.round), (rounds.get(int(row.round)) ?? 0) + int(row.turns));
    domains.set(row.domain, (domains.get(row.domain) ?? 0) + int(row.turns));
  }
  return {
    models: [...models.values()],
    runs: runInfo,
    cells,
    roundTurns: [...rounds].map(([round, turns]) => ({ round, turns })).sort((a, b) => a.round - b.round),
    domainTurns: [...domains].map(([domain, turns]) => ({ domain, turns })),
  };
}

export async function getPublishedFigures(db: Database, actor: SessionUser | null): Promise<PublishedFigure[]> {
  assertAllowed(actor, "read");
  const rows = await db.publishedResult.findMany({ where: { source: PUBLISHED_SOURCE } });
  // The paper's order (closed models first), so published-only rows read like Table 1.
  const paperOrder = new Map(PUBLISHED_TABLE1.map((model, index) => [model.name, index]));
  rows.sort((a, b) => (paperOrder.get(a.modelName) ?? paperOrder.size) - (paperOrder.get(b.modelName) ?? paperOrder.size) || (a.modelName < b.modelName ? -1 : a.modelName > b.modelName ? 1 : 0));
  return rows.map((row) => ({
    modelName: row.modelName,
    displayName: row.displayName,
    family: row.family,
    access: row.access,
    domain: row.domain,
    passRate: row.passRate,
    resolveRate: row.resolveRate,
  }));
}

export interface MeasuredRates {
  counts: MeasuredCounts;
  rates: RateRow[];
}

/** Pooled rate rows of every model measured on the benchmark (overall, domains, rounds). */
export async function getMeasuredRates(db: Database, actor: SessionUser | null, benchmarkId: string): Promise<MeasuredRates> {
  const counts = await getMeasuredCounts(db, actor, benchmarkId);
  const rates = ratesFromCounts(counts.cells);
  if (!rates.ok) throw new Error(`inconsistent counts in the database: ${rates.issues.map((found) => found.message).join("; ")}`);
  return { counts, rates: rates.value };
}

export interface LeaderboardData {
  selection: BenchmarkSelection;
  board: Board;
  /** Runs per model on the selected benchmark. */
  runCount: number;
}

/** Everything the leaderboard page shows: measured figures for the chosen benchmark and the published ones. */
export async function loadLeaderboard(db: Database, actor: SessionUser | null, requestedBenchmark: string | null): Promise<LeaderboardData> {
  const selection = await selectBenchmark(db, actor, requestedBenchmark);
  const published = await getPublishedFigures(db, actor);
  if (!selection.benchmark) return { selection, board: buildBoard(null, published), runCount: 0 };
  const { counts, rates } = await getMeasuredRates(db, actor, selection.benchmark.id);
  const spreads = spreadFromCounts(counts.cells);
  const runs = new Map<string, number>();
  for (const run of counts.runs) runs.set(run.model, (runs.get(run.model) ?? 0) + 1);
  const board = buildBoard({ models: counts.models, rates, spreads: spreads.ok ? spreads.value : [], runs }, published);
  return { selection, board, runCount: counts.runs.length };
}

export type ExportSource = "measured" | "published";

/** Rate rows for export: measured from the benchmark's runs, or the published Table 1 with its implied counts. */
export async function getExportRates(db: Database, actor: SessionUser | null, source: ExportSource, requestedBenchmark: string | null): Promise<{ rows: RateRow[]; benchmark: BenchmarkChoice | null }> {
  if (source === "published") return { rows: publishedRateRows(await getPublishedFigures(db, actor)), benchmark: null };
  const selection = await selectBenchmark(db, actor, requestedBenchmark);
  if (!selection.benchmark) return { rows: [], benchmark: null };
  return { rows: (await getMeasuredRates(db, actor, selection.benchmark.id)).rates, benchmark: selection.benchmark };
}

export interface FailureCounts {
  steps: FailStepCount[];
  categories: CategoryCount[];
}

/** Turns per model and fail step, and failed turns per model and category of their first diagnostic. */
export async function getFailureCounts(db: Database, actor: SessionUser | null, benchmarkId: string): Promise<FailureCounts> {
  assertAllowed(actor, "read");
  const steps = await db.$queryRawUnsafe<{ model: string; failStep: string | null; turns: unknown }[]>(
    `SELECT m."name" AS model, CASE WHEN p."valid" = 1 THEN NULL ELSE COALESCE(p."failStep", 'unknown') END AS failStep, COUNT(*) AS turns
     FROM "Run" ru JOIN "Model" m ON m."id" = ru."modelId"
     JOIN "Response" r ON r."runId" = ru."id"
     JOIN "PassResult" p ON p."responseId" = r."id"
     WHERE ru."benchmarkId" = ?
     GROUP BY m."name", 2 ORDER BY m."name"`,
    benchmarkId,
  );
  const categories = await db.$queryRawUnsafe<{ model: string; category: string | null; turns: unknown }[]>(
    `SELECT m."name" AS model, g."category" AS category, COUNT(*) AS turns
     FROM "Run" ru JOIN "Model" m ON m."id" = ru."modelId"
     JOIN "Response" r ON r."runId" = ru."id"
     JOIN "PassResult" p ON p."responseId" = r."id" AND p."valid" = 0
     LEFT JOIN "Diagnostic" g ON g."passResultId" = p."id" AND g."position" = 0
     WHERE ru."benchmarkId" = ?
     GROUP BY m."name", g."category" ORDER BY m."name"`,
    benchmarkId,
  );
  return {
    steps: steps.map((row) => ({ model: row.model, failStep: row.failStep, turns: int(row.turns) })),
    categories: categories.map((row) => ({ model: row.model, category: row.category, turns: int(row.turns) })),
  };
}

