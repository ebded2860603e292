// Brings a PostgreSQL database up to the committed PostgreSQL migrations (prisma/postgresql/migrations) in-process,
// recording each in `_prisma_migrations` exactly as `prisma migrate deploy` does, so Prisma later sees them applied.
// Guarantees: each migration applies completely or not at all (PostgreSQL DDL is transactional); concurrent
// processes (several workers starting at once) apply each migration once, serialized by an advisory lock; a
// database that cannot be used is a DatabaseUnusable error naming it and the reason.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { postgresConnectionConfig, postgresSchemaOf } from "@/lib/database-url";
import { committedMigrations, DatabaseUnusable, type Migration, type MigrationOutcome } from "./migrate";

// The bookkeeping table as Prisma's schema engine creates it on PostgreSQL.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// Any fixed number shared by every process migrating this project's databases.
const MIGRATION_LOCK_KEY = 0x63327766;

/** The committed PostgreSQL migrations, found from this file whether it runs from source or from a bundle. */
export function postgresMigrationsDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "prisma", "postgresql", "migrations");
    if (existsSync(path.join(candidate, "migration_lock.toml"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`prisma/postgresql/migrations not found above ${__dirname}`);
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The URL without its password, for messages. */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

async function connect(url: string): Promise<{ client: pg.Client; created: boolean }> {
  const config = postgresConnectionConfig(url);
  const client = new pg.Client(config);
  try {
    await client.connect();
    return { client, created: false };
  } catch (error) {
    await client.end().catch(() => {});
    // 3D000: the database does not exist. Create it from the server's maintenance database, like SQLite creates a file.
    if ((error as { code?: unknown }).code !== "3D000") throw new DatabaseUnusable(`cannot connect to database ${displayUrl(url)}: ${reasonOf(error)}`);
  }
  const admin = new pg.Client({ ...config, database: "postgres" });
  try {
    await admin.connect();
    // Byte-order collation, as SQLite compares text: ORDER BY gives the same order on both databases.
    await admin.query(`CREATE DATABASE "${config.database.replace(/"/g, '""')}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } catch (error) {
    // 42P04: it exists; 23505: another process created it at the same moment.
    const code = (error as { code?: unknown }).code;
    if (code !== "42P04" && code !== "23505") throw new DatabaseUnusable(`cannot create database ${displayUrl(url)}: ${reasonOf(error)}`);
  } finally {
    await admin.end().catch(() => {});
  }
  const retry = new pg.Client(config);
  try {
    await retry.connect();
  } catch (error) {
    await retry.end().catch(() => {});
    throw new DatabaseUnusable(`cannot connect to database ${displayUrl(url)}: ${reasonOf(error)}`);
  }
  return { client: retry, created: true };
}

interface AppliedRow {
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Creates the database when the server lacks it and applies every committed PostgreSQL migration it lacks.
 * Throws DatabaseUnusable for an unreachable server, a database not created by these migrations, or a migration
 * that fails (which is rolled back).
 */
export async function migratePostgres(url: string, migrations: readonly Migration[] = committedMigrations(postgresMigrationsDir())): Promise<MigrationOutcome> {
  const { client, created } = await connect(url);
  const where = displayUrl(url);
  try {
    const schema = postgresSchemaOf(url);
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '""')}"`);
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    const tables = (
      await client.query<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
    ).rows.map((row) => row.name);
    if (tables.length > 0 && !tables.includes("_prisma_migrations")) {
      throw new DatabaseUnusable(`cannot use database ${where}: it has tables but no migration history (_prisma_migrations), so it was not created by this project's migrations`);
    }
    await client.query(CREATE_MIGRATIONS_TABLE);
    const rows = (await client.query<AppliedRow>(`SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations"`)).rows;
    const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new DatabaseUnusable(
        `cannot use database ${where}: migration ${failed.migration_name} failed earlier and was not resolved (see \`npm run prisma -- migrate resolve --help\`)`,
      );
    }
    const appliedNames = new Set(rows.filter((row) => row.rolled_back_at === null).map((row) => row.migration_name));
    const applied: string[] = [];
    for (const migration of migrations.filter((entry) => !appliedNames.has(entry.name))) {
      const startedAt = new Date();
      try {
        await client.query("BEGIN");
        // The simple protocol (no parameters) runs a whole multi-statement script.
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`,
          [randomUUID(), migration.checksum, migration.name, startedAt],
        );
        await client.query("COMMIT");
        applied.push(migration.name);
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw new DatabaseUnusable(`cannot apply migration ${migration.name} to database ${where}: ${reasonOf(error)} (nothing of it was applied)`);
      }
    }
    return { file: where, created: created || (tables.length === 0 && applied.length > 0), applied };
  } finally {
    await client.end().catch(() => {});
  }
}
