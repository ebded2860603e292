// Prisma CLI configuration, chosen by DATABASE_URL: a `file:` URL runs the SQLite schema and migrations through the
// better-sqlite3 driver adapter, a `postgres://` URL the generated PostgreSQL schema (prisma/postgresql) through
// @prisma/adapter-pg. No engine binaries are downloaded (see scripts/prisma-offline.mjs).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { databaseFilePath, isPostgresUrl, resolveDatabaseUrl } from "./lib/database-url";
import { postgresMigrateAdapter } from "./scripts/lib/pg-migrate-adapter";

const databaseUrl = resolveDatabaseUrl(process.env.DATABASE_URL, __dirname);
process.env.DATABASE_URL = databaseUrl;

// The adapter opens the file even for `migrate diff`; SQLite creates the file but not its folder.
const databaseFile = databaseFilePath(databaseUrl);
if (databaseFile) mkdirSync(path.dirname(databaseFile), { recursive: true });

const postgres = isPostgresUrl(databaseUrl);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? path.join("prisma", "postgresql", "schema.prisma") : path.join("prisma", "schema.prisma"),
  migrations: { path: postgres ? path.join("prisma", "postgresql", "migrations") : path.join("prisma", "migrations") },
  adapter: async () => (postgres ? postgresMigrateAdapter(databaseUrl) : new PrismaBetterSQLite3({ url: databaseUrl })),
});
