// POST /api/v1/evaluations/<id>/cancel: cancels a running evaluation (409 when it has already finished).
import { API_ROUTES } from "@/lib/server/api/contract";
import { cancelEvaluationFromApi } from "@/lib/server/api/evaluations";
import { apiRoute } from "@/lib/server/api/handler";
import { apiError, apiJson } from "@/lib/server/api/http";
import { database } from "@/lib/server/db";

export const dynamic = "force-dynamic";

export const POST = apiRoute<typeof API_ROUTES.cancelEvaluation, { id: string }>(API_ROUTES.cancelEvaluation, async ({ user, params }) => {
  const cancelled = await cancelEvaluationFromApi(database(), user!, params.id);
  return cancelled.ok ? apiJson(cancelled.value) : apiError(cancelled.code, cancelled.message);
});
