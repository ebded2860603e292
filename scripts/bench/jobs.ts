// `npm run bench:jobs`: the durable job queue's own cost. 2,000 items go through the SQLite queue and one worker
// (lease, heartbeat, complete with a result row per item) at 32 at once; each item makes one call to a loopback
// server that answers after 200 ms (and once after 0 ms, for the queue's ceiling). Prints median throughput against
// the ideal (32 / 0.2 s = 160 items/s), added time per item and peak RSS over 3 runs.
import { createServer } from "node:http";
import { z } from "zod";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createDatabaseClient } from "../../lib/server/db";
import { NO_USAGE } from "../../lib/server/jobs/queue";
import { SqliteJobQueue } from "../../lib/server/jobs/sqlite-queue";
import { JobWorker, type JobHandler } from "../../lib/server/jobs/worker";
import { runPrisma } from "../prisma-offline.mjs";
import { median, peakRssMb, printTable, runMain } from "./common";

const ITEMS = 2_000;
const CONCURRENCY = 32;
const RUNS = 3;

async function loopbackServer(delayMs: number) {
  const server = createServer((_req, res) => setTimeout(() => res.end('{"ok":true}'), delayMs));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function callingHandler(url: string): JobHandler<Record<string, never>, { index: number }> {
  return {
    kind: "bench",
    paramsSchema: z.object({}).strict(),
    payloadSchema: z.object({ index: z.number().int() }),
    async capacity() {
      return { filter: { kind: "bench" }, limit: CONCURRENCY };
    },
    async run({ item, signal }) {
      const response = await fetch(url, { signal });
      await response.text();
      return { ok: true, result: { key: item.key }, usage: { ...NO_USAGE, calls: 1 } };
    },
  };
}

async function once(databaseUrl: string, delayMs: number): Promise<{ seconds: number; perSecond: number; cpuMsPerItem: number }> {
  const db = createDatabaseClient(databaseUrl);
  const server = await loopbackServer(delayMs);
  try {
    await db.jobItem.deleteMany();
    await db.job.deleteMany();
    const queue = new SqliteJobQueue(db);
    const items = Array.from({ length: ITEMS }, (_, index) => ({ key: `item-${index}`, payload: { index } }));
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const jobId = await queue.enqueue({ kind: "bench", params: {}, createdBy: null, items });
    await new JobWorker(db, queue, [callingHandler(server.url)], { pollMs: 20, maxInFlight: CONCURRENCY }).runUntilIdle();
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    // CPU of this process (queue, worker, Prisma, SQLite, and the loopback server's share) per item: what bounds
    // throughput on an idle machine, whatever else the machine is doing while the bench runs.
    const cpuMsPerItem = (cpu.user + cpu.system) / 1000 / ITEMS;
    const job = await db.job.findUniqueOrThrow({ where: { id: jobId } });
    if (job.status !== "succeeded" || job.doneCount !== ITEMS) throw new Error(`bench job ended ${job.status} with ${job.doneCount} done`);
    return { seconds, perSecond: ITEMS / seconds, cpuMsPerItem };
  } finally {
    await server.close();
    await db.$disconnect();
  }
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), "c2w-bench-jobs-"));
  try {
    const databaseUrl = `file:${path.join(scratch, "jobs.db")}`;
    const migrated = runPrisma(["migrate", "deploy"], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: "pipe" });
    if (migrated.status !== 0) throw new Error(`migrate deploy failed:\n${migrated.stdout}${migrated.stderr}`);
    const wal = createDatabaseClient(databaseUrl);
    await wal.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await wal.$disconnect();
    const rows: string[][] = [];
    for (const delayMs of [200, 0]) {
      const results = [];
      for (let run = 0; run < RUNS; run += 1) results.push(await once(databaseUrl, delayMs));
      const perSecond = median(results.map((result) => result.perSecond));
      const ideal = delayMs > 0 ? (CONCURRENCY * 1000) / delayMs : null;
      // Time each slot spends per item beyond the server's answer time.
      const addedMs = (CONCURRENCY * 1000) / perSecond - delayMs;
      rows.push([
        `${delayMs} ms`,
        perSecond.toFixed(1),
        ideal ? ideal.toFixed(0) : "—",
        ideal ? `${((100 * perSecond) / ideal).toFixed(0)}%` : "—",
        addedMs.toFixed(1),
        median(results.map((result) => result.cpuMsPerItem)).toFixed(2),
      ]);
    }
    printTable(["server answers after", "items/s (median)", "ideal", "of ideal", "added ms per item per slot", "CPU ms per item"], rows);
    console.log(`\n${ITEMS} items, ${CONCURRENCY} at once, ${RUNS} runs each; peak RSS ${peakRssMb().toFixed(0)} MB; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

runMain(main);
