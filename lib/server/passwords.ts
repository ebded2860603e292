import "server-only";
// Password hashing with bcrypt (bcryptjs: maintained, no native build), run on a small pool of worker threads so a
// burst of sign-ins never blocks the event loop that serves pages. Cost 11 keeps one check around 100-150 ms.
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import bcrypt from "bcryptjs";

const BCRYPT_COST = 11;
export const MIN_PASSWORD_LENGTH = 8;

// The worker loads bcryptjs's CommonJS build by absolute path: the worker is plain Node, outside any bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const bcrypt = require(workerData.bcryptPath);
parentPort.on("message", (job) => {
  try {
    const value = job.op === "hash" ? bcrypt.hashSync(job.password, job.cost) : bcrypt.compareSync(job.password, job.hash);
    parentPort.postMessage({ id: job.id, value });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: String(error) });
  }
});
`;

type Job = { op: "hash"; password: string; cost: number } | { op: "compare"; password: string; hash: string };

interface PoolWorker {
  worker: Worker;
  pending: Map<number, { resolve: (value: string | boolean) => void; reject: (error: Error) => void }>;
}

interface Pool {
  workers: PoolWorker[];
  nextId: number;
  failed: boolean;
}

const shared = globalThis as unknown as { c2wPasswordPool?: Pool };

function startWorker(pool: Pool): PoolWorker {
  const bcryptPath = path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "bcryptjs", "umd", "index.js");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptPath } });
  worker.unref();
  const entry: PoolWorker = { worker, pending: new Map() };
  worker.on("message", (message: { id: number; value?: string | boolean; error?: string }) => {
    const waiting = entry.pending.get(message.id);
    if (!waiting) return;
    entry.pending.delete(message.id);
    // An idle pool must not keep a CLI process alive; a busy one must.
    if (entry.pending.size === 0) worker.unref();
    if (message.error !== undefined) waiting.reject(new Error(message.error));
    else waiting.resolve(message.value!);
  });
  const fail = (error: Error) => {
    for (const waiting of entry.pending.values()) waiting.reject(error);
    entry.pending.clear();
    pool.workers = pool.workers.filter((other) => other !== entry);
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`password worker exited with code ${code}`)));
  return entry;
}

function pool(): Pool {
  if (!shared.c2wPasswordPool) {
    shared.c2wPasswordPool = { workers: [], nextId: 1, failed: false };
  }
  const current = shared.c2wPasswordPool;
  const size = Math.min(4, Math.max(1, availableParallelism() - 1));
  while (!current.failed && current.workers.length < size) {
    try {
      current.workers.push(startWorker(current));
    } catch (error) {
      // Without worker threads (an unusual runtime) hashing falls back to the calling thread.
      console.error("Password hashing worker could not start; hashing on the main thread:", error);
      current.failed = true;
    }
  }
  return current;
}

function runInWorker(job: Job): Promise<string | boolean> | null {
  const current = pool();
  const least = current.workers.reduce<PoolWorker | undefined>((best, next) => (!best || next.pending.size < best.pending.size ? next : best), undefined);
  if (!least) return null;
  const id = current.nextId++;
  return new Promise((resolve, reject) => {
    least.pending.set(id, { resolve, reject });
    least.worker.ref();
    least.worker.postMessage({ id, ...job });
  });
}

export async function hashPassword(password: string): Promise<string> {
  const result = runInWorker({ op: "hash", password, cost: BCRYPT_COST });
  return result ? String(await result) : bcrypt.hash(password, BCRYPT_COST);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const result = runInWorker({ op: "compare", password, hash });
  return result ? (await result) === true : bcrypt.compare(password, hash);
}

/** How many hashing workers are running (tests, health checks). */
export function passwordWorkerCount(): number {
  return shared.c2wPasswordPool?.workers.length ?? 0;
}
