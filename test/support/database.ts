// Database access for integration tests: one client on the test file's throwaway database (a SQLite file per run,
// or a PostgreSQL database per test file), the tables it holds, and a way to empty it.
import { createDatabaseClient, dialectOf, type Database } from "@/lib/server/db";
import { isPostgresUrl } from "@/lib/database-url";

let client: Database | undefined;

/** The URL of this test file's database (set by test/support/integration-setup.ts before any test runs). */
export function testDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: integration tests run through the vitest integration projects");
  return url;
}

/** True when this run of the integration suite is on PostgreSQL (the integration-pg project). */
export function testingOnPostgres(): boolean {
  return isPostgresUrl(testDatabaseUrl());
}

export function testDatabase(): Database {
  client ??= createDatabaseClient(testDatabaseUrl());
  return client;
}

/** The application's tables (not Prisma's migration history), by name. */
export async function applicationTables(db: Database = testDatabase()): Promise<string[]> {
  const sql =
    dialectOf(db) === "postgres"
      ? `SELECT CAST(table_name AS TEXT) AS "name" FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY table_name`
      : `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name`;
  return (await db.$queryRawUnsafe<{ name: string }[]>(sql)).map((row) => row.name);
}

/** Deletes every row of every application table, children first, so each test starts from nothing. */
export async function emptyDatabase(db: Database = testDatabase()): Promise<void> {
  const tables = await applicationTables(db);
  if (dialectOf(db) === "postgres") {
    if (tables.length > 0) await db.$executeRawUnsafe(`TRUNCATE TABLE ${tables.map((name) => `"${name}"`).join(", ")} CASCADE`);
    return;
  }
  await db.$executeRawUnsafe("PRAGMA foreign_keys = OFF");
  for (const name of tables) await db.$executeRawUnsafe(`DELETE FROM "${name}"`);
  await db.$executeRawUnsafe("PRAGMA foreign_keys = ON");
}
