// The HTTP API's error catalogue: every error answer is {"error": {"code", "message"}} with one of these codes and
// its status. One table for the handlers, the OpenAPI document and the clients' documentation.

export const API_ERRORS = {
  malformed: { status: 400, description: "The request is malformed: its body is not a JSON object, or a query parameter is unusable." },
  unauthenticated: { status: 401, description: "No bearer token, or an unknown, revoked or expired one." },
  forbidden: { status: 403, description: "The token's user has a role that may not do this." },
  not_found: { status: 404, description: "Nothing with that id." },
  conflict: { status: 409, description: "The request conflicts with the current state: a label in use, an evaluation already finished." },
  too_large: { status: 413, description: "The body is larger than the API accepts (API_MAX_BODY_KB)." },
  invalid_field: { status: 422, description: "A field is invalid or names something that does not exist; the message names the field." },
  rate_limited: { status: 429, description: "The token made too many requests; retry after the seconds in Retry-After." },
  internal: { status: 500, description: "The server failed; the message carries an error id for its log." },
} as const satisfies Record<string, { status: number; description: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;
export const API_ERROR_CODES = Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]];

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string };
}
