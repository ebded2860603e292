import { NextResponse, type NextRequest } from "next/server";
import { queueFilterSchema } from "@/lib/review/filter";
import { database } from "@/lib/server/db";
import { countMatchingVerdicts } from "@/lib/server/data/review";
import { requireRouteAccess } from "@/lib/server/route-access";

export const dynamic = "force-dynamic";

/** How many stored judge verdicts a queue filter matches: the queue form's live count. */
export async function GET(request: NextRequest) {
  const user = await requireRouteAccess("manageQueues");
  if (user instanceof NextResponse) return user;
  const params = request.nextUrl.searchParams;
  const parsed = queueFilterSchema.safeParse({
    benchmarkId: params.get("benchmarkId") ?? "",
    stage: params.get("stage") ?? "",
    judges: params.getAll("judge"),
    models: params.getAll("model"),
    domains: params.getAll("domain"),
    verdict: params.get("verdict") ?? "any",
    disagreeWithRule: params.get("disagreeWithRule") === "true",
  });
  if (!parsed.success) return NextResponse.json({ error: "invalid filter", issues: parsed.error.issues.map((issue) => issue.message) }, { status: 400 });
  const matching = await countMatchingVerdicts(database(), user, parsed.data);
  return NextResponse.json({ matching }, { headers: { "Cache-Control": "no-store" } });
}
