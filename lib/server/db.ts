import "server-only";
// The one Prisma client of the server, chosen by DATABASE_URL: SQLite through the better-sqlite3 driver adapter for
// `file:` URLs, PostgreSQL through @prisma/adapter-pg for `postgres://` URLs; no engine binaries either way.
// Both clients are generated from the same models (prisma/postgresql/schema.prisma is derived from
// prisma/schema.prisma), so callers get one type whatever the database. Reused across hot reloads in development.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/generated/prisma-pg/client";
import { toPostgresStatement } from "@/lib/sql/postgres-statement";
import { isPostgresUrl, postgresConnectionConfig, postgresSchemaOf } from "@/lib/database-url";
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

/** Connections per client on PostgreSQL; several app instances and workers share one server's limit (100 by default). */
const POSTGRES_POOL_SIZE = 10;

function postgresClient(url: string): PrismaClient {
  const schema = postgresSchemaOf(url);
  const config = postgresConnectionConfig(url);
  // JIT compilation pays off for long analytical queries; the app's are tens of milliseconds, where compiling
  // costs about 20 ms more than it saves (measured on the leaderboard's grouped counts).
  const options = [config.options, "-c jit=off"].filter(Boolean).join(" ");
  const adapter = new PrismaPg({ ...config, options, max: POSTGRES_POOL_SIZE }, schema ? { schema } : undefined);
  // The generated PostgreSQL client has the same models, fields and methods as the SQLite one; only the
  // provider-specific query compiler differs, so it is used through the SQLite client's type.
  return new PostgresPrismaClient({ adapter }) as unknown as PrismaClient;
}

/** The dialect behind a client, for the few raw statements that differ between SQLite and PostgreSQL. */
export type SqlDialect = "sqlite" | "postgres";

/** Works for clients, extended clients and transaction clients alike (all expose the generated provider). */
export function dialectOf(db: object): SqlDialect {
  return (db as { _activeProvider?: unknown })._activeProvider === "postgresql" ? "postgres" : "sqlite";
}

export function createDatabaseClient(url: string) {
  const postgres = isPostgresUrl(url);
  const client = postgres ? postgresClient(url) : new PrismaClient({ adapter: new PrismaBetterSQLite3({ url, timeout: BUSY_TIMEOUT_MS }) });
  return client.$extends({
    name: "retry-when-busy",
    query: {
      async $allOperations({ operation, args, query }) {
        // Raw statements are written once, with `?` parameters, for both databases (see lib/sql/postgres-statement).
        if (postgres && (operation === "$queryRawUnsafe" || operation === "$executeRawUnsafe") && Array.isArray(args) && typeof args[0] === "string") {
          const [sql, ...values] = args as [string, ...unknown[]];
          return query([toPostgresStatement(sql), ...values] as typeof args);
        }
        const started = Date.now();
        for (let delay = 5; ; delay = Math.min(delay * 2, 250)) {
          try {
            return await query(args);
          } catch (error) {
            if (postgres || !isBusyError(error) || Date.now() - started > BUSY_RETRY_LIMIT_MS) throw error;
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
