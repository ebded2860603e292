// `npm run worker`: runs a job worker as its own process (judging, imports, generation) until SIGINT/SIGTERM; several may run at
// once against one database. Flags: --database URL, --once (exit when no job has work left), --lease-ms, --poll-ms.
import { createDatabaseClient } from "@/lib/server/db";
import { createWorker } from "@/lib/server/jobs/runtime";
import { commandLineEnv, parseCommandLine, prepareDatabase, runCommandLine, usageError } from "./lib/cli";

const USAGE = `Usage: npm run worker -- [--database URL] [--once] [--lease-ms N] [--poll-ms N]

Runs queued jobs (judging, imports, generation) from the database. Start the web server with IN_PROCESS_WORKER=false when
workers run separately. A worker that dies leaves its items leased until the lease expires; another worker then
takes them over, and the call cache keeps replies already received from being paid for again.`;

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    {
      options: {
        database: { type: "string" },
        once: { type: "boolean", default: false },
        "lease-ms": { type: "string" },
        "poll-ms": { type: "string" },
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
  if (Number.isNaN(leaseMs) || Number.isNaN(pollMs)) return usageError("--lease-ms and --poll-ms take a positive whole number", USAGE);
  const env = commandLineEnv(values.database);
  // Imports open their own connections through the server environment: point it at the same database.
  process.env.DATABASE_URL = env.DATABASE_URL;
  prepareDatabase(env.DATABASE_URL);
  const db = createDatabaseClient(env.DATABASE_URL);
  const worker = createWorker(db, {
    ...(leaseMs ? { leaseMs } : {}),
    ...(pollMs ? { pollMs } : {}),
    log: (line) => console.error(line),
  });
  console.error(`worker ${worker.workerId} on ${env.DATABASE_URL}`);
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
    await db.$disconnect();
  }
}

runCommandLine(main);
