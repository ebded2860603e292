import "server-only";
// What follows a generated run's generation, once all its tasks are settled (complete, or failed for good): the
// place where later stages of an evaluation (Dify execution, resolve) start. Called exactly once per run.
import type { Database } from "../db";

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the seam receives what later stages need
export async function afterRunGenerated(db: Database, runId: string): Promise<void> {
  // Nothing follows generation yet.
}
