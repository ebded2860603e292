"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { resolveAllowedPath } from "@/lib/server/import/allowed-dirs";
import { startResolveJob } from "@/lib/server/jobs/resolve-job";
import { ensureInProcessWorker } from "@/lib/server/jobs/runtime";

const executeSchema = z.object({
  runId: z.string().min(1).max(100),
  connectionId: z.string().min(1, "choose a Dify connection").max(100),
  caseFilesDir: z.string().trim().min(1, "give the case-files directory").max(1_000),
  /** The resolve judge; empty: no LLM judge (the official provisional verdicts are kept). */
  endpointId: z.string().max(100).default(""),
});

const execute = authorizedAction("runJobs", executeSchema, async ({ runId, connectionId, caseFilesDir, endpointId }, user): Promise<ActionResult<{ jobId: string; items: number }>> => {
  // The case files are read on the server: only directories imports may read (IMPORT_ALLOWED_DIRS) are accepted.
  const allowed = await resolveAllowedPath(caseFilesDir);
  if (!allowed.ok) return { ok: false, error: "invalid", message: allowed.message, fieldErrors: { caseFilesDir: allowed.message } };
  ensureInProcessWorker();
  const started = await startResolveJob(database(), user, {
    runId,
    connectionId,
    caseFilesDir: allowed.path,
    judge: endpointId ? { kind: "llm", endpointIds: [endpointId], samples: 1 } : { kind: "none" },
  });
  if (!started.ok) return { ok: false, error: "invalid", message: started.message };
  revalidatePath("/jobs");
  return { ok: true, value: { jobId: started.jobId, items: started.items } };
});

/** Executes a stored run's workflows on a Dify connection (pass step 1_5 and the resolve stage) as a job. */
export async function startDifyExecutionAction(input: z.input<typeof executeSchema>) {
  return execute(input);
}
