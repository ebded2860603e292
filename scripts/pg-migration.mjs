#!/usr/bin/env node
// Keeps the PostgreSQL migrations (prisma/postgresql/migrations) in step with the SQLite schema: regenerates
// prisma/postgresql/schema.prisma from prisma/schema.prisma, asks Prisma for the difference between the PostgreSQL
// migrations and that schema (on a shadow database), and writes it as a new migration folder.
//   npm run db:pg-migration              write the missing migration, if any
//   npm run db:pg-migration -- --check   exit 1 and print the difference when the migrations drift from the schema
// The shadow database lives on the server DATABASE_URL names when it is PostgreSQL, else on a throwaway local
// server (scripts/pg-test-server.mjs).
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writePostgresSchema } from "./pg-schema.mjs";
import { startPostgres } from "./pg-test-server.mjs";
import { runPrisma } from "./prisma-offline.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SQLITE_MIGRATIONS = path.join(root, "prisma", "migrations");
const POSTGRES_MIGRATIONS = path.join(root, "prisma", "postgresql", "migrations");
const POSTGRES_SCHEMA = path.join("prisma", "postgresql", "schema.prisma");
const EMPTY = /^\s*--\s*This is an empty migration\.\s*$/;

function migrationNames(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d{14}_/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

function secondsAfter(stamp) {
  const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((start, index) => Number(stamp.slice(start, start + (index === 0 ? 4 : 2))));
  const next = new Date(Date.UTC(y, mo - 1, d, h, mi, s + 1));
  const pad = (value) => String(value).padStart(2, "0");
  return `${next.getUTCFullYear()}${pad(next.getUTCMonth() + 1)}${pad(next.getUTCDate())}${pad(next.getUTCHours())}${pad(next.getUTCMinutes())}${pad(next.getUTCSeconds())}`;
}

/**
 * The folder name for a new PostgreSQL migration: the newest SQLite migration's name when it sorts after every
 * PostgreSQL migration (so the two folders read alike), else one second after the newest PostgreSQL migration with
 * the SQLite migration's description, because PostgreSQL migrations must apply in folder order.
 */
export function nextMigrationName(sqliteNames, postgresNames) {
  const sqlite = sqliteNames.at(-1) ?? "00000000000000_init";
  const postgres = postgresNames.at(-1);
  if (!postgres || sqlite > postgres) return sqlite;
  return `${secondsAfter(postgres.slice(0, 14))}${sqlite.slice(14)}`;
}

/** The SQL that brings a database migrated by the PostgreSQL migrations to the PostgreSQL schema ("" when none). */
export function postgresMigrationDrift(serverUrl) {
  const result = runPrisma(
    ["migrate", "diff", "--from-migrations", POSTGRES_MIGRATIONS, "--to-schema-datamodel", POSTGRES_SCHEMA, "--script"],
    { env: { ...process.env, DATABASE_URL: serverUrl }, stdio: "pipe" },
  );
  if (result.status !== 0) throw new Error(`prisma migrate diff failed:\n${result.stdout ?? ""}${result.stderr ?? ""}`);
  return EMPTY.test(result.stdout) ? "" : result.stdout;
}

async function withServer(work) {
  const url = process.env.DATABASE_URL;
  if (url && /^postgres(ql)?:\/\//i.test(url)) return work(url);
  const server = await startPostgres();
  try {
    return await work(server.url);
  } finally {
    server.stop();
  }
}

async function main(argv) {
  const check = argv.includes("--check");
  if (!check && writePostgresSchema()) console.log("• regenerated prisma/postgresql/schema.prisma from prisma/schema.prisma");
  const drift = await withServer(async (url) => postgresMigrationDrift(url));
  if (drift === "") {
    console.log("• the PostgreSQL migrations match the schema");
    return 0;
  }
  if (check) {
    console.error("The PostgreSQL migrations differ from prisma/postgresql/schema.prisma; run `npm run db:pg-migration`. Missing:\n");
    console.error(drift);
    return 1;
  }
  const name = nextMigrationName(migrationNames(SQLITE_MIGRATIONS), migrationNames(POSTGRES_MIGRATIONS));
  mkdirSync(path.join(POSTGRES_MIGRATIONS, name), { recursive: true });
  writeFileSync(path.join(POSTGRES_MIGRATIONS, name, "migration.sql"), drift);
  console.log(`• wrote prisma/postgresql/migrations/${name}/migration.sql`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
