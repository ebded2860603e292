import "server-only";
// The process's job queue, chosen by the database (SQLite: sqlite-queue.ts; PostgreSQL: pg-boss in pg-queue.ts),
// and a way for code that enqueues work to wake this process's worker (when one runs here).
import { isPostgresUrl } from "@/lib/database-url";
import { database, dialectOf, type Database } from "../db";
import { serverEnv } from "../env";
import { PgJobQueue } from "./pg-queue";
import type { JobQueue, QueueTx, RetryPolicy } from "./queue";
import { SqliteJobQueue } from "./sqlite-queue";

const shared = globalThis as unknown as { c2wWakeWorker?: () => void };

/** The queue over `db`; `url` is the database `db` was opened on (pg-boss opens its own connections to it). */
export function jobQueue(db: Database = database(), url: string = serverEnv().DATABASE_URL, retry?: RetryPolicy): JobQueue<QueueTx> {
  if (dialectOf(db) === "sqlite") return new SqliteJobQueue(db, retry);
  if (!isPostgresUrl(url)) throw new Error("The PostgreSQL job queue needs the database's postgres:// URL; DATABASE_URL names another database.");
  return new PgJobQueue(db, url, retry);
}

/** Called by the worker when it starts in this process. */
export function onWorkerWake(wake: (() => void) | undefined): void {
  shared.c2wWakeWorker = wake;
}

/** Asks this process's worker to look for work now instead of at its next poll (no-op without one). */
export function wakeWorker(): void {
  shared.c2wWakeWorker?.();
}
