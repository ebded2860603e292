import "server-only";
// Figures "as judged by" a judge or panel: every turn re-decided from JudgeVerdict rows in grouped SQL (step 1_4 and
// the resolve verdicts), with per-run coverage so a run the judge has not (fully) judged is reported, never zeroed.
import { describeJudgeChoice, type JudgeChoice } from "@/lib/judge/choice";
import type { CellCount } from "@/lib/leaderboard/counts";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import { joinedText } from "../sql-dialect";
import type { SessionUser } from "../session";
import { cachedRead } from "./read-cache";
import { countsPerSeries, getOwnJudgeCounts, int, type MeasuredCounts, type RunInfo } from "./run-counts";

type JudgesChoice = Extract<JudgeChoice, { kind: "judges" }>;

/** SQL text with its positional parameters, in the order the `?` appear. */
export interface SqlPart {
  sql: string;
  params: string[];
}

const VERDICT_INDEX = `"JudgeVerdict_responseId_stage_casePosition_judge_verdict_idx"`;

/**
 * The panel's verdict on one item as a scalar subquery: 1, 0, or NULL when a member has no verdict on it. Each
 * member's verdict is the majority of its samples (SUM·2 > COUNT: ties fail), then the majority over members with
 * the same rule as panelVerdict in lib/judge/majority. One index range per item; the covering index holds the verdicts.
 */
export function panelVerdictSql(members: readonly string[], stage: "pass" | "resolve", responseExpr: string, positionExpr: string): SqlPart {
  const n = members.length;
  const memberVotes = members
    .map(() => `CASE WHEN SUM(CASE WHEN j."judge" = ? THEN CAST(j."verdict" AS INTEGER) ELSE 0 END) * 2 > SUM(CASE WHEN j."judge" = ? THEN 1 ELSE 0 END) THEN 1 ELSE 0 END`)
    .join(" + ");
  return {
    sql: `(SELECT CASE WHEN COUNT(DISTINCT j."judge") < ${n} THEN NULL WHEN (${memberVotes}) * 2 > ${n} THEN 1 ELSE 0 END
           FROM "JudgeVerdict" j INDEXED BY ${VERDICT_INDEX}
           WHERE j."responseId" = ${responseExpr} AND j."stage" = '${stage}' AND j."casePosition" = ${positionExpr}
             AND j."judge" IN (${members.map(() => "?").join(", ")}))`,
    params: [...members.flatMap((member) => [member, member]), ...members],
  };
}

/** Whether the recorded run called its resolve judge on a case (it did not on file-check failures or file-only outputs). */
const RECORDED_RESOLVE_CALLED = (responseExpr: string, positionExpr: string) =>
  `EXISTS (SELECT 1 FROM "JudgeVerdict" x INDEXED BY ${VERDICT_INDEX} WHERE x."responseId" = ${responseExpr} AND x."stage" = 'resolve' AND x."casePosition" = ${positionExpr} AND x."judge" = 'recorded')`;

/** A Dify import failure (step 1_5): recorded with the run, or met when this app executed it. */
const FAILED_AT_DIFY = `COALESCE(p."recordedFailStep", p."failStep", '') = 'step_1_5'`;

/** Steps 1_1–1_3 as this app reproduces them, and no Dify import failure (step 1_5): the turn reaches the judge. */
const REACHES_JUDGE = `(p."officialFailStep" IS NULL AND NOT ${FAILED_AT_DIFY})`;

/**
 * A recorded test case's outcome under the panel, as SQL over `c` (a CaseResult row): the recorded run's file
 * checks passed and the panel's resolve verdict (NULL when it has none); a case the recorded run decided without
 * calling its judge (a failed run or file check, or only file outputs) keeps its recorded verdict.
 */
function caseOutcomeSql(members: readonly string[]): SqlPart {
  const verdict = panelVerdictSql(members, "resolve", `c."responseId"`, `c."position"`);
  return {
    sql: `CASE WHEN NOT ${RECORDED_RESOLVE_CALLED(`c."responseId"`, `c."position"`)} THEN CAST(c."verdict" AS INTEGER) ELSE ${verdict.sql} END`,
    params: verdict.params,
  };
}

export type Coverage = "judged" | "partial" | "not-judged";

