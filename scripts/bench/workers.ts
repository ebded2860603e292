// `npm run bench:workers`: how the PostgreSQL job queue (pg-boss) scales with worker processes. Judge jobs over the
// demo data (every item makes its own call: the call cache is bypassed) run through 1 and then 3 `npm run worker`
// processes, each limited to 16 items at once, against a loopback OpenAI-compatible stub answering after 200 ms (not
// a model). Prints items/s per run, medians, the 3:1 ratio (target >= 2.5), the load average around each run and the
// workers' CPU per item (what bounds throughput on a busy machine).
// Needs PostgreSQL binaries (Debian's postgresql) or C2W_TEST_POSTGRES_URL.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { createDatabaseClient } from "../../lib/server/db";
import { seedDemoData } from "../../lib/server/demo-data";
import { stopPgBoss } from "../../lib/server/jobs/pg-queue";
import { startDeliveryCountingStub } from "../../test/support/delivery-counting-stub";
import {
  enqueueDemoJudging,
  postgresWorkersUnavailable,
  startWorkerProcess,
  startWorkersDatabase,
  stubEndpoints,
  waitFor,
  type WorkerProcess,
} from "../../test/support/pg-workers";
import { median, printTable, runMain } from "./common";

const ANSWER_MS = 200;
const PER_WORKER = 16;
const SAMPLES = 9;
const JUDGES = ["bench-judge-a", "bench-judge-b"];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const REPLY = "<reason>ok</reason>\n<result>\ntrue\n</result>";

/** CPU milliseconds a process has used so far (user + system, from /proc; Linux clock ticks are 10 ms). */
function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const unavailable = postgresWorkersUnavailable();
  if (unavailable) {
    console.error(`bench:workers needs PostgreSQL: ${unavailable}`);
    process.exitCode = 1;
    return;
  }
  const secretsKey = randomBytes(32).toString("base64");
  process.env.C2W_SECRETS_KEY = secretsKey;
  process.env.IN_PROCESS_WORKER = "false";
  const server = await startWorkersDatabase("c2w_bench_workers");
  process.env.DATABASE_URL = server.url;
  const db = createDatabaseClient(server.url);
  const stub = await startDeliveryCountingStub(() => ({ kind: "reply", content: REPLY, delayMs: ANSWER_MS }));
  const workers: WorkerProcess[] = [];
  try {
    const seeded = await seedDemoData(db);
    if (!seeded.ok) throw new Error("could not seed the demo data");
    // The endpoints allow more than three workers together, so each worker's own limit is what binds.
    const endpoints = await stubEndpoints(db, stub.baseURL, JUDGES, 4 * PER_WORKER);
    const rows: string[][] = [];
    const medians = new Map<number, number>();
    const cpuPerItem = new Map<number, { workers: number; bench: number }>();
    for (const workerCount of [1, 3]) {
      for (let index = 0; index < workerCount; index += 1) {
        workers.push(startWorkerProcess(server.url, { leaseMs: 30_000, pollMs: 100, maxInFlight: PER_WORKER, secretsKey, quiet: true }));
      }
      // A warm-up job per phase, not timed: fresh processes start pg-boss and compile their first queries.
      const warmUp = await enqueueDemoJudging(db, [endpoints[0]!.id], 1, true);
      await waitFor(async () => (await db.job.count({ where: { id: { in: warmUp.jobIds }, status: "succeeded" } })) === warmUp.jobIds.length, 600_000, "the warm-up jobs", 50);
      const rates: number[] = [];
      const workerCpu = () => workers.reduce((sum, worker) => sum + processCpuMs(worker.child.pid), 0);
      const cpuBefore = workerCpu();
      const ownCpuBefore = process.cpuUsage();
      let phaseItems = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const loadBefore = loadavg()[0]!;
        const started = performance.now();
        const enqueued = await enqueueDemoJudging(
          db,
          endpoints.map((endpoint) => endpoint.id),
          SAMPLES,
          true,
        );
        await waitFor(
          async () => (await db.job.count({ where: { id: { in: enqueued.jobIds }, status: { in: ["succeeded", "failed", "cancelled"] } } })) === enqueued.jobIds.length,
          600_000,
          "the bench jobs to finish",
          50,
        );
        const seconds = (performance.now() - started) / 1000;
        const failed = await db.job.count({ where: { id: { in: enqueued.jobIds }, status: { not: "succeeded" } } });
        if (failed > 0) throw new Error(`${failed} bench job(s) did not succeed`);
        const rate = enqueued.items / seconds;
        rates.push(rate);
        phaseItems += enqueued.items;
        rows.push([String(workerCount), String(run + 1), String(enqueued.items), seconds.toFixed(2), rate.toFixed(1), `${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`]);
      }
      medians.set(workerCount, median(rates));
      const own = process.cpuUsage(ownCpuBefore);
      cpuPerItem.set(workerCount, { workers: (workerCpu() - cpuBefore) / phaseItems, bench: (own.user + own.system) / 1000 / phaseItems });
      for (const worker of workers.splice(0)) {
        worker.child.kill("SIGTERM");
        await worker.exited;
      }
    }
    printTable(["workers", "run", "items", "seconds", "items/s", "load average (1 min) before → after"], rows);
    const one = medians.get(1)!;
    const three = medians.get(3)!;
    const ideal = (PER_WORKER * 1000) / ANSWER_MS;
    console.log(
      `\nmedian items/s: 1 worker ${one.toFixed(1)} (ideal ${ideal.toFixed(0)}), 3 workers ${three.toFixed(1)} (ideal ${(3 * ideal).toFixed(0)}); ` +
        `3 workers / 1 worker = ${(three / one).toFixed(2)}x (target >= 2.5x)`,
    );
    for (const [count, cpu] of cpuPerItem) {
      console.log(`CPU per item with ${count} worker(s): workers ${cpu.workers.toFixed(1)} ms, this process (stub, enqueueing, polling) ${cpu.bench.toFixed(1)} ms; PostgreSQL's not counted`);
    }
    console.log(`${RUNS} runs each; stub answers after ${ANSWER_MS} ms; ${PER_WORKER} items at once per worker; ${cpus().length} cores (shared with whatever else runs).`);
  } finally {
    for (const worker of workers) worker.child.kill("SIGKILL");
    await Promise.all(workers.map((worker) => worker.exited));
    await stub.close();
    await stopPgBoss();
    await db.$disconnect();
    await server.stop();
  }
}

runMain(main);
