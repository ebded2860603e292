import "server-only";
// The one rule of blind review, for every reader of verdicts and reasons (pages, downloads, exports, search, the API):
// - while a response is pending in a blind queue for a user assigned to it (an item of it they have not voted on),
//   that user sees none of its verdicts, fail steps, test results or judge reasons, anywhere;
// - anonymous readers see no judge reason of a response pending in any blind queue (an item still short of votes).
// Readers ask blindVisibility() once per request for the responses they show and drop what it hides. And a vote
// records whether its author could have seen the judge's verdict anywhere (couldSeeJudgeVerdict).
import { can } from "@/lib/auth/roles";
import type { Database } from "../../db";
import type { SessionUser } from "../../session";

export interface BlindVisibility {
  /** The reader must not see this response's verdicts, fail step, test results or reasons. */
  verdictHidden(responseId: string): boolean;
  /** The reader must not see this response's judge reasons (also true wherever verdictHidden is). */
  reasonHidden(responseId: string): boolean;
  /** Whether anything in scope is hidden from this reader (readers may skip their filtering when not). */
  readonly hidesAnything: boolean;
}

/** Which responses to look at: some ids, the responses of some runs, or (neither) all. */
export interface VisibilityScope {
  responseIds?: readonly string[];
  runIds?: readonly string[];
}

const NOTHING_HIDDEN: BlindVisibility = { verdictHidden: () => false, reasonHidden: () => false, hidesAnything: false };

function scopeSql(scope: VisibilityScope): { sql: string; params: string[] } {
  if (scope.responseIds) return { sql: ` AND i."responseId" IN (${scope.responseIds.map(() => "?").join(", ") || "''"})`, params: [...scope.responseIds] };
  if (scope.runIds) return { sql: ` AND i."responseId" IN (SELECT r."id" FROM "Response" r WHERE r."runId" IN (${scope.runIds.map(() => "?").join(", ") || "''"}))`, params: [...scope.runIds] };
  return { sql: "", params: [] };
}

/** Responses with an item in a blind queue assigned to `userId` that the user has not voted on. */
export async function responsesPendingFor(db: Database, userId: string, scope: VisibilityScope): Promise<Set<string>> {
  const { sql, params } = scopeSql(scope);
  const rows = await db.$queryRawUnsafe<{ responseId: string }[]>(
    `SELECT DISTINCT i."responseId" AS "responseId"
     FROM "ReviewItem" i
     JOIN "ReviewQueue" q ON q."id" = i."queueId"
     JOIN "ReviewAssignment" a ON a."queueId" = q."id" AND a."userId" = ?
     WHERE q."mode" = 'blind'
       AND NOT EXISTS (SELECT 1 FROM "ReviewVote" v WHERE v."itemId" = i."id" AND v."annotatorId" = ?)${sql}`,
    userId,
    userId,
    ...params,
  );
  return new Set(rows.map((row) => row.responseId));
}

/** Responses with an item in a blind queue that still has fewer votes than the queue asks for. */
async function pendingInAnyBlindQueue(db: Database, scope: VisibilityScope): Promise<Set<string>> {
  const { sql, params } = scopeSql(scope);
  const rows = await db.$queryRawUnsafe<{ responseId: string }[]>(
    `SELECT DISTINCT i."responseId" AS "responseId"
     FROM "ReviewItem" i
     JOIN "ReviewQueue" q ON q."id" = i."queueId"
     WHERE q."mode" = 'blind'
       AND (SELECT COUNT(*) FROM "ReviewVote" v WHERE v."itemId" = i."id") < q."annotatorsPerItem"${sql}`,
    ...params,
  );
  return new Set(rows.map((row) => row.responseId));
}

/** What `actor` may see of the verdicts and reasons of the responses in `scope`. */
export async function blindVisibility(db: Database, actor: SessionUser | null, scope: VisibilityScope = {}): Promise<BlindVisibility> {
  if (scope.responseIds?.length === 0 || scope.runIds?.length === 0) return NOTHING_HIDDEN;
  if (!actor) {
    const reasons = await pendingInAnyBlindQueue(db, scope);
    if (reasons.size === 0) return NOTHING_HIDDEN;
    return { verdictHidden: () => false, reasonHidden: (id) => reasons.has(id), hidesAnything: true };
  }
  // Only those who may vote are ever assigned to a queue.
  if (!can(actor.role, "annotate")) return NOTHING_HIDDEN;
  const hidden = await responsesPendingFor(db, actor.id, scope);
  if (hidden.size === 0) return NOTHING_HIDDEN;
  return { verdictHidden: (id) => hidden.has(id), reasonHidden: (id) => hidden.has(id), hidesAnything: true };
}

/** Said wherever rows were left out for a reader: pages and downloads carry it so nothing looks silently missing. */
export const WITHHELD_NOTICE = "Some verdicts are withheld while you review them blind.";

/**
 * Whether `voterId` could have seen the judge's verdict on `item` before voting on it, anywhere: in a reveal queue,
 * after an earlier vote on it (blind votes reveal), through the queue's filter when it names the verdict (shown on the
 * queue page), or through another queue's item on the same verdict that the voter has voted on or sees revealed.
 * Pages hide it otherwise (blindVisibility).
 */
export async function couldSeeJudgeVerdict(
  db: Database,
  voterId: string,
  item: { id: string; responseId: string; stage: string; casePosition: number; judge: string; queue: { mode: string; filter: string } },
): Promise<boolean> {
  if (item.queue.mode !== "blind") return true;
  if (filterNamesVerdict(item.queue.filter)) return true;
  const elsewhere = await db.reviewItem.count({
    where: {
      id: { not: item.id },
      responseId: item.responseId,
      stage: item.stage,
      casePosition: item.casePosition,
      judge: item.judge,
      OR: [{ votes: { some: { annotatorId: voterId } } }, { queue: { mode: { not: "blind" }, assignments: { some: { userId: voterId } } } }],
    },
  });
  return elsewhere > 0;
}

function filterNamesVerdict(filterText: string): boolean {
  try {
    const filter = JSON.parse(filterText) as { verdict?: unknown };
    return filter.verdict === true || filter.verdict === false || filter.verdict === "pass" || filter.verdict === "fail";
  } catch {
    return false;
  }
}
