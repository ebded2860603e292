// GET /api/v1/leaderboard?benchmark=<id or slug>: the rows `npm run export -- leaderboard --format json` prints.
import { API_ROUTES } from "@/lib/server/api/contract";
import { apiRoute } from "@/lib/server/api/handler";
import { apiError, apiJson } from "@/lib/server/api/http";
import { leaderboardRowsForApi } from "@/lib/server/api/leaderboard";
import { database } from "@/lib/server/db";

export const dynamic = "force-dynamic";

export const GET = apiRoute(API_ROUTES.leaderboard, async ({ request, user }) => {
  const rows = await leaderboardRowsForApi(database(), user, new URL(request.url).searchParams.get("benchmark"));
  return rows ? apiJson({ rows }) : apiError("not_found", "No benchmark with this id or slug.");
});
