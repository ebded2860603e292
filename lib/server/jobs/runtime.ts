import "server-only";
// Starts this process's job worker with every job kind's handler: once per web-server process (instrumentation.ts)
// unless IN_PROCESS_WORKER is off, and in `npm run worker`.
import { createDatabaseClient, type Database } from "../db";
import { serverEnv } from "../env";
import { importJobHandler } from "./import-job";
import { jobQueue, onWorkerWake } from "./instance";
import { closeFinishedGeneratedRuns, generateJobHandler } from "./generate-job";
import { dryRunJobHandler } from "./dry-run-job";
import { judgeJobHandler } from "./judge-job";
import { pairwiseJobHandler } from "./pairwise-job";
import { resolveJobHandler } from "./resolve-job";
import { JobWorker, type JobHandler, type WorkerOptions } from "./worker";

export function jobHandlers(): JobHandler[] {
  return [judgeJobHandler(), importJobHandler(), resolveJobHandler(), generateJobHandler(), dryRunJobHandler(), pairwiseJobHandler()];
}

/** A worker over `db`, opened on `url` (the queue on PostgreSQL opens pg-boss connections of its own to it). */
export function createWorker(db: Database, options: WorkerOptions = {}, url: string = serverEnv().DATABASE_URL): JobWorker {
  const env = serverEnv();
  const worker = new JobWorker(db, jobQueue(db, url), jobHandlers(), { leaseMs: env.WORKER_LEASE_MS, pollMs: env.WORKER_POLL_MS, ...options });
  onWorkerWake(() => worker.wake());
  void closeFinishedGeneratedRuns(db).catch((error: unknown) => options.log?.(`worker: closing finished generated runs: ${error instanceof Error ? error.message : String(error)}`));
  return worker;
}

const shared = globalThis as unknown as { c2wWorker?: JobWorker };

/** Starts the in-process worker once per process; a no-op when IN_PROCESS_WORKER=false. */
export function ensureInProcessWorker(): JobWorker | null {
  if (!serverEnv().IN_PROCESS_WORKER) return null;
  if (!shared.c2wWorker) {
    // A connection of its own: the worker's transactions must not capture the queries of page requests, which share
    // the app's one connection (see withOwnConnection); WAL lets both proceed.
    shared.c2wWorker = createWorker(createDatabaseClient(serverEnv().DATABASE_URL), { log: (line) => console.warn(line) });
    shared.c2wWorker.start();
  }
  return shared.c2wWorker;
}
