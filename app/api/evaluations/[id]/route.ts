import { NextResponse } from "next/server";
import { database } from "@/lib/server/db";
import { getEvaluationProgress } from "@/lib/server/evaluations/get-evaluation-progress";
import { checkAccess } from "@/lib/server/session";

export const dynamic = "force-dynamic";

/** GET /api/evaluations/<id>: the evaluation's live progress (grids, counts, calls, tokens and cost), polled by its page. */
export async function GET(_request: Request, context: RouteContext<"/api/evaluations/[id]">) {
  const decision = await checkAccess("read");
  if (!decision.allowed) return NextResponse.json({ error: decision.reason }, { status: decision.reason === "unauthenticated" ? 401 : 403 });
  const { id } = await context.params;
  const progress = await getEvaluationProgress(database(), decision.user, id);
  if (!progress) return NextResponse.json({ error: "not found" }, { status: 404 });
  return NextResponse.json(progress, { headers: { "Cache-Control": "no-store" } });
}
