// Points server modules at the test file's throwaway database before any test imports them. On SQLite every file
// shares the run's database (files run one at a time and empty it); on PostgreSQL each file gets its own database,
// copied from the run's migrated template, so files cannot see each other's rows.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { postgresConnectionConfig } from "@/lib/database-url";

async function fileDatabaseUrl(): Promise<string> {
  const url = inject("databaseUrl");
  const prefix = inject("databasePrefix");
  if (!prefix) return url;
  const template = new URL(url);
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ ...postgresConnectionConfig(url), database: "postgres" });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template.pathname.slice(1)}"`);
  } finally {
    await admin.end();
  }
  template.pathname = `/${name}`;
  return template.toString();
}

process.env.DATABASE_URL = await fileDatabaseUrl();
process.env.APP_ENV = "local";
