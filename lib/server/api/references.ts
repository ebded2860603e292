import "server-only";
// What API bodies and queries name things by: a benchmark by id or slug (the name the app's URLs use), an endpoint
// or a Dify connection by id or label. Each lookup checks the actor's permission before its query.
import { chooseBenchmark, benchmarkParam } from "@/lib/leaderboard/benchmarks";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { listBenchmarkChoices } from "../data/leaderboard";
import type { SessionUser } from "../session";

export interface BenchmarkSummary {
  id: string;
  slug: string;
  name: string;
  taskCount: number;
  turnCount: number;
}

/** Every benchmark in the picker's order, with its task and turn counts. */
export async function listBenchmarkSummaries(db: Database, actor: SessionUser | null): Promise<BenchmarkSummary[]> {
  assertAllowed(actor, "read");
  const choices = await listBenchmarkChoices(db, actor);
  const tasks = await db.task.groupBy({ by: ["benchmarkId"], _count: { _all: true } });
  const taskCounts = new Map(tasks.map((row) => [row.benchmarkId, row._count._all]));
  return choices.map((choice) => ({ id: choice.id, slug: benchmarkParam(choice, choices), name: choice.name, taskCount: taskCounts.get(choice.id) ?? 0, turnCount: choice.turnCount }));
}

/** The benchmark an id or slug names, or null (never the default benchmark in place of an unknown one). */
export async function findBenchmarkByReference(db: Database, actor: SessionUser | null, reference: string): Promise<{ id: string; name: string } | null> {
  const choices = await listBenchmarkChoices(db, actor);
  const found = chooseBenchmark(choices, reference);
  if (!found) return null;
  const named = found.id === reference || found.name.toLowerCase() === reference.toLowerCase() || benchmarkParam(found, choices) === reference;
  return named ? { id: found.id, name: found.name } : null;
}

/** A model endpoint by id or label. */
export async function findEndpointByReference(db: Database, actor: SessionUser, reference: string): Promise<{ id: string; label: string } | null> {
  assertAllowed(actor, "runJobs");
  return (
    (await db.modelEndpoint.findUnique({ where: { id: reference }, select: { id: true, label: true } })) ??
    (await db.modelEndpoint.findUnique({ where: { label: reference }, select: { id: true, label: true } }))
  );
}

/** A Dify connection by id or label. */
export async function findDifyConnectionByReference(db: Database, actor: SessionUser, reference: string): Promise<{ id: string; label: string } | null> {
  assertAllowed(actor, "runJobs");
  return (
    (await db.difyConnection.findUnique({ where: { id: reference }, select: { id: true, label: true } })) ??
    (await db.difyConnection.findUnique({ where: { label: reference }, select: { id: true, label: true } }))
  );
}
