// The job boundary: a job's params and each item's payload are checked against its kind's schemas before the handler
// sees them. What fails the check fails its items with a sentence naming the field, and rows stored under an older
// shape (a judge's label under `judge`) are still read, as today's shape.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { jobQueue } from "@/lib/server/jobs/instance";
import { getJobDetail } from "@/lib/server/jobs/jobs-data";
import { judgeJobKind } from "@/lib/server/jobs/judge-job";
import { pairwiseJobKind } from "@/lib/server/jobs/pairwise-job";
import { stopPgBoss } from "@/lib/server/jobs/pg-queue";
import { NO_USAGE } from "@/lib/server/jobs/queue";
import { JobWorker, type JobHandler } from "@/lib/server/jobs/worker";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";

const KIND = "boundary-test";
const admin: SessionUser = { id: "user-admin", email: "admin@example.org", name: null, role: "admin" };

/** A kind whose handler records what it was given: the job's size and each item's index. */
function recordingHandler(seen: [number, number][]): JobHandler<{ size: number }, { index: number }> {
  return {
    kind: KIND,
    paramsSchema: z.object({ size: z.number().int() }),
    payloadSchema: z.object({ index: z.number().int() }),
    capacity: async () => ({ filter: { kind: KIND }, limit: 4 }),
    async run({ job, item }) {
      seen.push([job.params.size, item.payload.index]);
      return { ok: true, result: null, usage: NO_USAGE };
    },
  };
}

describe("the job boundary", () => {
  const db = testDatabase();
  const queue = jobQueue(db, testDatabaseUrl(), { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 40 });
  const runWorker = (seen: [number, number][]) => new JobWorker(db, queue, [recordingHandler(seen)], { pollMs: 20, leaseMs: 5_000 }).runUntilIdle();
  beforeEach(() => emptyDatabase(db));
  afterAll(() => stopPgBoss());

  it("hands the handler params and payloads its kind's schemas accepted", async () => {
    const seen: [number, number][] = [];
    const jobId = await queue.enqueue({ kind: KIND, params: { size: 3 }, createdBy: null, items: [{ key: "a", payload: { index: 1 } }, { key: "b", payload: { index: 2 } }] });
    await runWorker(seen);
    expect(seen.sort()).toEqual([[3, 1], [3, 2]]);
    expect((await db.job.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("succeeded");
  });

  it("fails every item of a job whose params the kind refuses, naming the field, and runs none", async () => {
    const seen: [number, number][] = [];
    const jobId = await queue.enqueue({ kind: KIND, params: { size: "three" }, createdBy: null, items: [{ key: "a", payload: { index: 1 } }, { key: "b", payload: { index: 2 } }] });
    await runWorker(seen);
    expect(seen).toEqual([]);
    const job = await db.job.findUniqueOrThrow({ where: { id: jobId }, include: { items: true } });
    expect(job.status).toBe("failed");
    expect(job.items.map((item) => [item.status, item.error])).toEqual([
      ["failed", expect.stringMatching(/^The boundary-test job's parameters are not valid \(size: /)],
      ["failed", expect.stringMatching(/^The boundary-test job's parameters are not valid \(size: /)],
    ]);
  });

  it("fails an item whose payload the kind refuses, naming the field, and runs the others", async () => {
    const seen: [number, number][] = [];
    const jobId = await queue.enqueue({ kind: KIND, params: { size: 3 }, createdBy: null, items: [{ key: "good", payload: { index: 1 } }, { key: "bad", payload: { index: "one" } }] });
    await runWorker(seen);
    expect(seen).toEqual([[3, 1]]);
    const items = await db.jobItem.findMany({ where: { jobId }, orderBy: { key: "asc" } });
    expect(items.map((item) => [item.key, item.status])).toEqual([
      ["bad", "failed"],
      ["good", "done"],
    ]);
    expect(items[0]!.error).toMatch(/^The boundary-test item's payload is not valid \(index: /);
  });

  it("reads judge and pairwise jobs stored with the judge's label under `judge` as today's judgeLabel", async () => {
    const legacyJudge = { runId: "run-1", stage: "pass", samples: 3, strict: true, endpointId: "endpoint-1", judge: "old-label", promptFingerprint: "fp" };
    expect(judgeJobKind.paramsSchema.parse(legacyJudge)).toEqual({ runId: "run-1", stage: "pass", samples: 3, strict: true, endpointId: "endpoint-1", judgeLabel: "old-label", promptFingerprint: "fp" });
    expect(pairwiseJobKind.paramsSchema.parse({ comparisonId: "c", endpointId: "e", judge: "old-label", policy: "rerun" })).toEqual({ comparisonId: "c", endpointId: "e", judgeLabel: "old-label", policy: "rerun" });

    const stored = await db.job.create({ data: { kind: "judge", status: "succeeded", createdBy: admin.id, params: JSON.stringify(legacyJudge) } });
    const detail = await getJobDetail(db, admin, stored.id);
    expect(detail?.title).toBe("Judge pass stage · deleted run · old-label ×3 (strict)");
    expect(detail?.endpointLabel).toBe("old-label");
    expect(detail?.params).toMatchObject({ stage: "pass", samples: 3, strict: true, judge: "old-label" });
  });
});
