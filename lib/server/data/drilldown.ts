import "server-only";
// Drill-down data: a model's turns with their verdicts, the task list with pooled rates, a task's turns × runs
// matrix, and one run's per-turn outcomes for paired comparisons. Each function checks the actor may read.
import type { ModelInfo } from "@/lib/leaderboard/board";
import type { PairTurn } from "@/lib/leaderboard/compare";
import type { TaskCounts } from "@/lib/leaderboard/tables";
import { buildTaskMatrix, caseStates, encodeMatrix, type MatrixRun, type ModelTurnRow, type TaskMatrix, type WireMatrix } from "@/lib/leaderboard/turns";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import type { SessionUser } from "../session";
import { int, type ReadOptions } from "./leaderboard";
import { cachedRead } from "./read-cache";

/** "1:1,2:0,3:1" (position:verdict, from group_concat) to a map of position to verdict. */
function parseCases(text: unknown): Map<number, boolean> {
  const verdicts = new Map<number, boolean>();
  if (typeof text !== "string" || text.length === 0) return verdicts;
  for (const part of text.split(",")) {
    const [position, verdict] = part.split(":");
    verdicts.set(Number(position), verdict === "1");
  }
  return verdicts;
}

const CASES_SQL = `(SELECT group_concat(c."position" || ':' || c."verdict") FROM "CaseResult" c WHERE c."responseId" = r."id")`;

export interface ModelRun {
  id: string;
  label: string;
  origin: string;
  hasResolve: boolean;
  importedAt: string;
}

export interface ModelOverview {
  model: ModelInfo;
  runs: ModelRun[];
}

/** The model and its runs on the benchmark; null when no model has that name. */
export async function getModelOverview(db: Database, actor: SessionUser | null, benchmarkId: string | null, modelName: string): Promise<ModelOverview | null> {
  assertAllowed(actor, "read");
  const model = await db.model.findUnique({ where: { name: modelName } });
  if (!model) return null;
  const runs = benchmarkId
    ? await db.run.findMany({ where: { modelId: model.id, benchmarkId }, orderBy: [{ importedAt: "asc" }, { id: "asc" }], select: { id: true, label: true, origin: true, hasResolve: true, importedAt: true } })
    : [];
  return {
    model: { name: model.name, displayName: model.displayName, family: model.family, access: model.access },
    runs: runs.map((run) => ({ ...run, importedAt: run.importedAt.toISOString() })),
  };
}

export interface TurnFilter {
  domain?: string | null;
  round?: number | null;
  runId?: string | null;
}

/** The model's turns on the benchmark (optionally one domain, round or run), in benchmark order. */
export async function getModelTurns(db: Database, actor: SessionUser | null, benchmarkId: string, modelName: string, filter: TurnFilter = {}): Promise<ModelTurnRow[]> {
  assertAllowed(actor, "read");
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
  const rows = await db.$queryRawUnsafe<
    { responseId: string; runId: string; runLabel: string; hasResolve: unknown; task: string; domain: string; round: unknown; turn: string; valid: unknown; failStep: string | null; code: string | null; message: string | null; cases: unknown }[]
  >(
    `SELECT r."id" AS responseId, ru."id" AS runId, ru."label" AS runLabel, ru."hasResolve" AS hasResolve, k."name" AS task, d."name" AS domain,
            t."round" AS round, t."key" AS turn, p."valid" AS valid, p."failStep" AS failStep, p."topDiagnosticCode" AS code,
            (SELECT g."message" FROM "Diagnostic" g WHERE g."passResultId" = p."id" AND g."position" = 0) AS message,
            ${CASES_SQL} AS cases
     FROM "Run" ru
     JOIN "Model" m ON m."id" = ru."modelId"
     JOIN "Response" r ON r."runId" = ru."id"
     JOIN "PassResult" p ON p."responseId" = r."id"
     JOIN "Turn" t ON t."id" = r."turnId"
     JOIN "Task" k ON k."id" = t."taskId"
     JOIN "Domain" d ON d."id" = k."domainId"
     WHERE ${conditions.join(" AND ")}
     ORDER BY d."position", k."externalId", t."round", ru."importedAt", ru."id"`,
    ...values,
  );
  return rows.map((row) => {
    const valid = int(row.valid) === 1;
    return {
      responseId: row.responseId,
      runId: row.runId,
      runLabel: row.runLabel,
      task: row.task,
      domain: row.domain,
      round: int(row.round),
      turn: row.turn,
      valid,
      failStep: row.failStep,
      topDiagnosticCode: row.code,
      topDiagnosticMessage: row.message,
      cases: caseStates(valid, int(row.hasResolve) === 1, parseCases(row.cases)),
    };
  });
}

