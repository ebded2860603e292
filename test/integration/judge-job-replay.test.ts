// Judge jobs over imported shared runs ask the questions the recorded judge was asked: against the loopback stub
// replaying the recorded judge replies, the stored verdicts equal the recorded step 1_4 and resolve verdicts.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBenchmarkDir, type BenchmarkFiles } from "@/lib/server/benchmark-files";
import { createEndpoint } from "@/lib/server/endpoints/endpoints";
import { expandRunPaths, readImportFiles, runImport } from "@/lib/server/import/import-service";
import { judgeJobHandler, startJudgeJob } from "@/lib/server/jobs/judge-job";
import { SqliteJobQueue } from "@/lib/server/jobs/sqlite-queue";
import { JobWorker } from "@/lib/server/jobs/worker";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase } from "../support/database";
import { replay, replayTable, startOpenAIStub, type OpenAIStub } from "../support/openai-stub";

const RUN_FILES = ["claude_sonnet4d5.json", "deepseek_v3d2.json"];
const admin = { id: "admin", email: "admin@example.org", name: null, role: "admin" as const };

describe.skipIf(!benchmarkDir)(`judge jobs replaying the recorded judge${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let benchmark: BenchmarkFiles;
  let stub: OpenAIStub;

  beforeAll(async () => {
    const dir = benchmarkDir as string;
    const files = await readBenchmarkDir(dir);
    if (!files.ok) throw new Error(files.issues.map((issue) => issue.message).join("\n"));
    benchmark = files.value;
    await emptyDatabase(db);
    const { files: runs } = await readImportFiles((await expandRunPaths(RUN_FILES.map((name) => path.join(dir, "runs", name)))).files, 64 * 1024 * 1024);
    const imported = await runImport(db, { benchmark: { kind: "directory", dir }, runs, importedBy: "test" }, { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 });
    if (!imported.ok) throw new Error(imported.issues.map((issue) => issue.message).join("\n"));
    const recorded = benchmark.runs.filter((run) => RUN_FILES.includes(`${run.model}.json`));
    expect(recorded).toHaveLength(RUN_FILES.length);
    stub = await startOpenAIStub(replay(replayTable(recorded, benchmark.turns, new Map(benchmark.queries.map((task) => [task.task, task.queries])))), { record: false });
  });
  afterAll(async () => {
    await stub?.close();
  });

  for (const stage of ["pass", "resolve"] as const) {
    it(`stores the recorded ${stage}-stage verdict for every eligible item`, async () => {
      const endpoint = await createEndpoint(
        db,
        admin,
        { label: `replay-${stage}`, baseUrl: stub.baseURL, model: "replay-stub", temperature: 0, maxTokens: 8192, concurrency: 16, rpm: null, tpm: null, timeoutMs: 10_000, inputPricePerMTok: null, outputPricePerMTok: null },
        null,
      );
      const runs = await db.run.findMany({ select: { id: true, label: true } });
      expect(runs).toHaveLength(RUN_FILES.length);
      for (const run of runs) {
        const started = await startJudgeJob(db, admin, { runId: run.id, endpointId: endpoint.id, stage, samples: 1, strict: false, refresh: false });
        if (!started.ok) throw new Error(started.message);
        expect(started.items).toBeGreaterThan(0);
      }
      await new JobWorker(db, new SqliteJobQueue(db), [judgeJobHandler({ clientRetries: 0 })], { pollMs: 10, maxInFlight: 16 }).runUntilIdle();

      const verdicts = await db.judgeVerdict.findMany({
        where: { judge: `replay-${stage}`, stage },
        select: { verdict: true, wellFormed: true, casePosition: true, response: { select: { passResult: { select: { recordedFailStep: true } }, caseResults: { select: { position: true, verdict: true } } } } },
      });
      const expected = await (stage === "pass"
        ? db.passResult.count({ where: { OR: [{ recordedValid: true }, { recordedFailStep: { in: ["step_1_4", "step_1_5"] } }] } })
        : db.caseResult.count({ where: { outputs: { not: null } } }));
      expect(expected).toBeGreaterThan(0);
      expect(verdicts).toHaveLength(expected);
      const mismatches = verdicts.filter((row) => {
        const recorded =
          stage === "pass"
            ? row.response.passResult?.recordedFailStep !== "step_1_4"
            : row.response.caseResults.find((result) => result.position === row.casePosition)?.verdict;
        return row.verdict !== recorded || row.wellFormed !== true;
      });
      expect(mismatches).toEqual([]);
      expect(await db.jobItem.count({ where: { status: { not: "done" } } })).toBe(0);
    });
  }
});
