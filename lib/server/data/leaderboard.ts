import "server-only";
// Leaderboard data: benchmarks to choose from, measured counts grouped in SQL per (run, domain, round), published
// figures, and failure counts. Every function checks the actor may read before it queries.
import { buildBoard, publishedRateRows, type Board, type ModelInfo, type PublishedFigure } from "@/lib/leaderboard/board";
import { DEMO_IMPORTER, benchmarkParam, chooseBenchmark, defaultBenchmark, orderBenchmarks, type BenchmarkChoice } from "@/lib/leaderboard/benchmarks";
import type { CategoryCount, FailStepCount, RoundTurns } from "@/lib/leaderboard/charts";
import { ratesFromCounts, summarizeCounts, type CellCount } from "@/lib/leaderboard/counts";
import { encodeBoard, type WireBoard } from "@/lib/leaderboard/wire";
import { RECORDED_CHOICE, describeJudgeChoice, type JudgeChoice } from "@/lib/judges/choice";
import { defaultRunJudge } from "@/lib/judges/run-judge";
import { PUBLISHED_SOURCE, PUBLISHED_TABLE1 } from "@/lib/published/table1";
import type { RateRow } from "@/lib/stats/rates";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import { joinedText } from "../sql-dialect";
import { getJudgedCounts, getJudgedFailureCounts, type RunJudging } from "./judged-by";
import { ownJudges, RUN_SETUP_COLUMNS, RUN_SETUP_JOIN, runFacts, runSetupOf, turnsAwaitingJudge, type RunSetupRow } from "./run-configurations";
import { cachedRead } from "./read-cache";
import { getDefaultBenchmarkSetting } from "./settings";
import type { SessionUser } from "../session";

/** SQLite returns integers as BigInt through the driver adapter; every count goes through this. */
export const int = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

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

export interface RunInfo {
  id: string;
  model: string;
  label: string;
  origin: string;
  hasResolve: boolean;
  /** "complete" | "in-progress" | "failed" | "cancelled": a generated run fills in while it runs. */
  status: string;
  /** The leaderboard row it pools into: its model under its configuration. */
  series: string;
  /** Its configuration and judge as a row shows them (lib/leaderboard/configuration). */
  configuration: string;
  /** Who judged its figures on this view: its own judge, or the judge every run is re-viewed under. */
  judge: string;
  /** Turns reaching step 1_4 that its own LLM judge has not decided yet (they keep the rule judge's verdict until then). */
  awaitingJudge: number;
}

