// Runs once when a Next.js server process starts: starts the in-process job worker (see lib/server/jobs/runtime.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { ensureInProcessWorker } = await import("./lib/server/jobs/runtime");
    ensureInProcessWorker();
  }
}
