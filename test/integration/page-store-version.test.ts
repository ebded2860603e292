// The page store's version source on the suite's database: stable while nothing is written, moved by a commit from
// another connection (the app's Prisma client standing in for another instance or a worker), unmoved by reads, and
// null (pages rendered per request) when the database cannot be reached.
import { afterAll, describe, expect, it } from "vitest";
import { databaseFilePath } from "@/lib/database-url";
import { PostgresSnapshotVersion, SqliteDataVersion } from "@/lib/server/page-cache";
import { testDatabase, testDatabaseUrl, testingOnPostgres } from "../support/database";

const db = testDatabase();
const source = testingOnPostgres() ? new PostgresSnapshotVersion(testDatabaseUrl()) : new SqliteDataVersion(databaseFilePath(testDatabaseUrl())!);

afterAll(async () => {
  if (source instanceof PostgresSnapshotVersion) await source.close();
});

describe(`the page store's data version on ${testingOnPostgres() ? "PostgreSQL (current snapshot)" : "SQLite (data_version)"}`, () => {
  it("stays put across reads and moves with every commit from another connection", async () => {
    const first = await source.read();
    expect(first).not.toBeNull();
    await db.setting.findMany();
    await db.run.count();
    expect(await source.read()).toBe(first);

    await db.setting.upsert({ where: { key: "page-store-test" }, create: { key: "page-store-test", value: "1" }, update: { value: "1" } });
    const second = await source.read();
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    expect(await source.read()).toBe(second);

    await db.setting.update({ where: { key: "page-store-test" }, data: { value: "2" } });
    expect(await source.read()).not.toBe(second);
  });

  it("after a rolled-back write, moves at most once (PostgreSQL) or not at all (SQLite)", async () => {
    const before = await source.read();
    await expect(
      db.$transaction(async (tx) => {
        await tx.setting.upsert({ where: { key: "page-store-rollback" }, create: { key: "page-store-rollback", value: "x" }, update: { value: "y" } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const after = await source.read();
    if (testingOnPostgres()) {
      // The aborted transaction used a transaction id, so the snapshot's horizon moves: one extra render, never a
      // stale page. It then stays put again.
      expect(after).not.toBe(before);
      expect(await source.read()).toBe(after);
    } else {
      expect(after).toBe(before);
    }
  });

  it("answers null when the database cannot be reached, so pages are rendered per request", async () => {
    const unreachable = testingOnPostgres() ? new PostgresSnapshotVersion("postgresql://nobody@127.0.0.1:1/none") : new SqliteDataVersion("/nonexistent-folder/studio.db");
    expect(await unreachable.read()).toBeNull();
    if (unreachable instanceof PostgresSnapshotVersion) await unreachable.close();
  });
});
