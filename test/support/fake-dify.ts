// A fake Dify (1.9 by default, or a later version) on 127.0.0.1 (node:http) for tests. It runs no workflow: a run
// answers with what the test's `run` function returns. Faults (status, body, headers such as Retry-After or a Location
// to redirect to, delays, non-JSON bodies) are served once each.
//
// What it follows, from Dify's source (langgenius/dify, api/):
// - controllers/console/version.py: GET /console/api/version?current_version=X (no sign-in) answers {version, ...}:
//   the server's own version, or X echoed back when its update check fails (an offline Dify).
// - controllers/console/wraps.py decrypt_password_field, libs/encryption.py (1.11.2 and later): /login base64-decodes
//   the password before anything else; a value that does not decode to UTF-8 is 401 "Invalid encrypted data".
// - controllers/console/workspace/plugin.py, models.py, tool_providers.py: GET /workspaces/current/plugin/list ->
//   {plugins: [{plugin_id, version, ...}], total}; GET /workspaces/current/models/model-types/<type> -> {data:
//   [{provider, models: [{model, status}]}]}; GET /workspaces/current/tool-providers -> [{id, plugin_id,
//   is_team_authorization, tools: [{name}]}].
// - controllers/console/auth/login.py, libs/token.py: POST /console/api/login {email, password, remember_me} answers
//   {"result":"success"}; 1.9.2+ set access_token (HttpOnly), refresh_token (HttpOnly) and csrf_token cookies, and
//   console calls need the CSRF token in X-CSRF-Token equal to its cookie (else 401 "CSRF token is missing or
//   invalid."); 1.9.0/1.9.1 put {access_token, refresh_token} in "data" for Authorization: Bearer (auth "body-tokens").
//   Wrong credentials: 401 authentication_failed. POST /console/api/refresh-token renews the tokens (401 without one).
// - controllers/console/app/app_import.py, services/app_dsl_service.py: POST /apps/imports {mode: "yaml-content",
//   yaml_content} answers the Import {id, status, app_id, app_mode, current_dsl_version, imported_dsl_version,
//   error}: 200 completed / completed-with-warnings (older minor version), 202 pending (newer version or older major),
//   400 failed (not a mapping, no `app`, no app mode, a non-string version). POST /apps/imports/<id>/confirm: 200
//   completed, 400 failed ("Import information expired or does not exist").
// - controllers/console/app/workflow.py: POST /apps/<id>/workflows/publish -> 200 {"result":"success","created_at"}.
// - controllers/console/app/app.py, fields/app_fields.py: GET /apps?page&limit&mode&name (name matched
//   case-insensitively as a substring) -> 200 {page, limit, total, has_more, data: [{id, name, description, mode, ...}]}.
// - controllers/console/apikey.py: POST /apps/<id>/api-keys -> 201 {id, type, token "app-…", last_used_at,
//   created_at}; more than 10 keys: 400 max_keys_exceeded. controllers/console/app/app.py: DELETE /apps/<id> -> 204.
// - controllers/service_api/app/file.py, fields/file_fields.py: POST /v1/files/upload, multipart `file` + `user`, ->
//   201 {id, name, size, extension (no dot), mime_type, created_by, created_at}; 400 no_file_uploaded /
//   too_many_files, 413 file_too_large, 415 unsupported_file_type.
// - controllers/service_api/app/workflow.py, core/app/entities/task_entities.py: POST /v1/workflows/run {inputs,
//   response_mode, user} -> 200 {workflow_run_id, task_id, data: {id, workflow_id, status, outputs, error,
//   elapsed_time, total_tokens, total_steps, created_at, finished_at}}; file outputs are File dicts
//   (core/file/models.py: dify_model_identity "__dify__file__", type, transfer_method, filename, extension with its
//   dot, mime_type, size, url, ...). Rate limits answer 429.
// - libs/external_api.py: errors are {code, message, status}; an invalid API key is 401 unauthorized.

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parse as parseYaml } from "yaml";
import { cancellableDelays, listenOnLoopback, readBody } from "./loopback-server";

