import { NextResponse } from "next/server";
import { getImportJob } from "@/lib/server/import/jobs";
import { checkAccess } from "@/lib/server/session";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: RouteContext<"/api/imports/[id]">) {
  const decision = await checkAccess("import");
  if (!decision.allowed || !decision.user) {
    return NextResponse.json({ error: "forbidden" }, { status: decision.allowed || decision.reason === "unauthenticated" ? 401 : 403 });
  }
  const { id } = await context.params;
  const job = await getImportJob(decision.user, id);
  if (!job) return NextResponse.json({ error: "not found" }, { status: 404 });
  return NextResponse.json(job, { headers: { "Cache-Control": "no-store" } });
}
