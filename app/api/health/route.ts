import { NextResponse } from "next/server";
import { database } from "@/lib/server/db";

export const dynamic = "force-dynamic";

// Monitors poll this while the server is busy: at most one database round trip per second, shared by every caller in
// that second, so a health check costs no more than answering from memory.
const CHECK_EVERY_MS = 1_000;
let lastCheck: { at: number; ok: Promise<boolean> } | null = null;

function databaseReachable(): Promise<boolean> {
  const now = Date.now();
  if (lastCheck && now - lastCheck.at < CHECK_EVERY_MS) return lastCheck.ok;
  const ok = database()
    .$queryRawUnsafe("SELECT 1")
    .then(
      () => true,
      () => false,
    );
  lastCheck = { at: now, ok };
  return ok;
}

/** Liveness and database reachability, used by the start script and e2e harness. Reveals nothing else. */
export async function GET() {
  if (await databaseReachable()) return NextResponse.json({ status: "ok" });
  return NextResponse.json({ status: "database-unavailable" }, { status: 503 });
}
