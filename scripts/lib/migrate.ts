// Brings a SQLite database file up to the committed migrations (prisma/migrations) in-process, in seconds' fraction,
// recording each one in `_prisma_migrations` exactly as `prisma migrate deploy` does, so Prisma later sees them applied.
// Guarantees: each migration applies completely or not at all; a database that cannot be used is a DatabaseUnusable
// error naming the file and the reason, never a half-migrated file.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import Sqlite from "better-sqlite3";
import { databaseFilePath, isPostgresUrl } from "@/lib/database-url";

/** A database the command cannot use; `message` names the file and says why, ready to print. */
export class DatabaseUnusable extends Error {}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationOutcome {
  file: string;
  created: boolean;
  applied: string[];
}

/** The project's migration folder, found from this file whether it runs from source or from a bundle. */
function migrationsDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "prisma", "migrations");
    if (existsSync(path.join(candidate, "migration_lock.toml"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`prisma/migrations not found above ${__dirname}`);
  }
}

/** The committed migrations in the order Prisma applies them (by folder name). */
export function committedMigrations(dir: string = migrationsDir()): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

// The bookkeeping table as Prisma's schema engine creates it on SQLite.
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** Prisma's timestamp format in `_prisma_migrations` (ISO 8601 with an explicit +00:00 offset). */
function prismaTimestamp(): string {
  return new Date().toISOString().replace("Z", "+00:00");
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function openDatabaseFile(file: string): Sqlite.Database {
  if (existsSync(file) && statSync(file).isDirectory()) throw new DatabaseUnusable(`cannot open database ${file}: it is a directory`);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (error) {
    throw new DatabaseUnusable(`cannot create the folder for database ${file}: ${reasonOf(error)}`);
  }
  let sqlite: Sqlite.Database | undefined;
  try {
    sqlite = new Sqlite(file, { timeout: 10_000 });
    // Reading the schema is the first thing that fails on a file that is not SQLite.
    sqlite.prepare("SELECT count(*) FROM sqlite_master").get();
    return sqlite;
  } catch (error) {
    sqlite?.close();
    throw new DatabaseUnusable(`cannot open database ${file}: ${reasonOf(error)}`);
  }
}

interface AppliedRow {
  migration_name: string;
  finished_at: string | null;
  rolled_back_at: string | null;
}

function applyMigration(sqlite: Sqlite.Database, migration: Migration, file: string): boolean {
  const startedAt = prismaTimestamp();
  const apply = sqlite.transaction(() => {
    // Another process may have applied it while this one waited for the write lock.
    const done = sqlite
      .prepare(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = ? AND finished_at IS NOT NULL AND rolled_back_at IS NULL`)
      .get(migration.name);
    if (done) return false;
    sqlite.exec(migration.sql);
    const violations = sqlite.prepare("PRAGMA foreign_key_check").all();
    if (violations.length > 0) throw new Error(`${violations.length} foreign key violation(s) after the migration`);
    sqlite
      .prepare(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count) VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
      )
      .run(randomUUID(), migration.checksum, prismaTimestamp(), migration.name, startedAt);
    return true;
  });
  try {
    return apply.immediate();
  } catch (error) {
    throw new DatabaseUnusable(`cannot apply migration ${migration.name} to database ${file}: ${reasonOf(error)} (nothing of it was applied)`);
  }
}

/**
 * Creates the database file when missing and applies every committed migration it lacks. Throws DatabaseUnusable
 * for a URL that is not a SQLite file, a file SQLite cannot open, a database not created by these migrations, or a
 * migration that fails (which is rolled back).
 */
export function migrateDatabase(url: string, migrations: readonly Migration[] = committedMigrations()): MigrationOutcome {
  const file = databaseFilePath(url);
  if (file === null) throw new DatabaseUnusable(`cannot use database ${url}: use a SQLite file URL (file:<path>) or a PostgreSQL URL (postgresql://...)`);
  const created = !existsSync(file) || statSync(file).size === 0;
  const sqlite = openDatabaseFile(file);
  try {
    const tables = sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[];
    if (tables.length > 0 && !tables.includes("_prisma_migrations")) {
      throw new DatabaseUnusable(`cannot use database ${file}: it has tables but no migration history (_prisma_migrations), so it was not created by this project's migrations`);
    }
    sqlite.exec(CREATE_MIGRATIONS_TABLE);
    const rows = sqlite.prepare(`SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations"`).all() as AppliedRow[];
    const failed = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new DatabaseUnusable(
        `cannot use database ${file}: migration ${failed.migration_name} failed earlier and was not resolved (see \`npm run prisma -- migrate resolve --help\`)`,
      );
    }
    const appliedNames = new Set(rows.filter((row) => row.rolled_back_at === null).map((row) => row.migration_name));
    const pending = migrations.filter((migration) => !appliedNames.has(migration.name));
    // Table redefinitions need foreign keys off, which SQLite only honours outside a transaction.
    sqlite.pragma("foreign_keys = OFF");
    const applied = pending.filter((migration) => applyMigration(sqlite, migration, file)).map((migration) => migration.name);
    // WAL lets readers continue while an import writes; the setting persists in the database file.
    sqlite.pragma("journal_mode = WAL");
    return { file, created: created && applied.length > 0, applied };
  } finally {
    sqlite.close();
  }
}

/**
 * Migrates the database `url` names, whichever kind: SQLite files with migrateDatabase, PostgreSQL (`postgres://`)
 * with migratePostgres (loaded only then, so SQLite-only commands never load the PostgreSQL driver).
 */
export async function migrateAnyDatabase(url: string): Promise<MigrationOutcome> {
  if (isPostgresUrl(url)) {
    const { migratePostgres } = await import("./migrate-postgres");
    return migratePostgres(url);
  }
  return migrateDatabase(url);
}

/** One line for stderr describing what migrateDatabase did, or null when the database was already up to date. */
export function describeMigration(outcome: MigrationOutcome): string | null {
  if (outcome.applied.length === 0) return null;
  const count = `${outcome.applied.length} migration${outcome.applied.length === 1 ? "" : "s"}`;
  return outcome.created
    ? `created database ${outcome.file} (applied ${count})`
    : `migrated database ${outcome.file}: applied ${count} (${outcome.applied.join(", ")})`;
}
