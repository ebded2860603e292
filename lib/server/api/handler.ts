import "server-only";
// Wraps an /api/v1 route handler: bearer token, the token's rate limit, the role check against the same access table
// as the server actions (lib/auth/endpoint-access.ts), then the body read with a byte cap and validated with the
// route's zod schema. Failures answer in the one error shape; unexpected ones are logged under an id.
import type { NextResponse } from "next/server";
import type { z } from "zod";
import { ENDPOINT_ACCESS } from "@/lib/auth/endpoint-access";
import { RequestBuckets } from "@/lib/api/rate-limit";
import { AuthorizationError, isAllowed } from "../authz";
import { database } from "../db";
import { serverEnv } from "../env";
import { reportUnexpected } from "../errors";
import type { SessionUser } from "../session";
import { tokenKey, userOfToken } from "../tokens";
import { API_SCHEMAS, type ApiRouteSpec } from "./contract";
import { apiError, readJsonBody } from "./http";

const shared = globalThis as unknown as { c2wApiBuckets?: RequestBuckets };

function buckets(): RequestBuckets {
  shared.c2wApiBuckets ??= new RequestBuckets(serverEnv().API_RATE_LIMIT_PER_MINUTE);
  return shared.c2wApiBuckets;
}

/** "Bearer <token>" (the scheme in any case); null when the header is missing or not a bearer token. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1] ?? null;
}

export interface ApiContext<Body, Params> {
  request: Request;
  /** The token's user with their current role; null only on the public route. */
  user: SessionUser | null;
  params: Params;
  body: Body;
}

type BodyOf<Spec extends ApiRouteSpec> = Spec["request"] extends keyof typeof API_SCHEMAS ? z.output<(typeof API_SCHEMAS)[Spec["request"]]> : undefined;

/** The first zod issue as "<field>: <message>", the sentence a 422 answers with. */
export function fieldMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "The body is invalid.";
  const field = issue.path.join(".");
  if (issue.code === "unrecognized_keys") return `${issue.keys.map((key) => (field ? `${field}.${key}` : key)).join(", ")}: not a field of this request.`;
  return `${field || "body"}: ${issue.message}`;
}

export function apiRoute<Spec extends ApiRouteSpec, Params = Record<string, never>>(
  spec: Spec,
  handle: (context: ApiContext<BodyOf<Spec>, Params>) => Promise<NextResponse>,
): (request: Request, context: { params: Promise<Params> }) => Promise<NextResponse> {
  const access = ENDPOINT_ACCESS[spec.key];
  // A route missing from the access table would have no rule: refuse to build it at all.
  if (!access) throw new Error(`${spec.key} has no entry in lib/auth/endpoint-access.ts`);
  return async (request, context) => {
    try {
      let user: SessionUser | null = null;
      if (access !== "public") {
        const token = bearerToken(request);
        if (!token) return apiError("unauthenticated", "Send an access token as Authorization: Bearer <token> (create one on /settings/tokens).");
        const taken = buckets().take(tokenKey(token), Date.now());
        if (!taken.ok) {
          return apiError("rate_limited", `Too many requests with this token; retry after ${taken.retryAfterSeconds} s.`, { "Retry-After": String(taken.retryAfterSeconds) });
        }
        user = await userOfToken(database(), token);
        if (!user) return apiError("unauthenticated", "The access token is unknown, revoked or expired.");
        if (!isAllowed(user, access)) return apiError("forbidden", `Your role (${user.role}) does not allow this (${access}).`);
      }
      let body: unknown = undefined;
      if (spec.request) {
        const read = await readJsonBody(request, serverEnv().API_MAX_BODY_KB * 1024);
        if (!read.ok) return read.response;
        if (typeof read.value !== "object" || read.value === null || Array.isArray(read.value)) return apiError("malformed", "The body must be a JSON object.");
        const parsed = API_SCHEMAS[spec.request].safeParse(read.value);
        if (!parsed.success) return apiError("invalid_field", fieldMessage(parsed.error));
        body = parsed.data;
      }
      const params = context?.params ? await context.params : ({} as Params);
      return await handle({ request, user, params, body: body as BodyOf<Spec> });
    } catch (error) {
      if (error instanceof AuthorizationError) return apiError("forbidden", error.message);
      return apiError("internal", reportUnexpected(error, `API ${spec.method} ${spec.path}`).message);
    }
  };
}
