import "server-only";
// The one client for a self-hosted Dify (1.9+): console sign-in, import, publish, keys and inventory, service upload
// and run. Every call returns data naming the step, status and Dify's code; redirects never resend a credential.

export const DIFY_RUN_TIMEOUT_MS = 20 * 60 * 1000;
const CONSOLE_TIMEOUT_MS = 60_000;
const UPLOAD_TIMEOUT_MS = 120_000;

export type DifyStep = "version" | "sign-in" | "list" | "import" | "confirm" | "publish" | "api-key" | "delete" | "inventory" | "upload" | "run";

export interface DifyError {
  step: DifyStep;
  /** HTTP status; null when no response arrived (connection error, timeout). */
  status: number | null;
  kind: "http" | "timeout" | "connection" | "malformed" | "cancelled" | "redirect";
  /** Dify's error code (e.g. "unsupported_file_type", "app_unavailable") when the body had one. */
  code: string | null;
  message: string;
  /** The server's Retry-After in milliseconds (429 and 503 answers). */
  retryAfterMs: number | null;
}

export type DifyResult<T> = { ok: true; value: T } | { ok: false; error: DifyError };

export interface DifyDeps {
  fetch?: typeof fetch;
  /** Aborts every call in flight (a cancelled job, a lost lease): the error's kind is "cancelled". */
  signal?: AbortSignal;
}

export interface ImportedApp {
  appId: string;
  /** Dify's import status: "completed" or "completed-with-warnings" (also after a confirmation). */
  status: string;
  importId: string;
  /** The import was pending (202: another DSL version) and was confirmed. */
  confirmed: boolean;
}

export interface DifyAppSummary {
  id: string;
  name: string;
  description: string;
}

/** How /login expects the password: as typed (before 1.11.2) or base64-encoded (1.11.2 and later). */
export type PasswordStyle = "plain" | "base64";

/** The first Dify release whose /login base64-decodes the password (decrypt_password_field, PR #29659). */
export const FIRST_BASE64_PASSWORD_VERSION = "1.11.2";

/** What a Dify workspace has installed, as its console lists it. */
export interface DifyInventory {
  /** Installed plugins by id ("langgenius/tongyi"), with their version. */
  plugins: { pluginId: string; version: string | null }[];
  /** Models by type as the workspace offers them ("llm", "tts"), each with Dify's status ("active", "no-configure", …). */
  models: { modelType: string; provider: string; model: string; status: string }[];
  /** Tool providers ("langgenius/google/google", "audio"), whether the workspace authorised them, and their tools. */
  toolProviders: { id: string; pluginId: string | null; authorized: boolean; tools: string[] }[];
}

export interface DifyConsole {
  /** The Dify version the console reported, or null when it could not say. */
  version: string | null;
  /** How the password was sent at sign-in. */
  passwordStyle: PasswordStyle;
  /** Workflow apps whose name contains `name` (Dify filters case-insensitively), first 100. */
  listApps(name: string): Promise<DifyResult<DifyAppSummary[]>>;
  importDsl(yaml: string): Promise<DifyResult<ImportedApp>>;
  publish(appId: string): Promise<DifyResult<void>>;
  createApiKey(appId: string): Promise<DifyResult<string>>;
  deleteApp(appId: string): Promise<DifyResult<void>>;
  /** Installed plugins, the llm and tts models, and the tool providers, for the readiness check. */
  inventory(modelTypes: readonly string[]): Promise<DifyResult<DifyInventory>>;
}

export interface UploadedFile {
  id: string;
  extension: string | null;
}

export interface WorkflowRun {
  runId: string | null;
  /** "succeeded" | "failed" | "stopped" | "partial-succeeded"; reported, not judged (the official stage ignores it). */
  status: string | null;
  outputs: Record<string, unknown> | null;
  error: string | null;
  /** Seconds, as Dify reports it. */
  elapsedTime: number | null;
}

