// Raw SQL written once for both databases: the client knows its dialect (also inside transactions), `?` parameters
// and SQLite index hints work on either, and rows written by the bulk insert read back through Prisma exactly as
// Prisma itself would have written them (booleans, dates, nulls).
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { insertRows } from "@/lib/server/bulk-insert";
import { dialectOf } from "@/lib/server/db";
import { joinedText } from "@/lib/server/sql-dialect";
import { emptyDatabase, testDatabase, testingOnPostgres } from "../support/database";

const db = testDatabase();

beforeEach(() => emptyDatabase(db));

describe("raw SQL on both databases", () => {
  it("knows which database it talks to, on the client and inside a transaction", async () => {
    const expected = testingOnPostgres() ? "postgres" : "sqlite";
    expect(dialectOf(db)).toBe(expected);
    await db.$transaction(async (tx) => expect(dialectOf(tx)).toBe(expected));
  });

  it("writes booleans, dates and nulls with the bulk insert as Prisma reads them", async () => {
    const importedAt = new Date("2026-03-04T05:06:07.089Z");
    await insertRows(db, "Benchmark", [{ id: "b1", name: "Bench", version: "v1", fingerprint: "f1", sourceDir: null, importedAt, importedBy: null }]);
    await insertRows(db, "Model", [{ id: "m1", name: "model_a", displayName: "Model A", family: null, access: null, provider: null }]);
    const runs = [true, false].map((hasResolve, index) => ({
      id: `r${index}`,
      benchmarkId: "b1",
      modelId: "m1",
      label: `run${index}.json`,
      origin: "imported",
      contentHash: randomUUID(),
      sourceFile: null,
      importedBy: null,
      importedAt,
      coreVersion: "test",
      scoredAt: importedAt,
      responseCount: 0,
      hasResolve,
    }));
    await insertRows(db, "Run", runs);
    const stored = await db.run.findMany({ orderBy: { id: "asc" }, select: { id: true, hasResolve: true, importedAt: true, sourceFile: true, status: true } });
    expect(stored).toEqual([
      { id: "r0", hasResolve: true, importedAt, sourceFile: null, status: "complete" },
      { id: "r1", hasResolve: false, importedAt, sourceFile: null, status: "complete" },
    ]);
    // Booleans compared with TRUE/FALSE and counted with CAST, parameters as ?, aliases quoted, an index hint kept
    // for SQLite and dropped for PostgreSQL.
    const [counts] = await db.$queryRawUnsafe<{ withResolve: unknown; total: unknown; labels: string }[]>(
      `SELECT SUM(CAST(r."hasResolve" AS INTEGER)) AS "withResolve", COUNT(*) AS "total", ${joinedText(db, `r."label"`, ";")} AS "labels"
       FROM "Run" r INDEXED BY "Run_benchmarkId_contentHash_key" WHERE r."benchmarkId" = ? AND r."hasResolve" IN (TRUE, FALSE)`,
      "b1",
    );
    expect(Number(counts!.withResolve)).toBe(1);
    expect(Number(counts!.total)).toBe(2);
    expect(counts!.labels.split(";").sort()).toEqual(["run0.json", "run1.json"]);
  });
});