export interface MeasuredCounts {
  models: ModelInfo[];
  runs: RunInfo[];
  cells: CellCount[];
  /** Turns of the benchmark per round. */
  roundTurns: RoundTurns[];
  /** Turns of the benchmark per domain. */
  domainTurns: { domain: string; turns: number }[];
  /** Under a chosen judge or panel: what it covers of every run (runs it has not judged are absent from `cells`). */
  judging?: RunJudging[];
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

/**
 * Resolved and not-judged cases travel as one number (resolved + unit × not judged), so each response's cases are read
 * in one index range; a group never holds a million resolved cases.
 */
const NOT_JUDGED_UNIT = 1_000_000;

/** Counts as each run's own judge decided them (stored on PassResult); `viewedBy` labels the runs for a re-view. */
async function getOwnJudgeCounts(db: Database, benchmarkId: string, viewedBy?: string): Promise<MeasuredCounts> {
  const runs = await db.$queryRawUnsafe<({ id: string; label: string; hasResolve: unknown; status: string; model: string; displayName: string; family: string | null; access: string | null } & RunSetupRow)[]>(
    `SELECT r."id" AS id, r."label" AS label, r."hasResolve" AS "hasResolve", r."status" AS status, ${RUN_SETUP_COLUMNS},
            m."name" AS model, m."displayName" AS "displayName", m."family" AS family, m."access" AS access
     FROM "Run" r JOIN "Model" m ON m."id" = r."modelId" ${RUN_SETUP_JOIN}
     WHERE r."benchmarkId" = ?
     ORDER BY m."name", r."importedAt", r."id"`,
    benchmarkId,
  );
  const judges = await ownJudges(db, runs);
  const llmJudged = runs.filter((run) => judges.get(run.id)?.kind === "llm").map((run) => run.id);
  const awaiting = viewedBy === undefined ? await turnsAwaitingJudge(db, llmJudged) : new Map<string, number>();
  const packed = await db.$queryRawUnsafe<{ runId: string; cells: string }[]>(
    `SELECT "runId", ${joinedText(db, `domain || ',' || round || ',' || turns || ',' || passed || ',' || "caseCounts"`, ";")} AS cells FROM (
       SELECT r."runId" AS "runId", d."position" AS domain, t."round" AS round, COUNT(*) AS turns, SUM(CAST(p."valid" AS INTEGER)) AS passed,
              SUM((SELECT COALESCE(SUM(CASE WHEN c."verdict" = TRUE THEN 1 WHEN c."verdict" IS NULL THEN ${NOT_JUDGED_UNIT} ELSE 0 END), 0) FROM "CaseResult" c INDEXED BY "CaseResult_responseId_verdict_idx" WHERE c."responseId" = r."id")) AS "caseCounts"
       FROM "Turn" t
       JOIN "Task" k ON k."id" = t."taskId"
       JOIN "Domain" d ON d."id" = k."domainId"
       CROSS JOIN "Response" r INDEXED BY "Response_turnId_runId_id_idx"
       CROSS JOIN "PassResult" p INDEXED BY "PassResult_responseId_valid_failStep_idx"
       WHERE t."benchmarkId" = ? AND r."turnId" = t."id" AND p."responseId" = r."id"
       GROUP BY r."runId", d."position", t."round"
     ) AS "cellGroups" GROUP BY "runId"`,
    benchmarkId,
  );
  const shape = await db.$queryRawUnsafe<{ position: unknown; domain: string; round: unknown; turns: unknown }[]>(
    `SELECT d."position" AS position, d."name" AS domain, t."round" AS round, COUNT(*) AS turns
     FROM "Turn" t JOIN "Task" k ON k."id" = t."taskId" JOIN "Domain" d ON d."id" = k."domainId"
     WHERE t."benchmarkId" = ? GROUP BY d."id", t."round"`,
    benchmarkId,
  );

  const runInfo: RunInfo[] = runs.map((run) => {
    const facts = runFacts(run.model, runSetupOf(run), judges.get(run.id) ?? defaultRunJudge(run.origin), viewedBy);
    const awaitingJudge = awaiting.get(run.id) ?? 0;
    return {
      id: run.id,
      model: run.model,
      label: run.label,
      origin: run.origin,
      hasResolve: int(run.hasResolve) === 1,
      status: run.status,
      series: facts.series,
      configuration: facts.configuration.label,
      judge: facts.configuration.judge,
      awaitingJudge,
    };
  });
  // Positions number a benchmark's domains 0, 1, 2… at import, so they identify a domain within it.
  const domainName = new Map(shape.map((row) => [String(int(row.position)), row.domain]));
  const packedByRun = new Map(packed.map((row) => [row.runId, row.cells]));
  const cells: CellCount[] = [];
  // Runs in model order (the runs query's), so models appear in name order everywhere downstream.
  for (const run of runInfo) {
    const text = packedByRun.get(run.id);
    if (!text) continue;
    for (const group of text.split(";")) {
      const [position = "", round, turns, passed, caseCounts] = group.split(",");
      const casesPassed = Number(caseCounts) % NOT_JUDGED_UNIT;
      const casesNotJudged = Math.floor(Number(caseCounts) / NOT_JUDGED_UNIT);
      cells.push({
        model: run.series,
        runId: run.id,
        domain: domainName.get(position) ?? position,
        round: Number(round),
        turns: Number(turns),
        passed: Number(passed),
        casesPassed: run.hasResolve ? casesPassed : null,
        ...(run.hasResolve && casesNotJudged > 0 ? { casesNotJudged } : {}),
      });
    }
  }
  // One entry per series (a model under one configuration), in model name order.
  const models = new Map<string, ModelInfo>();
  runs.forEach((run, index) => {
    const info = runInfo[index]!;
    const known = models.get(info.series);
    if (known) known.awaitingJudge = (known.awaitingJudge ?? 0) + info.awaitingJudge;
    else models.set(info.series, { name: info.series, displayName: run.displayName, family: run.family, access: run.access, model: run.model, configuration: info.configuration, judge: info.judge, awaitingJudge: info.awaitingJudge });
  });

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
  const board = buildBoard({ models: counts.models, rates: summary.value.rates, spreads: summary.value.spreads, runs }, published);
  const inProgressModels = [...new Set(counts.runs.filter((run) => run.status === "in-progress").map((run) => run.series))];
  return { board, wire: encodeBoard(board), runCount: counts.runs.length, judging: counts.judging ?? null, inProgressModels };
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

/** A measured rate row as exported: the model's name, with the configuration and judge of its series. */
export type ExportRateRow = RateRow & { configuration?: string; judge?: string };

/**
 * Rate rows for export: measured from the benchmark's runs (one row set per series, named by its model, its
 * configuration and the judge of its figures), or the published Table 1 with its implied counts.
 */
export async function getExportRates(db: Database, actor: SessionUser | null, source: ExportSource, requestedBenchmark: string | null, judge: JudgeChoice = RECORDED_CHOICE): Promise<{ rows: ExportRateRow[]; benchmark: BenchmarkChoice | null }> {
  if (source === "published") return { rows: publishedRateRows(await getPublishedFigures(db, actor)), benchmark: null };
  const selection = await selectBenchmark(db, actor, requestedBenchmark);
  if (!selection.benchmark) return { rows: [], benchmark: null };
  const { counts, rates } = await getMeasuredRates(db, actor, selection.benchmark.id, judge);
  const series = new Map(counts.models.map((info) => [info.name, info]));
  const rows = rates.map((row) => {
    const info = series.get(row.model);
    return { ...row, model: info?.model ?? row.model, configuration: info?.configuration ?? "", judge: info?.judge ?? "" };
  });
  return { rows, benchmark: selection.benchmark };
}

export interface FailureCounts {
  steps: FailStepCount[];
  categories: CategoryCount[];
}

/** Sums per-run counts into per-series counts (a row per model × configuration), in the runs' order. */
export function countsPerSeries(runs: readonly Pick<RunInfo, "id" | "series">[], steps: readonly { runId: string; failStep: string | null; turns: unknown }[], categories: readonly { runId: string; category: string | null; turns: unknown }[]): FailureCounts {
  const seriesOf = new Map(runs.map((run) => [run.id, run.series]));
  const order = new Map(runs.map((run, index) => [run.series, index]));
  const sum = <Row extends { runId: string; turns: unknown }, Count extends { model: string; turns: number }>(rows: readonly Row[], label: (row: Row) => string | null, count: (model: string, row: Row) => Count): Count[] => {
    const sums = new Map<string, Count>();
    for (const row of rows) {
      const model = seriesOf.get(row.runId);
      if (model === undefined) continue;
      const key = `${model}\u0000${label(row) ?? ""}`;
      const entry = sums.get(key) ?? count(model, row);
      entry.turns += int(row.turns);
      sums.set(key, entry);
    }
    return [...sums.values()].sort((a, b) => (order.get(a.model) ?? 0) - (order.get(b.model) ?? 0));
  };
  return {
    steps: sum(steps, (row) => row.failStep, (model, row): FailStepCount => ({ model, failStep: row.failStep, turns: 0 })),
    categories: sum(categories, (row) => row.category, (model, row): CategoryCount => ({ model, category: row.category, turns: 0 })),
  };
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
