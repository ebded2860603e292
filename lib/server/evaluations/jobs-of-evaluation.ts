import "server-only";
// Finds the jobs that belong to an evaluation: its one generate job and the judge jobs of its runs.
import type { Database } from "../db";
import { GENERATE_JOB_KIND } from "./types";

/** The evaluation's generate job. */
export async function findGenerateJob(db: Pick<Database, "job">, evaluationId: string) {
  return db.job.findFirst({
    where: { kind: GENERATE_JOB_KIND, evaluationId },
    orderBy: { createdAt: "asc" },
    // Never the params: they carry the skill text.
    select: { id: true, status: true, calls: true, cachedCalls: true, inputTokens: true, outputTokens: true, cost: true },
  });
}