export interface RunJudging {
  runId: string;
  model: string;
  label: string;
  /** Step 1_4: judged when the judge decided every turn that reaches it. */
  pass: Coverage;
  /** Turns reaching step 1_4, and those the judge decided. */
  reach: number;
  passJudged: number;
  /** Resolve: null for runs without resolve-stage data (raw model output). */
  resolve: Coverage | null;
  /** Recorded resolve-judge calls on cases of turns passing under the judge that it has not decided. */
  casesMissing: number;
}

export interface JudgedCounts extends MeasuredCounts {
  /** Every run of the benchmark with what the judge covers; only runs whose pass stage is judged enter `cells`. */
  judging: RunJudging[];
}

function coverage(anyRows: number, missing: number): Coverage {
  if (anyRows === 0) return "not-judged";
  return missing === 0 ? "judged" : "partial";
}

/**
 * Counts per (run, domain, round) as the chosen judge or panel decides them, in the shape `getMeasuredCounts`
 * returns; runs it has not fully judged at step 1_4 are left out of the cells and listed in `judging`; a run
 * judged at step 1_4 but not (fully) at resolve keeps its pass counts and has no resolve figure.
 */
export async function getJudgedCounts(db: Database, actor: SessionUser | null, benchmarkId: string, choice: JudgesChoice, base: MeasuredCounts): Promise<JudgedCounts> {
  assertAllowed(actor, "read");
  const present = await db.$queryRawUnsafe<{ runId: string; stage: string; rows: unknown }[]>(
    `SELECT r."runId" AS "runId", j."stage" AS stage, COUNT(*) AS rows
     FROM "JudgeVerdict" j INDEXED BY "JudgeVerdict_stage_judge_idx"
     JOIN "Response" r ON r."id" = j."responseId"
     JOIN "Run" ru ON ru."id" = r."runId"
     WHERE ru."benchmarkId" = ? AND j."judge" IN (${choice.members.map(() => "?").join(", ")})
     GROUP BY r."runId", j."stage"`,
    benchmarkId,
    ...choice.members,
  );
  const pass = panelVerdictSql(choice.members, "pass", `r."id"`, "0");
  // Resolve outcomes are computed only for turns that pass, and not at all when the judge never judged resolve.
  const judgesResolve = present.some((row) => row.stage === "resolve");
  const outcome = caseOutcomeSql(choice.members);
  const outcomeMissing = caseOutcomeSql(choice.members);
  const cases = judgesResolve
    ? {
        sql: `SUM(CASE WHEN passed = 1 THEN (SELECT COALESCE(SUM(CASE WHEN (${outcome.sql}) = 1 THEN 1 ELSE 0 END), 0) FROM "CaseResult" c WHERE c."responseId" = o."rid") ELSE 0 END) AS "casesPassed",
              SUM(CASE WHEN passed = 1 THEN (SELECT COALESCE(SUM(CASE WHEN (${outcomeMissing.sql}) IS NULL THEN 1 ELSE 0 END), 0) FROM "CaseResult" c WHERE c."responseId" = o."rid") ELSE 0 END) AS "casesMissing"`,
        params: [...outcome.params, ...outcomeMissing.params],
      }
    : { sql: `0 AS "casesPassed", SUM(CASE WHEN passed = 1 THEN (SELECT COUNT(*) FROM "CaseResult" c WHERE c."responseId" = o."rid" AND ${RECORDED_RESOLVE_CALLED(`c."responseId"`, `c."position"`)}) ELSE 0 END) AS "casesMissing"`, params: [] };
  // MATERIALIZED keeps SQLite from inlining the verdict subquery into every expression that uses it.
  const groups = await db.$queryRawUnsafe<{ runId: string; domain: unknown; round: unknown; turns: unknown; passed: unknown; reach: unknown; judged: unknown; casesPassed: unknown; casesMissing: unknown }[]>(
    `WITH decided AS MATERIALIZED (
       SELECT r."runId" AS "runId", d."position" AS domain, t."round" AS round, r."id" AS rid, CASE WHEN ${REACHES_JUDGE} THEN 1 ELSE 0 END AS reach,
              CASE WHEN ${REACHES_JUDGE} THEN ${pass.sql} END AS pv
       FROM "Turn" t
       JOIN "Task" k ON k."id" = t."taskId"
       JOIN "Domain" d ON d."id" = k."domainId"
       CROSS JOIN "Response" r INDEXED BY "Response_turnId_runId_id_idx"
       CROSS JOIN "PassResult" p
       WHERE t."benchmarkId" = ? AND r."turnId" = t."id" AND p."responseId" = r."id"
     ),
     outcomes AS MATERIALIZED (SELECT "runId", domain, round, rid, reach, pv, CASE WHEN reach = 1 AND pv = 1 THEN 1 ELSE 0 END AS passed FROM decided)
     SELECT "runId", domain, round, COUNT(*) AS turns, SUM(passed) AS passed, SUM(reach) AS reach, COUNT(pv) AS judged, ${cases.sql}
     FROM outcomes o
     GROUP BY "runId", domain, round`,
    ...pass.params,
    benchmarkId,
    ...cases.params,
  );
  const rowsOf = new Map(present.map((row) => [`${row.runId}/${row.stage}`, int(row.rows)]));
  const totals = new Map<string, { reach: number; judged: number; casesMissing: number }>();
  for (const group of groups) {
    const total = totals.get(group.runId) ?? { reach: 0, judged: 0, casesMissing: 0 };
    total.reach += int(group.reach);
    total.judged += int(group.judged);
    total.casesMissing += int(group.casesMissing);
    totals.set(group.runId, total);
  }
  const judging: RunJudging[] = base.runs.map((run: RunInfo) => {
    const total = totals.get(run.id) ?? { reach: 0, judged: 0, casesMissing: 0 };
    return {
      runId: run.id,
      model: run.model,
      label: run.label,
      pass: coverage(rowsOf.get(`${run.id}/pass`) ?? 0, total.reach - total.judged),
      reach: total.reach,
      passJudged: total.judged,
      resolve: run.hasResolve ? coverage(rowsOf.get(`${run.id}/resolve`) ?? 0, total.casesMissing) : null,
      casesMissing: total.casesMissing,
    };
  });
  const byRun = new Map(judging.map((entry) => [entry.runId, entry]));
  const positionName = await domainNames(db, benchmarkId);
  const cells: CellCount[] = [];
  // Runs in the base order (model name order), so models appear in the same order as in today's figures.
  const groupsByRun = new Map<string, typeof groups>();
  for (const group of groups) groupsByRun.set(group.runId, [...(groupsByRun.get(group.runId) ?? []), group]);
  for (const run of base.runs) {
    const entry = byRun.get(run.id);
    if (!entry || entry.pass !== "judged") continue;
    for (const group of groupsByRun.get(run.id) ?? []) {
      const position = String(int(group.domain));
      cells.push({
        model: run.series,
        runId: run.id,
        domain: positionName.get(position) ?? position,
        round: int(group.round),
        turns: int(group.turns),
        passed: int(group.passed),
        casesPassed: entry.resolve === "judged" ? int(group.casesPassed) : null,
      });
    }
  }
  const judgedModels = new Set(cells.map((cell) => cell.model));
  return {
    ...base,
    models: base.models.filter((model) => judgedModels.has(model.name)),
    runs: base.runs.filter((run) => byRun.get(run.id)?.pass === "judged"),
    cells,
    judging,
  };
}

