import "server-only";
// Runs: listing with their rates, deleting, and re-scoring with the current scoring core. Each function checks the
// acting user's permission before its query.
import type { Database } from "../db";
import { countRunVotes } from "./review/votes";
import { assertAllowed } from "../authz";
import type { SessionUser } from "../session";

export interface RunListItem {
  id: string;
  label: string;
  origin: string;
  /** "complete" | "in-progress" | "failed" | "cancelled". */
  status: string;
  model: { name: string; displayName: string; family: string | null; access: string | null };
  benchmark: { id: string; name: string };
  responseCount: number;
  passed: number;
  casesPassed: number | null;
  /** Test cases not judged yet: while any is, the run has no resolve rate. */
  casesNotJudged: number;
  hasResolve: boolean;
  disagreements: number;
  importedAt: Date;
  importedBy: string | null;
  coreVersion: string;
}

export async function listRuns(db: Database, actor: SessionUser | null): Promise<RunListItem[]> {
  assertAllowed(actor, "read");
  const runs = await db.run.findMany({
    orderBy: [{ benchmark: { importedAt: "desc" } }, { model: { name: "asc" } }, { importedAt: "asc" }],
    include: { model: true, benchmark: { select: { id: true, name: true } } },
  });
  if (runs.length === 0) return [];
  const passed = await db.$queryRawUnsafe<{ runId: string; passed: number; disagreements: number }[]>(
    `SELECT r."runId" AS "runId", SUM(CAST(p."valid" AS INTEGER)) AS passed, SUM(CASE WHEN p."disagreement" IS NULL THEN 0 ELSE 1 END) AS disagreements
     FROM "PassResult" p JOIN "Response" r ON r."id" = p."responseId" GROUP BY r."runId"`,
  );
  const cases = await db.$queryRawUnsafe<{ runId: string; casesPassed: number; casesNotJudged: number }[]>(
    `SELECT r."runId" AS "runId", SUM(CASE WHEN c."verdict" = TRUE THEN 1 ELSE 0 END) AS "casesPassed", SUM(CASE WHEN c."verdict" IS NULL THEN 1 ELSE 0 END) AS "casesNotJudged"
     FROM "CaseResult" c JOIN "Response" r ON r."id" = c."responseId" GROUP BY r."runId"`,
  );
  const passedByRun = new Map(passed.map((row) => [row.runId, row]));
  const casesByRun = new Map(cases.map((row) => [row.runId, Number(row.casesPassed)]));
  const notJudgedByRun = new Map(cases.map((row) => [row.runId, Number(row.casesNotJudged)]));
  return runs.map((run) => ({
    id: run.id,
    label: run.label,
    origin: run.origin,
    status: run.status,
    model: { name: run.model.name, displayName: run.model.displayName, family: run.model.family, access: run.model.access },
    benchmark: run.benchmark,
    responseCount: run.responseCount,
    passed: Number(passedByRun.get(run.id)?.passed ?? 0),
    casesPassed: run.hasResolve ? (casesByRun.get(run.id) ?? 0) : null,
    casesNotJudged: notJudgedByRun.get(run.id) ?? 0,
    hasResolve: run.hasResolve,
    disagreements: Number(passedByRun.get(run.id)?.disagreements ?? 0),
    importedAt: run.importedAt,
    // Who imported is an e-mail address: shown to signed-in users only.
    importedBy: actor ? run.importedBy : null,
    coreVersion: run.coreVersion,
  }));
}

export type DeleteRunOutcome =
  | { deleted: true; label: string }
  | { deleted: false; label: null }
  /** The run's responses carry review votes: deleting needs `confirmVotes` equal to their count. */
  | { deleted: false; label: string; votes: number; queues: number };

/**
 * Deletes a run. When review votes were cast on its responses, they would go with it: then the caller must confirm
 * by naming the number of votes (`confirmVotes`), and nothing is deleted until they do.
 */
export async function deleteRun(db: Database, actor: SessionUser, runId: string, confirmVotes?: number): Promise<DeleteRunOutcome> {
  assertAllowed(actor, "administer");
  const run = await db.run.findUnique({ where: { id: runId }, select: { label: true } });
  if (!run) return { deleted: false, label: null };
  const { votes, queues } = await countRunVotes(db, runId);
  if (votes > 0 && confirmVotes !== votes) return { deleted: false, label: run.label, votes, queues };
  // Cascades remove responses, verdicts, diagnostics and case results in the same statement's transaction.
  await db.run.delete({ where: { id: runId } });
  return { deleted: true, label: run.label };
}

export interface BenchmarkListItem {
  id: string;
  name: string;
  version: string;
  turnCount: number;
  runCount: number;
  importedAt: Date;
}

export async function listBenchmarks(db: Database, actor: SessionUser | null): Promise<BenchmarkListItem[]> {
  assertAllowed(actor, "read");
  const benchmarks = await db.benchmark.findMany({
    orderBy: { importedAt: "desc" },
    include: { _count: { select: { turns: true, runs: true } } },
  });
  return benchmarks.map((benchmark) => ({
    id: benchmark.id,
    name: benchmark.name,
    version: benchmark.version,
    turnCount: benchmark._count.turns,
    runCount: benchmark._count.runs,
    importedAt: benchmark.importedAt,
  }));
}

/** Whether a run exists: the cheap check a page makes before streaming, so an unknown id answers 404. */
export async function runExists(db: Database, actor: SessionUser | null, runId: string): Promise<boolean> {
  assertAllowed(actor, "read");
  return (await db.run.findUnique({ where: { id: runId }, select: { id: true } })) !== null;
}
