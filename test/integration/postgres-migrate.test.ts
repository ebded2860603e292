// The command-line tools' in-process migrator on PostgreSQL: creates a missing database, applies each committed
// migration once even when several processes start together, records them as Prisma does, and refuses a database
// it did not create. Runs in the integration-pg project (it needs a server).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresConnectionConfig } from "@/lib/database-url";
import { createDatabaseClient } from "@/lib/server/db";
import { committedMigrations, DatabaseUnusable, describeMigration, migrateAnyDatabase } from "../../scripts/lib/migrate";
import { postgresMigrationsDir } from "../../scripts/lib/migrate-postgres";
import { testDatabaseUrl, testingOnPostgres } from "../support/database";

const created: string[] = [];

function freshDatabaseUrl(): string {
  const url = new URL(testDatabaseUrl());
  const name = `${url.pathname.slice(1)}_m${randomBytes(3).toString("hex")}`;
  created.push(name);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ ...postgresConnectionConfig(testDatabaseUrl()), database: "postgres" });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  if (!testingOnPostgres()) return;
  await admin(async (client) => {
    for (const name of created) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
});

describe.runIf(testingOnPostgres())("migrating a PostgreSQL database in-process", () => {
  const migrations = committedMigrations(postgresMigrationsDir());

  it("creates a missing database, applies every migration once, and then has nothing to do", async () => {
    const url = freshDatabaseUrl();
    const first = await migrateAnyDatabase(url);
    expect(first.created).toBe(true);
    expect(first.applied).toEqual(migrations.map((migration) => migration.name));
    expect(describeMigration(first)).toMatch(/^created database postgresql:\/\/.* \(applied \d+ migrations?\)$/);
    expect((await migrateAnyDatabase(url)).applied).toEqual([]);
    const db = createDatabaseClient(url);
    try {
      const recorded = await db.$queryRawUnsafe<{ name: string; checksum: string }[]>(
        `SELECT "migration_name" AS "name", "checksum" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL ORDER BY "migration_name"`,
      );
      expect(recorded).toEqual(migrations.map((migration) => ({ name: migration.name, checksum: migration.checksum })));
      expect(await db.user.count()).toBe(0);
    } finally {
      await db.$disconnect();
    }
  });

  it("applies each migration exactly once when three processes start at the same moment", async () => {
    const url = freshDatabaseUrl();
    const outcomes = await Promise.all([0, 1, 2].map(() => migrateAnyDatabase(url)));
    expect(outcomes.flatMap((outcome) => outcome.applied).sort()).toEqual(migrations.map((migration) => migration.name).sort());
  });

  it("refuses a database holding tables it did not create, and changes nothing", async () => {
    const url = freshDatabaseUrl();
    const name = new URL(url).pathname.slice(1);
    await admin((client) => client.query(`CREATE DATABASE "${name}"`));
    const other = new pg.Client(postgresConnectionConfig(url));
    await other.connect();
    try {
      await other.query(`CREATE TABLE "Elsewhere" ("id" TEXT PRIMARY KEY)`);
      await expect(migrateAnyDatabase(url)).rejects.toThrow(DatabaseUnusable);
      await expect(migrateAnyDatabase(url)).rejects.toThrow(/has tables but no migration history/);
      const tables = await other.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
      expect(tables.rows.map((row: { table_name: string }) => row.table_name)).toEqual(["Elsewhere"]);
    } finally {
      await other.end();
    }
  });
});
