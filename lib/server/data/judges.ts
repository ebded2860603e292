import "server-only";
// Judge quality: which judges have judged a benchmark (coverage per stage), judge against judge or panel (kappa,
// confusion, disagreements, a review queue of them), and every judge against human review labels per week.
import { calibrate, judgeVersionKey, type Calibration, type CalibrationItem, type HumanVote } from "@/lib/judge/calibration";
import { describeJudgeChoice, judgeChoiceOrDefault, judgeOptions, RECORDED, type JudgeChoice, type JudgeOption } from "@/lib/judge/choice";
import { compareSides, pairwiseAgreement, sideVerdicts, type PairSummary, type SideComparison, type VerdictRow } from "@/lib/judge/compare";
import type { Stage } from "@/lib/review/filter";
import { err, type Result } from "@/lib/result";
import { blindVisibility } from "./review/blind-visibility";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import type { SessionUser } from "../session";
import { int } from "./run-counts";
import { cachedRead } from "./read-cache";
import { createQueue, type QueueProblem } from "./review";

/** The members a comparison side stands for: the default choice means the recorded judge's own rows. */
export function sideMembers(choice: JudgeChoice): string[] {
  return choice.kind === "recorded" ? [RECORDED] : choice.members;
}

export interface JudgeSummary {
  judge: string;
  stage: Stage;
  /** Items (turns for pass, test cases for resolve) it has a verdict on, and stored rows (samples). */
  items: number;
  rows: number;
  /** Most samples on one item. */
  samples: number;
  runs: number;
  /** Replies checked for shape, and how many were malformed (null shape for recorded and rule verdicts). */
  shaped: number;
  malformed: number;
  /** The model named in the judge identity, when one is stored. */
  model: string | null;
  lastJudgedAt: string;
}

export interface JudgeInventory {
  judges: JudgeSummary[];
  /** Items a judge could judge: turns reaching step 1_4, and test cases the recorded run sent to its resolve judge. */
  passItems: number;
  resolveItems: number;
  runs: number;
}

/** SQLite hands dates back as Date, epoch milliseconds or text depending on how the row was written. */
function isoDate(value: unknown): string {
  const date = value instanceof Date ? value : typeof value === "bigint" || typeof value === "number" ? new Date(Number(value)) : new Date(String(value));
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

function identityModel(text: string | null): string | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && typeof (parsed as { model?: unknown }).model === "string" ? (parsed as { model: string }).model : null;
  } catch {
    return null;
  }
}

/** Every judge with verdicts on the benchmark's runs, per stage, with its coverage. */
export async function listJudges(db: Database, actor: SessionUser | null, benchmarkId: string): Promise<JudgeInventory> {
  assertAllowed(actor, "read");
  const rows = await db.$queryRawUnsafe<{ judge: string; stage: string; items: unknown; rows: unknown; samples: unknown; runs: unknown; shaped: unknown; malformed: unknown; identity: string | null; lastAt: unknown }[]>(
    `SELECT j."judge" AS judge, j."stage" AS stage, COUNT(DISTINCT j."responseId" || '/' || j."casePosition") AS items, COUNT(*) AS rows,
            MAX(j."sampleIndex") + 1 AS samples, COUNT(DISTINCT r."runId") AS runs, COUNT(j."wellFormed") AS shaped,
            SUM(CASE WHEN j."wellFormed" = FALSE THEN 1 ELSE 0 END) AS malformed, MAX(j."judgeIdentity") AS identity, MAX(j."createdAt") AS "lastAt"
     FROM "JudgeVerdict" j JOIN "Response" r ON r."id" = j."responseId" JOIN "Run" ru ON ru."id" = r."runId"
     WHERE ru."benchmarkId" = ?
     GROUP BY j."judge", j."stage"
     ORDER BY j."stage", j."judge"`,
    benchmarkId,
  );
  const totals = await db.$queryRawUnsafe<{ passItems: unknown; resolveItems: unknown; runs: unknown }[]>(
    `SELECT (SELECT COUNT(*) FROM "Response" r JOIN "Run" ru ON ru."id" = r."runId" JOIN "PassResult" p ON p."responseId" = r."id"
             WHERE ru."benchmarkId" = ? AND p."officialFailStep" IS NULL AND COALESCE(p."recordedFailStep", '') <> 'step_1_5') AS "passItems",
            (SELECT COUNT(*) FROM "JudgeVerdict" j JOIN "Response" r ON r."id" = j."responseId" JOIN "Run" ru ON ru."id" = r."runId"
             WHERE ru."benchmarkId" = ? AND j."stage" = 'resolve' AND j."judge" = 'recorded') AS "resolveItems",
            (SELECT COUNT(*) FROM "Run" WHERE "benchmarkId" = ?) AS runs`,
    benchmarkId,
    benchmarkId,
    benchmarkId,
  );
  return {
    judges: rows.map((row) => ({
      judge: row.judge,
      stage: row.stage === "resolve" ? "resolve" : "pass",
      items: int(row.items),
      rows: int(row.rows),
      samples: int(row.samples),
      runs: int(row.runs),
      shaped: int(row.shaped),
      malformed: int(row.malformed),
      model: identityModel(row.identity),
      lastJudgedAt: isoDate(row.lastAt),
    })),
    passItems: int(totals[0]?.passItems),
    resolveItems: int(totals[0]?.resolveItems),
    runs: int(totals[0]?.runs),
  };
}

