import "server-only";
// Runs: listing with their rates, deleting, and re-scoring with the current scoring core. Each function checks the
// acting user's permission before its query.
import { describeRunJudge } from "@/lib/judge/run-judge";
import { DEMO_IMPORTER } from "@/lib/leaderboard/benchmarks";
import type { Database } from "../db";
import { countRunVotes } from "./review/votes";
import { ownJudges, RUN_SETUP_COLUMNS, RUN_SETUP_JOIN, runFacts, runSetupOf, turnsAwaitingJudge, type RunSetupRow } from "./run-configurations";
import { assertAllowed } from "../authz";
import type { SessionUser } from "../session";

export interface RunListItem {
  id: string;
  label: string;
  origin: string;
  /** "complete" | "in-progress" | "failed" | "cancelled". */
  status: string;
  model: { name: string; displayName: string; family: string | null; access: string | null };
  /** `demo`: the seeded demo benchmark, which pickers list last. */
  benchmark: { id: string; name: string; demo: boolean };
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
  /** Who made its figures: "recorded verdicts", "judge: gpt-5.1 ×1", "rule judge (not the official LLM judge)". */
  judge: string;
}

export async function listRuns(db: Database, actor: SessionUser | null): Promise<RunListItem[]> {
  assertAllowed(actor, "read");
  const runs = await db.run.findMany({
    orderBy: [{ benchmark: { importedAt: "desc" } }, { model: { name: "asc" } }, { importedAt: "asc" }],
    include: { model: true, benchmark: { select: { id: true, name: true, importedBy: true } }, evaluation: { select: { params: true, judge: true } } },
  });
  if (runs.length === 0) return [];
  const judges = await ownJudges(
    db,
    runs.map((run) => ({ id: run.id, origin: run.origin, generationMode: run.generationMode, runJudge: run.judge, evaluationParams: run.evaluation?.params ?? null, evaluationJudge: run.evaluation?.judge ?? null })),
  );
  const passed = await db.$queryRawUnsafe<{ runId: string; passed: number; disagreements: number }[]>(
    `SELECT r."runId" AS "runId", SUM(CAST(p."valid" AS INTEGER)) AS passed, SUM(CASE WHEN p."disagreement" IS NULL THEN 0 ELSE 1 END) AS disagreements
     FROM "PassResult" p JOIN "Response" r ON r."id" = p."responseId" GROUP BY r."runId"`,
  );
  const cases = await db.$queryRawUnsafe<{ runId: string; casesPassed: number; casesNotJudged: number }[]>(
    `SELECT r."runId" AS "runId", SUM(CASE WHEN c."verdict" = TRUE THEN 1 ELSE 0 END) AS "casesPassed", SUM(CASE WHEN c."verdict" IS NULL THEN 1 ELSE 0 END) AS "casesNotJudged"
     FROM "CaseResult" c JOIN "Response" r ON r."id" = c."responseId" GROUP BY r."runId"`,
  );
  // Evaluations once recorded their starter's account id: readers see that account's email instead.
  const starterIds = [...new Set(runs.flatMap((run) => (run.origin === "generated" && run.importedBy ? [run.importedBy] : [])))];
  const starters = starterIds.length ? new Map((await db.user.findMany({ where: { id: { in: starterIds } }, select: { id: true, email: true } })).map((user) => [user.id, user.email])) : new Map<string, string>();
  const passedByRun = new Map(passed.map((row) => [row.runId, row]));
  const casesByRun = new Map(cases.map((row) => [row.runId, Number(row.casesPassed)]));
  const notJudgedByRun = new Map(cases.map((row) => [row.runId, Number(row.casesNotJudged)]));
  return runs.map((run) => ({
    id: run.id,
    label: run.label,
    origin: run.origin,
    status: run.status,
    model: { name: run.model.name, displayName: run.model.displayName, family: run.model.family, access: run.model.access },
    benchmark: { id: run.benchmark.id, name: run.benchmark.name, demo: run.benchmark.importedBy === DEMO_IMPORTER },
    responseCount: run.responseCount,
    passed: Number(passedByRun.get(run.id)?.passed ?? 0),
    casesPassed: run.hasResolve ? (casesByRun.get(run.id) ?? 0) : null,
    casesNotJudged: notJudgedByRun.get(run.id) ?? 0,
    hasResolve: run.hasResolve,
    disagreements: Number(passedByRun.get(run.id)?.disagreements ?? 0),
    importedAt: run.importedAt,
    // Who imported is an e-mail address: shown to signed-in users only.
    importedBy: actor && run.importedBy ? (starters.get(run.importedBy) ?? run.importedBy) : null,
    coreVersion: run.coreVersion,
    judge: describeRunJudge(judges.get(run.id) ?? { kind: "rule" }),
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

/** A run's pass and resolve figures as its own judge made them: what the leaderboard pools for it, run by run. */
export interface RunFigures {
  runId: string;
  turns: number;
  passed: number;
  /** Resolved test cases of 3 × turns; null for runs without resolve-stage results. */
  casesPassed: number | null;
  cases: number | null;
  /** Test cases no LLM judge has answered: while any is, the run has no resolve rate ("not judged (n)"). */
  casesNotJudged: number;
  /** Its own judge, e.g. "judge: gpt-5.1 ×1" or "rule judge (not the official LLM judge)". */
  judge: string;
  /** Turns reaching step 1_4 its own LLM judge has not decided yet (they keep the rule judge's verdict until then). */
  awaitingJudge: number;
  /** How it was made and judged, as its leaderboard row says. */
  configuration: string;
  /** Its leaderboard row (model × configuration). */
  series: string;
}

/**
 * Figures of the given runs from the same stored verdicts the leaderboard counts (PassResult.valid, CaseResult.verdict),
 * so a run's page, its evaluation's page and its leaderboard row agree by construction.
 */
export async function getRunFigures(db: Database, actor: SessionUser | null, runIds: readonly string[]): Promise<Map<string, RunFigures>> {
  assertAllowed(actor, "read");
  if (runIds.length === 0) return new Map();
  const list = runIds.map(() => "?").join(", ");
  const runs = await db.$queryRawUnsafe<({ id: string; hasResolve: unknown; model: string } & RunSetupRow)[]>(
    `SELECT r."id" AS id, r."hasResolve" AS "hasResolve", m."name" AS model, ${RUN_SETUP_COLUMNS}
     FROM "Run" r JOIN "Model" m ON m."id" = r."modelId" ${RUN_SETUP_JOIN}
     WHERE r."id" IN (${list})`,
    ...runIds,
  );
  const counts = await db.$queryRawUnsafe<{ runId: string; turns: unknown; passed: unknown; casesPassed: unknown; casesNotJudged: unknown }[]>(
    `SELECT r."runId" AS "runId", COUNT(*) AS turns, SUM(CAST(p."valid" AS INTEGER)) AS passed,
            SUM((SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = r."id" AND c."verdict" = TRUE)) AS "casesPassed",
            SUM((SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = r."id" AND c."verdict" IS NULL)) AS "casesNotJudged"
     FROM "Response" r JOIN "PassResult" p ON p."responseId" = r."id"
     WHERE r."runId" IN (${list})
     GROUP BY r."runId"`,
    ...runIds,
  );
  const judges = await ownJudges(db, runs);
  const awaiting = await turnsAwaitingJudge(db, runs.filter((run) => judges.get(run.id)?.kind === "llm").map((run) => run.id));
  const byRun = new Map(counts.map((row) => [row.runId, row]));
  const figures = new Map<string, RunFigures>();
  for (const run of runs) {
    const judge = judges.get(run.id)!;
    const facts = runFacts(run.model, runSetupOf(run), judge);
    const row = byRun.get(run.id);
    const turns = Number(row?.turns ?? 0);
    const hasResolve = Number(run.hasResolve) === 1;
    figures.set(run.id, {
      runId: run.id,
      turns,
      passed: Number(row?.passed ?? 0),
      casesPassed: hasResolve ? Number(row?.casesPassed ?? 0) : null,
      cases: hasResolve ? 3 * turns : null,
      casesNotJudged: hasResolve ? Number(row?.casesNotJudged ?? 0) : 0,
      judge: describeRunJudge(judge),
      awaitingJudge: awaiting.get(run.id) ?? 0,
      configuration: facts.configuration.label,
      series: facts.series,
    });
  }
  return figures;
}