async function domainNames(db: Database, benchmarkId: string): Promise<Map<string, string>> {
  const rows = await db.$queryRawUnsafe<{ position: unknown; name: string }[]>(`SELECT "position" AS position, "name" AS name FROM "Domain" WHERE "benchmarkId" = ?`, benchmarkId);
  return new Map(rows.map((row) => [String(int(row.position)), row.name]));
}

/**
 * Fail steps and first-diagnostic categories of failed turns, as the judge decides them, over the runs it has
 * judged: steps 1_1–1_3 are this app's reproduction, step 1_4 the judge's fail, step 1_5 the Dify import.
 */
export async function getJudgedFailureCounts(db: Database, actor: SessionUser | null, choice: JudgesChoice, runs: readonly Pick<RunInfo, "id" | "series">[]) {
  assertAllowed(actor, "read");
  if (runs.length === 0) return { steps: [], categories: [] };
  const pass = panelVerdictSql(choice.members, "pass", `r."id"`, "0");
  const failStep = `CASE WHEN p."officialFailStep" IS NOT NULL THEN p."officialFailStep" WHEN ${FAILED_AT_DIFY} THEN 'step_1_5' WHEN ${pass.sql} = 1 THEN NULL ELSE 'step_1_4' END`;
  const rows = await db.$queryRawUnsafe<{ runId: string; failStep: string | null; category: string | null; turns: unknown }[]>(
    `SELECT "runId", "failStep", category, COUNT(*) AS turns FROM (
       SELECT r."runId" AS "runId", ${failStep} AS "failStep",
              (SELECT g."category" FROM "Diagnostic" g WHERE g."passResultId" = p."id" AND g."position" = 0) AS category
       FROM "Response" r
       JOIN "PassResult" p ON p."responseId" = r."id"
       WHERE r."runId" IN (${runs.map(() => "?").join(", ")})
     ) AS "judgedTurns" GROUP BY "runId", "failStep", category`,
    ...pass.params,
    ...runs.map((run) => run.id),
  );
  return countsPerSeries(
    runs,
    rows,
    rows.filter((row) => row.failStep !== null),
  );
}

