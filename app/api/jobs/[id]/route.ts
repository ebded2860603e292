import { NextResponse } from "next/server";
import { database } from "@/lib/server/db";
import { getJobDetail } from "@/lib/server/jobs/jobs-data";
import { requireRouteAccess } from "@/lib/server/route-access";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: RouteContext<"/api/jobs/[id]">) {
  const user = await requireRouteAccess("runJobs");
  if (user instanceof NextResponse) return user;
  const { id } = await context.params;
  const job = await getJobDetail(database(), user, id);
  if (!job) return NextResponse.json({ error: "not found" }, { status: 404 });
  return NextResponse.json(job, { headers: { "Cache-Control": "no-store" } });
}