export interface TaskListItem extends TaskCounts {
  externalId: number;
}

export async function listTasks(db: Database, actor: SessionUser | null, benchmarkId: string): Promise<TaskListItem[]> {
  assertAllowed(actor, "read");
  const tasks = await db.$queryRawUnsafe<{ id: string; name: string; externalId: unknown; rounds: unknown; domain: string; turns: unknown }[]>(
    `SELECT k."id" AS id, k."name" AS name, k."externalId" AS externalId, k."roundCount" AS rounds, d."name" AS domain,
            (SELECT COUNT(*) FROM "Turn" t WHERE t."taskId" = k."id") AS turns
     FROM "Task" k JOIN "Domain" d ON d."id" = k."domainId"
     WHERE k."benchmarkId" = ? ORDER BY d."position", k."externalId"`,
    benchmarkId,
  );
  const results = await db.$queryRawUnsafe<{ taskId: string; responses: unknown; passed: unknown; resolveResponses: unknown; casesPassed: unknown }[]>(
    `SELECT t."taskId" AS taskId, COUNT(*) AS responses, SUM(p."valid") AS passed,
            SUM(ru."hasResolve") AS resolveResponses,
            SUM(CASE WHEN ru."hasResolve" = 1 THEN (SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = r."id" AND c."verdict" = 1) ELSE 0 END) AS casesPassed
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
    };
  });
}

export interface TaskDetail {
  name: string;
  externalId: number;
  domain: string;
  turns: { turnId: string; round: number; key: string; instruction: string }[];
  matrix: TaskMatrix;
  /** The matrix in the compact form pages send to the browser. */
  wire: WireMatrix;
}

/** A task's turns and every run's verdicts on them; null when the benchmark has no such task. */
export async function getTaskMatrix(db: Database, actor: SessionUser | null, benchmarkId: string, taskName: string, options: ReadOptions = {}): Promise<TaskDetail | null> {
  assertAllowed(actor, "read");
  if (options.fresh) return computeTaskMatrix(db, benchmarkId, taskName);
  return cachedRead(db, `task:${benchmarkId}:${taskName}`, () => computeTaskMatrix(db, benchmarkId, taskName));
}

async function computeTaskMatrix(db: Database, benchmarkId: string, taskName: string): Promise<TaskDetail | null> {
  const task = await db.task.findUnique({
    where: { benchmarkId_name: { benchmarkId, name: taskName } },
    include: { domain: { select: { name: true } }, turns: { select: { id: true, round: true, key: true, instruction: true }, orderBy: { round: "asc" } } },
  });
  if (!task) return null;
  const responses = await db.$queryRawUnsafe<
    { responseId: string; runId: string; turnId: string; valid: unknown; failStep: string | null; casesPassed: unknown; label: string; hasResolve: unknown; model: string; displayName: string; importedAt: unknown }[]
  >(
    `SELECT r."id" AS responseId, r."runId" AS runId, r."turnId" AS turnId, p."valid" AS valid, p."failStep" AS failStep,
            (SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = r."id" AND c."verdict" = 1) AS casesPassed,
            ru."label" AS label, ru."hasResolve" AS hasResolve, m."name" AS model, m."displayName" AS displayName, ru."importedAt" AS importedAt
     FROM "Turn" t
     JOIN "Response" r ON r."turnId" = t."id"
     JOIN "PassResult" p ON p."responseId" = r."id"
     JOIN "Run" ru ON ru."id" = r."runId"
     JOIN "Model" m ON m."id" = ru."modelId"
     WHERE t."taskId" = ?
     ORDER BY ru."importedAt", ru."id"`,
    task.id,
  );
  const runs = new Map<string, MatrixRun>();
  for (const row of responses) {
    if (!runs.has(row.runId)) runs.set(row.runId, { runId: row.runId, model: row.model, displayName: row.displayName, label: row.label, hasResolve: int(row.hasResolve) === 1 });
  }
  const matrix = buildTaskMatrix(
    task.turns.map((turn) => ({ turnId: turn.id, round: turn.round, key: turn.key })),
    [...runs.values()],
    responses.map((row) => ({ responseId: row.responseId, runId: row.runId, turnId: row.turnId, valid: int(row.valid) === 1, failStep: row.failStep, casesPassed: int(row.casesPassed) })),
  );
  return {
    name: task.name,
    externalId: task.externalId,
    domain: task.domain.name,
    turns: task.turns.map((turn) => ({ turnId: turn.id, round: turn.round, key: turn.key, instruction: turn.instruction })),
    matrix,
    wire: encodeMatrix(matrix),
  };
}

/** One run's outcome on every turn it answered, for a paired comparison. */
export async function getPairTurns(db: Database, actor: SessionUser | null, runId: string): Promise<PairTurn[]> {
  assertAllowed(actor, "read");
  const rows = await db.$queryRawUnsafe<{ responseId: string; turn: string; task: string; domain: string; round: unknown; valid: unknown; hasResolve: unknown; cases: unknown }[]>(
    `SELECT r."id" AS responseId, t."key" AS turn, k."name" AS task, d."name" AS domain, t."round" AS round, p."valid" AS valid,
            ru."hasResolve" AS hasResolve, ${CASES_SQL} AS cases
     FROM "Run" ru
     JOIN "Response" r ON r."runId" = ru."id"
     JOIN "PassResult" p ON p."responseId" = r."id"
     JOIN "Turn" t ON t."id" = r."turnId"
     JOIN "Task" k ON k."id" = t."taskId"
     JOIN "Domain" d ON d."id" = k."domainId"
     WHERE ru."id" = ?
     ORDER BY d."position", k."externalId", t."round"`,
    runId,
  );
  return rows.map((row) => {
    const verdicts = parseCases(row.cases);
    return {
      turn: row.turn,
      task: row.task,
      domain: row.domain,
      round: int(row.round),
      responseId: row.responseId,
      passed: int(row.valid) === 1,
      // Only passing turns reach the resolve stage; a failed turn's three cases count as not resolved.
      cases: int(row.hasResolve) === 1 ? [1, 2, 3].map((position) => verdicts.get(position) === true) : null,
    };
  });
}

export interface CompareRunChoice {
  id: string;
  model: string;
  displayName: string;
  label: string;
  hasResolve: boolean;
}

/** Runs on the benchmark for the comparison pickers, by model name then import order. */
export async function listCompareRuns(db: Database, actor: SessionUser | null, benchmarkId: string): Promise<CompareRunChoice[]> {
  assertAllowed(actor, "read");
  const runs = await db.run.findMany({
    where: { benchmarkId },
    orderBy: [{ model: { name: "asc" } }, { importedAt: "asc" }, { id: "asc" }],
    select: { id: true, label: true, hasResolve: true, model: { select: { name: true, displayName: true } } },
  });
  return runs.map((run) => ({ id: run.id, model: run.model.name, displayName: run.model.displayName, label: run.label, hasResolve: run.hasResolve }));
}
