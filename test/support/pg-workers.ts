// Several `npm run worker` processes against one PostgreSQL database, for the multi-worker test and
// `npm run bench:workers`: a database (on C2W_TEST_POSTGRES_URL's server, else Debian's binaries in a temp folder on
// loopback), judge endpoints pointing at a loopback stub, judge jobs over the demo data, worker processes to kill.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Database } from "@/lib/server/db";
import { createEndpoint } from "@/lib/server/endpoints/endpoints";
import { startJudgeJob } from "@/lib/server/jobs/judge-job";
import { migratePostgres } from "../../scripts/lib/migrate-postgres";
import { postgresUnavailableReason, startPostgres } from "../../scripts/pg-test-server.mjs";

export const ROOT = path.resolve(__dirname, "../..");
export const ADMIN = { id: "admin", email: "admin@example.org", name: null, role: "admin" as const };

/** Why PostgreSQL cannot be used here (no binaries and no C2W_TEST_POSTGRES_URL), or null. */
export function postgresWorkersUnavailable(): string | null {
  return postgresUnavailableReason();
}

export interface WorkersDatabase {
  url: string;
  stop(): Promise<void>;
}

/** A fresh database: on C2W_TEST_POSTGRES_URL's server when set (a new database there), else a throwaway server. */
export async function startWorkersDatabase(name: string): Promise<WorkersDatabase> {
  const given = process.env.C2W_TEST_POSTGRES_URL;
  const server = given ? null : await startPostgres();
  const url = new URL(given ?? server!.url);
  url.pathname = `/${name}_${randomBytes(4).toString("hex")}`;
  await migratePostgres(url.toString());
  return { url: url.toString(), stop: async () => server?.stop() };
}

/** Judge endpoints at the stub, sharing `concurrency` across every worker; each stores verdicts under its label. */
export async function stubEndpoints(db: Database, baseURL: string, labels: readonly string[], concurrency: number) {
  const endpoints = [];
  for (const label of labels) {
    endpoints.push(
      await createEndpoint(
        db,
        ADMIN,
        { label, baseUrl: baseURL, model: "stub", temperature: 0, maxTokens: null, concurrency, rpm: null, tpm: null, timeoutMs: 30_000, inputPricePerMTok: null, outputPricePerMTok: null },
        "sk-workers-test-key-000000",
      ),
    );
  }
  return endpoints;
}

/**
 * Enqueues judge jobs for every run and stage of the demo data with each endpoint, as the web app's action does.
 * `refresh` bypasses the call cache, so every item makes its own call (the same question asked by two judges, or in
 * two runs, would otherwise be answered once).
 */
export async function enqueueDemoJudging(db: Database, endpointIds: readonly string[], samples: number, refresh: boolean): Promise<{ jobIds: string[]; items: number }> {
  const runs = await db.run.findMany({ orderBy: { id: "asc" }, select: { id: true } });
  const jobIds: string[] = [];
  let items = 0;
  for (const endpointId of endpointIds) {
    for (const run of runs) {
      for (const stage of ["pass", "resolve"] as const) {
        const started = await startJudgeJob(db, ADMIN, { runId: run.id, endpointId, stage, samples, strict: false, refresh });
        if (!started.ok || started.items === 0) continue;
        jobIds.push(started.jobId);
        items += started.items;
      }
    }
  }
  return { jobIds, items };
}

export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<void>;
}

/** `npm run worker` as a child process (tsx as a loader in this very process, so SIGKILL reaches the worker itself). */
export function startWorkerProcess(url: string, options: { leaseMs: number; pollMs: number; maxInFlight: number; secretsKey: string; quiet?: boolean }): WorkerProcess {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--conditions=react-server",
      "scripts/worker.ts",
      "--lease-ms",
      String(options.leaseMs),
      "--poll-ms",
      String(options.pollMs),
      "--max-in-flight",
      String(options.maxInFlight),
    ],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: url, C2W_SECRETS_KEY: options.secretsKey, APP_ENV: "local" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr?.on("data", (chunk: Buffer) => {
    if (!options.quiet) process.stderr.write(`[worker ${child.pid}] ${chunk.toString()}`);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, exited };
}

export async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs: number, what: string, everyMs = 50): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
