// The committed PostgreSQL migrations produce exactly the PostgreSQL schema (itself derived from
// prisma/schema.prisma, see scripts/pg-schema.test.ts): a SQLite migration merged without its PostgreSQL
// counterpart (`npm run db:pg-migration`) fails here. Needs a PostgreSQL server for the shadow database, so it runs
// in the integration-pg project.
import { describe, expect, it } from "vitest";
import { postgresMigrationDrift } from "../../scripts/pg-migration.mjs";
import { testDatabaseUrl, testingOnPostgres } from "../support/database";

describe("PostgreSQL migrations in step with the schema", () => {
  it.runIf(testingOnPostgres())("prisma/postgresql/migrations build prisma/postgresql/schema.prisma (on a shadow database)", () => {
    expect(postgresMigrationDrift(testDatabaseUrl())).toBe("");
  });
});
