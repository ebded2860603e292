"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { startDryRunJob } from "@/lib/server/jobs/dry-run-job";
import { ensureInProcessWorker } from "@/lib/server/jobs/runtime";

const schema = z.object({ runId: z.string().min(1).max(100) });

const start = authorizedAction("runJobs", schema, async ({ runId }, user): Promise<ActionResult<{ jobId: string; items: number }>> => {
  ensureInProcessWorker();
  const started = await startDryRunJob(database(), user, { runId });
  if (!started.ok) return { ok: false, error: "invalid", message: started.message };
  revalidatePath("/jobs");
  return { ok: true, value: { jobId: started.jobId, items: started.items } };
});

/** Dry-runs every passing response of a run locally (mock model, sandboxed code) as a job. */
export async function startDryRunAction(input: z.input<typeof schema>) {
  return start(input);
}
