import "server-only";
// Counts of a benchmark's runs as the leaderboard and the judged-by views read them: their shapes, the counts each run's
// own judge decided (stored on PassResult) and the per-series sums, below both leaderboard.ts and judged-by.ts.
import type { ModelInfo } from "@/lib/leaderboard/board";
import type { CategoryCount, FailStepCount, RoundTurns } from "@/lib/leaderboard/charts";
import type { CellCount } from "@/lib/leaderboard/counts";
import { defaultRunJudge } from "@/lib/judge/run-judge";
import type { Database } from "../db";
import { joinedText } from "../sql-dialect";
import type { RunJudging } from "./judged-by";
import { ownJudges, RUN_SETUP_COLUMNS, RUN_SETUP_JOIN, runFacts, runSetupOf, turnsAwaitingJudge, type RunSetupRow } from "./run-configurations";

/** SQLite returns integers as BigInt through the driver adapter; every count goes through this. */
export const int = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

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
 * Resolved and not-judged cases travel as one number (resolved + unit × not judged), so each response's cases are read
 * in one index range; a group never holds a million resolved cases.
 */
const NOT_JUDGED_UNIT = 1_000_000;

/** Counts as each run's own judge decided them (stored on PassResult); `viewedBy` labels the runs for a re-view. */
export async function getOwnJudgeCounts(db: Database, benchmarkId: string, viewedBy?: string): Promise<MeasuredCounts> {
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