/**
 * Columns for per-turn drill-downs under the panel (the query must alias Response as r and PassResult as p):
 * jPass (step 1_4 verdict or NULL), jFailStep and jCases ("position:verdict,…" with the panel's resolve verdict
 * where the recorded run called its judge, the recorded outcome elsewhere, 0 where the panel has none).
 */
export function turnVerdictColumns(db: Database, members: readonly string[]): SqlPart {
  const pass = panelVerdictSql(members, "pass", `r."id"`, "0");
  const failPass = panelVerdictSql(members, "pass", `r."id"`, "0");
  const resolve = panelVerdictSql(members, "resolve", `c."responseId"`, `c."position"`);
  return {
    sql: `CASE WHEN ${REACHES_JUDGE} AND ${pass.sql} = 1 THEN 1 ELSE 0 END AS "jPass",
          CASE WHEN p."officialFailStep" IS NOT NULL THEN p."officialFailStep" WHEN ${FAILED_AT_DIFY} THEN 'step_1_5'
               WHEN ${failPass.sql} = 1 THEN NULL ELSE 'step_1_4' END AS "jFailStep",
          (SELECT ${joinedText(db, `c."position" || ':' || CASE WHEN NOT ${RECORDED_RESOLVE_CALLED(`c."responseId"`, `c."position"`)} THEN CAST(c."verdict" AS INTEGER) ELSE COALESCE(${resolve.sql}, 0) END`)}
             FROM "CaseResult" c WHERE c."responseId" = r."id") AS "jCases"`,
    params: [...pass.params, ...failPass.params, ...resolve.params],
  };
}

/** The runs a judge or panel has judged on the benchmark, with coverage; cached until the database changes. */
export async function getRunJudging(db: Database, actor: SessionUser | null, benchmarkId: string, choice: JudgesChoice): Promise<RunJudging[]> {
  assertAllowed(actor, "read");
  return cachedRead(db, `judging:${benchmarkId}:${choice.param}`, async () => (await getJudgedCounts(db, actor, benchmarkId, choice, await getOwnJudgeCounts(db, benchmarkId, describeJudgeChoice(choice)))).judging ?? []);
}

/** What drill-downs need to show a judge's verdicts: the panel and the runs it has judged at step 1_4. */
export interface DrilldownJudge {
  members: readonly string[];
  /** The judge in words, as rows re-viewed under it say (describeJudgeChoice). */
  description: string;
  /** Runs judged at step 1_4, with whether their resolve stage is judged too. */
  runs: ReadonlyMap<string, { resolveJudged: boolean }>;
}

export async function drilldownJudge(db: Database, actor: SessionUser | null, benchmarkId: string, choice: JudgeChoice): Promise<{ judge: DrilldownJudge; judging: RunJudging[] } | null> {
  if (choice.kind === "recorded") return null;
  const judging = await getRunJudging(db, actor, benchmarkId, choice);
  const runs = new Map(judging.filter((run) => run.pass === "judged").map((run) => [run.runId, { resolveJudged: run.resolve === "judged" }]));
  return { judge: { members: choice.members, description: describeJudgeChoice(choice), runs }, judging };
}
