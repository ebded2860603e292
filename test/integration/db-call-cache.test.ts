// The database call cache keeps the promises every CallCache owes judging, across connections (processes).
import { inject } from "vitest";
import { createDatabaseClient } from "@/lib/server/db";
import { databaseCallCache } from "@/lib/server/jobs/db-call-cache";
import { describeCallCacheContract } from "../support/call-cache-contract";
import { emptyDatabase, testDatabase } from "../support/database";

describeCallCacheContract("database call cache", async () => {
  const db = testDatabase();
  await emptyDatabase(db);
  return { cache: databaseCallCache(db), reopen: () => databaseCallCache(createDatabaseClient(inject("databaseUrl"))) };
});
