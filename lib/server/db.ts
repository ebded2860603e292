import "server-only";
// The one Prisma client of the server, on SQLite through the better-sqlite3 driver adapter (no engine binaries).
// Reused across hot reloads in development so connections are not leaked.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";
import { serverEnv } from "./env";

export type Database = PrismaClient;

export function createDatabaseClient(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
}

const globalForDatabase = globalThis as unknown as { c2wDatabase?: PrismaClient };

export function database(): PrismaClient {
  globalForDatabase.c2wDatabase ??= createDatabaseClient(serverEnv().DATABASE_URL);
  return globalForDatabase.c2wDatabase;
}
