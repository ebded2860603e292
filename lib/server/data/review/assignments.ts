import "server-only";
// Review assignments: which users may annotate, and assigning them to (or removing them from) a queue. Only users who
// may vote are ever assigned; assigning twice is one assignment, and removing someone keeps the votes they cast.
import type { Database } from "../../db";
import { assertAllowed } from "../../authz";
import type { SessionUser } from "../../session";
import { can, isRole } from "@/lib/auth/roles";
import { err, ok, type Result } from "@/lib/result";
import { releaseOtherLocks } from "./claims";
import { isUniqueViolation } from "../../errors";
import type { QueueProblem } from "./shared";

// -- who may be assigned ---------------------------------------------------------------------------------------------

export interface AnnotatorOption {
  id: string;
  email: string;
  name: string | null;
  role: string;
}

/** Users who may vote: the only ones a queue can be assigned to. */
export async function listAnnotators(db: Database, actor: SessionUser): Promise<AnnotatorOption[]> {
  assertAllowed(actor, "manageQueues");
  const users = await db.user.findMany({ orderBy: { email: "asc" }, select: { id: true, email: true, name: true, role: true } });
  return users.filter((user) => isRole(user.role) && can(user.role, "annotate"));
}

export async function checkAnnotators(db: Database, actor: SessionUser, userIds: readonly string[]): Promise<QueueProblem[]> {
  if (userIds.length === 0) return [];
  const allowed = new Set((await listAnnotators(db, actor)).map((user) => user.id));
  const unknown = userIds.filter((id) => !allowed.has(id));
  return unknown.length ? [{ field: "annotatorIds", message: `${unknown.length} of the chosen users cannot annotate or do not exist` }] : [];
}

export async function assignAnnotators(db: Database, actor: SessionUser, queueId: string, userIds: readonly string[]): Promise<Result<{ assigned: number }, QueueProblem>> {
  assertAllowed(actor, "manageQueues");
  if (!(await db.reviewQueue.findUnique({ where: { id: queueId }, select: { id: true } }))) return err({ field: "queueId", message: "that queue does not exist" });
  const problems = await checkAnnotators(db, actor, userIds);
  if (problems.length) return err(...problems);
  let assigned = 0;
  for (const userId of new Set(userIds)) {
    // Upsert on the (queue, user) unique key: assigning twice, or from two sessions at once, is one assignment.
    const before = await db.reviewAssignment.count({ where: { queueId, userId } });
    await db.reviewAssignment.upsert({ where: { queueId_userId: { queueId, userId } }, create: { queueId, userId, assignedById: actor.id }, update: {} }).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
    });
    if (before === 0) assigned += 1;
  }
  return ok({ assigned });
}

/** Removes an annotator from a queue. Their votes stay: they were cast and count in the figures. */
export async function unassignAnnotator(db: Database, actor: SessionUser, queueId: string, userId: string): Promise<boolean> {
  assertAllowed(actor, "manageQueues");
  const removed = await db.reviewAssignment.deleteMany({ where: { queueId, userId } });
  await releaseOtherLocks(db, queueId, userId, null);
  return removed.count > 0;
}