/** Item key "<responseId>/<casePosition>" within one stage. */
function itemKey(responseId: string, casePosition: number): string {
  return `${responseId}/${casePosition}`;
}

export function splitItemKey(item: string): { responseId: string; casePosition: number } {
  const slash = item.lastIndexOf("/");
  return { responseId: item.slice(0, slash), casePosition: Number(item.slice(slash + 1)) };
}

async function stageVerdicts(db: Database, benchmarkId: string, stage: Stage, judges: readonly string[] | null): Promise<VerdictRow[]> {
  const judgeFilter = judges ? `AND j."judge" IN (${judges.map(() => "?").join(", ")})` : "";
  const rows = await db.$queryRawUnsafe<{ responseId: string; casePosition: unknown; judge: string; verdict: unknown }[]>(
    `SELECT j."responseId" AS "responseId", j."casePosition" AS "casePosition", j."judge" AS judge, j."verdict" AS verdict
     FROM "JudgeVerdict" j JOIN "Response" r ON r."id" = j."responseId" JOIN "Run" ru ON ru."id" = r."runId"
     WHERE ru."benchmarkId" = ? AND j."stage" = ? ${judgeFilter}`,
    benchmarkId,
    stage,
    ...(judges ?? []),
  );
  return rows.map((row) => ({ item: itemKey(row.responseId, int(row.casePosition)), judge: row.judge, verdict: int(row.verdict) === 1 }));
}

/** Every pair of judges on the benchmark's items of one stage: raw agreement and kappa on the items both judged. */
export async function getPairwiseAgreement(db: Database, actor: SessionUser | null, benchmarkId: string, stage: Stage): Promise<PairSummary[]> {
  assertAllowed(actor, "read");
  const rows = await stageVerdicts(db, benchmarkId, stage, null);
  const judges = [...new Set(rows.map((row) => row.judge))].sort();
  return pairwiseAgreement(rows, judges);
}

export interface ItemInfo {
  responseId: string;
  casePosition: number;
  model: string;
  task: string;
  round: number;
  label: string;
}

async function itemInfo(db: Database, items: readonly string[]): Promise<Map<string, ItemInfo>> {
  const keys = items.map(splitItemKey);
  const ids = [...new Set(keys.map((key) => key.responseId))];
  const info = new Map<string, ItemInfo>();
  // Chunks keep the parameter count under SQLite's limit.
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    const rows = await db.$queryRawUnsafe<{ id: string; model: string; task: string; round: unknown }[]>(
      `SELECT r."id" AS id, m."name" AS model, k."name" AS task, t."round" AS round
       FROM "Response" r JOIN "Run" ru ON ru."id" = r."runId" JOIN "Model" m ON m."id" = ru."modelId" JOIN "Turn" t ON t."id" = r."turnId" JOIN "Task" k ON k."id" = t."taskId"
       WHERE r."id" IN (${chunk.map(() => "?").join(", ")})`,
      ...chunk,
    );
    for (const row of rows) {
      for (const key of keys.filter((entry) => entry.responseId === row.id)) {
        const round = int(row.round);
        info.set(itemKey(row.id, key.casePosition), {
          responseId: row.id,
          casePosition: key.casePosition,
          model: row.model,
          task: row.task,
          round,
          label: `${row.model} · ${row.task} round ${round}${key.casePosition > 0 ? ` · case ${key.casePosition}` : ""}`,
        });
      }
    }
  }
  return info;
}

export interface JudgeComparisonData {
  comparison: SideComparison;
  items: Map<string, ItemInfo>;
}

