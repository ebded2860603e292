"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { controlJob } from "@/lib/server/jobs/jobs-data";
import { MAX_JUDGE_SAMPLES } from "@/lib/judge/majority";
import { startJudgeJob } from "@/lib/server/jobs/judge-job";
import { ensureInProcessWorker } from "@/lib/server/jobs/runtime";

const judgeSchema = z.object({
  runId: z.string().min(1).max(100),
  endpointId: z.string().min(1, "choose an endpoint").max(100),
  stage: z.enum(["pass", "resolve"]),
  samples: z.number().int().min(1).max(MAX_JUDGE_SAMPLES),
  strict: z.boolean().default(false),
  refresh: z.boolean().default(false),
  /** Overrides of the official temperature 0 and max_tokens 8192 (absent: official). */
  temperature: z.number().min(0).max(2).nullish(),
  maxTokens: z.number().int().min(1).max(1_000_000).nullish(),
});

const controlSchema = z.object({ jobId: z.string().min(1).max(100), control: z.enum(["cancel", "pause", "resume"]) });

const judge = authorizedAction("runJobs", judgeSchema, async (input, user): Promise<ActionResult<{ jobId: string; items: number }>> => {
  // instrumentation.ts starts the worker at boot; this covers servers started without it (idempotent).
  ensureInProcessWorker();
  const started = await startJudgeJob(database(), user, input);
  if (!started.ok) return { ok: false, error: "invalid", message: started.message };
  revalidatePath("/jobs");
  return { ok: true, value: { jobId: started.jobId, items: started.items } };
});

const control = authorizedAction("runJobs", controlSchema, async ({ jobId, control: verb }, user): Promise<ActionResult<null>> => {
  const changed = await controlJob(database(), user, jobId, verb);
  if (!changed) return { ok: false, error: "failed", message: `The job cannot be ${verb === "cancel" ? "cancelled" : verb === "pause" ? "paused" : "resumed"} in its current state.` };
  revalidatePath("/jobs");
  return { ok: true, value: null };
});

/** Starts a judge job over a stored run; the worker picks it up. */
export async function startJudgeJobAction(input: z.input<typeof judgeSchema>) {
  return judge(input);
}

export async function controlJobAction(input: z.input<typeof controlSchema>) {
  return control(input);
}
