// Runs once when a Next.js server process starts. First the start-up rules the app enforces however it is launched
// (npm start, next start, a container): an invalid configuration or a demo password where demo accounts are not
// allowed stops the server before it serves anything. Then the in-process job worker (lib/server/jobs/runtime.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { enforceAtServerStart } = await import("./lib/server/startup-check");
  await enforceAtServerStart();
  // The client's address from the connection (or trusted proxies), never from what a client claims.
  const { installClientAddressStamp } = await import("./lib/server/client-address");
  installClientAddressStamp(process.env.TRUSTED_PROXIES);
  const { ensureInProcessWorker } = await import("./lib/server/jobs/runtime");
  ensureInProcessWorker();
}
