// A fake Dify 1.9 on 127.0.0.1 (node:http) for tests: the console endpoints the client uses (cookie sign-in with a
// CSRF token, DSL import with a pending-confirm path, publish, API keys, app deletion) and the service API (multipart
// file upload, blocking workflow run) with Dify's status codes and body shapes, plus faults and delays. It runs no
// workflow: a run answers with what the test's `run` function returns.

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parse as parseYaml } from "yaml";
import { cancellableDelays, listenOnLoopback, readBody } from "./loopback-server";

export interface FakeDifyApp {
  id: string;
  yaml: string;
  published: boolean;
  deleted: boolean;
}

export interface FakeDifyFile {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  user: string;
  appId: string;
}

/** A fault for one endpoint: answer with this status and body (after delayMs) instead of serving it. */
export interface FakeDifyFault {
  status: number;
  body?: unknown;
  delayMs?: number;
}

export type FakeDifyEndpoint = "login" | "import" | "confirm" | "publish" | "api-key" | "delete" | "upload" | "run";

export interface FakeDifyOptions {
  email?: string;
  password?: string;
  /** The server's DSL version; an import of another version is pending until confirmed (default "0.4.0"). */
  dslVersion?: string;
  /** What a workflow run outputs (default: the inputs echoed back). */
  run?: (app: FakeDifyApp, inputs: Record<string, unknown>) => Record<string, unknown>;
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
  close(): Promise<void>;
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

export async function startFakeDify(options: FakeDifyOptions = {}): Promise<FakeDify> {
  const email = options.email ?? "admin@example.com";
  const password = options.password ?? "correct horse";
  const dslVersion = options.dslVersion ?? "0.4.0";
  const sessions = new Map<string, string>(); // access token -> csrf token
  const imports = new Map<string, { yaml: string }>();
  const apiKeys = new Map<string, string>(); // token -> app id
  const apps = new Map<string, FakeDifyApp>();
  const files = new Map<string, FakeDifyFile>();
  const faults = new Map<FakeDifyEndpoint, FakeDifyFault[]>();
  const log: string[] = [];
  const delays = cancellableDelays();

  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}) => {
    if (response.destroyed) return;
    const text = body === undefined ? "" : JSON.stringify(body);
    response.writeHead(status, { ...(text ? { "content-type": "application/json" } : {}), ...headers });
    response.end(text);
  };
  const error = (response: ServerResponse, status: number, code: string, message: string) => send(response, status, { code, message, status });

  const createApp = (yaml: string): FakeDifyApp => {
    const app = { id: randomUUID(), yaml, published: false, deleted: false };
    apps.set(app.id, app);
    return app;
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const method = request.method ?? "GET";
    const path = url.pathname;
    log.push(`${method} ${path}`);
    const body = await readBody(request);
    const json = (): Record<string, unknown> => {
      try {
        return JSON.parse(body.toString("utf8") || "{}") as Record<string, unknown>;
      } catch {
        return {};
      }
    };
    const endpoint: FakeDifyEndpoint | null =
      path === "/console/api/login" ? "login"
      : path === "/console/api/apps/imports" ? "import"
      : /^\/console\/api\/apps\/imports\/[^/]+\/confirm$/.test(path) ? "confirm"
      : /^\/console\/api\/apps\/[^/]+\/workflows\/publish$/.test(path) ? "publish"
      : /^\/console\/api\/apps\/[^/]+\/api-keys$/.test(path) ? "api-key"
      : /^\/console\/api\/apps\/[^/]+$/.test(path) && method === "DELETE" ? "delete"
      : path === "/v1/files/upload" ? "upload"
      : path === "/v1/workflows/run" ? "run"
      : null;
    if (!endpoint) return error(response, 404, "not_found", "The requested URL was not found on the server.");
    const fault = faults.get(endpoint)?.shift();
    if (fault) {
      if (fault.delayMs) await delays.wait(fault.delayMs);
      return send(response, fault.status, fault.body ?? { code: "fault", message: `injected ${fault.status}`, status: fault.status });
    }

    if (endpoint === "login") {
      const credentials = json();
      if (credentials.email !== email || credentials.password !== password) return error(response, 401, "authentication_failed", "Invalid email or password.");
      const access = randomUUID();
      const csrf = randomUUID();
      sessions.set(access, csrf);
      return send(response, 200, { result: "success" }, {
        "set-cookie": [`access_token=${access}; Path=/; HttpOnly; SameSite=Lax`, `refresh_token=${randomUUID()}; Path=/; HttpOnly; SameSite=Lax`, `csrf_token=${csrf}; Path=/; SameSite=Lax`],
      });
    }

    if (endpoint === "upload" || endpoint === "run") {
      const token = (request.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
      const appId = apiKeys.get(token);
      const app = appId ? apps.get(appId) : undefined;
      if (!app || app.deleted) return error(response, 401, "unauthorized", "Access token is invalid");
      if (endpoint === "upload") {
        const form = await new Request("http://127.0.0.1/upload", { method: "POST", headers: { "content-type": request.headers["content-type"] ?? "" }, body: new Uint8Array(body) }).formData().catch(() => null);
        const file = form?.get("file");
        if (!form || !(file instanceof File)) return error(response, 400, "no_file_uploaded", "Please upload your file.");
        const user = form.get("user");
        const stored: FakeDifyFile = { id: randomUUID(), name: file.name, mimeType: file.type, size: file.size, user: typeof user === "string" ? user : "", appId: app.id };
        files.set(stored.id, stored);
        const extension = file.name.includes(".") ? file.name.split(".").at(-1) : "";
        return send(response, 201, { id: stored.id, name: stored.name, size: stored.size, extension, mime_type: stored.mimeType, created_by: randomUUID(), created_at: now() });
      }
      const run = json();
      if (run.response_mode !== "blocking" && run.response_mode !== "streaming") return error(response, 400, "invalid_param", "response_mode must be blocking or streaming");
      if (!app.published) return error(response, 400, "app_unavailable", "App unavailable, please check your app configurations.");
      const inputs = (run.inputs ?? {}) as Record<string, unknown>;
      if (options.runDelayMs) await delays.wait(options.runDelayMs);
      const outputs = options.run ? options.run(app, inputs) : inputs;
      const runId = randomUUID();
      return send(response, 200, {
        workflow_run_id: runId,
        task_id: randomUUID(),
        data: { id: runId, workflow_id: app.id, status: "succeeded", outputs, error: null, elapsed_time: 0.5, total_tokens: 0, total_steps: 3, created_at: now(), finished_at: now() },
      });
    }

    // Console endpoints: the access-token cookie, and the CSRF token in X-CSRF-Token matching its cookie.
    const cookies = cookiesOf(request);
    const csrf = sessions.get(cookies.get("access_token") ?? "");
    if (!csrf) return error(response, 401, "unauthorized", "Invalid token.");
    if (request.headers["x-csrf-token"] !== csrf || cookies.get("csrf_token") !== csrf) return error(response, 401, "unauthorized", "CSRF token is missing or invalid.");

    if (endpoint === "import") {
      const { mode, yaml_content: yaml } = json();
      if (mode !== "yaml-content" || typeof yaml !== "string") return error(response, 400, "invalid_param", "yaml_content is required when mode is yaml-content");
      const id = randomUUID();
      let version: unknown;
      try {
        const parsed = parseYaml(yaml) as Record<string, unknown> | null;
        if (!parsed || typeof parsed !== "object" || !parsed.app) throw new Error("Missing app data in YAML content");
        version = parsed.version;
      } catch (problem) {
        return send(response, 400, { id, status: "failed", app_id: null, app_mode: null, current_dsl_version: dslVersion, imported_dsl_version: "", error: problem instanceof Error ? problem.message : "Invalid YAML format" });
      }
      if (String(version) !== dslVersion) {
        imports.set(id, { yaml });
        return send(response, 202, { id, status: "pending", app_id: null, app_mode: "workflow", current_dsl_version: dslVersion, imported_dsl_version: String(version), error: "" });
      }
      const app = createApp(yaml);
      return send(response, 200, { id, status: "completed", app_id: app.id, app_mode: "workflow", current_dsl_version: dslVersion, imported_dsl_version: dslVersion, error: "" });
    }
    // /console/api/apps/<app id>/... and /console/api/apps/imports/<import id>/confirm
    const segments = path.split("/").map(decodeURIComponent);
    if (endpoint === "confirm") {
      const importId = segments[5] ?? "";
      const pending = imports.get(importId);
      if (!pending) return send(response, 400, { id: importId, status: "failed", app_id: null, error: "Import information expired or does not exist" });
      imports.delete(importId);
      const app = createApp(pending.yaml);
      return send(response, 200, { id: importId, status: "completed", app_id: app.id, app_mode: "workflow", current_dsl_version: dslVersion, imported_dsl_version: dslVersion, error: "" });
    }
    const app = apps.get(segments[4] ?? "");
    if (!app || app.deleted) return error(response, 404, "app_not_found", "App not found.");
    if (endpoint === "publish") {
      app.published = true;
      return send(response, 200, { result: "success", created_at: now() });
    }
    if (endpoint === "api-key") {
      const token = `app-${randomUUID().replaceAll("-", "").slice(0, 24)}`;
      apiKeys.set(token, app.id);
      return send(response, 201, { id: randomUUID(), type: "app", token, last_used_at: null, created_at: now() });
    }
    app.deleted = true;
    return send(response, 204, undefined);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((problem: unknown) => error(response, 500, "internal_server_error", String(problem)));
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
    close() {
      delays.cancelAll();
      return close();
    },
  };
}
