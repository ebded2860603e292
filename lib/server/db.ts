import "server-only";
// The one Prisma client of the server, on SQLite through the better-sqlite3 driver adapter (no engine binaries).
// Reused across hot reloads in development so connections are not leaked.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";
import { serverEnv } from "./env";

export type Database = PrismaClient;

// How long a statement waits for another connection's write lock before failing with SQLITE_BUSY.
const BUSY_TIMEOUT_MS = 30_000;

export function createDatabaseClient(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url, timeout: BUSY_TIMEOUT_MS }) });
}

/**
 * Runs `work` on a connection of its own. The adapter shares one SQLite connection per client, so a long write
 * transaction on the shared client would capture every other request's queries; a separate connection keeps
 * readers on the last committed snapshot (WAL) while an import writes.
 */
export async function withOwnConnection<T>(work: (db: PrismaClient) => Promise<T>): Promise<T> {
  const db = createDatabaseClient(serverEnv().DATABASE_URL);
  try {
    return await work(db);
  } finally {
    await db.$disconnect();
  }
}

const globalForDatabase = globalThis as unknown as { c2wDatabase?: PrismaClient };

export function database(): PrismaClient {
  globalForDatabase.c2wDatabase ??= createDatabaseClient(serverEnv().DATABASE_URL);
  return globalForDatabase.c2wDatabase;
}
