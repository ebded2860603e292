"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { MAX_PAIRWISE_JUDGES, MAX_PAIRWISE_SAMPLES, startPairwiseJob } from "@/lib/server/jobs/pairwise-job";

const id = z.string().trim().min(1).max(100);

const startSchema = z.object({
  candidateRunId: id,
  baselineRunId: id,
  endpointIds: z.array(id).min(1, "choose at least one judge").max(MAX_PAIRWISE_JUDGES),
  samples: z.coerce.number().int().min(1).max(MAX_PAIRWISE_SAMPLES).default(1),
  policy: z.enum(["tie", "rerun"]).default("tie"),
  seed: z.coerce.number().int().min(0).max(2 ** 31 - 1).nullable().optional(),
  lengthThreshold: z.coerce.number().min(0.5).max(1).nullable().optional(),
});

const start = authorizedAction("runJobs", startSchema, async (input, user): Promise<ActionResult<{ comparisonId: string; items: number }>> => {
  const started = await startPairwiseJob(database(), user, input);
  if (!started.ok) return { ok: false, error: "invalid", message: started.message };
  revalidatePath("/pairwise");
  return { ok: true, value: { comparisonId: started.comparisonId, items: started.items } };
});

/** Starts a pairwise comparison of two runs by a judge or panel (researchers and admins: it spends model calls). */
export async function startPairwiseAction(input: z.input<typeof startSchema>) {
  return start(input);
}