export interface FakeDifyApp {
  id: string;
  name: string;
  description: string;
  yaml: string;
  published: boolean;
  deleted: boolean;
  apiKeys: number;
}

export interface FakeDifyFile {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  user: string;
  appId: string;
}

/** A fault for one endpoint: answer with this status, body (a string is sent as is) and headers after delayMs. */
export interface FakeDifyFault {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

export type FakeDifyEndpoint =
  | "version"
  | "login"
  | "refresh"
  | "list"
  | "import"
  | "confirm"
  | "publish"
  | "api-key"
  | "delete"
  | "plugins"
  | "models"
  | "tool-providers"
  | "upload"
  | "run";

/** What the fake's workspace has installed. */
export interface FakeDifyInventory {
  plugins: string[];
  /** Models per type ("llm", "tts"): provider, model and Dify's status. */
  models: { type: string; provider: string; model: string; status?: string }[];
  toolProviders: { id: string; pluginId: string | null; authorized: boolean; tools: string[] }[];
}

/** A workspace set up for the benchmark's node types: tongyi models, the openai TTS model, the tool plugins. */
export function fullFakeInventory(): FakeDifyInventory {
  return {
    plugins: ["langgenius/tongyi", "langgenius/openai", "sawyer-shi/tongyi_aigc", "bowenliang123/md_exporter", "hjlarry/mermaid_converter", "langgenius/echarts", "langgenius/google"],
    models: [
      { type: "llm", provider: "langgenius/tongyi/tongyi", model: "qwen3-max" },
      { type: "llm", provider: "langgenius/tongyi/tongyi", model: "qwen3-vl-plus" },
      { type: "llm", provider: "langgenius/openai/openai", model: "gpt-4o-mini" },
      { type: "tts", provider: "langgenius/openai/openai", model: "gpt-4o-mini-tts" },
    ],
    toolProviders: [
      { id: "audio", pluginId: null, authorized: true, tools: ["tts", "asr"] },
      { id: "sawyer-shi/tongyi_aigc/tongyi_aigc", pluginId: "sawyer-shi/tongyi_aigc", authorized: true, tools: ["z_image_text_2_image"] },
      { id: "bowenliang123/md_exporter/md_exporter", pluginId: "bowenliang123/md_exporter", authorized: true, tools: ["md_to_docx", "md_to_pptx", "md_to_pdf", "md_to_png", "md_to_html", "md_to_md"] },
      { id: "hjlarry/mermaid_converter/mermaid_converter", pluginId: "hjlarry/mermaid_converter", authorized: true, tools: ["mermaid_converter"] },
      { id: "langgenius/echarts/echarts", pluginId: "langgenius/echarts", authorized: true, tools: ["line_chart", "bar_chart", "pie_chart"] },
      { id: "langgenius/google/google", pluginId: "langgenius/google", authorized: true, tools: ["google_search"] },
    ],
  };
}

/** What a run answers: outputs (status "succeeded"), or a whole result. */
export type FakeRunResult = Record<string, unknown> | { fakeRun: { status: string; outputs: Record<string, unknown> | null; error?: string | null } };

export interface FakeDifyOptions {
  email?: string;
  password?: string;
  /** The Dify version it reports (default "1.9.2"); from 1.11.2 on, /login wants the password base64-encoded. */
  version?: string;
  /** "offline": the update check fails, so /version echoes current_version back (default "online"). */
  versionCheck?: "online" | "offline";
  /** What the workspace has installed (default: fullFakeInventory()). */
  inventory?: FakeDifyInventory;
  /** "cookies" (1.9.2+, default) or "body-tokens" (1.9.0/1.9.1). */
  auth?: "cookies" | "body-tokens";
  /** Access tokens expire after this many milliseconds (default: never). */
  accessTokenTtlMs?: number;
  /** The server's DSL version (default "0.4.0", as Dify 1.9). */
  dslVersion?: string;
  /** What a workflow run outputs (default: the inputs echoed back). */
  run?: (app: FakeDifyApp, inputs: Record<string, unknown>) => FakeRunResult | Promise<FakeRunResult>;
  /** Milliseconds before a run answers. */
  runDelayMs?: number;
}

export interface FakeDify {
  /** e.g. http://127.0.0.1:40123 — the console API is at /console/api, the service API at /v1. */
  origin: string;
  consoleBase: string;
  serviceBase: string;
  apps: Map<string, FakeDifyApp>;
  files: Map<string, FakeDifyFile>;
  /** Faults served once each, in order, per endpoint. */
  faults: Map<FakeDifyEndpoint, FakeDifyFault[]>;
  /** Every request as "METHOD path". */
  log: string[];
  /** Every password /login received, as sent (to check the encoding). */
  passwordsReceived: string[];
  /** Every run's inputs, in order. */
  runs: { appId: string; inputs: Record<string, unknown>; user: unknown }[];
  /** Expires every access token now (the next console call gets 401 until refreshed). */
  expireSessions(): void;
  close(): Promise<void>;
}

/** A file output as Dify's File.to_dict renders it in a run's outputs. */
export function difyFileOutput(extension: string, mimeType = "application/octet-stream"): Record<string, unknown> {
  const id = randomUUID();
  return {
    dify_model_identity: "__dify__file__",
    id: null,
    tenant_id: randomUUID(),
    type: mimeType.startsWith("image/") ? "image" : mimeType.startsWith("audio/") ? "audio" : "document",
    transfer_method: "tool_file",
    remote_url: null,
    related_id: id,
    filename: `${id.slice(0, 8)}${extension}`,
    extension,
    mime_type: mimeType,
    size: 1024,
    url: `http://127.0.0.1/files/tools/${id}${extension}?timestamp=0&nonce=0&sign=fake`,
  };
}

function cookiesOf(request: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) cookies.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return cookies;
}

