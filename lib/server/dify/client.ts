import "server-only";
// A small explicit client for a self-hosted Dify 1.9: the console API (sign-in with the CSRF cookie, DSL import with
// the pending-confirm path, publish, API key, app deletion) and the service API (file upload, blocking workflow run
// with a timeout). Every call returns data — never throws — naming the step, HTTP status and Dify's message.
//
// Public API:
//   signIn(consoleBase, email, password, deps?) -> DifyResult<DifyConsole>
//   DifyConsole { importDsl(yaml) -> {appId, status}, publish(appId), createApiKey(appId) -> token, deleteApp(appId) }
//   uploadFile(serviceBase, apiKey, { fileName, mimeType, bytes, user }) -> { id, extension }
//   runWorkflow(serviceBase, apiKey, { inputs, user, timeoutMs? }) -> { status, outputs, error, elapsedTime }
//   DIFY_RUN_TIMEOUT_MS: 20 minutes, Dify's default WORKFLOW_MAX_EXECUTION_TIME

export const DIFY_RUN_TIMEOUT_MS = 20 * 60 * 1000;
const CONSOLE_TIMEOUT_MS = 60_000;

export type DifyStep = "sign-in" | "import" | "confirm" | "publish" | "api-key" | "delete" | "upload" | "run";

export interface DifyError {
  step: DifyStep;
  /** HTTP status; null when no response arrived (connection error, timeout). */
  status: number | null;
  kind: "http" | "timeout" | "connection" | "malformed";
  message: string;
}

export type DifyResult<T> = { ok: true; value: T } | { ok: false; error: DifyError };

export interface DifyDeps {
  fetch?: typeof fetch;
}

export interface ImportedApp {
  appId: string;
  /** "completed", "completed-with-warnings", or "confirmed" after the pending-confirm path. */
  status: string;
  importId: string;
}

export interface DifyConsole {
  importDsl(yaml: string): Promise<DifyResult<ImportedApp>>;
  publish(appId: string): Promise<DifyResult<void>>;
  createApiKey(appId: string): Promise<DifyResult<string>>;
  deleteApp(appId: string): Promise<DifyResult<void>>;
}

export interface UploadedFile {
  id: string;
  extension: string | null;
}

export interface WorkflowRun {
  runId: string | null;
  status: string | null;
  outputs: Record<string, unknown> | null;
  error: string | null;
  elapsedTime: number | null;
}

const ok = <T>(value: T): DifyResult<T> => ({ ok: true, value });
const fail = <T>(step: DifyStep, kind: DifyError["kind"], status: number | null, message: string): DifyResult<T> => ({ ok: false, error: { step, kind, status, message } });

const trimSlash = (url: string) => url.replace(/\/+$/, "");

interface Reply {
  status: number;
  body: unknown;
  headers: Headers;
}

/** One HTTP exchange with a timeout; the body is parsed as JSON when there is one. */
async function exchange(step: DifyStep, doFetch: typeof fetch, url: string, init: RequestInit, timeoutMs: number): Promise<DifyResult<Reply>> {
  let response: Response;
  try {
    response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") return fail(step, "timeout", null, `no answer from ${url} within ${Math.round(timeoutMs / 1000)} s`);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return fail(step, "connection", null, `cannot reach ${url}: ${cause}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    return fail(step, name === "TimeoutError" || name === "AbortError" ? "timeout" : "connection", response.status, `the answer from ${url} was cut off`);
  }
  let body: unknown = null;
  if (text.trim() !== "") {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      if (response.ok) return fail(step, "malformed", response.status, `${url} answered ${response.status} with a body that is not JSON`);
      body = { message: text.slice(0, 300) };
    }
  }
  return ok({ status: response.status, body, headers: response.headers });
}

const field = (body: unknown, key: string): unknown => (body !== null && typeof body === "object" ? (body as Record<string, unknown>)[key] : undefined);
const messageOf = (body: unknown): string => {
  const message = field(body, "message") ?? field(body, "error");
  return typeof message === "string" && message !== "" ? message : "no message";
};
const httpError = <T>(step: DifyStep, reply: Reply): DifyResult<T> => fail(step, "http", reply.status, `HTTP ${reply.status}${field(reply.body, "code") ? ` ${String(field(reply.body, "code"))}` : ""}: ${messageOf(reply.body)}`);

/** name=value pairs of the Set-Cookie headers (attributes dropped). */
function cookiesOf(headers: Headers): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const line of headers.getSetCookie()) {
    const pair = line.split(";")[0] ?? "";
    const at = pair.indexOf("=");
    if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return cookies;
}

/**
 * Signs in to the console API (`…/console/api`). Dify 1.9 answers with the access, refresh and CSRF tokens as
 * cookies; later console calls send the cookies back and the CSRF token in X-CSRF-Token.
 */
