import "server-only";
// Drill-down data: a model's turns with their verdicts, the task list with pooled rates, a task's turns × runs
// matrix, and one run's per-turn outcomes for paired comparisons. Each function checks the actor may read.
import type { ModelInfo } from "@/lib/leaderboard/board";
import type { PairTurn } from "@/lib/leaderboard/compare";
import type { TaskCounts } from "@/lib/leaderboard/tables";
import { buildTaskMatrix, caseStates, encodeMatrix, type MatrixRun, type ModelTurnRow, type TaskMatrix, type WireMatrix } from "@/lib/leaderboard/turns";
import { blindVisibility } from "./review/blind-visibility";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import { joinedText } from "../sql-dialect";
import type { SessionUser } from "../session";
import { modelOfSeries } from "@/lib/leaderboard/configuration";
import { describeRunJudge } from "@/lib/judge/run-judge";
import { turnVerdictColumns, type DrilldownJudge } from "./judged-by";
import type { ReadOptions } from "./leaderboard";
import { int } from "./run-counts";
import { ownJudges, runFacts, runSetupOf, runSetupSql, type RunSetupRow } from "./run-configurations";
import { cachedRead } from "./read-cache";

/** "1:1,2:0,3:-1" (position:verdict, from group_concat; -1 not judged) to a map of position to verdict (null: not judged). */
function parseCases(text: unknown): Map<number, boolean | null> {
  const verdicts = new Map<number, boolean | null>();
  if (typeof text !== "string" || text.length === 0) return verdicts;
  for (const part of text.split(",")) {
    const [position, verdict] = part.split(":");
    verdicts.set(Number(position), verdict === "-1" ? null : verdict === "1");
  }
  return verdicts;
}

/**
 * Extra columns and a run restriction for a drill-down under a chosen judge: only runs it has judged at step 1_4,
 * each turn's verdict, fail step and cases as it decides them. Empty for the recorded verdicts.
 */
function judgeSql(db: Database, judge: DrilldownJudge | null | undefined): { columns: string; where: string; params: string[]; runParams: string[] } {
  if (!judge) return { columns: "", where: "", params: [], runParams: [] };
  const columns = turnVerdictColumns(db, judge.members);
  const runIds = [...judge.runs.keys()];
  return {
    columns: `, ${columns.sql}`,
    // An impossible id keeps the statement valid when no run is judged.
    where: ` AND r."runId" IN (${runIds.length ? runIds.map(() => "?").join(", ") : "''"})`,
    params: columns.params,
    runParams: runIds,
  };
}

/** A turn's verdict, fail step and cases under the judge, or the stored ones. */
function turnOutcome(row: { valid: unknown; failStep: string | null; cases: unknown; runId: string; hasResolve: unknown; jPass?: unknown; jFailStep?: string | null; jCases?: unknown }, judge: DrilldownJudge | null | undefined) {
  if (!judge) return { valid: int(row.valid) === 1, failStep: row.failStep, cases: parseCases(row.cases), hasResolve: int(row.hasResolve) === 1 };
  const valid = int(row.jPass) === 1;
  return { valid, failStep: valid ? null : (row.jFailStep ?? null), cases: parseCases(row.jCases), hasResolve: int(row.hasResolve) === 1 && judge.runs.get(row.runId)?.resolveJudged === true };
}

const casesSql = (db: Database) => `(SELECT ${joinedText(db, `c."position" || ':' || COALESCE(CAST(c."verdict" AS INTEGER), -1)`)} FROM "CaseResult" c WHERE c."responseId" = r."id")`;

export interface ModelRun {
  id: string;
  label: string;
  origin: string;
  hasResolve: boolean;
  importedAt: string;
}

/** One of a model's configurations on the benchmark: a leaderboard row. */
export interface ModelSeries {
  id: string;
  /** Its configuration and judge, e.g. "Zero-shot (official) · T 0.7 · max 32768 · judge: gpt-5.1 ×1". */
  configuration: string;
  judge: string;
  runs: ModelRun[];
}

