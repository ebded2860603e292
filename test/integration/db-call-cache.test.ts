// The database call cache keeps the promises every CallCache owes judging, across connections (processes).
import { createDatabaseClient } from "@/lib/server/db";
import { databaseCallCache } from "@/lib/server/jobs/db-call-cache";
import { describeCallCacheContract } from "../support/call-cache-contract";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";

describeCallCacheContract("database call cache", async () => {
  const db = testDatabase();
  await emptyDatabase(db);
  return { cache: databaseCallCache(db), reopen: () => databaseCallCache(createDatabaseClient(testDatabaseUrl())) };
});
