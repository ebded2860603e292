import "server-only";
// The server's own start-up check (see instrumentation.ts): configuration, demo passwords, first accounts.
import { database } from "./db";
import { serverEnv } from "./env";
import { createFirstAccounts, enforceNoDemoPasswords, firstAdminNotice, StartupRefusal } from "./startup-policy";

export async function enforceAtServerStart(): Promise<void> {
  try {
    const env = serverEnv();
    const db = database();
    const first = await createFirstAccounts(db, env);
    if (first && "admin" in first) console.log(firstAdminNotice(first.admin, first.password));
    await enforceNoDemoPasswords(db, env);
    // Import jobs run inside the server process: any still marked queued or running were cut off by the restart
    // (their write transaction rolled back), so they are reported as failed rather than left "running" forever.
    const interrupted = await db.importJob.updateMany({
      where: { status: { in: ["queued", "running"] } },
      data: { status: "failed", finishedAt: new Date(), error: "The server restarted before this import finished; nothing was written. Start it again." },
    });
    if (interrupted.count > 0) console.log(`• ${interrupted.count} import job(s) interrupted by the restart marked as failed`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof StartupRefusal || message.startsWith("Invalid server configuration")) {
      console.error(message);
      process.exit(1);
    }
    // A database that is not set up yet (setup runs the migrations) is reported by the pages that use it.
    console.error(`Start-up check skipped: ${message}`);
  }
}
