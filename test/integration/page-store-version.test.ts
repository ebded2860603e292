// The page store's version source on the suite's database: moved by every commit from another connection (the app's
// Prisma client standing in for another instance or a worker), so a stored page is never served after a commit;
// unmoved by reads, so stored pages are served at all; and null (pages rendered per request) when the database
// cannot be reached. PostgreSQL's snapshot is server-wide: writes to any database on the server move it too, so
// "unmoved" is checked as "unmoved across some try out of ten" there.
import { afterAll, describe, expect, it } from "vitest";
import { databaseFilePath } from "@/lib/database-url";
import { PostgresSnapshotVersion, SqliteDataVersion } from "@/lib/server/page-cache";
import { testDatabase, testDatabaseUrl, testingOnPostgres } from "../support/database";

const db = testDatabase();
const source = testingOnPostgres() ? new PostgresSnapshotVersion(testDatabaseUrl()) : new SqliteDataVersion(databaseFilePath(testDatabaseUrl())!);

afterAll(async () => {
  if (source instanceof PostgresSnapshotVersion) await source.close();
});

/** Whether the version stayed put across `work` in at least one of ten tries. */
async function staysPutAcross(work: () => Promise<unknown>): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const before = await source.read();
    expect(before).not.toBeNull();
    await work();
    if ((await source.read()) === before) return true;
  }
  return false;
}

describe(`the page store's data version on ${testingOnPostgres() ? "PostgreSQL (current snapshot)" : "SQLite (data_version)"}`, () => {
  it("moves with every commit from another connection", async () => {
    for (const value of ["1", "2", "3"]) {
      const before = await source.read();
      expect(before).not.toBeNull();
      await db.setting.upsert({ where: { key: "page-store-test" }, create: { key: "page-store-test", value }, update: { value } });
      expect(await source.read()).not.toBe(before);
    }
  });

  it("stays put across reads", async () => {
    expect(await staysPutAcross(() => Promise.all([db.setting.findMany(), db.run.count(), db.benchmark.findFirst()]))).toBe(true);
  });

  // On PostgreSQL a rolled-back write has used a transaction id, which moves the snapshot's horizon: one extra render.
  it.skipIf(testingOnPostgres())("stays put across a write that was rolled back (SQLite)", async () => {
    const rolledBack = () =>
      db
        .$transaction(async (tx) => {
          await tx.setting.upsert({ where: { key: "page-store-rollback" }, create: { key: "page-store-rollback", value: "x" }, update: { value: "y" } });
          throw new Error("rolled back");
        })
        .catch((error: unknown) => expect(String(error)).toContain("rolled back"));
    expect(await staysPutAcross(rolledBack)).toBe(true);
    expect(await db.setting.count({ where: { key: "page-store-rollback" } })).toBe(0);
  });

  it("answers null when the database cannot be reached, so pages are rendered per request", async () => {
    const unreachable = testingOnPostgres() ? new PostgresSnapshotVersion("postgresql://nobody@127.0.0.1:1/none") : new SqliteDataVersion("/nonexistent-folder/studio.db");
    expect(await unreachable.read()).toBeNull();
    if (unreachable instanceof PostgresSnapshotVersion) await unreachable.close();
  });
});
