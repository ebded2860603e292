import "server-only";
// The OpenAPI 3.1 document of /api/v1, generated from the route table and the zod schemas the handlers validate with
// (z.toJSONSchema gives JSON Schema 2020-12, OpenAPI 3.1's own dialect). Built once per process.
import { z } from "zod";
import { ENDPOINT_ACCESS } from "@/lib/auth/endpoint-access";
import { API_ERRORS } from "@/lib/api/errors";
import { APP_VERSION } from "../app-version";
import { API_ROUTES, API_SCHEMAS, type ApiRouteSpec, type ApiSchemaName } from "./contract";

const REQUEST_SCHEMAS = new Set<ApiSchemaName>(Object.values(API_ROUTES as Record<string, ApiRouteSpec>).flatMap((route) => (route.request ? [route.request] : [])));
const ref = (name: ApiSchemaName) => ({ $ref: `#/components/schemas/${name}` });

function componentSchemas(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(API_SCHEMAS) as [ApiSchemaName, z.ZodType][]) {
    const json = z.toJSONSchema(schema, { io: REQUEST_SCHEMAS.has(name) ? "input" : "output", unrepresentable: "any" }) as Record<string, unknown>;
    delete json.$schema;
    schemas[name] = json;
  }
  return schemas;
}

function operation(name: string, route: ApiRouteSpec): Record<string, unknown> {
  const isPublic = ENDPOINT_ACCESS[route.key] === "public";
  const pathParameters = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({ name: match[1], in: "path", required: true, schema: { type: "string" } }));
  const queryParameters = (route.query ?? []).map((query) => ({ name: query.name, in: "query", required: query.required, description: query.description, schema: { type: "string" } }));
  const success = route.success;
  const successContent =
    success.contentType === "application/zip"
      ? { "application/zip": { schema: { type: "string", contentMediaType: "application/zip" } } }
      : { "application/json": { schema: success.schema ? ref(success.schema) : { type: "object", description: "An OpenAPI 3.1 document." } } };
  const responses: Record<string, unknown> = { [String(success.status)]: { description: success.description, content: successContent } };
  for (const code of route.errors) {
    const { status, description } = API_ERRORS[code];
    responses[String(status)] = {
      description: `${code}: ${description}`,
      content: { "application/json": { schema: ref("Error") } },
      ...(code === "rate_limited" ? { headers: { "Retry-After": { description: "Seconds to wait before the next request.", schema: { type: "integer" } } } } : {}),
    };
  }
  if (!isPublic) responses["500"] = { description: `internal: ${API_ERRORS.internal.description}`, content: { "application/json": { schema: ref("Error") } } };
  return {
    operationId: name,
    summary: route.summary,
    description: `Who may call it: ${route.who}.`,
    security: isPublic ? [] : [{ bearerAuth: [] }],
    ...(pathParameters.length + queryParameters.length > 0 ? { parameters: [...pathParameters, ...queryParameters] } : {}),
    ...(route.request ? { requestBody: { required: true, content: { "application/json": { schema: ref(route.request) } } } } : {}),
    responses,
  };
}

function buildDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, route] of Object.entries(API_ROUTES as Record<string, ApiRouteSpec>)) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(name, route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Chat2Workflow Studio API",
      version: `1 (app ${APP_VERSION})`,
      description:
        "Start evaluations, follow them, and fetch their records, leaderboard rows and run bundles. Every request except this document carries Authorization: Bearer <token> (a personal access token from /settings/tokens or `npm run user -- token create`). Errors are {\"error\": {\"code\", \"message\"}}.",
    },
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "A personal access token (c2w_…)." } },
    },
  };
}

let cached: Record<string, unknown> | undefined;

export function openApiDocument(): Record<string, unknown> {
  cached ??= buildDocument();
  return cached;
}
