import { NextResponse } from "next/server";
import { database } from "@/lib/server/db";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, used by the start script and e2e harness. Reveals nothing else. */
export async function GET() {
  try {
    await database().$queryRawUnsafe("SELECT 1");
    return NextResponse.json({ status: "ok" });
  } catch {
    return NextResponse.json({ status: "database-unavailable" }, { status: 503 });
  }
}