const now = () => Math.floor(Date.now() / 1000);

/** Dify's check_version_compatibility: pending for a newer version or an older major, warnings for an older minor. */
function importStatus(imported: string, current: string): "completed" | "completed-with-warnings" | "pending" | "failed" {
  const parse = (version: string) => {
    const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
    return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
  };
  const a = parse(imported);
  const b = parse(current);
  if (!a || !b) return "failed";
  const compare = a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  if (compare > 0) return "pending";
  if (a[0]! < b[0]!) return "pending";
  if (a[1]! < b[1]!) return "completed-with-warnings";
  return "completed";
}

const MAX_API_KEYS = 10;

function isAtLeast(version: string, minimum: string): boolean {
  const parts = (text: string) => text.split(".").map((part) => Number.parseInt(part, 10) || 0);
  const [a, b] = [parts(version), parts(minimum)];
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    if ((a[index] ?? 0) !== (b[index] ?? 0)) return (a[index] ?? 0) > (b[index] ?? 0);
  }
  return true;
}

/** Python's base64.b64decode (non-alphabet characters dropped, padding required) then a strict UTF-8 decode. */
function pythonBase64Decode(text: string): string | null {
  const cleaned = text.replace(/[^A-Za-z0-9+/=]/g, "");
  if (cleaned.length % 4 !== 0) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(cleaned, "base64"));
  } catch {
    return null;
  }
}

