import { afterAll, describe, expect, it } from "vitest";
import { createDatabaseClient } from "@/lib/server/db";
import { emptyDatabase, testDatabaseUrl } from "../support/database";

describe("two connections in one process", () => {
  const importer = createDatabaseClient(testDatabaseUrl());
  const app = createDatabaseClient(testDatabaseUrl());
  afterAll(async () => {
    await importer.$disconnect();
    await app.$disconnect();
  });

  it("a write on one connection waits for the other's open transaction without stalling the process", { timeout: 15_000 }, async () => {
    await emptyDatabase(app);
    const events: string[] = [];
    let wrote!: () => void;
    const transactionHasWritten = new Promise<void>((resolve) => (wrote = resolve));
    const transaction = importer.$transaction(async (tx) => {
      await tx.importJob.create({ data: { id: "held", status: "running", createdBy: "importer" } });
      wrote();
      // Hold the write lock across awaits, as an import does between its statements.
      for (let tick = 0; tick < 10; tick += 1) await new Promise((resolve) => setTimeout(resolve, 30));
      events.push("transaction committed");
    });
    await transactionHasWritten;
    const write = app.importJob.create({ data: { id: "waiting", status: "queued", createdBy: "app" } }).then(() => events.push("app write done"));
    await Promise.all([transaction, write]);
    expect(events).toEqual(["transaction committed", "app write done"]);
    expect(await app.importJob.count()).toBe(2);
  });
});
