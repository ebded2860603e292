// GET /api/v1/model-endpoints (never a key) and POST /api/v1/model-endpoints (admins add one).
import { API_ROUTES } from "@/lib/server/api/contract";
import { apiRoute } from "@/lib/server/api/handler";
import { apiError, apiJson } from "@/lib/server/api/http";
import { createEndpointFromApi } from "@/lib/server/api/settings";
import { database } from "@/lib/server/db";
import { listEndpoints } from "@/lib/server/endpoints/endpoints";

export const dynamic = "force-dynamic";

export const GET = apiRoute(API_ROUTES.listEndpoints, async ({ user }) => {
  const endpoints = await listEndpoints(database(), user);
  return apiJson({ endpoints: endpoints.map((endpoint) => ({ id: endpoint.id, label: endpoint.label, baseUrl: endpoint.baseUrl, model: endpoint.model, hasKey: endpoint.hasApiKey })) });
});

export const POST = apiRoute(API_ROUTES.createEndpoint, async ({ user, body }) => {
  const created = await createEndpointFromApi(database(), user!, body);
  return created.ok ? apiJson(created.value, 201) : apiError(created.code, created.message);
});