export interface ModelOverview {
  /** The row shown: name is the series id when one is chosen, else the model's name. */
  model: ModelInfo;
  /** The runs of the chosen series (none when the link names a model with several configurations and no official one). */
  runs: ModelRun[];
  /** Every configuration of the model on the benchmark, in run order. */
  series: ModelSeries[];
  /** The chosen series; null when the page must ask which. */
  chosen: ModelSeries | null;
}

/**
 * A leaderboard row's model and runs: `seriesOrModel` is a series id, or a model's name, which names its official
 * recorded runs, else its only configuration. Null when no model has that name.
 */
export async function getModelOverview(db: Database, actor: SessionUser | null, benchmarkId: string | null, seriesOrModel: string): Promise<ModelOverview | null> {
  assertAllowed(actor, "read");
  const modelName = modelOfSeries(seriesOrModel);
  const model = await db.model.findUnique({ where: { name: modelName } });
  if (!model) return null;
  const setup = runSetupSql("ru");
  const rows = benchmarkId
    ? await db.$queryRawUnsafe<({ id: string; label: string; hasResolve: unknown; importedAt: unknown } & RunSetupRow)[]>(
        `SELECT ru."id" AS id, ru."label" AS label, ru."hasResolve" AS "hasResolve", ru."importedAt" AS "importedAt", ${setup.columns}
         FROM "Run" ru ${setup.join}
         WHERE ru."modelId" = ? AND ru."benchmarkId" = ?
         ORDER BY ru."importedAt", ru."id"`,
        model.id,
        benchmarkId,
      )
    : [];
  const judges = await ownJudges(db, rows);
  const series = new Map<string, ModelSeries>();
  for (const row of rows) {
    const judge = judges.get(row.id)!;
    const facts = runFacts(model.name, runSetupOf(row), judge);
    const entry = series.get(facts.series) ?? { id: facts.series, configuration: facts.configuration.label, judge: describeRunJudge(judge), runs: [] };
    entry.runs.push({ id: row.id, label: row.label, origin: row.origin, hasResolve: int(row.hasResolve) === 1, importedAt: isoDate(row.importedAt) });
    series.set(facts.series, entry);
  }
  const list = [...series.values()];
  const chosen = series.get(seriesOrModel) ?? (seriesOrModel === model.name && list.length === 1 ? list[0]! : null);
  return {
    model: { name: chosen?.id ?? model.name, displayName: model.displayName, family: model.family, access: model.access, model: model.name, ...(chosen ? { configuration: chosen.configuration, judge: chosen.judge } : {}) },
    runs: chosen?.runs ?? [],
    series: list,
    chosen,
  };
}

function isoDate(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value)).toISOString();
  return new Date(String(value)).toISOString();
}

export interface TurnFilter {
  domain?: string | null;
  round?: number | null;
  runId?: string | null;
  /** Only these runs (a series' runs). */
  runIds?: readonly string[] | null;
}

