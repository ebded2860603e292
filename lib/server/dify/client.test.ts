// The Dify client against a loopback fake of Dify 1.9's console and service APIs: the whole import-to-run path,
// the pending-confirm import, and each failure (bad credentials, failed import, HTTP faults, timeouts, no server,
// malformed answers) coming back as data naming its step.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDify, type FakeDify } from "@/test/support/fake-dify";
import { difyFileOutput } from "@/test/support/fake-dify";
import { FIRST_BASE64_PASSWORD_VERSION, detectDifyVersion, isTransient, passwordStyleFor, runWorkflow, signIn, uploadFile, type DifyConsole } from "./client";

const yaml = (version: string) => `app:\n  mode: workflow\n  name: Summary_1\nkind: app\nversion: ${version}\nworkflow:\n  graph:\n    nodes: []\n`;
const pdf = new Uint8Array(new TextEncoder().encode("%PDF-1.4 fake"));

describe("Dify client against the fake Dify", () => {
  let dify: FakeDify;
  let consoleApi: DifyConsole;
  beforeAll(async () => {
    dify = await startFakeDify({ run: (_app, inputs) => ({ text: `summary of ${JSON.stringify(inputs)}`, files: [difyFileOutput(".pdf", "application/pdf")] }) });
    const signedIn = await signIn(dify.consoleBase, "admin@example.com", "correct horse");
    if (!signedIn.ok) throw new Error(signedIn.error.message);
    consoleApi = signedIn.value;
  });
  afterAll(async () => {
    await dify?.close();
  });

  it("imports, publishes, creates a key, uploads a file, runs the workflow in blocking mode and deletes the app", async () => {
    const imported = await consoleApi.importDsl(yaml("0.4.0"));
    expect(imported).toMatchObject({ ok: true, value: { status: "completed" } });
    if (!imported.ok) return;
    const { appId } = imported.value;
    const listed = await consoleApi.listApps("summary_1");
    expect(listed.ok && listed.value.map((app) => app.id)).toContain(appId);
    expect(dify.log.at(-1)).toBe("GET /console/api/apps");
    expect(await consoleApi.publish(appId)).toEqual({ ok: true, value: undefined });
    const key = await consoleApi.createApiKey(appId);
    expect(key.ok && key.value.startsWith("app-")).toBe(true);
    if (!key.ok) return;
    const uploaded = await uploadFile(dify.serviceBase, key.value, { fileName: "document.pdf", mimeType: "document/pdf", bytes: pdf, user: "evaluator" });
    expect(uploaded).toMatchObject({ ok: true, value: { extension: "pdf" } });
    if (!uploaded.ok) return;
    expect(dify.files.get(uploaded.value.id)).toMatchObject({ name: "document.pdf", mimeType: "document/pdf", size: pdf.length, user: "evaluator", appId });
    const inputs = { paper: { transfer_method: "local_file", upload_file_id: uploaded.value.id, type: "document" }, language: "English" };
    const run = await runWorkflow(dify.serviceBase, key.value, { inputs, user: "evaluator" });
    expect(run).toMatchObject({ ok: true, value: { status: "succeeded", error: null, outputs: { text: `summary of ${JSON.stringify(inputs)}`, files: [{ extension: ".pdf", mime_type: "application/pdf", dify_model_identity: "__dify__file__" }] } } });
    expect(dify.runs.at(-1)).toEqual({ appId, inputs, user: "evaluator" });
    expect(await consoleApi.deleteApp(appId)).toEqual({ ok: true, value: undefined });
    expect(dify.apps.get(appId)?.deleted).toBe(true);
    expect(await runWorkflow(dify.serviceBase, key.value, { inputs, user: "evaluator" })).toMatchObject({ ok: false, error: { step: "run", status: 401, kind: "http" } });
  });

  it("confirms a pending import (a newer DSL version) and gets the app from the confirmation", async () => {
    const before = dify.log.length;
    const imported = await consoleApi.importDsl(yaml("0.5.0"));
    expect(imported).toMatchObject({ ok: true, value: { status: "completed", confirmed: true } });
    expect(dify.log.slice(before)).toEqual([expect.stringMatching(/^POST \/console\/api\/apps\/imports$/), expect.stringMatching(/^POST \/console\/api\/apps\/imports\/[^/]+\/confirm$/)]);
    if (imported.ok) expect(dify.apps.has(imported.value.appId)).toBe(true);
  });

  it("reports a failed import (400) with Dify's error, and a failed confirmation", async () => {
    const failed = await consoleApi.importDsl("version: 0.4.0\nkind: app\n");
    expect(failed).toMatchObject({ ok: false, error: { step: "import", status: 400, kind: "http" } });
    if (!failed.ok) expect(failed.error.message).toContain("Missing app data");
    dify.faults.set("confirm", [{ status: 400, body: { status: "failed", error: "Import information expired or does not exist" } }]);
    const expired = await consoleApi.importDsl(yaml("1.0.0"));
    expect(expired).toMatchObject({ ok: false, error: { step: "confirm", status: 400, message: "HTTP 400: Import information expired or does not exist" } });
    expect(await consoleApi.importDsl("version: 0.4\napp:\n  mode: workflow\n")).toMatchObject({ ok: false, error: { step: "import", status: 400, message: expect.stringContaining("Invalid version type") } });
  });

  it("turns HTTP faults, timeouts and malformed answers into errors naming the step", async () => {
    const imported = await consoleApi.importDsl(yaml("0.4.0"));
    if (!imported.ok) throw new Error(imported.error.message);
    dify.faults.set("publish", [{ status: 500 }]);
    expect(await consoleApi.publish(imported.value.appId)).toMatchObject({ ok: false, error: { step: "publish", status: 500, kind: "http" } });
    expect((await consoleApi.publish(imported.value.appId)).ok).toBe(true);
    dify.faults.set("api-key", [{ status: 201, body: { id: "k" } }]);
    expect(await consoleApi.createApiKey(imported.value.appId)).toMatchObject({ ok: false, error: { step: "api-key", kind: "malformed" } });
    const key = await consoleApi.createApiKey(imported.value.appId);
    if (!key.ok) throw new Error(key.error.message);
    dify.faults.set("run", [{ status: 200, body: { data: null }, delayMs: 300 }]);
    expect(await runWorkflow(dify.serviceBase, key.value, { inputs: {}, user: "u", timeoutMs: 50 })).toMatchObject({ ok: false, error: { step: "run", kind: "timeout", status: null } });
    dify.faults.set("run", [{ status: 200, body: { result: "no data" } }]);
    expect(await runWorkflow(dify.serviceBase, key.value, { inputs: {}, user: "u" })).toMatchObject({ ok: false, error: { step: "run", kind: "malformed" } });
    dify.faults.set("upload", [{ status: 415, body: { code: "unsupported_file_type", message: "File type not allowed.", status: 415 } }]);
    const upload = await uploadFile(dify.serviceBase, key.value, { fileName: "image.jpg", mimeType: "image/jpg", bytes: pdf, user: "u" });
    expect(upload).toMatchObject({ ok: false, error: { step: "upload", status: 415, message: "HTTP 415 unsupported_file_type: File type not allowed." } });
    expect(await uploadFile(dify.serviceBase, "app-wrong", { fileName: "a.pdf", mimeType: "document/pdf", bytes: pdf, user: "u" })).toMatchObject({ ok: false, error: { status: 401 } });
  });

  it("refuses wrong credentials, and the fake refuses console calls without the CSRF header", async () => {
    expect(await signIn(dify.consoleBase, "admin@example.com", "wrong")).toMatchObject({ ok: false, error: { step: "sign-in", status: 401 } });
    const login = await fetch(`${dify.consoleBase}/login`, { method: "POST", body: JSON.stringify({ email: "admin@example.com", password: "correct horse" }) });
    const cookie = login.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const bare = await fetch(`${dify.consoleBase}/apps/imports`, { method: "POST", headers: { cookie }, body: JSON.stringify({ mode: "yaml-content", yaml_content: yaml("0.4.0") }) });
    expect(bare.status).toBe(401);
  });

  it("imports an older minor DSL version with warnings, without a confirmation", async () => {
    const before = dify.log.length;
    expect(await consoleApi.importDsl(yaml("0.3.1"))).toMatchObject({ ok: true, value: { status: "completed-with-warnings", confirmed: false } });
    expect(dify.log.slice(before)).toEqual(["POST /console/api/apps/imports"]);
  });

  it("reports 429 with its Retry-After, 5xx and HTML error pages as transient HTTP errors with Dify's code", async () => {
    const imported = await consoleApi.importDsl(yaml("0.4.0"));
    if (!imported.ok) throw new Error(imported.error.message);
    await consoleApi.publish(imported.value.appId);
    const key = await consoleApi.createApiKey(imported.value.appId);
    if (!key.ok) throw new Error(key.error.message);
    dify.faults.set("run", [
      { status: 429, body: { code: "too_many_requests", message: "Too many requests. Please try again later.", status: 429 }, headers: { "retry-after": "7" } },
      { status: 502, body: "<html><body>502 Bad Gateway</body></html>" },
    ]);
    const limited = await runWorkflow(dify.serviceBase, key.value, { inputs: {}, user: "u" });
    expect(limited).toMatchObject({ ok: false, error: { step: "run", status: 429, code: "too_many_requests", retryAfterMs: 7000, kind: "http" } });
    if (!limited.ok) expect(isTransient(limited.error)).toBe(true);
    const gateway = await runWorkflow(dify.serviceBase, key.value, { inputs: {}, user: "u" });
    expect(gateway).toMatchObject({ ok: false, error: { status: 502, kind: "http", message: expect.stringContaining("502 Bad Gateway") } });
    if (!gateway.ok) expect(isTransient(gateway.error)).toBe(true);
    const unpublishedApp = await consoleApi.importDsl(yaml("0.4.0"));
    if (!unpublishedApp.ok) throw new Error(unpublishedApp.error.message);
    const unpublishedKey = await consoleApi.createApiKey(unpublishedApp.value.appId);
    if (!unpublishedKey.ok) throw new Error(unpublishedKey.error.message);
    const refused = await runWorkflow(dify.serviceBase, unpublishedKey.value, { inputs: {}, user: "u" });
    expect(refused).toMatchObject({ ok: false, error: { status: 400, code: "invalid_param" } });
    if (!refused.ok) expect(isTransient(refused.error)).toBe(false);
  });

  it("reports a failed run's status and error rather than judging it", async () => {
    const failing = await startFakeDify({ run: () => ({ fakeRun: { status: "failed", outputs: {}, error: "Node LLM run failed: quota exceeded" } }) });
    try {
      const session = await signIn(failing.consoleBase, "admin@example.com", "correct horse");
      if (!session.ok) throw new Error(session.error.message);
      const imported = await session.value.importDsl(yaml("0.4.0"));
      if (!imported.ok) throw new Error(imported.error.message);
      await session.value.publish(imported.value.appId);
      const key = await session.value.createApiKey(imported.value.appId);
      if (!key.ok) throw new Error(key.error.message);
      expect(await runWorkflow(failing.serviceBase, key.value, { inputs: {}, user: "u" })).toMatchObject({ ok: true, value: { status: "failed", outputs: {}, error: "Node LLM run failed: quota exceeded" } });
    } finally {
      await failing.close();
    }
  });

  it("stops a call when the caller's signal aborts, as cancelled rather than timed out", async () => {
    const imported = await consoleApi.importDsl(yaml("0.4.0"));
    if (!imported.ok) throw new Error(imported.error.message);
    await consoleApi.publish(imported.value.appId);
    const key = await consoleApi.createApiKey(imported.value.appId);
    if (!key.ok) throw new Error(key.error.message);
    dify.faults.set("run", [{ status: 200, body: { data: {} }, delayMs: 2_000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await runWorkflow(dify.serviceBase, key.value, { inputs: {}, user: "u" }, { signal: controller.signal })).toMatchObject({ ok: false, error: { kind: "cancelled" } });
  });

  it("refuses an eleventh API key with Dify's 400 max_keys_exceeded", async () => {
    const imported = await consoleApi.importDsl(yaml("0.4.0"));
    if (!imported.ok) throw new Error(imported.error.message);
    for (let index = 0; index < 10; index += 1) expect((await consoleApi.createApiKey(imported.value.appId)).ok).toBe(true);
    expect(await consoleApi.createApiKey(imported.value.appId)).toMatchObject({ ok: false, error: { step: "api-key", status: 400, code: "max_keys_exceeded" } });
  });

  it("refreshes an expired session once and repeats the call (cookies and 1.9.0/1.9.1 body tokens)", async () => {
    for (const auth of ["cookies", "body-tokens"] as const) {
      const server = await startFakeDify({ auth });
      try {
        const session = await signIn(server.consoleBase, "admin@example.com", "correct horse");
        if (!session.ok) throw new Error(session.error.message);
        server.expireSessions();
        const before = server.log.length;
        expect((await session.value.importDsl(yaml("0.4.0"))).ok).toBe(true);
        expect(server.log.slice(before)).toEqual(["POST /console/api/apps/imports", "POST /console/api/refresh-token", "POST /console/api/apps/imports"]);
      } finally {
        await server.close();
      }
    }
  });

  it("reports a sign-in Dify refuses in a 200 answer (no workspace)", async () => {
    dify.faults.set("login", [{ status: 200, body: { result: "fail", data: "workspace not found, please contact system admin to invite you to join in a workspace" } }]);
    expect(await signIn(dify.consoleBase, "admin@example.com", "correct horse")).toMatchObject({ ok: false, error: { step: "sign-in", message: expect.stringContaining("workspace not found") } });
  });

  it("reports a server that is not there as a connection error", async () => {
    const gone = await startFakeDify();
    await gone.close();
    expect(await signIn(gone.consoleBase, "a", "b")).toMatchObject({ ok: false, error: { step: "sign-in", kind: "connection", status: null } });
  });
});

describe("signing in to each Dify version as it expects the password", () => {
  const PASSWORD = "correct horse ünïcode";
  const withFake = async (options: Parameters<typeof startFakeDify>[0], body: (dify: FakeDify) => Promise<void>) => {
    const dify = await startFakeDify({ password: PASSWORD, ...options });
    try {
      await body(dify);
    } finally {
      await dify.close();
    }
  };

  it("names 1.11.2 as the first version that wants the password base64-encoded", () => {
    expect(FIRST_BASE64_PASSWORD_VERSION).toBe("1.11.2");
    expect(["1.9.0", "1.9.2", "1.10.1", "1.11.1"].map(passwordStyleFor)).toEqual(["plain", "plain", "plain", "plain"]);
    expect(["1.11.2", "1.11.10", "1.13.0", "2.0.0"].map(passwordStyleFor)).toEqual(["base64", "base64", "base64", "base64"]);
  });

  it("sends the password as typed to Dify 1.9.x", async () => {
    await withFake({ version: "1.9.2" }, async (dify) => {
      const session = await signIn(dify.consoleBase, "admin@example.com", PASSWORD);
      expect(session).toMatchObject({ ok: true, value: { version: "1.9.2", passwordStyle: "plain" } });
      expect(dify.passwordsReceived).toEqual([PASSWORD]);
      expect(dify.log.slice(0, 2)).toEqual(["GET /console/api/version", "POST /console/api/login"]);
    });
  });

  it("sends the password base64-encoded to Dify 1.11.2 and later, which refuses the plain one", async () => {
    await withFake({ version: "1.12.1" }, async (dify) => {
      const session = await signIn(dify.consoleBase, "admin@example.com", PASSWORD);
      expect(session).toMatchObject({ ok: true, value: { version: "1.12.1", passwordStyle: "base64" } });
      expect(dify.passwordsReceived).toEqual([Buffer.from(PASSWORD, "utf8").toString("base64")]);
      if (!session.ok) return;
      expect((await session.value.importDsl(yaml("0.4.0"))).ok).toBe(true);
      // What a client that ignores the version gets: the plain password does not decode.
      const plain = await fetch(`${dify.consoleBase}/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@example.com", password: PASSWORD }) });
      expect(plain.status).toBe(401);
    });
  });

  it("tells the two styles apart without a credential when Dify cannot report its version (update check offline)", async () => {
    for (const [version, style] of [["1.11.3", "base64"], ["1.9.1", "plain"]] as const) {
      await withFake({ version, versionCheck: "offline" }, async (dify) => {
        expect(await detectDifyVersion(dify.consoleBase)).toEqual({ ok: true, value: null });
        const session = await signIn(dify.consoleBase, "admin@example.com", PASSWORD);
        expect(session).toMatchObject({ ok: true, value: { version: null, passwordStyle: style } });
        // The probe carried no email and no password of the account; the real password went once.
        expect(dify.passwordsReceived).toHaveLength(2);
        expect(dify.passwordsReceived[0]).not.toContain(PASSWORD);
        expect(dify.passwordsReceived[1]).toBe(style === "base64" ? Buffer.from(PASSWORD, "utf8").toString("base64") : PASSWORD);
      });
    }
  });

  it("says which version and encoding it used when the password is refused", async () => {
    await withFake({ version: "1.11.2" }, async (dify) => {
      expect(await signIn(dify.consoleBase, "admin@example.com", "wrong")).toMatchObject({ ok: false, error: { step: "sign-in", status: 401, message: expect.stringContaining("Dify 1.11.2, password sent base64-encoded") } });
    });
  });

  it("lists the installed plugins, models and tool providers", async () => {
    await withFake({ inventory: { plugins: ["langgenius/tongyi"], models: [{ type: "llm", provider: "langgenius/tongyi/tongyi", model: "qwen3-max" }, { type: "tts", provider: "langgenius/openai/openai", model: "gpt-4o-mini-tts", status: "no-configure" }], toolProviders: [{ id: "langgenius/google/google", pluginId: "langgenius/google", authorized: false, tools: ["google_search"] }] } }, async (dify) => {
      const session = await signIn(dify.consoleBase, "admin@example.com", PASSWORD);
      if (!session.ok) throw new Error(session.error.message);
      expect(await session.value.inventory(["llm", "tts"])).toEqual({
        ok: true,
        value: {
          plugins: [{ pluginId: "langgenius/tongyi", version: "0.1.0" }],
          models: [
            { modelType: "llm", provider: "langgenius/tongyi/tongyi", model: "qwen3-max", status: "active" },
            { modelType: "tts", provider: "langgenius/openai/openai", model: "gpt-4o-mini-tts", status: "no-configure" },
          ],
          toolProviders: [{ id: "langgenius/google/google", pluginId: "langgenius/google", authorized: false, tools: ["google_search"] }],
        },
      });
    });
  });
});

describe("redirects with credentials", () => {
  let dify: FakeDify;
  let elsewhere: FakeDify;
  beforeAll(async () => {
    dify = await startFakeDify();
    elsewhere = await startFakeDify();
  });
  afterAll(async () => {
    await dify?.close();
    await elsewhere?.close();
  });

  it("does not follow a 307 to another origin: the password, the session and the app key stay home", async () => {
    dify.faults.set("login", [{ status: 307, headers: { location: `${elsewhere.consoleBase}/login` } }]);
    const refused = await signIn(dify.consoleBase, "admin@example.com", "correct horse");
    expect(refused).toMatchObject({ ok: false, error: { step: "sign-in", kind: "redirect", status: 307, message: expect.stringContaining(`another origin (${elsewhere.origin})`) } });
    const session = await signIn(dify.consoleBase, "admin@example.com", "correct horse");
    if (!session.ok) throw new Error(session.error.message);
    dify.faults.set("import", [{ status: 308, headers: { location: `${elsewhere.consoleBase}/apps/imports` } }]);
    expect(await session.value.importDsl(yaml("0.4.0"))).toMatchObject({ ok: false, error: { step: "import", kind: "redirect" } });
    dify.faults.set("plugins", [{ status: 302, headers: { location: `${elsewhere.consoleBase}/workspaces/current/plugin/list` } }]);
    expect(await session.value.inventory(["llm"])).toMatchObject({ ok: false, error: { step: "inventory", kind: "redirect" } });
    dify.faults.set("run", [{ status: 307, headers: { location: `${elsewhere.serviceBase}/workflows/run` } }]);
    expect(await runWorkflow(dify.serviceBase, "app-key", { inputs: {}, user: "u" })).toMatchObject({ ok: false, error: { step: "run", kind: "redirect", status: 307 } });
    expect(elsewhere.log).toEqual([]);
  });

  it("follows a same-origin redirect of a call without a body, never re-sends one with a body", async () => {
    const session = await signIn(dify.consoleBase, "admin@example.com", "correct horse");
    if (!session.ok) throw new Error(session.error.message);
    dify.faults.set("plugins", [{ status: 307, headers: { location: "/console/api/workspaces/current/plugin/list?page=1&page_size=256" } }]);
    const before = dify.log.length;
    expect((await session.value.inventory(["llm"])).ok).toBe(true);
    expect(dify.log.slice(before, before + 2)).toEqual(["GET /console/api/workspaces/current/plugin/list", "GET /console/api/workspaces/current/plugin/list"]);
    const logins = dify.passwordsReceived.length;
    dify.faults.set("login", [{ status: 307, headers: { location: "/console/api/login" } }]);
    expect(await signIn(dify.consoleBase, "admin@example.com", "correct horse")).toMatchObject({ ok: false, error: { kind: "redirect", message: expect.stringContaining("is not sent again") } });
    // The faulted login answered before reading a password; nothing was sent a second time.
    expect(dify.passwordsReceived).toHaveLength(logins);
  });
});