/** Side A against side B (each a judge or a panel) on one stage of the benchmark. */
export async function getJudgeComparison(db: Database, actor: SessionUser | null, benchmarkId: string, stage: Stage, a: JudgeChoice, b: JudgeChoice): Promise<JudgeComparisonData> {
  assertAllowed(actor, "read");
  const aMembers = sideMembers(a);
  const bMembers = sideMembers(b);
  const all = await stageVerdicts(db, benchmarkId, stage, [...new Set([...aMembers, ...bMembers])]);
  // Blind review: items this reader is reviewing blind are left out of the listed comparison.
  const blind = await blindVisibility(db, actor, { responseIds: [...new Set(all.map((row) => splitItemKey(row.item).responseId))] });
  const rows = blind.hidesAnything ? all.filter((row) => !blind.verdictHidden(splitItemKey(row.item).responseId)) : all;
  const comparison = compareSides(sideVerdicts(rows, aMembers), sideVerdicts(rows, bMembers));
  const listed = [...comparison.confusion.passPass, ...comparison.confusion.passFail, ...comparison.confusion.failPass, ...comparison.confusion.failFail];
  return { comparison, items: await itemInfo(db, listed) };
}

export interface DisagreementQueueInput {
  benchmarkId: string;
  stage: Stage;
  /** The judge whose verdicts are reviewed, and the judge (or panel member) it is compared with. */
  judge: string;
  against: string;
  mode: "blind" | "reveal";
  annotatorsPerItem: number;
}

/**
 * A review queue of the items where `judge` (its first sample) differs from `against` (its sample majority): the
 * ordinary queue-creation path with a filter that says so, so the queue records how it was drawn.
 */
export async function createDisagreementQueue(db: Database, actor: SessionUser, input: DisagreementQueueInput): Promise<Result<{ queueId: string; items: number }, QueueProblem>> {
  assertAllowed(actor, "manageQueues");
  if (input.judge === input.against) return err({ field: "against", message: "choose two different judges" });
  const filter = { benchmarkId: input.benchmarkId, stage: input.stage, judges: [input.judge], models: [], domains: [], verdict: "any" as const, disagreeWithRule: false, disagreeWith: input.against };
  return createQueue(db, actor, {
    name: `Disagreements: ${input.judge} vs ${input.against} (${input.stage} stage)`,
    mode: input.mode,
    annotatorsPerItem: input.annotatorsPerItem,
    annotatorIds: [],
    filter,
    sampleSize: 5000,
    seed: `${input.judge}~${input.against}`,
  });
}

/** Every verdict of one stage on the benchmark, keyed by judge and prompt version (calibration keeps them apart). */
async function versionedStageVerdicts(db: Database, benchmarkId: string, stage: Stage): Promise<VerdictRow[]> {
  const rows = await db.$queryRawUnsafe<{ responseId: string; casePosition: unknown; judge: string; prompt: string | null; verdict: unknown }[]>(
    `SELECT j."responseId" AS "responseId", j."casePosition" AS "casePosition", j."judge" AS judge, j."promptFingerprint" AS prompt, j."verdict" AS verdict
     FROM "JudgeVerdict" j JOIN "Response" r ON r."id" = j."responseId" JOIN "Run" ru ON ru."id" = r."runId"
     WHERE ru."benchmarkId" = ? AND j."stage" = ?`,
    benchmarkId,
    stage,
  );
  return rows.map((row) => ({ item: itemKey(row.responseId, int(row.casePosition)), judge: judgeVersionKey(row.judge, row.prompt), verdict: int(row.verdict) === 1 }));
}

/** The benchmark's review queues a calibration set can be drawn from (name, mode, votes cast). */
export async function listCalibrationQueues(db: Database, actor: SessionUser, benchmarkId: string): Promise<{ id: string; name: string; mode: string }[]> {
  assertAllowed(actor, "manageQueues");
  return db.reviewQueue.findMany({ where: { benchmarkId }, select: { id: true, name: true, mode: true }, orderBy: { createdAt: "asc" } });
}

/**
 * Every judge's agreement with the human labels of the benchmark's review queues (annotators' majority per item of
 * the votes cast blind, pooled over the chosen queues, or all of them), overall and per week of the label, per judge
 * and prompt version. Each judge is compared on every reviewed item it has judged, whichever judge the queue was
 * drawn for: the human label does not depend on the judge.
 */
