import "server-only";
// The process's job queue, and a way for code that enqueues work to wake this process's worker (when one runs here).
import { database, type Database } from "../db";
import { SqliteJobQueue } from "./sqlite-queue";

const shared = globalThis as unknown as { c2wWakeWorker?: () => void };

export function jobQueue(db: Database = database()): SqliteJobQueue {
  return new SqliteJobQueue(db);
}

/** Called by the worker when it starts in this process. */
export function onWorkerWake(wake: (() => void) | undefined): void {
  shared.c2wWakeWorker = wake;
}

/** Asks this process's worker to look for work now instead of at its next poll (no-op without one). */
export function wakeWorker(): void {
  shared.c2wWakeWorker?.();
}