export async function startFakeDify(options: FakeDifyOptions = {}): Promise<FakeDify> {
  const email = options.email ?? "admin@example.com";
  const password = options.password ?? "correct horse";
  const dslVersion = options.dslVersion ?? "0.4.0";
  const auth = options.auth ?? "cookies";
  const version = options.version ?? "1.9.2";
  const base64Passwords = isAtLeast(version, "1.11.2");
  const inventory = options.inventory ?? fullFakeInventory();
  const passwordsReceived: string[] = [];
  const sessions = new Map<string, { csrf: string; expiresAt: number }>(); // access token -> session
  const refreshTokens = new Set<string>();
  const imports = new Map<string, { yaml: string }>();
  const apiKeys = new Map<string, string>(); // token -> app id
  const apps = new Map<string, FakeDifyApp>();
  const files = new Map<string, FakeDifyFile>();
  const faults = new Map<FakeDifyEndpoint, FakeDifyFault[]>();
  const log: string[] = [];
  const runs: FakeDify["runs"] = [];
  const delays = cancellableDelays();

  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}) => {
    const raw = typeof body === "string";
    response.writeHead(status, { ...(body === undefined ? {} : { "content-type": raw ? "text/html" : "application/json" }), ...headers });
    response.end(body === undefined ? undefined : raw ? body : JSON.stringify(body));
  };
  const error = (response: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) => send(response, status, { code, message, status }, headers);

  const createApp = (yaml: string): FakeDifyApp => {
    const parsed = parseYaml(yaml) as { app?: { name?: string; description?: string } };
    const app: FakeDifyApp = { id: randomUUID(), name: String(parsed.app?.name ?? "app"), description: String(parsed.app?.description ?? ""), yaml, published: false, deleted: false, apiKeys: 0 };
    apps.set(app.id, app);
    return app;
  };

  const issueTokens = () => {
    const access = randomUUID();
    const refresh = randomUUID();
    const csrf = randomUUID();
    sessions.set(access, { csrf, expiresAt: options.accessTokenTtlMs ? Date.now() + options.accessTokenTtlMs : Number.POSITIVE_INFINITY });
    refreshTokens.add(refresh);
    return { access, refresh, csrf };
  };
  const tokenCookies = (tokens: { access: string; refresh: string; csrf: string }) => [
    `access_token=${tokens.access}; Path=/; HttpOnly; SameSite=Lax`,
    `refresh_token=${tokens.refresh}; Path=/; HttpOnly; SameSite=Lax`,
    `csrf_token=${tokens.csrf}; Path=/; SameSite=Lax`,
  ];

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const method = request.method ?? "GET";
    const path = url.pathname;
    log.push(`${method} ${path}`);
    const body = await readBody(request);
    const json = (): Record<string, unknown> | null => {
      try {
        const parsed = JSON.parse(body.toString("utf8") || "{}") as unknown;
        return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    };
    const endpoint: FakeDifyEndpoint | null =
      path === "/console/api/version" && method === "GET" ? "version"
      : path === "/console/api/login" && method === "POST" ? "login"
      : path === "/console/api/refresh-token" && method === "POST" ? "refresh"
      : path === "/console/api/apps" && method === "GET" ? "list"
      : path === "/console/api/apps/imports" && method === "POST" ? "import"
      : /^\/console\/api\/apps\/imports\/[^/]+\/confirm$/.test(path) && method === "POST" ? "confirm"
      : /^\/console\/api\/apps\/[^/]+\/workflows\/publish$/.test(path) && method === "POST" ? "publish"
      : /^\/console\/api\/apps\/[^/]+\/api-keys$/.test(path) && method === "POST" ? "api-key"
      : /^\/console\/api\/apps\/[^/]+$/.test(path) && method === "DELETE" ? "delete"
      : path === "/console/api/workspaces/current/plugin/list" && method === "GET" ? "plugins"
      : /^\/console\/api\/workspaces\/current\/models\/model-types\/[^/]+$/.test(path) && method === "GET" ? "models"
      : path === "/console/api/workspaces/current/tool-providers" && method === "GET" ? "tool-providers"
      : path === "/v1/files/upload" && method === "POST" ? "upload"
      : path === "/v1/workflows/run" && method === "POST" ? "run"
      : null;
    if (!endpoint) return error(response, 404, "not_found", "The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.");
    const fault = faults.get(endpoint)?.shift();
    if (fault) {
      if (fault.delayMs) await delays.wait(fault.delayMs);
      return send(response, fault.status, fault.body ?? { code: "fault", message: `injected ${fault.status}`, status: fault.status }, fault.headers ?? {});
    }

    if (endpoint === "version") {
      const current = url.searchParams.get("current_version");
      if (current === null) return error(response, 400, "invalid_param", "current_version is required");
      return send(response, 200, { version: options.versionCheck === "offline" ? current : version, release_date: "", release_notes: "", can_auto_update: false, features: { can_replace_logo: false, model_load_balancing_enabled: false } });
    }

    if (endpoint === "login") {
      const credentials = json();
      if (credentials && typeof credentials.password === "string") passwordsReceived.push(credentials.password);
      // decrypt_password_field runs before the payload is validated.
      if (base64Passwords && credentials && typeof credentials.password === "string") {
        const decoded = pythonBase64Decode(credentials.password);
        if (decoded === null) return error(response, 401, "authentication_failed", "Invalid encrypted data");
        credentials.password = decoded;
      }
      if (!credentials || typeof credentials.email !== "string" || !credentials.email.includes("@") || typeof credentials.password !== "string") return error(response, 400, "invalid_param", "email and password are required");
      if (credentials.email !== email || credentials.password !== password) return error(response, 401, "authentication_failed", "Invalid email or password.");
      const tokens = issueTokens();
      if (auth === "body-tokens") return send(response, 200, { result: "success", data: { access_token: tokens.access, refresh_token: tokens.refresh } });
      return send(response, 200, { result: "success" }, { "set-cookie": tokenCookies(tokens) });
    }

    if (endpoint === "refresh") {
      const refresh = auth === "body-tokens" ? json()?.refresh_token : cookiesOf(request).get("refresh_token");
      if (typeof refresh !== "string" || !refreshTokens.has(refresh)) return send(response, 401, { result: "fail", message: "No refresh token provided" });
      refreshTokens.delete(refresh);
      const tokens = issueTokens();
      if (auth === "body-tokens") return send(response, 200, { result: "success", data: { access_token: tokens.access, refresh_token: tokens.refresh } });
      return send(response, 200, { result: "success" }, { "set-cookie": tokenCookies(tokens) });
    }

    if (endpoint === "upload" || endpoint === "run") {
      const token = (request.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
      const appId = apiKeys.get(token);
      const app = appId ? apps.get(appId) : undefined;
      if (!app || app.deleted) return error(response, 401, "unauthorized", "Access token is invalid");
      if (endpoint === "upload") {
        const form = await new Request("http://127.0.0.1/upload", { method: "POST", headers: { "content-type": request.headers["content-type"] ?? "" }, body: new Uint8Array(body) }).formData().catch(() => null);
        const uploads = form ? [...form.values()].filter((value) => value instanceof File) : [];
        if (!form || uploads.length === 0 || !(form.get("file") instanceof File)) return error(response, 400, "no_file_uploaded", "Please upload your file.");
        if (uploads.length > 1) return error(response, 400, "too_many_files", "Only one file is allowed.");
        const file = form.get("file") as File;
        const user = form.get("user");
        const stored: FakeDifyFile = { id: randomUUID(), name: file.name, mimeType: file.type, size: file.size, user: typeof user === "string" ? user : "", appId: app.id };
        files.set(stored.id, stored);
        const extension = file.name.includes(".") ? (file.name.split(".").at(-1) ?? "") : "";
        return send(response, 201, { id: stored.id, name: stored.name, size: stored.size, extension, mime_type: stored.mimeType, created_by: randomUUID(), created_at: now() });
      }
      const run = json();
      if (!run || run.inputs === null || typeof run.inputs !== "object" || Array.isArray(run.inputs)) return error(response, 400, "invalid_param", "inputs is required in input form");
      if (typeof run.user !== "string" || run.user === "") return error(response, 400, "invalid_param", "user is required");
      if (run.response_mode !== "blocking" && run.response_mode !== "streaming") return error(response, 400, "invalid_param", "response_mode must be blocking or streaming");
      if (!app.published) return error(response, 400, "invalid_param", "Workflow not published");
      const inputs = run.inputs as Record<string, unknown>;
      runs.push({ appId: app.id, inputs, user: run.user });
      if (options.runDelayMs) await delays.wait(options.runDelayMs);
      const produced = options.run ? await options.run(app, inputs) : inputs;
      const result = "fakeRun" in produced && produced.fakeRun !== null && typeof produced.fakeRun === "object" ? (produced.fakeRun as { status: string; outputs: Record<string, unknown> | null; error?: string | null }) : { status: "succeeded", outputs: produced, error: null };
      const runId = randomUUID();
      return send(response, 200, {
        task_id: randomUUID(),
        workflow_run_id: runId,
        data: { id: runId, workflow_id: app.id, status: result.status, outputs: result.outputs, error: result.error ?? null, elapsed_time: 0.5, total_tokens: 0, total_steps: 3, created_at: now(), finished_at: now() },
      });
    }

    // Console endpoints: a live access token (cookie or bearer), and with cookies the CSRF header matching its cookie.
    const cookies = cookiesOf(request);
    const bearer = (request.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
    const accessToken = cookies.get("access_token") ?? bearer;
    const session = sessions.get(accessToken);
    if (!session || session.expiresAt <= Date.now()) return error(response, 401, "unauthorized", "Invalid token.");
    if (cookies.has("access_token") && (request.headers["x-csrf-token"] !== session.csrf || cookies.get("csrf_token") !== session.csrf)) return error(response, 401, "unauthorized", "CSRF token is missing or invalid.");

    if (endpoint === "plugins") {
      return send(response, 200, {
        plugins: inventory.plugins.map((pluginId) => ({ id: randomUUID(), plugin_id: pluginId, plugin_unique_identifier: `${pluginId}:0.1.0@fake`, version: "0.1.0", name: pluginId.split("/").at(-1), installation_id: randomUUID(), source: "marketplace" })),
        total: inventory.plugins.length,
      });
    }
    if (endpoint === "models") {
      const type = decodeURIComponent(path.split("/").at(-1) ?? "");
      const byProvider = new Map<string, { model: string; status: string }[]>();
      for (const entry of inventory.models.filter((model) => model.type === type)) byProvider.set(entry.provider, [...(byProvider.get(entry.provider) ?? []), { model: entry.model, status: entry.status ?? "active" }]);
      return send(response, 200, {
        data: [...byProvider].map(([provider, models]) => ({ tenant_id: randomUUID(), provider, label: { en_US: provider }, status: "active", models: models.map((model) => ({ ...model, label: { en_US: model.model }, model_type: type, fetch_from: "predefined-model", deprecated: false })) })),
      });
    }
    if (endpoint === "tool-providers") {
      return send(
        response,
        200,
        inventory.toolProviders.map((provider) => ({ id: provider.id, name: provider.id.split("/").at(-1), type: "builtin", plugin_id: provider.pluginId, is_team_authorization: provider.authorized, tools: provider.tools.map((name) => ({ name })) })),
      );
    }

    if (endpoint === "list") {
      const name = (url.searchParams.get("name") ?? "").toLowerCase();
      const limit = Math.min(100, Number(url.searchParams.get("limit") ?? "20") || 20);
      const matching = [...apps.values()].filter((app) => !app.deleted && app.name.toLowerCase().includes(name));
      return send(response, 200, {
        page: 1,
        limit,
        total: matching.length,
        has_more: matching.length > limit,
        data: matching.slice(0, limit).map((app) => ({ id: app.id, name: app.name, description: app.description, mode: "workflow", icon_type: "emoji", icon: "🤖", icon_background: "#FFEAD5", created_at: now(), tags: [] })),
      });
    }

    if (endpoint === "import") {
      const payload = json();
      const id = randomUUID();
      const failed = (message: string) => send(response, 400, { id, status: "failed", app_id: null, app_mode: null, current_dsl_version: dslVersion, imported_dsl_version: "", error: message });
      if (!payload || payload.mode !== "yaml-content") return error(response, 400, "invalid_param", `Invalid import_mode: ${String(payload?.mode)}`);
      const yaml = payload.yaml_content;
      if (typeof yaml !== "string" || yaml === "") return failed("yaml_content is required when import_mode is yaml-content");
      let parsed: unknown;
      try {
        parsed = parseYaml(yaml);
      } catch (problem) {
        return failed(`Invalid YAML format: ${problem instanceof Error ? problem.message : String(problem)}`);
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return failed("Invalid YAML format: content must be a mapping");
      const data = parsed as Record<string, unknown>;
      const version = data.version ?? "0.1.0";
      if (typeof version !== "string") return failed(`Invalid version type, expected str, got ${typeof version}`);
      const status = importStatus(version, dslVersion);
      if (status === "failed") return failed(`Invalid version: ${version}`);
      const appData = data.app as Record<string, unknown> | undefined;
      if (!appData) return failed("Missing app data in YAML content");
      if (status === "pending") {
        imports.set(id, { yaml });
        return send(response, 202, { id, status, app_id: null, app_mode: null, current_dsl_version: dslVersion, imported_dsl_version: version, error: "" });
      }
      if (!appData.mode) return failed("loss app mode");
      const app = createApp(yaml);
      return send(response, 200, { id, status, app_id: app.id, app_mode: String(appData.mode), current_dsl_version: dslVersion, imported_dsl_version: version, error: "" });
    }
    // /console/api/apps/<app id>/... and /console/api/apps/imports/<import id>/confirm
    const segments = path.split("/").map(decodeURIComponent);
    if (endpoint === "confirm") {
      const importId = segments[5] ?? "";
      const pending = imports.get(importId);
      if (!pending) return send(response, 400, { id: importId, status: "failed", app_id: null, app_mode: null, current_dsl_version: dslVersion, imported_dsl_version: "", error: "Import information expired or does not exist" });
      imports.delete(importId);
      const app = createApp(pending.yaml);
      const version = String((parseYaml(pending.yaml) as { version?: unknown }).version ?? "0.1.0");
      return send(response, 200, { id: importId, status: "completed", app_id: app.id, app_mode: "workflow", current_dsl_version: dslVersion, imported_dsl_version: version, error: "" });
    }
    const app = apps.get(segments[4] ?? "");
    if (!app || app.deleted) return error(response, 404, "app_not_found", "App not found.");
    if (endpoint === "publish") {
      app.published = true;
      return send(response, 200, { result: "success", created_at: now() });
    }
    if (endpoint === "api-key") {
      if (app.apiKeys >= MAX_API_KEYS) return error(response, 400, "max_keys_exceeded", `Cannot create more than ${MAX_API_KEYS} API keys for this resource type.`);
      app.apiKeys += 1;
      const token = `app-${randomUUID().replaceAll("-", "").slice(0, 24)}`;
      apiKeys.set(token, app.id);
      return send(response, 201, { id: randomUUID(), type: "app", token, last_used_at: null, created_at: now() });
    }
    app.deleted = true;
    return send(response, 204, undefined);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((problem: unknown) => {
      if (!response.headersSent) error(response, 500, "internal_server_error", String(problem));
    });
  });
  const { port, close } = await listenOnLoopback(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    consoleBase: `${origin}/console/api`,
    serviceBase: `${origin}/v1`,
    apps,
    files,
    faults,
    log,
    passwordsReceived,
    runs,
    expireSessions() {
      for (const session of sessions.values()) session.expiresAt = 0;
    },
    close() {
      delays.cancelAll();
      return close();
    },
  };
}
