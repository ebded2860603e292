// GET /api/v1/evaluations/<id>: status, judge, runs with turn counts, and jobs; poll until status is not "running".
import { API_ROUTES } from "@/lib/server/api/contract";
import { getEvaluationStatus } from "@/lib/server/api/evaluations";
import { apiRoute } from "@/lib/server/api/handler";
import { apiError, apiJson } from "@/lib/server/api/http";
import { database } from "@/lib/server/db";

export const dynamic = "force-dynamic";

export const GET = apiRoute<typeof API_ROUTES.getEvaluation, { id: string }>(API_ROUTES.getEvaluation, async ({ user, params }) => {
  const status = await getEvaluationStatus(database(), user, params.id);
  return status ? apiJson(status) : apiError("not_found", "No evaluation with this id.");
});