/** The model's turns on the benchmark (optionally one domain, round or run), in benchmark order. */
export async function getModelTurns(db: Database, actor: SessionUser | null, benchmarkId: string, modelName: string, filter: TurnFilter = {}, judge?: DrilldownJudge | null): Promise<ModelTurnRow[]> {
  assertAllowed(actor, "read");
  const judged = judgeSql(db, judge);
  const conditions = [`ru."benchmarkId" = ?`, `m."name" = ?`];
  const values: unknown[] = [benchmarkId, modelName];
  if (filter.domain) {
    conditions.push(`d."name" = ?`);
    values.push(filter.domain);
  }
  if (filter.round) {
    conditions.push(`t."round" = ?`);
    values.push(filter.round);
  }
  if (filter.runId) {
    conditions.push(`ru."id" = ?`);
    values.push(filter.runId);
  }
  if (filter.runIds) {
    // An impossible id keeps the statement valid for an empty list.
    conditions.push(`ru."id" IN (${filter.runIds.length ? filter.runIds.map(() => "?").join(", ") : "''"})`);
    values.push(...filter.runIds);
  }
  const rows = await db.$queryRawUnsafe<
    { responseId: string; runId: string; runLabel: string; hasResolve: unknown; task: string; domain: string; round: unknown; turn: string; valid: unknown; failStep: string | null; code: string | null; message: string | null; cases: unknown; jPass?: unknown; jFailStep?: string | null; jCases?: unknown }[]
  >(
    `SELECT r."id" AS "responseId", ru."id" AS "runId", ru."label" AS "runLabel", ru."hasResolve" AS "hasResolve", k."name" AS task, d."name" AS domain,
            t."round" AS round, t."key" AS turn, p."valid" AS valid, p."failStep" AS "failStep", p."topDiagnosticCode" AS code,
            (SELECT g."message" FROM "Diagnostic" g WHERE g."passResultId" = p."id" AND g."position" = 0) AS message,
            ${casesSql(db)} AS cases${judged.columns}
     FROM "Run" ru
     JOIN "Model" m ON m."id" = ru."modelId"
     JOIN "Response" r ON r."runId" = ru."id"
     JOIN "PassResult" p ON p."responseId" = r."id"
     JOIN "Turn" t ON t."id" = r."turnId"
     JOIN "Task" k ON k."id" = t."taskId"
     JOIN "Domain" d ON d."id" = k."domainId"
     WHERE ${conditions.join(" AND ")}${judged.where}
     ORDER BY d."position", k."externalId", t."round", ru."importedAt", ru."id"`,
    ...judged.params,
    ...values,
    ...judged.runParams,
  );
  // Blind review: turns under review by this reader are not listed (their verdicts would show).
  const blind = await blindVisibility(db, actor, { responseIds: rows.map((row) => row.responseId) });
  return rows.filter((row) => !blind.verdictHidden(row.responseId)).map((row) => {
    const outcome = turnOutcome(row, judge);
    const valid = outcome.valid;
    return {
      responseId: row.responseId,
      runId: row.runId,
      runLabel: row.runLabel,
      task: row.task,
      domain: row.domain,
      round: int(row.round),
      turn: row.turn,
      valid,
      failStep: outcome.failStep,
      topDiagnosticCode: row.code,
      topDiagnosticMessage: row.message,
      cases: caseStates(valid, outcome.hasResolve, outcome.cases),
    };
  });
}

export interface TaskListItem extends TaskCounts {
  externalId: number;
}

export async function listTasks(db: Database, actor: SessionUser | null, benchmarkId: string, judge?: DrilldownJudge | null): Promise<TaskListItem[]> {
  assertAllowed(actor, "read");
  const tasks = await db.$queryRawUnsafe<{ id: string; name: string; externalId: unknown; rounds: unknown; domain: string; turns: unknown }[]>(
    `SELECT k."id" AS id, k."name" AS name, k."externalId" AS "externalId", k."roundCount" AS rounds, d."name" AS domain,
            (SELECT COUNT(*) FROM "Turn" t WHERE t."taskId" = k."id") AS turns
     FROM "Task" k JOIN "Domain" d ON d."id" = k."domainId"
     WHERE k."benchmarkId" = ? ORDER BY d."position", k."externalId"`,
    benchmarkId,
  );
  const results = judge ? await judgedTaskCounts(db, benchmarkId, judge) : await db.$queryRawUnsafe<{ taskId: string; responses: unknown; passed: unknown; resolveResponses: unknown; casesPassed: unknown; casesNotJudged: unknown }[]>(
    `SELECT t."taskId" AS "taskId", COUNT(*) AS responses, SUM(CAST(p."valid" AS INTEGER)) AS passed,
            SUM(CAST(ru."hasResolve" AS INTEGER)) AS "resolveResponses",
            SUM(CASE WHEN ru."hasResolve" = TRUE THEN (SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = r."id" AND c."verdict" = TRUE) ELSE 0 END) AS "casesPassed",
            SUM(CASE WHEN ru."hasResolve" = TRUE THEN (SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = r."id" AND c."verdict" IS NULL) ELSE 0 END) AS "casesNotJudged"
     FROM "Turn" t JOIN "Response" r ON r."turnId" = t."id" JOIN "Run" ru ON ru."id" = r."runId" JOIN "PassResult" p ON p."responseId" = r."id"
     WHERE t."benchmarkId" = ? GROUP BY t."taskId"`,
    benchmarkId,
  );
  const byTask = new Map(results.map((row) => [row.taskId, row]));
  return tasks.map((task) => {
    const result = byTask.get(task.id);
    return {
      name: task.name,
      externalId: int(task.externalId),
      domain: task.domain,
      rounds: int(task.rounds),
      turns: int(task.turns),
      responses: int(result?.responses),
      passed: int(result?.passed),
      resolveResponses: int(result?.resolveResponses),
      casesPassed: int(result?.casesPassed),
      casesNotJudged: int(result?.casesNotJudged),
    };
  });
}

