// Imports on the durable job queue: an upload queued before a restart, or cut off by a crashed worker, is still
// imported afterwards, and its page never stays "running".
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { expandRunPaths, readImportFiles } from "@/lib/server/import/import-service";
import { getImportJob, importJobHandler, startImportJob } from "@/lib/server/jobs/import-job";
import { SqliteJobQueue } from "@/lib/server/jobs/sqlite-queue";
import { JobWorker } from "@/lib/server/jobs/worker";
import { emptyDatabase, testDatabase } from "../support/database";

const DEMO = path.resolve(__dirname, "../../prisma/demo");
const LIMITS = { maxFileBytes: 50 * 1024 * 1024, maxResponses: 20_000 };
const researcher = { id: "researcher", email: "researcher@example.org", name: null, role: "researcher" as const };

describe("import jobs", () => {
  const db = testDatabase();
  beforeEach(() => emptyDatabase(db));

  async function queueDemoImport(): Promise<string> {
    const { files } = await readImportFiles((await expandRunPaths([path.join(DEMO, "runs", "demo_alpha.json")])).files, LIMITS.maxFileBytes);
    // The content travels with the job: nothing is read from the request again.
    return startImportJob(researcher, { benchmark: { kind: "directory", dir: path.join(DEMO, "benchmark") }, runs: files, model: undefined, label: undefined }, LIMITS);
  }

  it("imports an upload queued before a restart, with a worker that starts afterwards", async () => {
    const jobId = await queueDemoImport();
    expect(await getImportJob(researcher, jobId)).toMatchObject({ status: "queued", outcome: null, error: null });
    // A fresh worker (a new process after the restart) finds the queued job in the database.
    await new JobWorker(db, new SqliteJobQueue(db), [importJobHandler()], { pollMs: 20 }).runUntilIdle();
    const job = await getImportJob(researcher, jobId);
    expect(job?.status).toBe("succeeded");
    expect(job?.outcome?.ok && job.outcome.runs.map((run) => run.model)).toEqual(["demo_alpha"]);
    expect(await db.run.count()).toBe(1);
    // The uploaded text was stored with the job until the import finished, and not after.
    const items = await db.jobItem.findMany({ where: { jobId }, select: { payload: true, status: true } });
    expect(items).toEqual([{ payload: "{}", status: "done" }]);
  });

  it("keeps no copy of the files of an import that failed for good", async () => {
    const jobId = await queueDemoImport();
    const failing = { ...importJobHandler(), run: async () => ({ ok: false as const, failure: { message: "the disk is full", retryable: false } }) };
    await new JobWorker(db, new SqliteJobQueue(db), [failing], { pollMs: 20 }).runUntilIdle();
    const items = await db.jobItem.findMany({ where: { jobId }, select: { payload: true, status: true } });
    expect(items).toEqual([{ payload: "{}", status: "failed" }]);
  });

  it("runs an import again when the worker holding it died, and writes it once", async () => {
    const jobId = await queueDemoImport();
    const queue = new SqliteJobQueue(db);
    // A worker leases the item and dies: its lease lapses with nothing written.
    expect(await queue.lease(jobId, "crashed-worker", 1, 1)).toHaveLength(1);
    expect(await getImportJob(researcher, jobId)).toMatchObject({ status: "running" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await new JobWorker(db, queue, [importJobHandler()], { pollMs: 20, leaseMs: 60_000 }).runUntilIdle();
    expect(await getImportJob(researcher, jobId)).toMatchObject({ status: "succeeded", error: null });
    expect(await db.run.count()).toBe(1);
  });

  it("shows another user's import to no one but them and admins", async () => {
    const jobId = await queueDemoImport();
    expect(await getImportJob({ ...researcher, id: "someone-else" }, jobId)).toBeNull();
    expect(await getImportJob({ ...researcher, id: "admin", role: "admin" }, jobId)).not.toBeNull();
  });
});
