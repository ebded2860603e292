// `npm run worker`: runs a job worker as its own process (judging, imports, generation, Dify execution) until
// SIGINT/SIGTERM; several may run at once against one database, on any machine that reaches it. Flags: --database
// URL, --once (exit when no job has work left), --lease-ms, --poll-ms, --max-in-flight.
import { createDatabaseClient } from "@/lib/server/db";
import { stopPgBoss } from "@/lib/server/jobs/pg-queue";
import { createWorker } from "@/lib/server/jobs/runtime";
import { displayUrl } from "./lib/migrate-postgres";
import { commandLineEnv, parseCommandLine, prepareDatabase, runCommandLine, usageError } from "./lib/cli";

const USAGE = `Usage: npm run worker -- [--database URL] [--once] [--lease-ms N] [--poll-ms N] [--max-in-flight N]

Runs queued jobs (judging, imports, generation, Dify execution) from the database. Start the web server with IN_PROCESS_WORKER=false when
workers run separately. A worker that dies leaves its items leased until the lease expires; another worker then
takes them over, and the call cache keeps replies already received from being paid for again. --max-in-flight
caps the items this process runs at once (default 64); an endpoint's concurrency is shared by all workers.`;

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    {
      options: {
        database: { type: "string" },
        once: { type: "boolean", default: false },
        "lease-ms": { type: "string" },
        "poll-ms": { type: "string" },
        "max-in-flight": { type: "string" },
        help: { type: "boolean", default: false },
      },
      allowPositionals: false,
    },
    USAGE,
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const number = (text: string | undefined) => {
    if (text === undefined) return undefined;
    const value = Number(text);
    return Number.isInteger(value) && value > 0 ? value : Number.NaN;
  };
  const leaseMs = number(values["lease-ms"]);
  const pollMs = number(values["poll-ms"]);
  const maxInFlight = number(values["max-in-flight"]);
  if (Number.isNaN(leaseMs) || Number.isNaN(pollMs) || Number.isNaN(maxInFlight)) {
    return usageError("--lease-ms, --poll-ms and --max-in-flight take a positive whole number", USAGE);
  }
  const env = commandLineEnv(values.database);
  // Imports open their own connections through the server environment: point it at the same database.
  process.env.DATABASE_URL = env.DATABASE_URL;
  await prepareDatabase(env.DATABASE_URL);
  const db = createDatabaseClient(env.DATABASE_URL);
  const worker = createWorker(
    db,
    {
      ...(leaseMs ? { leaseMs } : {}),
      ...(pollMs ? { pollMs } : {}),
      ...(maxInFlight ? { maxInFlight } : {}),
      log: (line) => console.error(line),
    },
    env.DATABASE_URL,
  );
  console.error(`worker ${worker.workerId} on ${displayUrl(env.DATABASE_URL)}`);
  try {
    if (values.once) {
      await worker.runUntilIdle();
      return 0;
    }
    worker.start();
    // The worker's timers do not hold a process open (they must not in the web server): this one does.
    const keepAlive = setInterval(() => undefined, 60_000);
    await new Promise<void>((resolve) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
    });
    clearInterval(keepAlive);
    console.error("worker: stopping after the items in flight");
    await worker.stop();
    return 0;
  } finally {
    await stopPgBoss();
    await db.$disconnect();
  }
}

runCommandLine(main);