/** Task counts under a judge, over the runs it has judged; resolve only from runs whose resolve stage it judged. */
async function judgedTaskCounts(db: Database, benchmarkId: string, judge: DrilldownJudge) {
  const judged = judgeSql(db, judge);
  const rows = await db.$queryRawUnsafe<{ taskId: string; runId: string; jPass: unknown; jCases: unknown }[]>(
    `SELECT t."taskId" AS "taskId", r."runId" AS "runId", ${judged.columns.slice(2)}
     FROM "Turn" t JOIN "Response" r ON r."turnId" = t."id" JOIN "PassResult" p ON p."responseId" = r."id"
     WHERE t."benchmarkId" = ?${judged.where}`,
    ...judged.params,
    benchmarkId,
    ...judged.runParams,
  );
  const byTask = new Map<string, { taskId: string; responses: number; passed: number; resolveResponses: number; casesPassed: number; casesNotJudged: number }>();
  for (const row of rows) {
    const entry = byTask.get(row.taskId) ?? { taskId: row.taskId, responses: 0, passed: 0, resolveResponses: 0, casesPassed: 0, casesNotJudged: 0 };
    const passed = int(row.jPass) === 1;
    entry.responses += 1;
    if (passed) entry.passed += 1;
    if (judge.runs.get(row.runId)?.resolveJudged) {
      entry.resolveResponses += 1;
      const cases = passed ? [...parseCases(row.jCases).values()] : [];
      entry.casesPassed += cases.filter((verdict) => verdict === true).length;
      entry.casesNotJudged += cases.filter((verdict) => verdict === null).length;
    }
    byTask.set(row.taskId, entry);
  }
  return [...byTask.values()];
}

export interface TaskDetail {
  name: string;
  externalId: number;
  domain: string;
  turns: { turnId: string; round: number; key: string; instruction: string }[];
  matrix: TaskMatrix;
  /** The matrix in the compact form pages send to the browser. */
  wire: WireMatrix;
  /** Runs still being generated (their rows fill in; marked "in progress"). */
  inProgressRuns: string[];
}

/** A task's turns and every run's verdicts on them; null when the benchmark has no such task. */
export async function getTaskMatrix(db: Database, actor: SessionUser | null, benchmarkId: string, taskName: string, options: ReadOptions = {}, judge?: DrilldownJudge | null): Promise<TaskDetail | null> {
  assertAllowed(actor, "read");
  const viewedBy = judge ? judge.description : undefined;
  const detail = options.fresh || judge ? await computeTaskMatrix(db, benchmarkId, taskName, judge, viewedBy) : await cachedRead(db, `task:${benchmarkId}:${taskName}`, () => computeTaskMatrix(db, benchmarkId, taskName));
  if (!detail) return null;
  // Blind review: cells under review by this reader are left out, and the totals counted without them.
  const shown = detail.matrix.rows.flatMap((row) => row.cells.flatMap((cell) => (cell.responseId ? [cell.responseId] : [])));
  const blind = await blindVisibility(db, actor, { responseIds: shown });
  const hidden = new Set(shown.filter((id) => blind.verdictHidden(id)));
  return hidden.size ? computeTaskMatrix(db, benchmarkId, taskName, judge, viewedBy, hidden) : detail;
}

