"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database, withOwnConnection } from "@/lib/server/db";
import { deleteRun } from "@/lib/server/data/runs";
import { rescoreRun, type RescoreOutcome } from "@/lib/server/import/rescore";

const runIdSchema = z.object({ runId: z.string().min(1).max(100) });
const deleteSchema = runIdSchema.extend({ confirmVotes: z.number().int().min(0).optional() });

const remove = authorizedAction("administer", deleteSchema, async ({ runId, confirmVotes }, user): Promise<ActionResult<{ label: string | null }>> => {
  const result = await deleteRun(database(), user, runId, confirmVotes);
  if (!result.deleted && "votes" in result) {
    return {
      ok: false,
      error: "invalid",
      message: `${result.label} has ${result.votes} review vote${result.votes === 1 ? "" : "s"} in ${result.queues} queue${result.queues === 1 ? "" : "s"}; deleting the run deletes them too. Confirm deleting ${result.votes} vote${result.votes === 1 ? "" : "s"} to go ahead.`,
      fieldErrors: { confirmVotes: String(result.votes) },
    };
  }
  if (!result.deleted) return { ok: false, error: "failed", message: "That run no longer exists." };
  revalidatePath("/runs");
  revalidatePath("/");
  return { ok: true, value: { label: result.label } };
});

const rescore = authorizedAction("import", runIdSchema, async ({ runId }, user): Promise<ActionResult<RescoreOutcome>> => {
  const outcome = await withOwnConnection((db) => rescoreRun(db, user, runId));
  if (!outcome) return { ok: false, error: "failed", message: "That run no longer exists." };
  revalidatePath("/runs");
  revalidatePath("/");
  return { ok: true, value: outcome };
});

/** Deletes a run and everything scored for it (admins only). */
export async function deleteRunAction(input: { runId: string; confirmVotes?: number }) {
  return remove(input);
}

/** Recomputes a run's deterministic verdicts with the current scoring core. */
export async function rescoreRunAction(input: { runId: string }) {
  return rescore(input);
}