export async function signIn(consoleBase: string, email: string, password: string, deps: DifyDeps = {}): Promise<DifyResult<DifyConsole>> {
  const doFetch = deps.fetch ?? fetch;
  const base = trimSlash(consoleBase);
  const reply = await exchange("sign-in", doFetch, `${base}/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password, remember_me: true }) }, CONSOLE_TIMEOUT_MS);
  if (!reply.ok) return reply;
  if (reply.value.status !== 200) return httpError("sign-in", reply.value);
  const cookies = cookiesOf(reply.value.headers);
  // Over HTTPS Dify prefixes its cookie names with __Host-.
  const csrf = cookies.get("csrf_token") ?? cookies.get("__Host-csrf_token");
  if (!cookies.has("access_token") && !cookies.has("__Host-access_token")) return fail("sign-in", "malformed", 200, "the sign-in answer set no access_token cookie (is this Dify 1.9 or later?)");
  if (!csrf) return fail("sign-in", "malformed", 200, "the sign-in answer set no csrf_token cookie");
  const cookieHeader = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const headers = { "content-type": "application/json", cookie: cookieHeader, "x-csrf-token": csrf };
  const call = (step: DifyStep, method: string, path: string, body?: unknown) =>
    exchange(step, doFetch, `${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, CONSOLE_TIMEOUT_MS);

  return ok({
    async importDsl(yaml) {
      const imported = await call("import", "POST", "/apps/imports", { mode: "yaml-content", yaml_content: yaml });
      if (!imported.ok) return imported;
      const { status, body } = imported.value;
      const importId = String(field(body, "id") ?? "");
      if (status === 200) {
        const appId = field(body, "app_id");
        return typeof appId === "string" && appId !== "" ? ok({ appId, status: String(field(body, "status") ?? "completed"), importId }) : fail("import", "malformed", 200, "the import answer has no app_id");
      }
      if (status !== 202) return httpError("import", imported.value);
      // Pending (e.g. the DSL version differs from the server's): confirm it, as the console does.
      const confirmed = await call("confirm", "POST", `/apps/imports/${encodeURIComponent(importId)}/confirm`, {});
      if (!confirmed.ok) return confirmed;
      if (confirmed.value.status !== 200) return httpError("confirm", confirmed.value);
      const appId = field(confirmed.value.body, "app_id");
      return typeof appId === "string" && appId !== "" ? ok({ appId, status: "confirmed", importId }) : fail("confirm", "malformed", 200, "the confirm answer has no app_id");
    },
    async publish(appId) {
      const published = await call("publish", "POST", `/apps/${encodeURIComponent(appId)}/workflows/publish`, {});
      if (!published.ok) return published;
      return published.value.status === 200 || published.value.status === 201 ? ok(undefined) : httpError("publish", published.value);
    },
    async createApiKey(appId) {
      const created = await call("api-key", "POST", `/apps/${encodeURIComponent(appId)}/api-keys`, {});
      if (!created.ok) return created;
      if (created.value.status !== 200 && created.value.status !== 201) return httpError("api-key", created.value);
      const token = field(created.value.body, "token");
      return typeof token === "string" && token !== "" ? ok(token) : fail("api-key", "malformed", created.value.status, "the API-key answer has no token");
    },
    async deleteApp(appId) {
      const deleted = await call("delete", "DELETE", `/apps/${encodeURIComponent(appId)}`);
      if (!deleted.ok) return deleted;
      return deleted.value.status === 204 || deleted.value.status === 200 ? ok(undefined) : httpError("delete", deleted.value);
    },
  });
}

/** Uploads one file to the service API (`…/v1`) as multipart form data (fields `file` and `user`). */
export async function uploadFile(
  serviceBase: string,
  apiKey: string,
  file: { fileName: string; mimeType: string; bytes: Uint8Array<ArrayBuffer>; user: string },
  deps: DifyDeps = {},
): Promise<DifyResult<UploadedFile>> {
  const form = new FormData();
  form.append("file", new Blob([file.bytes], { type: file.mimeType }), file.fileName);
  form.append("user", file.user);
  const reply = await exchange("upload", deps.fetch ?? fetch, `${trimSlash(serviceBase)}/files/upload`, { method: "POST", headers: { authorization: `Bearer ${apiKey}` }, body: form }, CONSOLE_TIMEOUT_MS);
  if (!reply.ok) return reply;
  if (reply.value.status !== 200 && reply.value.status !== 201) return httpError("upload", reply.value);
  const id = field(reply.value.body, "id");
  if (typeof id !== "string" || id === "") return fail("upload", "malformed", reply.value.status, "the upload answer has no file id");
  const extension = field(reply.value.body, "extension");
  return ok({ id, extension: typeof extension === "string" ? extension : null });
}

/** Runs the app's published workflow in blocking mode; the run's own status is reported, not judged. */
export async function runWorkflow(
  serviceBase: string,
  apiKey: string,
  run: { inputs: Record<string, unknown>; user: string; timeoutMs?: number },
  deps: DifyDeps = {},
): Promise<DifyResult<WorkflowRun>> {
  const reply = await exchange(
    "run",
    deps.fetch ?? fetch,
    `${trimSlash(serviceBase)}/workflows/run`,
    { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ inputs: run.inputs, response_mode: "blocking", user: run.user }) },
    run.timeoutMs ?? DIFY_RUN_TIMEOUT_MS,
  );
  if (!reply.ok) return reply;
  if (reply.value.status !== 200) return httpError("run", reply.value);
  const data = field(reply.value.body, "data");
  if (data === null || typeof data !== "object") return fail("run", "malformed", 200, "the run answer has no data object");
  const outputs = field(data, "outputs");
  const runId = field(reply.value.body, "workflow_run_id") ?? field(data, "id");
  const status = field(data, "status");
  const error = field(data, "error");
  const elapsed = field(data, "elapsed_time");
  return ok({
    runId: typeof runId === "string" ? runId : null,
    status: typeof status === "string" ? status : null,
    outputs: outputs !== null && typeof outputs === "object" && !Array.isArray(outputs) ? (outputs as Record<string, unknown>) : null,
    error: typeof error === "string" && error !== "" ? error : null,
    elapsedTime: typeof elapsed === "number" ? elapsed : null,
  });
}
