"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { cancelEvaluation } from "@/lib/server/evaluations/cancel-evaluation";
import { startEvaluation } from "@/lib/server/evaluations/start-evaluation";
import { startEvaluationSchema } from "@/lib/server/evaluations/types";
import { ensureInProcessWorker } from "@/lib/server/jobs/runtime";

const idSchema = z.object({ evaluationId: z.string().min(1).max(100) });

const start = authorizedAction("runJobs", startEvaluationSchema, async (input, user): Promise<ActionResult<{ evaluationId: string; jobId: string }>> => {
  // instrumentation.ts starts the worker at boot; this covers servers started without it (idempotent).
  ensureInProcessWorker();
  const started = await startEvaluation(database(), user, input);
  if (!started.ok) return { ok: false, error: "invalid", message: started.message };
  revalidatePath("/evaluations");
  revalidatePath("/jobs");
  return { ok: true, value: { evaluationId: started.evaluationId, jobId: started.jobId } };
});

const cancel = authorizedAction("runJobs", idSchema, async ({ evaluationId }, user): Promise<ActionResult<null>> => {
  const cancelled = await cancelEvaluation(database(), user, evaluationId);
  if (!cancelled.ok) return { ok: false, error: "failed", message: cancelled.message };
  revalidatePath("/evaluations");
  return { ok: true, value: null };
});

/** Starts an evaluation (its runs and generate job); the browser then opens /evaluations/<id>. */
export async function startEvaluationAction(input: z.input<typeof startEvaluationSchema>) {
  return start(input);
}

/** Cancels a running evaluation; turns already stored stay. */
export async function cancelEvaluationAction(input: z.input<typeof idSchema>) {
  return cancel(input);
}
