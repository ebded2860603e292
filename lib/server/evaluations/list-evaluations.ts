import "server-only";
// Evaluations, newest first, with their runs: the evaluations list.
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import { EVALUATION_SELECT, evaluationView, type EvaluationView } from "./get-evaluation";
import { findGenerateJob } from "./jobs-of-evaluation";

export async function listEvaluations(db: Database, actor: SessionUser | null, filter: { benchmarkId?: string; limit?: number } = {}): Promise<EvaluationView[]> {
  assertAllowed(actor, "read");
  const rows = await db.evaluation.findMany({
    where: filter.benchmarkId ? { benchmarkId: filter.benchmarkId } : {},
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(filter.limit ?? 100, 1), 500),
    select: EVALUATION_SELECT,
  });
  if (rows.length === 0) return [];
  const endpointIds = [...new Set(rows.flatMap((row) => (row.endpointId ? [row.endpointId] : [])))];
  const endpoints = new Map(
    (await db.modelEndpoint.findMany({ where: { id: { in: endpointIds } }, select: { id: true, label: true, model: true } })).map((endpoint) => [endpoint.id, endpoint]),
  );
  const jobIds = await Promise.all(rows.map(async (row) => (await findGenerateJob(db, row.id))?.id ?? null));
  return rows.map((row, index) => evaluationView(row, (row.endpointId && endpoints.get(row.endpointId)) || null, jobIds[index] ?? null));
}