async function computeTaskMatrix(db: Database, benchmarkId: string, taskName: string, judge?: DrilldownJudge | null, viewedBy?: string, withheld: ReadonlySet<string> = new Set()): Promise<TaskDetail | null> {
  const judged = judgeSql(db, judge);
  const setup = runSetupSql("ru");
  const task = await db.task.findUnique({
    where: { benchmarkId_name: { benchmarkId, name: taskName } },
    include: { domain: { select: { name: true } }, turns: { select: { id: true, round: true, key: true, instruction: true }, orderBy: { round: "asc" } } },
  });
  if (!task) return null;
  const responses = await db.$queryRawUnsafe<
    ({ responseId: string; runId: string; turnId: string; valid: unknown; failStep: string | null; casesPassed: unknown; casesNotJudged: unknown; label: string; hasResolve: unknown; status: string; model: string; displayName: string; importedAt: unknown; cases?: unknown; jPass?: unknown; jFailStep?: string | null; jCases?: unknown } & RunSetupRow)[]
  >(
    `SELECT r."id" AS "responseId", r."runId" AS "runId", r."turnId" AS "turnId", p."valid" AS valid, p."failStep" AS "failStep",
            (SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = r."id" AND c."verdict" = TRUE) AS "casesPassed",
            (SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = r."id" AND c."verdict" IS NULL) AS "casesNotJudged",
            ru."label" AS label, ru."hasResolve" AS "hasResolve", ru."status" AS status, m."name" AS model, m."displayName" AS "displayName", ru."importedAt" AS "importedAt",
            ${setup.columns}${judged.columns}
     FROM "Turn" t
     JOIN "Response" r ON r."turnId" = t."id"
     JOIN "PassResult" p ON p."responseId" = r."id"
     JOIN "Run" ru ON ru."id" = r."runId"
     JOIN "Model" m ON m."id" = ru."modelId"
     ${setup.join}
     WHERE t."taskId" = ?${judged.where}
     ORDER BY ru."importedAt", ru."id"`,
    ...judged.params,
    task.id,
    ...judged.runParams,
  ).then((rows) => rows.filter((row) => !withheld.has(row.responseId)));
  const firstOfRun = [...new Map(responses.map((row) => [row.runId, row])).values()];
  const ownJudge = await ownJudges(db, firstOfRun.map((row) => ({ ...row, id: row.runId })));
  const runs = new Map<string, MatrixRun>();
  for (const row of firstOfRun) {
    const hasResolve = int(row.hasResolve) === 1 && (!judge || judge.runs.get(row.runId)?.resolveJudged === true);
    const facts = runFacts(row.model, runSetupOf(row), ownJudge.get(row.runId)!, viewedBy);
    runs.set(row.runId, { runId: row.runId, model: row.model, displayName: row.displayName, label: row.label, hasResolve, series: facts.series, judge: facts.configuration.judge });
  }
  const matrix = buildTaskMatrix(
    task.turns.map((turn) => ({ turnId: turn.id, round: turn.round, key: turn.key })),
    [...runs.values()],
    responses.map((row) => {
      if (!judge) return { responseId: row.responseId, runId: row.runId, turnId: row.turnId, valid: int(row.valid) === 1, failStep: row.failStep, casesPassed: int(row.casesPassed), casesNotJudged: int(row.casesNotJudged) };
      const outcome = turnOutcome({ ...row, cases: null }, judge);
      const casesPassed = outcome.valid ? [...outcome.cases.values()].filter((verdict) => verdict === true).length : 0;
      const casesNotJudged = outcome.valid ? [...outcome.cases.values()].filter((verdict) => verdict === null).length : 0;
      return { responseId: row.responseId, runId: row.runId, turnId: row.turnId, valid: outcome.valid, failStep: outcome.failStep, casesPassed, casesNotJudged };
    }),
  );
  return {
    name: task.name,
    externalId: task.externalId,
    domain: task.domain.name,
    turns: task.turns.map((turn) => ({ turnId: turn.id, round: turn.round, key: turn.key, instruction: turn.instruction })),
    matrix,
    wire: encodeMatrix(matrix),
    inProgressRuns: [...new Set(responses.filter((row) => row.status === "in-progress").map((row) => row.runId))],
  };
}

