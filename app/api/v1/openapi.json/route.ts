// GET /api/v1/openapi.json: the API's OpenAPI 3.1 document, generated from the schemas the handlers validate with.
import { API_ROUTES } from "@/lib/server/api/contract";
import { apiRoute } from "@/lib/server/api/handler";
import { apiJson } from "@/lib/server/api/http";
import { openApiDocument } from "@/lib/server/api/openapi";

export const dynamic = "force-dynamic";

export const GET = apiRoute(API_ROUTES.openapi, async () => apiJson(openApiDocument()));
