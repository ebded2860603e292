import { NextResponse } from "next/server";
import { database } from "@/lib/server/db";
import { listJobs } from "@/lib/server/jobs/jobs-data";
import { requireRouteAccess } from "@/lib/server/route-access";

export const dynamic = "force-dynamic";

/** Jobs newest first (?runId= for one run's): what the Jobs and run pages poll for live progress. */
export async function GET(request: Request) {
  const user = await requireRouteAccess("runJobs");
  if (user instanceof NextResponse) return user;
  const runId = new URL(request.url).searchParams.get("runId") ?? undefined;
  const jobs = await listJobs(database(), user, { runId, limit: runId ? 20 : 100 });
  return NextResponse.json({ jobs }, { headers: { "Cache-Control": "no-store" } });
}