export async function getCalibration(db: Database, actor: SessionUser, benchmarkId: string, options: { queueIds?: readonly string[] } = {}): Promise<Record<Stage, Calibration>> {
  assertAllowed(actor, "manageQueues");
  const queueIds = options.queueIds ?? [];
  const votes = await db.$queryRawUnsafe<{ responseId: string; stage: string; casePosition: unknown; annotator: string; pass: unknown; at: unknown; judgeVisible: unknown }[]>(
    `SELECT i."responseId" AS "responseId", i."stage" AS stage, i."casePosition" AS "casePosition", v."annotatorId" AS annotator, v."annotatorPass" AS pass, v."updatedAt" AS at,
            v."judgeVisible" AS "judgeVisible"
     FROM "ReviewVote" v JOIN "ReviewItem" i ON i."id" = v."itemId" JOIN "ReviewQueue" q ON q."id" = i."queueId"
     WHERE q."benchmarkId" = ?${queueIds.length > 0 ? ` AND q."id" IN (${queueIds.map(() => "?").join(", ")})` : ""}`,
    benchmarkId,
    ...queueIds,
  );
  const result = {} as Record<Stage, Calibration>;
  for (const stage of ["pass", "resolve"] as const) {
    const byItem = new Map<string, HumanVote[]>();
    for (const vote of votes.filter((entry) => entry.stage === stage)) {
      const key = itemKey(vote.responseId, int(vote.casePosition));
      byItem.set(key, [...(byItem.get(key) ?? []), { annotator: vote.annotator, pass: int(vote.pass) === 1, at: new Date(isoDate(vote.at) || 0), judgeVisible: int(vote.judgeVisible) === 1 }]);
    }
    const rows = byItem.size ? await versionedStageVerdicts(db, benchmarkId, stage) : [];
    const reviewed = rows.filter((row) => byItem.has(row.item));
    const judges = [...new Set(reviewed.map((row) => row.judge))];
    const verdictsByJudge = new Map(judges.map((judge) => [judge, sideVerdicts(reviewed, [judge])]));
    const items: CalibrationItem[] = [...byItem].map(([id, itemVotes]) => ({
      id,
      votes: itemVotes,
      judges: new Map(judges.flatMap((judge) => {
        const verdict = verdictsByJudge.get(judge)!.get(id);
        return verdict === undefined ? [] : [[judge, verdict] as const];
      })),
    }));
    result[stage] = calibrate(items);
  }
  return result;
}

export interface JudgedBy {
  choice: JudgeChoice;
  /** Why the link's `judge` was ignored, when it was. */
  problem: string | null;
  options: JudgeOption[];
  description: string;
}

/** The page's judge choice from its `judge` parameter, with the chooser's entries for the benchmark (cached). */
export async function resolveJudgedBy(db: Database, actor: SessionUser | null, benchmarkId: string | null, raw: string | null | undefined): Promise<JudgedBy> {
  assertAllowed(actor, "read");
  const { choice, problem } = judgeChoiceOrDefault(raw);
  const passJudges = benchmarkId ? await cachedRead(db, `pass-judges:${benchmarkId}`, () => listPassJudges(db, benchmarkId)) : [];
  return { choice, problem, options: judgeOptions(passJudges, choice), description: describeJudgeChoice(choice) };
}

/**
 * The judges with pass-stage verdicts on the benchmark, for the chooser. Cheaper than `listJudges` (it runs on every
 * page with a chooser after each database change): distinct labels come from the (stage, judge) index, and each
 * label's presence on the benchmark stops at its first row.
 */
async function listPassJudges(db: Database, benchmarkId: string): Promise<{ judge: string; model: string | null; samples: number }[]> {
  const labels = await db.$queryRawUnsafe<{ judge: string }[]>(`SELECT DISTINCT "judge" AS judge FROM "JudgeVerdict" INDEXED BY "JudgeVerdict_stage_judge_idx" WHERE "stage" = 'pass'`);
  const found: { judge: string; model: string | null; samples: number }[] = [];
  for (const { judge } of labels) {
    const present = await db.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM "JudgeVerdict" j INDEXED BY "JudgeVerdict_stage_judge_idx" JOIN "Response" r ON r."id" = j."responseId" JOIN "Run" ru ON ru."id" = r."runId"
       WHERE j."stage" = 'pass' AND j."judge" = ? AND ru."benchmarkId" = ? LIMIT 1`,
      judge,
      benchmarkId,
    );
    if (present.length === 0) continue;
    if (judge === RECORDED || judge === "rule") {
      found.push({ judge, model: null, samples: 1 });
      continue;
    }
    const [detail] = await db.$queryRawUnsafe<{ samples: unknown; identity: string | null }[]>(
      `SELECT MAX("sampleIndex") + 1 AS samples, MAX("judgeIdentity") AS identity FROM "JudgeVerdict" INDEXED BY "JudgeVerdict_stage_judge_idx" WHERE "stage" = 'pass' AND "judge" = ?`,
      judge,
    );
    found.push({ judge, model: identityModel(detail?.identity ?? null), samples: int(detail?.samples) });
  }
  return found;
}
