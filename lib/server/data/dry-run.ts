import "server-only";
// The stored dry run of one response (DryRunCase rows written by the dry-run job): a prediction of local execution
// with the mock model, never a Dify resolve verdict. Readers of the response may read it.
import type { TraceStep } from "@/lib/dry-run/engine";
import type { DryRunOutput } from "@/lib/dry-run/execute";
import { PLACEHOLDER_PNG } from "@/lib/dry-run/placeholder-png";
import { isDownloadable } from "@/lib/dry-run/types";
import { mimeTypeOf } from "@/lib/dry-run/values";
import { predictedExecutionBySeries, type DryRunGroup, type PredictedExecution } from "@/lib/leaderboard/predicted";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { exporterFileBytes } from "../dry-run/exporter-files";
import { blindVisibility } from "./review";
import type { SessionUser } from "../session";
import { int } from "./run-counts";

export interface StoredDryRunCase {
  position: number;
  outcome: "completed" | "failed";
  /** The failing node's id as the response wrote it. */
  failedNode: string | null;
  reason: string | null;
  fileCheck: "passed" | "failed" | "none";
  outputs: Record<string, DryRunOutput>;
  trace: TraceStep[];
  model: string;
  executedAt: string;
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export async function dryRunCasesOf(db: Database, actor: SessionUser | null, responseId: string): Promise<{ runId: string; passed: boolean; cases: StoredDryRunCase[] } | null> {
  assertAllowed(actor, "read");
  const response = await db.response.findUnique({
    where: { id: responseId },
    select: { runId: true, passResult: { select: { valid: true } }, dryRunCases: { orderBy: { position: "asc" } } },
  });
  if (!response) return null;
  return {
    runId: response.runId,
    passed: response.passResult?.valid === true,
    cases: response.dryRunCases.map((row) => ({
      position: row.position,
      outcome: row.outcome === "failed" ? "failed" : "completed",
      failedNode: row.failedNode,
      reason: row.reason,
      fileCheck: row.fileCheck === "passed" || row.fileCheck === "failed" ? row.fileCheck : "none",
      outputs: parseJson<Record<string, DryRunOutput>>(row.outputs, {}),
      trace: parseJson<TraceStep[]>(row.trace, []),
      model: row.model,
      executedAt: row.executedAt.toISOString(),
    })),
  };
}

export interface DryRunFileRequest {
  responseId: string;
  position: number;
  /** The step's index in the case's trace, and the file's in the step's list. */
  step: number;
  file: number;
}

/**
 * A file a dry run's tool returned, written again from what its trace keeps (the traces keep no bytes); null when
 * unknown, not downloadable, or hidden (a blind review hides the dry run with the verdicts, as the response page does).
 */
export async function dryRunFileOf(db: Database, actor: SessionUser | null, request: DryRunFileRequest): Promise<{ name: string; mimeType: string; bytes: Uint8Array } | null> {
  assertAllowed(actor, "read");
  if ((await blindVisibility(db, actor, { responseIds: [request.responseId] })).verdictHidden(request.responseId)) return null;
  const row = await db.dryRunCase.findUnique({ where: { responseId_position: { responseId: request.responseId, position: request.position } }, select: { trace: true } });
  const file = row ? parseJson<TraceStep[]>(row.trace, [])[request.step]?.files?.[request.file] : undefined;
  if (!file || !isDownloadable(file)) return null;
  const bytes = file.content === "placeholder" ? PLACEHOLDER_PNG : await exporterFileBytes(file.extension, file.markdown ?? "");
  return bytes ? { name: file.name, mimeType: mimeTypeOf(file.extension), bytes } : null;
}

/**
 * The leaderboard's "Predicted execution" per series, from one grouped query over the benchmark: each run's dry-run
 * executions per model of passing turns (PassResult.valid, as the job chose them), and the passing turns of the runs
 * that have any, which decide whether a run was dry-run whole. The CROSS JOINs make SQLite start from the dry-run
 * cases, so a benchmark without any costs nothing. `runs` are the runs the rows pool (a counts' `runs`).
 */
export async function getPredictedExecution(db: Database, actor: SessionUser | null, benchmarkId: string, runs: readonly { id: string; series: string }[]): Promise<Map<string, PredictedExecution>> {
  assertAllowed(actor, "read");
  if (runs.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<{ runId: string; model: string | null; turns: unknown; executions: unknown; reached: unknown }[]>(
    `WITH "dryRuns" AS (
       SELECT r."runId" AS "runId", c."model" AS model, COUNT(DISTINCT r."id") AS turns, COUNT(*) AS executions,
              SUM(CASE WHEN c."outcome" = 'completed' AND c."fileCheck" <> 'failed' THEN 1 ELSE 0 END) AS reached
       FROM "DryRunCase" c CROSS JOIN "Response" r CROSS JOIN "PassResult" p CROSS JOIN "Run" u
       WHERE r."id" = c."responseId" AND p."responseId" = r."id" AND p."valid" = TRUE AND u."id" = r."runId" AND u."benchmarkId" = ?
       GROUP BY r."runId", c."model"
     )
     SELECT "runId", model, turns, executions, reached FROM "dryRuns"
     UNION ALL
     SELECT r."runId" AS "runId", CAST(NULL AS TEXT) AS model, COUNT(*) AS turns, 0 AS executions, 0 AS reached
     FROM "Response" r JOIN "PassResult" p ON p."responseId" = r."id" AND p."valid" = TRUE
     WHERE r."runId" IN (SELECT "runId" FROM "dryRuns")
     GROUP BY r."runId"`,
    benchmarkId,
  );
  const groups: DryRunGroup[] = rows.map((row) => ({ runId: row.runId, model: row.model, turns: int(row.turns), executions: int(row.executions), reached: int(row.reached) }));
  return predictedExecutionBySeries(runs, groups);
}
