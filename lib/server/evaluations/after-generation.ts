import "server-only";
// What follows a generated run's generation, once all its tasks are settled (complete, or failed for good): the
// place where later stages of an evaluation start. Called exactly once per run; each stage is idempotent per run.
import type { Database } from "../db";
import { enqueueDifyExecution } from "../jobs/resolve-job";

export async function afterRunGenerated(db: Database, runId: string): Promise<void> {
  // Dify execution (pass step 1_5 and the resolve stage), when the evaluation names a Dify connection and case files.
  await enqueueDifyExecution(db, runId);
}
