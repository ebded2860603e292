import { NextResponse } from "next/server";
import { getImportJob } from "@/lib/server/jobs/import-job";
import { requireRouteAccess } from "@/lib/server/route-access";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: RouteContext<"/api/imports/[id]">) {
  const user = await requireRouteAccess("import");
  if (user instanceof NextResponse) return user;
  const { id } = await context.params;
  const job = await getImportJob(user, id);
  if (!job) return NextResponse.json({ error: "not found" }, { status: 404 });
  return NextResponse.json(job, { headers: { "Cache-Control": "no-store" } });
}
