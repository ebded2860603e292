"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { resolveAllowedPath } from "@/lib/server/import/allowed-dirs";
import { startResolveJob, startResolveJudgeJob } from "@/lib/server/jobs/resolve-job";
import { ensureInProcessWorker } from "@/lib/server/jobs/runtime";

const executeSchema = z.object({
  runId: z.string().min(1).max(100),
  connectionId: z.string().min(1, "choose a Dify connection").max(100),
  caseFilesDir: z.string().trim().min(1, "give the case-files directory").max(1_000),
  /** The resolve judge; empty: none, and cases with text outputs stay not judged until a resolve judge runs. */
  endpointId: z.string().max(100).default(""),
  /** The LLM pass judge that decides which turns go to Dify, when the run has several; empty: the run's own. */
  passJudgeEndpointId: z.string().max(100).default(""),
});

const judgeSchema = z.object({
  runId: z.string().min(1).max(100),
  endpointId: z.string().min(1, "choose a resolve judge").max(100),
});

const execute = authorizedAction("runJobs", executeSchema, async ({ runId, connectionId, caseFilesDir, endpointId, passJudgeEndpointId }, user): Promise<ActionResult<{ jobId: string; items: number }>> => {
  // The case files are read on the server: only directories imports may read (IMPORT_ALLOWED_DIRS) are accepted.
  const allowed = await resolveAllowedPath(caseFilesDir);
  if (!allowed.ok) return { ok: false, error: "invalid", message: allowed.message, fieldErrors: { caseFilesDir: allowed.message } };
  ensureInProcessWorker();
  const started = await startResolveJob(database(), user, {
    runId,
    connectionId,
    caseFilesDir: allowed.path,
    judge: endpointId ? { kind: "llm", endpointIds: [endpointId], samples: 1 } : { kind: "none" },
    passJudgeEndpointId: passJudgeEndpointId || null,
  });
  if (!started.ok) return { ok: false, error: "invalid", message: started.message };
  revalidatePath("/jobs");
  return { ok: true, value: { jobId: started.jobId, items: started.items } };
});

const judge = authorizedAction("runJobs", judgeSchema, async ({ runId, endpointId }, user): Promise<ActionResult<{ jobId: string; cases: number }>> => {
  ensureInProcessWorker();
  const started = await startResolveJudgeJob(database(), user, { runId, endpointIds: [endpointId] });
  if (!started.ok) return { ok: false, error: "invalid", message: started.message };
  revalidatePath("/jobs");
  return { ok: true, value: { jobId: started.jobId, cases: started.cases } };
});

/** Executes a stored run's workflows on a Dify connection (pass step 1_5 and the resolve stage) as a job. */
export async function startDifyExecutionAction(input: z.input<typeof executeSchema>) {
  return execute(input);
}

/** Asks a resolve judge about the run's test cases an execution left not judged. */
export async function startResolveJudgingAction(input: z.input<typeof judgeSchema>) {
  return judge(input);
}