const ok = <T>(value: T): DifyResult<T> => ({ ok: true, value });
const fail = <T>(step: DifyStep, kind: DifyError["kind"], status: number | null, message: string, extra: Partial<Pick<DifyError, "code" | "retryAfterMs">> = {}): DifyResult<T> => ({
  ok: false,
  error: { step, kind, status, message, code: extra.code ?? null, retryAfterMs: extra.retryAfterMs ?? null },
});

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** 429 (rate limits, Dify's too_many_requests), 5xx (a proxy or worker down) and lost connections may pass later. */
export function isTransient(error: DifyError): boolean {
  if (error.kind === "connection") return true;
  return error.kind === "http" && error.status !== null && (error.status === 429 || error.status >= 500);
}

interface Reply {
  status: number;
  body: unknown;
  headers: Headers;
}

/** Retry-After as seconds or an HTTP date, in milliseconds. */
function retryAfterOf(headers: Headers): number | null {
  const value = headers.get("retry-after");
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

const MAX_REDIRECTS = 3;

/** The redirect target of a 3xx answer, resolved against the request URL; null when there is none. */
function redirectTarget(response: Response, url: string): URL | null {
  if (response.status < 300 || response.status > 399 || response.status === 304) return null;
  const location = response.headers.get("location");
  if (!location) return null;
  try {
    return new URL(location, url);
  } catch {
    return null;
  }
}

/**
 * One HTTP exchange with a timeout; the body is parsed as JSON when there is one. Redirects are handled here, never
 * by fetch: to another origin they are refused, within the origin they are followed only by calls without a body.
 */
async function exchange(step: DifyStep, deps: DifyDeps, url: string, init: RequestInit, timeoutMs: number): Promise<DifyResult<Reply>> {
  const doFetch = deps.fetch ?? fetch;
  const signals = [AbortSignal.timeout(timeoutMs), ...(deps.signal ? [deps.signal] : [])];
  const aborted = (at: string) => (deps.signal?.aborted ? fail<Reply>(step, "cancelled", null, `the call to ${at} was cancelled`) : fail<Reply>(step, "timeout", null, `no answer from ${at} within ${Math.round(timeoutMs / 1000)} s`));
  const signal = AbortSignal.any(signals);
  let current = url;
  let response: Response;
  for (let hops = 0; ; hops += 1) {
    try {
      response = await doFetch(current, { ...init, redirect: "manual", signal });
    } catch (error) {
      const name = error instanceof Error ? error.name : "";
      if (name === "TimeoutError" || name === "AbortError") return aborted(current);
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      return fail(step, "connection", null, `cannot reach ${current}: ${cause}`);
    }
    const target = redirectTarget(response, current);
    if (!target) break;
    await response.body?.cancel().catch(() => undefined);
    const from = new URL(current);
    if (target.origin !== from.origin) {
      return fail(step, "redirect", response.status, `${current} answered ${response.status} redirecting to another origin (${target.origin}); a call carrying Dify credentials is not followed there — set the connection's origin to the one Dify serves`);
    }
    if (init.body !== undefined && init.body !== null) {
      return fail(step, "redirect", response.status, `${current} answered ${response.status} redirecting to ${target.pathname}; a request with a body (a password, a DSL, a file or run inputs) is not sent again — check the connection's origin`);
    }
    if (hops + 1 >= MAX_REDIRECTS) return fail(step, "redirect", response.status, `${url} redirected more than ${MAX_REDIRECTS - 1} times`);
    current = target.toString();
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") return aborted(current);
    return fail(step, "connection", response.status, `the answer from ${current} was cut off`);
  }
  let body: unknown = null;
  if (text.trim() !== "") {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      if (response.ok) return fail(step, "malformed", response.status, `${current} answered ${response.status} with a body that is not JSON`);
      body = { message: text.slice(0, 300) };
    }
  }
  return ok({ status: response.status, body, headers: response.headers });
}

const field = (body: unknown, key: string): unknown => (body !== null && typeof body === "object" ? (body as Record<string, unknown>)[key] : undefined);
const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** Dify's error body is {code, message, status}; a failed import answers {id, status: "failed", error}. */
function httpError<T>(step: DifyStep, reply: Reply): DifyResult<T> {
  const code = text(field(reply.body, "code"));
  const message = text(field(reply.body, "message")) ?? text(field(reply.body, "error")) ?? "no message";
  return fail(step, "http", reply.status, `HTTP ${reply.status}${code ? ` ${code}` : ""}: ${message}`, { code, retryAfterMs: retryAfterOf(reply.headers) });
}

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

/** The console session: cookies + CSRF header (1.9.2+) or a bearer token (1.9.0/1.9.1). */
interface Session {
  headers: Record<string, string>;
  refresh(): Promise<boolean>;
}

function sessionFrom(base: string, deps: DifyDeps, reply: Reply): DifyResult<Session> {
  const result = field(reply.body, "result");
  if (result !== "success") {
    const data = field(reply.body, "data");
    return fail("sign-in", "http", reply.status, `Dify refused the sign-in: ${typeof data === "string" ? data : JSON.stringify(reply.body)}`);
  }
  const data = field(reply.body, "data");
  const bodyToken = text(field(data, "access_token"));
  if (bodyToken) {
    let refreshToken = text(field(data, "refresh_token"));
    const session: Session = {
      headers: { authorization: `Bearer ${bodyToken}` },
      async refresh() {
        if (!refreshToken) return false;
        const answer = await exchange("sign-in", deps, `${base}/refresh-token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ refresh_token: refreshToken }) }, CONSOLE_TIMEOUT_MS);
        const fresh = answer.ok && answer.value.status === 200 ? text(field(field(answer.value.body, "data"), "access_token")) : null;
        if (!answer.ok || !fresh) return false;
        session.headers = { authorization: `Bearer ${fresh}` };
        refreshToken = text(field(field(answer.value.body, "data"), "refresh_token")) ?? refreshToken;
        return true;
      },
    };
    return ok(session);
  }
  const cookies = cookiesOf(reply.headers);
  const pick = (name: string) => cookies.get(name) ?? cookies.get(`__Host-${name}`);
  if (!pick("access_token")) return fail("sign-in", "malformed", reply.status, "the sign-in answer had no access token (neither an access_token cookie nor data.access_token)");
  const headersOf = (jar: Map<string, string>): Record<string, string> => {
    const csrf = jar.get("csrf_token") ?? jar.get("__Host-csrf_token");
    return { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "), ...(csrf ? { "x-csrf-token": csrf } : {}) };
  };
  if (!pick("csrf_token")) return fail("sign-in", "malformed", reply.status, "the sign-in answer set no csrf_token cookie");
  const session: Session = {
    headers: headersOf(cookies),
    async refresh() {
      const answer = await exchange("sign-in", deps, `${base}/refresh-token`, { method: "POST", headers: { cookie: session.headers.cookie ?? "" } }, CONSOLE_TIMEOUT_MS);
      if (!answer.ok || answer.value.status !== 200) return false;
      for (const [name, value] of cookiesOf(answer.value.headers)) cookies.set(name, value);
      session.headers = headersOf(cookies);
      return true;
    },
  };
  return ok(session);
}

/** Numeric comparison of dotted versions ("1.11.2" > "1.9.10"); pre-release suffixes are ignored. */
function compareVersions(a: string, b: string): number {
  const parts = (version: string) => (/^\d+(\.\d+)*/.exec(version.trim())?.[0] ?? "0").split(".").map(Number);
  const left = parts(a);
  const right = parts(b);
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

export function passwordStyleFor(version: string): PasswordStyle {
  return compareVersions(version, FIRST_BASE64_PASSWORD_VERSION) >= 0 ? "base64" : "plain";
}

/** Sent as current_version: not a version, so Dify's update check never replaces its own version with a newer one. */
const VERSION_PROBE = "unknown";

/**
 * The Dify version, from GET /version (console/version.py, no sign-in needed): Dify answers its own version unless its
 * update check failed, in which case it echoes what was sent, so that answer means "unknown" (null).
 */
export async function detectDifyVersion(consoleBase: string, deps: DifyDeps = {}): Promise<DifyResult<string | null>> {
  const reply = await exchange("version", deps, `${trimSlash(consoleBase)}/version?current_version=${VERSION_PROBE}`, { method: "GET" }, CONSOLE_TIMEOUT_MS);
  if (!reply.ok) return reply;
  if (reply.value.status !== 200) return ok(null);
  const version = text(field(reply.value.body, "version"));
  return ok(version && version !== VERSION_PROBE && /^\d+\.\d+/.test(version) ? version : null);
}

/**
 * How /login wants the password when the version is unknown (Dify's update check offline): a login carrying no
 * credential — no email, a password that is not valid base64 — is refused by decrypt_password_field with 401 on
 * 1.11.2 and later, and by the payload validation with 400 before; neither touches an account.
 */
async function probePasswordStyle(base: string, deps: DifyDeps): Promise<PasswordStyle | null> {
  const reply = await exchange("sign-in", deps, `${base}/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "", password: "/w==", remember_me: false }) }, CONSOLE_TIMEOUT_MS);
  if (!reply.ok) return null;
  if (reply.value.status === 401) return "base64";
  if (reply.value.status === 400 || reply.value.status === 422) return "plain";
  return null;
}

const encodePassword = (password: string, style: PasswordStyle) => (style === "base64" ? Buffer.from(password, "utf8").toString("base64") : password);

/**
 * Signs in to the console API (`…/console/api`), sending the password the way the server's version expects (as typed
 * before 1.11.2, as the official pass stage does; base64-encoded from 1.11.2 on).
 */
export async function signIn(consoleBase: string, email: string, password: string, deps: DifyDeps = {}): Promise<DifyResult<DifyConsole>> {
  const base = trimSlash(consoleBase);
  const detected = await detectDifyVersion(base, deps);
  // No answer at all (or a refused redirect) ends here; an answer that is not the expected JSON leaves the version unknown.
  if (!detected.ok && detected.error.kind !== "malformed") return { ok: false, error: { ...detected.error, step: "sign-in" } };
  const version = detected.ok ? detected.value : null;
  const passwordStyle = version ? passwordStyleFor(version) : ((await probePasswordStyle(base, deps)) ?? "plain");
  const described = `${version ? `Dify ${version}` : "Dify of unknown version"}, password sent ${passwordStyle === "base64" ? "base64-encoded" : "as typed"}`;
  const reply = await exchange("sign-in", deps, `${base}/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: encodePassword(password, passwordStyle), remember_me: true }) }, CONSOLE_TIMEOUT_MS);
  if (!reply.ok) return reply;
  if (reply.value.status !== 200) {
    const refused = httpError<DifyConsole>("sign-in", reply.value);
    return refused.ok ? refused : { ok: false, error: { ...refused.error, message: `${refused.error.message} (${described})` } };
  }
  const established = sessionFrom(base, deps, reply.value);
  if (!established.ok) return established;
  const session = established.value;

  const call = async (step: DifyStep, method: string, path: string, body?: unknown): Promise<DifyResult<Reply>> => {
    const send = () =>
      exchange(step, deps, `${base}${path}`, { method, headers: { ...session.headers, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, CONSOLE_TIMEOUT_MS);
    const first = await send();
    // Access tokens expire (ACCESS_TOKEN_EXPIRE_MINUTES, 60 by default): refresh once, then repeat the call.
    if (first.ok && first.value.status === 401 && (await session.refresh())) return send();
    return first;
  };

  const getList = async (path: string): Promise<DifyResult<unknown>> => {
    const listed = await call("inventory", "GET", path);
    if (!listed.ok) return listed;
    return listed.value.status === 200 ? ok(listed.value.body) : httpError("inventory", listed.value);
  };

  return ok({
    version,
    passwordStyle,
    async listApps(name) {
      const listed = await call("list", "GET", `/apps?${new URLSearchParams({ page: "1", limit: "100", mode: "workflow", name }).toString()}`);
      if (!listed.ok) return listed;
      if (listed.value.status !== 200) return httpError("list", listed.value);
      const data = field(listed.value.body, "data");
      if (!Array.isArray(data)) return fail("list", "malformed", 200, "the app list has no data array");
      return ok(
        data.flatMap((app: unknown) => {
          const id = text(field(app, "id"));
          return id ? [{ id, name: String(field(app, "name") ?? ""), description: String(field(app, "description") ?? "") }] : [];
        }),
      );
    },
    async importDsl(yaml) {
      const imported = await call("import", "POST", "/apps/imports", { mode: "yaml-content", yaml_content: yaml });
      if (!imported.ok) return imported;
      const { status, body } = imported.value;
      const importId = String(field(body, "id") ?? "");
      if (status === 200) {
        const appId = text(field(body, "app_id"));
        return appId ? ok({ appId, status: String(field(body, "status") ?? "completed"), importId, confirmed: false }) : fail("import", "malformed", 200, "the import answer has no app_id");
      }
      if (status !== 202) return httpError("import", imported.value);
      // Pending (the DSL's version is newer than the server's, or of an older major version): confirm, as the console does.
      const confirmed = await call("confirm", "POST", `/apps/imports/${encodeURIComponent(importId)}/confirm`, {});
      if (!confirmed.ok) return confirmed;
      if (confirmed.value.status !== 200) return httpError("confirm", confirmed.value);
      const appId = text(field(confirmed.value.body, "app_id"));
      return appId ? ok({ appId, status: String(field(confirmed.value.body, "status") ?? "completed"), importId, confirmed: true }) : fail("confirm", "malformed", 200, "the confirm answer has no app_id");
    },
    async publish(appId) {
      const published = await call("publish", "POST", `/apps/${encodeURIComponent(appId)}/workflows/publish`, {});
      if (!published.ok) return published;
      return published.value.status === 200 ? ok(undefined) : httpError("publish", published.value);
    },
    async createApiKey(appId) {
      const created = await call("api-key", "POST", `/apps/${encodeURIComponent(appId)}/api-keys`, {});
      if (!created.ok) return created;
      if (created.value.status !== 200 && created.value.status !== 201) return httpError("api-key", created.value);
      const token = text(field(created.value.body, "token"));
      return token ? ok(token) : fail("api-key", "malformed", created.value.status, "the API-key answer has no token");
    },
    async deleteApp(appId) {
      const deleted = await call("delete", "DELETE", `/apps/${encodeURIComponent(appId)}`);
      if (!deleted.ok) return deleted;
      return deleted.value.status === 204 || deleted.value.status === 200 ? ok(undefined) : httpError("delete", deleted.value);
    },
    async inventory(modelTypes) {
      // controllers/console/workspace/plugin.py: GET /workspaces/current/plugin/list -> {plugins: [{plugin_id, version}], total}
      const plugins = await getList("/workspaces/current/plugin/list?page=1&page_size=256");
      if (!plugins.ok) return plugins;
      const pluginRows = field(plugins.value, "plugins");
      if (!Array.isArray(pluginRows)) return fail("inventory", "malformed", 200, "the plugin list has no plugins array");
      const models: DifyInventory["models"] = [];
      for (const modelType of modelTypes) {
        // controllers/console/workspace/models.py: GET /workspaces/current/models/model-types/<type> -> {data: [{provider, models: [{model, status}]}]}
        const listed = await getList(`/workspaces/current/models/model-types/${encodeURIComponent(modelType)}`);
        if (!listed.ok) return listed;
        const providers = field(listed.value, "data");
        if (!Array.isArray(providers)) return fail("inventory", "malformed", 200, `the ${modelType} model list has no data array`);
        for (const provider of providers) {
          const providerId = text(field(provider, "provider"));
          const entries = field(provider, "models");
          if (!providerId || !Array.isArray(entries)) continue;
          for (const entry of entries) {
            const model = text(field(entry, "model"));
            if (model) models.push({ modelType, provider: providerId, model, status: text(field(entry, "status")) ?? "active" });
          }
        }
      }
      // controllers/console/workspace/tool_providers.py: GET /workspaces/current/tool-providers -> [{id, plugin_id, is_team_authorization, tools}]
      const tools = await getList("/workspaces/current/tool-providers?type=builtin");
      if (!tools.ok) return tools;
      if (!Array.isArray(tools.value)) return fail("inventory", "malformed", 200, "the tool-provider list is not an array");
      return ok({
        plugins: pluginRows.flatMap((plugin: unknown) => {
          const pluginId = text(field(plugin, "plugin_id"));
          return pluginId ? [{ pluginId, version: text(field(plugin, "version")) }] : [];
        }),
        models,
        toolProviders: tools.value.flatMap((provider: unknown) => {
          const id = text(field(provider, "id")) ?? text(field(provider, "name"));
          if (!id) return [];
          const listedTools = field(provider, "tools");
          return [
            {
              id,
              pluginId: text(field(provider, "plugin_id")),
              authorized: field(provider, "is_team_authorization") === true,
              tools: Array.isArray(listedTools) ? listedTools.flatMap((tool: unknown) => text(field(tool, "name")) ?? []) : [],
            },
          ];
        }),
      });
    },
  });
}

/** Uploads one file to the service API (`…/v1`) as multipart form data (fields `file` and `user`); Dify answers 201. */
export async function uploadFile(
  serviceBase: string,
  apiKey: string,
  file: { fileName: string; mimeType: string; bytes: Uint8Array<ArrayBuffer>; user: string },
  deps: DifyDeps = {},
): Promise<DifyResult<UploadedFile>> {
  const form = new FormData();
  form.append("file", new Blob([file.bytes], { type: file.mimeType }), file.fileName);
  form.append("user", file.user);
  const reply = await exchange("upload", deps, `${trimSlash(serviceBase)}/files/upload`, { method: "POST", headers: { authorization: `Bearer ${apiKey}` }, body: form }, UPLOAD_TIMEOUT_MS);
  if (!reply.ok) return reply;
  if (reply.value.status !== 201 && reply.value.status !== 200) return httpError("upload", reply.value);
  const id = text(field(reply.value.body, "id"));
  if (!id) return fail("upload", "malformed", reply.value.status, "the upload answer has no file id");
  return ok({ id, extension: text(field(reply.value.body, "extension")) });
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
    deps,
    `${trimSlash(serviceBase)}/workflows/run`,
    { method: "POST", headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ inputs: run.inputs, response_mode: "blocking", user: run.user }) },
    run.timeoutMs ?? DIFY_RUN_TIMEOUT_MS,
  );
  if (!reply.ok) return reply;
  if (reply.value.status !== 200) return httpError("run", reply.value);
  const data = field(reply.value.body, "data");
  if (data === null || typeof data !== "object" || Array.isArray(data)) return fail("run", "malformed", 200, "the run answer has no data object");
  const outputs = field(data, "outputs");
  if (outputs !== null && outputs !== undefined && (typeof outputs !== "object" || Array.isArray(outputs))) return fail("run", "malformed", 200, "the run answer's data.outputs is not an object");
  const elapsed = field(data, "elapsed_time");
  return ok({
    runId: text(field(reply.value.body, "workflow_run_id")) ?? text(field(data, "id")),
    status: text(field(data, "status")),
    outputs: (outputs as Record<string, unknown> | null | undefined) ?? null,
    error: text(field(data, "error")),
    elapsedTime: typeof elapsed === "number" ? elapsed : null,
  });
}
