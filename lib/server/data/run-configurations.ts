import "server-only";
// Each run's own judge and configuration as every page reads them: from the run (origin, mode, Run.judge) and its
// evaluation (parameter overrides), with the series (leaderboard row) it pools into, and for runs judged by an LLM
// the turns still awaiting its verdict. Callers check the actor's permission before calling.
import { runConfiguration, seriesId, type Configuration, type RunSetup } from "@/lib/leaderboard/configuration";
import { parseRunJudge, type RunJudge } from "@/lib/judge/run-judge";
import type { Database } from "../db";
import { parseEvaluationJudge } from "../evaluations/types";

/** The columns `runSetupOf` reads and the join they need, for a query that aliases Run as `run`. */
export function runSetupSql(run: string): { columns: string; join: string } {
  return {
    columns: `${run}."origin" AS origin, ${run}."generationMode" AS "generationMode", ${run}."judge" AS "runJudge", ev."params" AS "evaluationParams", ev."judge" AS "evaluationJudge"`,
    join: `LEFT JOIN "Evaluation" ev ON ev."id" = ${run}."evaluationId"`,
  };
}
export const RUN_SETUP_COLUMNS = runSetupSql("r").columns;
export const RUN_SETUP_JOIN = runSetupSql("r").join;

export interface RunSetupRow {
  origin: string;
  generationMode: string | null;
  runJudge: string | null;
  evaluationParams: string | null;
  evaluationJudge: string | null;
}

export interface RunFacts {
  judge: RunJudge;
  configuration: Configuration;
  /** The leaderboard row the run pools into. */
  series: string;
}

function overridesOf(text: string | null): RunSetup["overrides"] {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as { temperature?: unknown; maxTokens?: unknown };
    return {
      ...(typeof value.temperature === "number" ? { temperature: value.temperature } : {}),
      ...(typeof value.maxTokens === "number" ? { maxTokens: value.maxTokens } : {}),
    };
  } catch {
    return null;
  }
}

export function runSetupOf(row: RunSetupRow): RunSetup {
  return { origin: row.origin, mode: row.generationMode, overrides: overridesOf(row.evaluationParams) };
}

/**
 * Own judges of runs keyed by id. A generated run made before runs stored their judge takes its evaluation's, named by
 * the judge endpoints' labels (one query for all such runs).
 */
export async function ownJudges(db: Database, rows: readonly (RunSetupRow & { id: string })[]): Promise<Map<string, RunJudge>> {
  const judges = new Map<string, RunJudge>();
  const legacy: { id: string; endpointIds: string[]; samples: number }[] = [];
  for (const row of rows) {
    const evaluationJudge = row.runJudge === null && row.origin === "generated" && row.evaluationJudge ? parseEvaluationJudge(row.evaluationJudge) : null;
    if (evaluationJudge?.kind === "llm") legacy.push({ id: row.id, endpointIds: evaluationJudge.endpointIds, samples: evaluationJudge.samples ?? 1 });
    else judges.set(row.id, parseRunJudge(row.runJudge, row.origin));
  }
  if (legacy.length > 0) {
    const endpoints = await db.modelEndpoint.findMany({ where: { id: { in: [...new Set(legacy.flatMap((entry) => entry.endpointIds))] } }, select: { id: true, label: true } });
    const labels = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint.label]));
    for (const entry of legacy) {
      const members = entry.endpointIds.map((id) => labels.get(id) ?? `deleted endpoint ${id.slice(0, 8)}`).sort();
      judges.set(entry.id, { kind: "llm", members, samples: entry.samples });
    }
  }
  return judges;
}

/** A run's judge, configuration and series; `viewedBy` names the judge a page re-views every run under. */
export function runFacts(model: string, setup: RunSetup, judge: RunJudge, viewedBy?: string): RunFacts {
  const configuration = runConfiguration(setup, judge, viewedBy);
  return { judge, configuration, series: seriesId(model, configuration) };
}

/** Turns of LLM-judged runs that reach step 1_4 but have no verdict of the run's judge yet, per run. */
export async function turnsAwaitingJudge(db: Database, runIds: readonly string[]): Promise<Map<string, number>> {
  if (runIds.length === 0) return new Map();
  const rows = await db.$queryRawUnsafe<{ runId: string; turns: unknown }[]>(
    `SELECT r."runId" AS "runId", COUNT(*) AS turns
     FROM "Response" r JOIN "PassResult" p ON p."responseId" = r."id"
     WHERE r."runId" IN (${runIds.map(() => "?").join(", ")}) AND p."officialFailStep" IS NULL
       AND COALESCE(p."failStep", '') <> 'step_1_5' AND p."verdictSource" <> 'judge'
     GROUP BY r."runId"`,
    ...runIds,
  );
  return new Map(rows.map((row) => [row.runId, Number(row.turns)]));
}

