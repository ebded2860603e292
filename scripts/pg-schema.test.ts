// The PostgreSQL schema is derived from the SQLite one and committed; these tests fail when someone changes
// prisma/schema.prisma without regenerating it (`npm run prisma -- generate`), or edits the copy by hand.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nextMigrationName } from "./pg-migration.mjs";
import { POSTGRES_SCHEMA, postgresSchemaFrom, SQLITE_SCHEMA } from "./pg-schema.mjs";

describe("the PostgreSQL schema", () => {
  it("is exactly what scripts/pg-schema.mjs derives from prisma/schema.prisma", () => {
    expect(readFileSync(POSTGRES_SCHEMA, "utf8")).toBe(postgresSchemaFrom(readFileSync(SQLITE_SCHEMA, "utf8")));
  });

  it("has the same models and fields, with only the provider and client output changed", () => {
    const sqlite = readFileSync(SQLITE_SCHEMA, "utf8");
    const postgres = postgresSchemaFrom(sqlite);
    const body = (text: string) => text.slice(text.indexOf("\nmodel "));
    expect(body(sqlite).length).toBeGreaterThan(1000);
    expect(body(postgres)).toBe(body(sqlite));
    expect(postgres).toContain('provider = "postgresql"');
    expect(postgres).toContain('output     = "../../generated/prisma-pg"');
    expect(postgres).not.toContain('"sqlite"');
  });

  it("refuses a schema whose datasource it cannot find", () => {
    expect(() => postgresSchemaFrom('generator client {\n  output = "../generated/prisma"\n}\n')).toThrow(/datasource provider/);
  });
});

describe("naming a new PostgreSQL migration", () => {
  it("reuses the newest SQLite migration's name when it sorts last", () => {
    expect(nextMigrationName(["20261220000000_evaluation_runs", "20261230000000_more"], ["20261225000000_postgresql_init"])).toBe("20261230000000_more");
  });

  it("otherwise comes one second after the newest PostgreSQL migration, keeping the SQLite description", () => {
    expect(nextMigrationName(["20261221000000_generation_jobs"], ["20261225000000_postgresql_init"])).toBe("20261225000001_generation_jobs");
    expect(nextMigrationName(["20261221000000_x"], ["20261231235959_y"])).toBe("20270101000000_x");
  });
});
