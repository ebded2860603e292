import "server-only";
// The one Prisma client of the server, on SQLite through the better-sqlite3 driver adapter (no engine binaries).
// Reused across hot reloads in development so connections are not leaked.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";
import { serverEnv } from "./env";

// better-sqlite3 waits for another connection's lock synchronously, blocking the event loop; if the holder is a
// transaction on another connection in this process, it cannot finish while we wait, so both stall. Keep the
// synchronous wait short and retry asynchronously instead, which lets the holder's awaits run.
const BUSY_TIMEOUT_MS = 20;
const BUSY_RETRY_LIMIT_MS = 60_000;
// Prisma reports the driver's SQLITE_BUSY as a socket timeout (P1008, "Operation has timed out").
const BUSY_MESSAGE = /SQLITE_BUSY|database is locked|Operation has timed out/i;

export function isBusyError(error: unknown): boolean {
  if (typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P1008") return true;
  return BUSY_MESSAGE.test(error instanceof Error ? error.message : String(error));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createDatabaseClient(url: string) {
  const client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url, timeout: BUSY_TIMEOUT_MS }) });
  return client.$extends({
    name: "retry-when-busy",
    query: {
      async $allOperations({ args, query }) {
        const started = Date.now();
        for (let delay = 5; ; delay = Math.min(delay * 2, 250)) {
          try {
            return await query(args);
          } catch (error) {
            if (!isBusyError(error) || Date.now() - started > BUSY_RETRY_LIMIT_MS) throw error;
            await sleep(delay);
          }
        }
      },
    },
  });
}

export type Database = ReturnType<typeof createDatabaseClient>;

/**
 * Runs `work` on a connection of its own. The adapter shares one SQLite connection per client, so a long write
 * transaction on the shared client would capture every other request's queries; a separate connection keeps
 * readers on the last committed snapshot (WAL) while an import writes.
 */
export async function withOwnConnection<T>(work: (db: Database) => Promise<T>): Promise<T> {
  const db = createDatabaseClient(serverEnv().DATABASE_URL);
  try {
    return await work(db);
  } finally {
    await db.$disconnect();
  }
}

const globalForDatabase = globalThis as unknown as { c2wDatabase?: Database };

export function database(): Database {
  globalForDatabase.c2wDatabase ??= createDatabaseClient(serverEnv().DATABASE_URL);
  return globalForDatabase.c2wDatabase;
}
