// Creates the throwaway database of an integration run, migrated like production, and removes it afterwards.
// Project "integration": one SQLite file per run. Project "integration-pg": a PostgreSQL server (C2W_TEST_POSTGRES_URL,
// or one started from the local binaries by scripts/pg-test-server.mjs) holding a migrated template database,
// which test/support/integration-setup.ts copies into one database per test file.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { postgresConnectionConfig } from "@/lib/database-url";
import { migratePostgres } from "../../scripts/lib/migrate-postgres";
import { postgresUnavailableReason, startPostgres } from "../../scripts/pg-test-server.mjs";
import { runPrisma } from "../../scripts/prisma-offline.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** SQLite: the run's database. PostgreSQL: the template each test file's database is copied from. */
    databaseUrl: string;
    /** PostgreSQL only: the prefix of this run's per-file database names ("" on SQLite). */
    databasePrefix: string;
  }
}

function sqliteSetup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "c2w-integration-"));
  const databaseUrl = `file:${path.join(dir, "integration.db")}`;
  const result = runPrisma(["migrate", "deploy"], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: "pipe" });
  if (result.status !== 0) {
    throw new Error(`migrate deploy failed for the integration database:\n${result.stdout}${result.stderr}`);
  }
  project.provide("databaseUrl", databaseUrl);
  project.provide("databasePrefix", "");
  return () => rmSync(dir, { recursive: true, force: true });
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function postgresSetup(project: TestProject) {
  const unavailable = postgresUnavailableReason();
  if (unavailable) throw new Error(`cannot run the PostgreSQL integration tests: ${unavailable}`);
  const server = process.env.C2W_TEST_POSTGRES_URL ? null : await startPostgres();
  const serverUrl = process.env.C2W_TEST_POSTGRES_URL || server!.url;
  const prefix = `c2w_test_${randomBytes(4).toString("hex")}`;
  const templateUrl = withDatabase(serverUrl, `${prefix}_template`);
  await migratePostgres(templateUrl);
  project.provide("databaseUrl", templateUrl);
  project.provide("databasePrefix", prefix);
  return async () => {
    if (server) return server.stop();
    // A shared server: drop this run's databases (the template and one per test file).
    const admin = new pg.Client(postgresConnectionConfig(serverUrl));
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${prefix}%`]);
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
}

export default function setup(project: TestProject) {
  return project.name === "integration-pg" ? postgresSetup(project) : sqliteSetup(project);
}
