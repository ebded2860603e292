import { NextResponse } from "next/server";
import { MAX_QUERY_LENGTH } from "@/lib/search/results";
import { database } from "@/lib/server/db";
import { searchEverything } from "@/lib/server/data/search";
import { checkAccess } from "@/lib/server/session";

export const dynamic = "force-dynamic";

/** GET /api/search?q=<text>: the command palette's results (models, tasks, runs, responses), JSON. */
export async function GET(request: Request) {
  const decision = await checkAccess("read");
  if (!decision.allowed) return NextResponse.json({ error: decision.reason }, { status: decision.reason === "unauthenticated" ? 401 : 403 });
  const query = new URL(request.url).searchParams.get("q") ?? "";
  if (query.length > MAX_QUERY_LENGTH) return NextResponse.json({ error: `q is limited to ${MAX_QUERY_LENGTH} characters` }, { status: 400 });
  const results = await searchEverything(database(), decision.user, query);
  return NextResponse.json({ results }, { headers: { "Cache-Control": "no-store" } });
}