/** One run's outcome on every turn it answered, for a paired comparison. */
export async function getPairTurns(db: Database, actor: SessionUser | null, runId: string, judge?: DrilldownJudge | null): Promise<PairTurn[]> {
  assertAllowed(actor, "read");
  const judged = judgeSql(db, judge);
  const rows = await db.$queryRawUnsafe<{ responseId: string; runId: string; turn: string; task: string; domain: string; round: unknown; valid: unknown; failStep: string | null; hasResolve: unknown; cases: unknown; jPass?: unknown; jFailStep?: string | null; jCases?: unknown }[]>(
    `SELECT r."id" AS "responseId", r."runId" AS "runId", t."key" AS turn, k."name" AS task, d."name" AS domain, t."round" AS round, p."valid" AS valid,
            p."failStep" AS "failStep", ru."hasResolve" AS "hasResolve", ${casesSql(db)} AS cases${judged.columns}
     FROM "Run" ru
     JOIN "Response" r ON r."runId" = ru."id"
     JOIN "PassResult" p ON p."responseId" = r."id"
     JOIN "Turn" t ON t."id" = r."turnId"
     JOIN "Task" k ON k."id" = t."taskId"
     JOIN "Domain" d ON d."id" = k."domainId"
     WHERE ru."id" = ?${judged.where}
     ORDER BY d."position", k."externalId", t."round"`,
    ...judged.params,
    runId,
    ...judged.runParams,
  );
  // Blind review: turns under review by this reader are left out of the comparison.
  const blind = await blindVisibility(db, actor, { runIds: [runId] });
  return rows.filter((row) => !blind.verdictHidden(row.responseId)).map((row) => {
    const outcome = turnOutcome(row, judge);
    return {
      turn: row.turn,
      task: row.task,
      domain: row.domain,
      round: int(row.round),
      responseId: row.responseId,
      passed: outcome.valid,
      // Only passing turns reach the resolve stage; a failed turn's three cases count as not resolved. A turn with a
      // case not judged yet has no resolve outcome, so the run is not compared on resolve until it is judged.
      cases: outcome.hasResolve && ![...outcome.cases.values()].includes(null) ? [1, 2, 3].map((position) => outcome.valid && outcome.cases.get(position) === true) : null,
    };
  });
}

export interface CompareRunChoice {
  id: string;
  model: string;
  displayName: string;
  label: string;
  hasResolve: boolean;
  /** "complete" | "in-progress" | ...: a run still being generated is compared on the turns it has so far. */
  status: string;
  /** Its leaderboard row (model × configuration), the configuration's words and the judge of its verdicts. */
  series: string;
  configuration: string;
  judge: string;
}

/** Runs on the benchmark for the comparison pickers, by model name then import order. */
export async function listCompareRuns(db: Database, actor: SessionUser | null, benchmarkId: string, viewedBy?: string): Promise<CompareRunChoice[]> {
  assertAllowed(actor, "read");
  const setup = runSetupSql("ru");
  const runs = await db.$queryRawUnsafe<({ id: string; label: string; hasResolve: unknown; status: string; model: string; displayName: string } & RunSetupRow)[]>(
    `SELECT ru."id" AS id, ru."label" AS label, ru."hasResolve" AS "hasResolve", ru."status" AS status, m."name" AS model, m."displayName" AS "displayName", ${setup.columns}
     FROM "Run" ru JOIN "Model" m ON m."id" = ru."modelId" ${setup.join}
     WHERE ru."benchmarkId" = ?
     ORDER BY m."name", ru."importedAt", ru."id"`,
    benchmarkId,
  );
  const judges = await ownJudges(db, runs);
  return runs.map((run) => {
    const facts = runFacts(run.model, runSetupOf(run), judges.get(run.id)!, viewedBy);
    return { id: run.id, model: run.model, displayName: run.displayName, label: run.label, hasResolve: int(run.hasResolve) === 1, status: run.status, series: facts.series, configuration: facts.configuration.label, judge: facts.configuration.judge };
  });
}
