// `npm run bench:generate`: zero-shot generation of all 27 benchmark tasks (79 turns) against a loopback stub that
// answers every call after 1 s, 8 calls in flight; the stub runs in its own process. Reports the median wall time of
// 3 runs. Target ≤ 12.5 s; rounds of a task are sequential, so no schedule beats ceil(79 / 8) = 10 s. The same
// generation as a durable generate job (an item per task, every turn committed and scored as it arrives, endpoint
// concurrency 8, one worker) on a scratch database is reported beside it.
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createDatabaseClient } from "../../lib/server/db";
import { createEndpoint } from "../../lib/server/endpoints/endpoints";
import { startEvaluation } from "../../lib/server/evaluations/start-evaluation";
import { runImport } from "../../lib/server/import/import-service";
import { generateJobHandler } from "../../lib/server/jobs/generate-job";
import { SqliteJobQueue } from "../../lib/server/jobs/sqlite-queue";
import { JobWorker } from "../../lib/server/jobs/worker";
import { runPrisma } from "../prisma-offline.mjs";
import { readBenchmarkDir } from "../../lib/server/benchmark-files";
import { generateResponses } from "../../lib/server/generation/runner";
import { createChatClient } from "../../lib/server/llm";
import { fixedReply } from "../../test/support/openai-stub";
import { collectGarbage, locateBenchmark, median, peakRssMb, printTable, runMain, serveStub, startStubProcess } from "./common";

const CONCURRENCY = 8;
const SERVER_DELAY_MS = 1_000;
const RUNS = 3;
const TARGET_SECONDS = 12.5;
const REPLY = "<node_selection>start, end</node_selection>\n<design_principle>A fixed stub reply.</design_principle>\n<workflow>{}</workflow>";

/** When the last of `chains` (calls per item) ends on `slots` slots, longest first, as the job leases its items. */
function itemSchedule(chains: readonly number[], slots: number): number {
  const ends = Array.from({ length: slots }, () => 0);
  for (const chain of [...chains].sort((a, b) => b - a)) {
    const slot = ends.indexOf(Math.min(...ends));
    ends[slot] = (ends[slot] ?? 0) + chain;
  }
  return Math.max(...ends);
}

/** Wall seconds of one zero-shot evaluation run through the generate job, from start to the run's completion. */
async function jobRuns(benchmarkDir: string, baseURL: string, turns: number): Promise<number[]> {
  const scratch = mkdtempSync(path.join(tmpdir(), "c2w-bench-generate-"));
  const databaseUrl = `file:${path.join(scratch, "generate.db")}`;
  try {
    const migrated = runPrisma(["migrate", "deploy"], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: "pipe" });
    if (migrated.status !== 0) throw new Error(`migrate deploy failed:\n${migrated.stdout}${migrated.stderr}`);
    const db = createDatabaseClient(databaseUrl);
    await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    const admin = { id: "bench", email: "bench@example.org", name: null, role: "admin" as const };
    try {
      const imported = await runImport(db, { benchmark: { kind: "directory", dir: benchmarkDir }, runs: [], importedBy: null }, { maxFileBytes: 50 * 1024 * 1024, maxResponses: 20_000 });
      if (!imported.ok) throw new Error(imported.issues.map((entry) => entry.message).join("\n"));
      const endpoint = await createEndpoint(
        db,
        admin,
        { label: "bench-stub", baseUrl: baseURL, model: "bench-stub", temperature: 0, maxTokens: null, concurrency: CONCURRENCY, rpm: null, tpm: null, timeoutMs: 60_000, inputPricePerMTok: null, outputPricePerMTok: null },
        null,
      );
      const seconds: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        collectGarbage();
        const started = performance.now();
        const evaluation = await startEvaluation(db, admin, { benchmarkId: imported.benchmarkId, endpointId: endpoint.id, mode: "zero-shot", judge: { kind: "rule" } });
        if (!evaluation.ok) throw new Error(evaluation.message);
        await new JobWorker(db, new SqliteJobQueue(db), [generateJobHandler({ clientRetries: 0 })], { pollMs: 20, maxInFlight: CONCURRENCY }).runUntilIdle();
        seconds.push((performance.now() - started) / 1000);
        const stored = await db.run.findUniqueOrThrow({ where: { id: evaluation.runIds[0] as string } });
        if (stored.status !== "complete" || stored.responseCount !== turns) throw new Error(`the generated run ended ${stored.status} with ${stored.responseCount} of ${turns} turns`);
      }
      return seconds;
    } finally {
      await db.$disconnect();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.argv.includes("--stub")) return serveStub(fixedReply(REPLY, SERVER_DELAY_MS));
  const files = await readBenchmarkDir(locateBenchmark(), { includeRuns: false });
  if (!files.ok) throw new Error(files.issues.map((entry) => entry.message).join("\n"));
  const tasks = files.value.queries;
  const builderPrompt = files.value.prompts.find((prompt) => prompt.name === "builder_prompt")?.text ?? "";
  const turns = tasks.reduce((sum, task) => sum + task.queries.length, 0);
  const { child, baseURL } = await startStubProcess(__filename);
  try {
    const seconds: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const client = createChatClient({ baseURL, model: "bench-stub", concurrency: CONCURRENCY, maxRetries: 0 });
      collectGarbage();
      const started = performance.now();
      const result = await generateResponses({ client, tasks, mode: "zero-shot", builderPrompt, concurrency: CONCURRENCY });
      seconds.push((performance.now() - started) / 1000);
      if (result.generated !== turns) throw new Error(`${result.failed} of ${turns} turns failed: ${result.turns.find((turn) => !turn.ok)?.error}`);
    }
    const wall = median(seconds);
    const jobSeconds = await jobRuns(locateBenchmark(), baseURL, turns);
    const jobWall = median(jobSeconds);
    const bound = Math.ceil(turns / CONCURRENCY) * (SERVER_DELAY_MS / 1000);
    console.log(`Generation benchmark — ${tasks.length} tasks, ${turns} turns, zero-shot, concurrency ${CONCURRENCY}, loopback stub answering after ${SERVER_DELAY_MS} ms (own process); median of ${RUNS} runs; load average ${(loadavg()[0] ?? 0).toFixed(1)} on ${availableParallelism()} CPUs\n`);
    printTable(
      ["measure", "value", "target", ""],
      [
        ["wall time (s)", wall.toFixed(2), `≤ ${TARGET_SECONDS} (schedule bound ${bound})`, wall <= TARGET_SECONDS ? "ok" : "MISSED"],
        ["runs (s)", seconds.map((value) => value.toFixed(2)).join(", "), "", ""],
        [
          "as a generate job (s)",
          jobWall.toFixed(2),
          `≤ ${TARGET_SECONDS} (item schedule ${itemSchedule(tasks.map((task) => task.queries.length), CONCURRENCY) * (SERVER_DELAY_MS / 1000)})`,
          jobWall <= TARGET_SECONDS ? "ok" : "MISSED",
        ],
        ["job runs (s)", jobSeconds.map((value) => value.toFixed(2)).join(", "), "", ""],
        ["peak RSS (MB)", peakRssMb().toFixed(0), "", ""],
      ],
    );
  } finally {
    child.stdin?.end();
    child.kill();
  }
}

runMain(main);
