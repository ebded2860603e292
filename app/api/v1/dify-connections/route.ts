// POST /api/v1/dify-connections: admins add a Dify connection (the password is stored encrypted, never answered).
import { API_ROUTES } from "@/lib/server/api/contract";
import { apiRoute } from "@/lib/server/api/handler";
import { apiError, apiJson } from "@/lib/server/api/http";
import { createDifyConnectionFromApi } from "@/lib/server/api/settings";
import { database } from "@/lib/server/db";

export const dynamic = "force-dynamic";

export const POST = apiRoute(API_ROUTES.createDifyConnection, async ({ user, body }) => {
  const created = await createDifyConnectionFromApi(database(), user!, body);
  return created.ok ? apiJson(created.value, 201) : apiError(created.code, created.message);
});
