// Database access for integration tests: one client on the run's throwaway file, and a way to empty it.
import { inject } from "vitest";
import { createDatabaseClient, type Database } from "@/lib/server/db";

let client: Database | undefined;

export function testDatabase(): Database {
  client ??= createDatabaseClient(inject("databaseUrl"));
  return client;
}

/** Deletes every row of every application table, children first, so each test starts from nothing. */
export async function emptyDatabase(db: Database = testDatabase()): Promise<void> {
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'",
  );
  await db.$executeRawUnsafe("PRAGMA foreign_keys = OFF");
  for (const { name } of tables) await db.$executeRawUnsafe(`DELETE FROM "${name}"`);
  await db.$executeRawUnsafe("PRAGMA foreign_keys = ON");
}
