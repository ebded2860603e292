// POST /api/v1/evaluations: starts an evaluation through the same service as the New evaluation page.
import { API_ROUTES } from "@/lib/server/api/contract";
import { startEvaluationFromApi } from "@/lib/server/api/evaluations";
import { apiRoute } from "@/lib/server/api/handler";
import { apiError, apiJson } from "@/lib/server/api/http";
import { database } from "@/lib/server/db";
import { ensureInProcessWorker } from "@/lib/server/jobs/runtime";

export const dynamic = "force-dynamic";

export const POST = apiRoute(API_ROUTES.startEvaluation, async ({ user, body }) => {
  // instrumentation.ts starts the worker at boot; this covers servers started without it (idempotent), as the page's action does.
  ensureInProcessWorker();
  const started = await startEvaluationFromApi(database(), user!, body);
  return started.ok ? apiJson(started.value, 201) : apiError(started.code, started.message);
});
