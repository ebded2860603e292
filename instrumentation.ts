// Start-up rules enforced by the app itself, however it is launched (npm start, next start, a container): an invalid
// configuration or a demo password where demo accounts are not allowed stops the server before it serves anything.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { enforceAtServerStart } = await import("./lib/server/startup-check");
  await enforceAtServerStart();
}
