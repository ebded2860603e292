// The HTTP API (v1) driven over HTTP against the route handlers on a loopback test server, with the generation stub,
// a judge stub and the fake Dify: tokens from the CLI (use, revoke, expiry, role changes), the error shape and every
// status code, the OpenAPI document (every route and schema in it, every answer matching its schema), an evaluation
// started through the API giving the same run, records and leaderboard rows as the same evaluation started from the
// page, cancelling, the leaderboard rows the export CLI prints, and the Python and TypeScript examples end to end.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import { startEvaluationAction } from "@/app/actions/evaluations";
import { GET as pagePassRecords } from "@/app/runs/[runId]/download/pass-records/route";
import { GET as pageResolveRecords } from "@/app/runs/[runId]/download/resolve-records/route";
import { GET as pageResponses } from "@/app/runs/[runId]/download/responses/route";
import { API_ERRORS } from "@/lib/api/errors";
import { API_ROUTES, API_SCHEMAS, errorSchema, type ApiRouteSpec } from "@/lib/server/api/contract";
import { sha256 } from "@/lib/server/hash";
import { stopPgBoss } from "@/lib/server/jobs/pg-queue";
import { issueApiToken } from "@/lib/server/tokens";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { startApiServer, type ApiServer } from "../support/api-server";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";
import { DIFY_EMAIL, SECRETS, startEvaluationWorld, type EvaluationWorld } from "../support/evaluation-world";
import { ensureRoleUsers, signInAs } from "../support/session-mock";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../support/session-mock")).nextAuthMock }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));

// Read when the server configuration is first loaded (lazily, inside the first request).
process.env.IN_PROCESS_WORKER = "false";
process.env.API_RATE_LIMIT_PER_MINUTE = "100";
process.env.API_MAX_BODY_KB = "16";
process.env.C2W_SECRETS_KEY ??= randomBytes(32).toString("base64");

const ROOT = path.resolve(__dirname, "../..");
const run = promisify(execFile);

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

describe.skipIf(!benchmarkDir)(`the HTTP API${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let world: EvaluationWorld;
  let server: ApiServer;
  const tokens: Record<string, string> = {};

  async function call(method: string, route: string, options: { token?: string | null; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token !== null) headers.authorization ??= `Bearer ${options.token ?? tokens.admin}`;
    let body: BodyInit | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${server.origin}${route}`, { method, headers, ...(body !== undefined ? { body, duplex: "half" } : {}) } as RequestInit);
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  /** An error answer: its status, exactly {error: {code, message}}, and the code that status stands for. */
  function expectError(answer: Answer, code: keyof typeof API_ERRORS, message?: RegExp) {
    expect({ status: answer.status, body: answer.json }).toMatchObject({ status: API_ERRORS[code].status, body: { error: { code } } });
    const parsed = errorSchema.strict().safeParse(answer.json);
    expect(parsed.success, answer.text).toBe(true);
    if (message) expect((answer.json as z.output<typeof errorSchema>).error.message).toMatch(message);
  }

  /** A success answer that its route's schema in the OpenAPI document describes. */
  function expectAnswer<T extends keyof typeof API_SCHEMAS>(answer: Answer, status: number, schema: T): z.output<(typeof API_SCHEMAS)[T]> {
    expect(answer.status, answer.text).toBe(status);
    const parsed = API_SCHEMAS[schema].safeParse(answer.json);
    expect(parsed.success, JSON.stringify(parsed.error?.issues ?? [])).toBe(true);
    return parsed.data as z.output<(typeof API_SCHEMAS)[T]>;
  }

  /** A POST declaring a huge body and sending only its first bytes: the answer must come before the rest is sent. */
  function declaredLength(route: string, token: string, length: number): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(`${server.origin}${route}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": String(length) } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          request.destroy();
          resolve({ status: response.statusCode ?? 0, headers: new Headers(response.headers as Record<string, string>), text, json: JSON.parse(text) as unknown });
        });
      });
      request.on("error", (error) => (error.message.includes("socket hang up") ? undefined : reject(error)));
      request.write('{"benchmark": "');
    });
  }

  const cli = (script: string, args: string[]) => run("node", ["scripts/run-cli.cjs", script, ...args, "--database", testDatabaseUrl()], { cwd: ROOT, env: { ...process.env, DATABASE_URL: testDatabaseUrl() } });

  beforeAll(async () => {
    await emptyDatabase(db);
    await ensureRoleUsers(db);
    world = await startEvaluationWorld(db, benchmarkDir as string);
    for (const role of ["admin", "researcher", "annotator", "viewer"]) {
      const issued = await issueApiToken(db, `user-${role}`, { name: `${role} token` });
      if (!issued.ok) throw new Error(issued.issues.join("; "));
      tokens[role] = issued.token;
    }
    server = await startApiServer();
  });
  afterAll(async () => {
    await server?.close();
    await world?.close();
    await stopPgBoss();
  });

  it("tokens: the CLI prints one alone, it acts with its user's current role, and revoked, expired or unknown ones get 401", async () => {
    await db.user.create({ data: { id: "user-cli", email: "cli-user@example.org", role: "viewer", passwordHash: "x" } });
    const created = await cli("scripts/user.ts", ["token", "create", "--email", "cli-user@example.org", "--name", "ci job", "--expires-days", "30"]);
    const token = created.stdout.trim();
    expect(created.stdout.split("\n").filter(Boolean)).toHaveLength(1);
    expect(token).toMatch(/^c2w_[A-Za-z0-9_-]{43}$/);
    // Stored as its hash only.
    const row = await db.apiToken.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
    expect(row.expiresAt!.getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);

    expectAnswer(await call("GET", "/api/v1/benchmarks", { token }), 200, "BenchmarkList");
    expectError(await call("GET", "/api/v1/model-endpoints", { token }), "forbidden", /viewer/);
    // The role is read on every request: promoted, the same token may list endpoints.
    await db.user.update({ where: { id: "user-cli" }, data: { role: "researcher" } });
    expectAnswer(await call("GET", "/api/v1/model-endpoints", { token }), 200, "EndpointList");

    const listed = await cli("scripts/user.ts", ["token", "list", "--email", "cli-user@example.org"]);
    expect(listed.stdout).toContain(row.id);
    expect(listed.stdout).toContain("active");
    expect(listed.stdout).not.toContain(token);
    await cli("scripts/user.ts", ["token", "revoke", "--id", row.id]);
    expectError(await call("GET", "/api/v1/benchmarks", { token }), "unauthenticated", /revoked or expired/);

    const expiring = (await cli("scripts/user.ts", ["token", "create", "--email", "cli-user@example.org", "--name", "short", "--expires-days", "1"])).stdout.trim();
    expect((await call("GET", "/api/v1/benchmarks", { token: expiring })).status).toBe(200);
    await db.apiToken.update({ where: { tokenHash: sha256(expiring) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await call("GET", "/api/v1/benchmarks", { token: expiring }), "unauthenticated");

    expectError(await call("GET", "/api/v1/benchmarks", { token: null }), "unauthenticated", /Authorization: Bearer/);
    expectError(await call("GET", "/api/v1/benchmarks", { token: `c2w_${"A".repeat(43)}` }), "unauthenticated");
    expectError(await call("GET", "/api/v1/benchmarks", { headers: { authorization: `Basic ${Buffer.from("admin:x").toString("base64")}` } }), "unauthenticated");
    // A signed-in browser session is no API credential.
    signInAs("admin");
    expectError(await call("GET", "/api/v1/benchmarks", { token: null }), "unauthenticated");
  });

  it("answers every error in one shape, with the listed status codes", async () => {
    const researcher = tokens.researcher!;
    expectError(await call("POST", "/api/v1/evaluations", { token: researcher, raw: "{not json", headers: { "content-type": "application/json" } }), "malformed", /not valid JSON/);
    expectError(await call("POST", "/api/v1/evaluations", { token: researcher, raw: "[1, 2]", headers: { "content-type": "application/json" } }), "malformed", /JSON object/);
    expectError(await call("POST", "/api/v1/evaluations", { token: researcher, raw: "benchmark=x", headers: { "content-type": "application/x-www-form-urlencoded" } }), "malformed", /Content-Type: application\/json/);
    expectError(await call("POST", "/api/v1/evaluations", { token: researcher, body: { benchmark: "x", endpoint: "y", mode: "one-shot" } }), "invalid_field", /^mode: /);
    expectError(await call("POST", "/api/v1/evaluations", { token: researcher, body: { benchmark: "x", endpoint: "y", mode: "zero-shot", color: "red" } }), "invalid_field", /^color: not a field/);
    expectError(await call("POST", "/api/v1/evaluations", { token: researcher, body: { benchmark: "no-such-benchmark", endpoint: "y", mode: "zero-shot" } }), "invalid_field", /^benchmark: /);
    expectError(await call("POST", "/api/v1/evaluations", { token: researcher, body: { benchmark: world.benchmarkId, endpoint: "no-such-endpoint", mode: "zero-shot" } }), "invalid_field", /^endpoint: /);
    expectError(await call("POST", "/api/v1/model-endpoints", { body: { label: "rule", baseUrl: "http://127.0.0.1:9/v1", model: "m" } }), "invalid_field", /^label: /);
    expectError(await call("POST", "/api/v1/model-endpoints", { body: { label: "x", baseUrl: "ftp://example.org", model: "m" } }), "invalid_field", /^baseUrl: /);
    // Bodies are bounded before they are read: a declared length over the limit, and a body streaming past it.
    expectError(await declaredLength("/api/v1/evaluations", researcher, 64 * 1024 * 1024), "too_large", /16384 bytes/);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`{"benchmark": "${"x".repeat(20 * 1024)}"}`));
        controller.close();
      },
    });
    expectError(await call("POST", "/api/v1/evaluations", { token: researcher, raw: streamed, headers: { "content-type": "application/json" } }), "too_large", /16384 bytes/);
    expectError(await call("GET", "/api/v1/evaluations/no-such-evaluation"), "not_found");
    expectError(await call("POST", "/api/v1/evaluations/no-such-evaluation/cancel"), "not_found");
    expectError(await call("GET", "/api/v1/runs/no-such-run/pass-records"), "not_found");
    expectError(await call("GET", "/api/v1/runs/no-such-run/resolve-records"), "not_found");
    expectError(await call("GET", "/api/v1/runs/no-such-run/bundle"), "not_found");
    expectError(await call("GET", "/api/v1/leaderboard?benchmark=no-such-benchmark"), "not_found");

    const label = `dup-${randomBytes(3).toString("hex")}`;
    expectAnswer(await call("POST", "/api/v1/model-endpoints", { body: { label, baseUrl: "http://127.0.0.1:9/v1", model: "m" } }), 201, "Created");
    expectError(await call("POST", "/api/v1/model-endpoints", { body: { label, baseUrl: "http://127.0.0.1:9/v1", model: "m" } }), "conflict", /^label: /);
    await db.modelEndpoint.deleteMany({ where: { label } });

    // The rate limit counts per token: a burst past it gets 429 with Retry-After; another token is unaffected.
    const limited = await issueApiToken(db, "user-viewer", { name: "burst" });
    if (!limited.ok) throw new Error("no token");
    const statuses: number[] = [];
    let refused: Answer | null = null;
    for (let i = 0; i < 400; i++) {
      const answer = await call("GET", "/api/v1/openapi.json", { token: limited.token });
      statuses.push(answer.status);
      const counted = await call("GET", "/api/v1/benchmarks", { token: limited.token });
      if (counted.status === 429) {
        refused = counted;
        break;
      }
    }
    expect(refused, "no request was refused").not.toBeNull();
    expectError(refused!, "rate_limited");
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The public document is not counted against the token.
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await call("GET", "/api/v1/benchmarks", { token: tokens.viewer })).status).toBe(200);
  });

  it("serves an OpenAPI 3.1 document, without a token, describing every route, body, answer and error", async () => {
    const answer = await call("GET", "/api/v1/openapi.json", { token: null });
    expect(answer.status).toBe(200);
    const document = answer.json as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown; security: unknown[] }>>; components: { schemas: Record<string, unknown> } };
    expect(document.openapi).toBe("3.1.0");
    // Every route handler under app/api/v1 is a path and method of the document.
    const handlers = Object.keys((await import("@/lib/auth/endpoint-access")).ENDPOINT_ACCESS).filter((key) => key.startsWith("app/api/v1/"));
    expect(handlers.length).toBe(Object.keys(API_ROUTES).length);
    for (const key of handlers) {
      const [file, method] = key.split("#") as [string, string];
      const openApiPath = `/${path.dirname(file).replace(/^app\//, "").replace(/\[(\w+)\]/g, "{$1}")}`;
      expect(document.paths[openApiPath]?.[method.toLowerCase()], `${method} ${openApiPath}`).toBeDefined();
    }
    for (const name of Object.keys(API_SCHEMAS)) expect(document.components.schemas[name], name).toBeDefined();
    // Every reference resolves, and every route's errors are documented with the error schema.
    const refs = [...answer.text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter((name) => !(name in document.components.schemas))).toEqual([]);
    for (const route of Object.values(API_ROUTES as Record<string, ApiRouteSpec>)) {
      const operation = document.paths[route.path]![route.method.toLowerCase()]!;
      for (const code of route.errors) expect(operation.responses[String(API_ERRORS[code].status)], `${route.path} ${code}`).toBeDefined();
      expect(Boolean(operation.requestBody)).toBe(Boolean(route.request));
      expect(operation.security.length).toBe(route.path.endsWith("openapi.json") ? 0 : 1);
    }
    const startEvaluation = document.components.schemas.StartEvaluation as { required: string[]; properties: Record<string, unknown> };
    expect(startEvaluation.required.sort()).toEqual(["benchmark", "endpoint", "mode"]);
    expect(Object.keys(startEvaluation.properties).sort()).toEqual(["benchmark", "dify", "endpoint", "judge", "maxTokens", "mode", "runs", "temperature"]);
  });

  it("an evaluation started through the API gives the same run, records and leaderboard rows as the same one started from the page", async () => {
    // Admin: the endpoints and the Dify connection, through the API (keys and password are never answered).
    const apiEndpoint = expectAnswer(await call("POST", "/api/v1/model-endpoints", { body: { label: "api generation", baseUrl: world.generation.baseURL, model: "api-model", apiKey: SECRETS.endpointKey, concurrency: 8, timeoutSeconds: 30 } }), 201, "Created");
    const pageEndpoint = expectAnswer(await call("POST", "/api/v1/model-endpoints", { body: { label: "page generation", baseUrl: world.generation.baseURL, model: "page-model", apiKey: SECRETS.endpointKey, concurrency: 8 } }), 201, "Created");
    const judge = expectAnswer(await call("POST", "/api/v1/model-endpoints", { body: { label: "stub judge", baseUrl: world.judge.baseURL, model: "stub-judge", apiKey: SECRETS.judgeKey } }), 201, "Created");
    expectAnswer(await call("POST", "/api/v1/dify-connections", { body: { label: "fake dify", baseUrl: world.dify.origin, email: DIFY_EMAIL, password: SECRETS.difyPassword, runTimeoutSeconds: 60 } }), 201, "Created");
    expectError(await call("POST", "/api/v1/dify-connections", { body: { label: "fake dify", baseUrl: world.dify.origin, email: DIFY_EMAIL, password: "x" } }), "conflict");
    const listed = await call("GET", "/api/v1/model-endpoints", { token: tokens.researcher });
    const endpoints = expectAnswer(listed, 200, "EndpointList").endpoints;
    expect(endpoints.find((endpoint) => endpoint.id === apiEndpoint.id)).toEqual({ id: apiEndpoint.id, label: "api generation", baseUrl: world.generation.baseURL, model: "api-model", hasKey: true });
    for (const secret of Object.values(SECRETS)) expect(listed.text).not.toContain(secret);

    const benchmarks = expectAnswer(await call("GET", "/api/v1/benchmarks", { token: tokens.viewer }), 200, "BenchmarkList").benchmarks;
    const benchmark = benchmarks.find((entry) => entry.id === world.benchmarkId)!;
    expect(benchmark).toMatchObject({ slug: benchmark.name, taskCount: world.files.queries.length, turnCount: world.files.turns.size });

    // The same evaluation twice: through the API (references by slug and label) and through the page's action (ids).
    const started = expectAnswer(
      await call("POST", "/api/v1/evaluations", {
        token: tokens.researcher,
        body: { benchmark: benchmark.slug, endpoint: "api generation", mode: "zero-shot", judge: { kind: "llm", endpoints: ["stub judge"] } },
      }),
      201,
      "EvaluationCreated",
    );
    expect(started.runs).toHaveLength(1);
    signInAs("researcher");
    const page = await startEvaluationAction({ benchmarkId: world.benchmarkId, endpointId: pageEndpoint.id, mode: "zero-shot", judge: { kind: "llm", endpointIds: [judge.id] }, runCount: 1 });
    if (!page.ok) throw new Error(page.message);

    const running = expectAnswer(await call("GET", `/api/v1/evaluations/${started.id}`, { token: tokens.viewer }), 200, "Evaluation");
    expect(running).toMatchObject({ id: started.id, status: "running", mode: "zero-shot", judge: { kind: "llm", endpoints: ["stub judge"], samples: 1 } });
    expect(running.jobs.map((job) => job.kind)).toEqual(["generate"]);

    await world.worker().runUntilIdle();
    expect(world.replay.violations).toEqual([]);

    const apiView = expectAnswer(await call("GET", `/api/v1/evaluations/${started.id}`, { token: tokens.viewer }), 200, "Evaluation");
    const pageView = expectAnswer(await call("GET", `/api/v1/evaluations/${page.value.evaluationId}`, { token: tokens.viewer }), 200, "Evaluation");
    const turns = world.files.turns.size;
    expect(apiView.status).toBe("succeeded");
    expect(apiView.runs[0]).toMatchObject({ id: started.runs[0]!.id, status: "complete", turns: { total: turns, stored: turns } });
    expect(apiView.runs[0]!.turns.pass + apiView.runs[0]!.turns.fail).toBe(turns);
    expect(apiView.runs[0]!.turns.pass).toBeGreaterThan(0);
    expect(apiView.runs[0]!.turns.fail).toBeGreaterThan(0);
    expect(apiView.jobs.map((job) => [job.kind, job.status])).toEqual([["generate", "succeeded"], ["judge", "succeeded"]]);
    const comparable = (view: typeof apiView) => ({ ...view, id: null, runs: view.runs.map((entry) => ({ ...entry, id: null })), jobs: view.jobs.map((job) => [job.kind, job.status]) });
    expect(comparable(pageView)).toEqual(comparable(apiView));

    // Records: the API answers the run page's downloads byte for byte, and the two runs' files are identical.
    const apiRun = apiView.runs[0]!.id;
    const pageRun = pageView.runs[0]!.id;
    signInAs("viewer");
    const download = async (handler: (request: Request, context: never) => Promise<Response>, runId: string) => (await handler(new Request(`http://127.0.0.1/runs/${runId}`), { params: Promise.resolve({ runId }) } as never)).text();
    const apiPass = await call("GET", `/api/v1/runs/${apiRun}/pass-records`, { token: tokens.viewer });
    const apiResolve = await call("GET", `/api/v1/runs/${apiRun}/resolve-records`, { token: tokens.viewer });
    expectAnswer(apiPass, 200, "PassRecords");
    expectAnswer(apiResolve, 200, "ResolveRecords");
    expect(apiPass.text).toBe(await download(pagePassRecords, apiRun));
    expect(apiResolve.text).toBe(await download(pageResolveRecords, apiRun));
    expect(apiPass.text).toBe((await call("GET", `/api/v1/runs/${pageRun}/pass-records`, { token: tokens.viewer })).text);
    expect(apiResolve.text).toBe((await call("GET", `/api/v1/runs/${pageRun}/resolve-records`, { token: tokens.viewer })).text);
    expect(await download(pageResponses, apiRun)).toBe(await download(pageResponses, pageRun));
    // The evaluation's judge decided step 1_4 in both runs' records.
    const passRecords = JSON.parse(apiPass.text) as { fail_step?: string }[];
    expect(passRecords.some((record) => record.fail_step === "step_1_4")).toBe(true);

    // Leaderboard rows: the same for both models, and exactly what the export CLI prints.
    const rows = expectAnswer(await call("GET", `/api/v1/leaderboard?benchmark=${encodeURIComponent(benchmark.slug)}`, { token: tokens.viewer }), 200, "Leaderboard").rows;
    const of = (model: string) => rows.filter((row) => row.model === model).map((row) => ({ ...row, model: null }));
    expect(of("api-model").length).toBeGreaterThan(5);
    expect(of("page-model")).toEqual(of("api-model"));
    const printed = JSON.parse((await cli("scripts/export.ts", ["leaderboard", "--format", "json", "--benchmark", world.benchmarkId])).stdout) as Record<string, unknown>[];
    expect(rows).toEqual(printed);
    // Each generated run counts with the judge its evaluation chose, named on every row.
    expect(of("api-model").length).toBeGreaterThan(0);
    expect(of("api-model").filter((row) => row.judge !== "judge: stub judge ×1")).toEqual([]);
    // By id too; without a benchmark, the default one.
    expect(expectAnswer(await call("GET", `/api/v1/leaderboard?benchmark=${world.benchmarkId}`, { token: tokens.viewer }), 200, "Leaderboard").rows).toEqual(rows);
    expect(expectAnswer(await call("GET", "/api/v1/leaderboard", { token: tokens.viewer }), 200, "Leaderboard").rows).toEqual(rows);

    // Cancelling: a running evaluation is cancelled once; again, or a finished one, is a conflict.
    const another = expectAnswer(await call("POST", "/api/v1/evaluations", { token: tokens.researcher, body: { benchmark: world.benchmarkId, endpoint: apiEndpoint.id, mode: "agentic", runs: 2, judge: { kind: "rule" } } }), 201, "EvaluationCreated");
    expect(another.runs).toHaveLength(2);
    expect(expectAnswer(await call("POST", `/api/v1/evaluations/${another.id}/cancel`, { token: tokens.researcher }), 200, "EvaluationCancelled")).toEqual({ id: another.id, status: "cancelled" });
    expectError(await call("POST", `/api/v1/evaluations/${another.id}/cancel`, { token: tokens.researcher }), "conflict", /cancelled/);
    expectError(await call("POST", `/api/v1/evaluations/${started.id}/cancel`, { token: tokens.researcher }), "conflict", /finished/);
  });

  it("the Python and TypeScript examples run the whole flow against the test server", async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), "c2w-api-examples-"));
    const worker = world.worker();
    worker.start();
    try {
      const exampleToken = async (name: string) => {
        const issued = await issueApiToken(db, "user-researcher", { name });
        if (!issued.ok) throw new Error("no token");
        return issued.token;
      };
      const env = { ...process.env, C2W_API_URL: server.origin, C2W_POLL_MS: "200" };
      const python = await run("python3", ["examples/api_client.py", "--benchmark", world.benchmarkId, "--endpoint", "api generation", "--poll-seconds", "0.2", "--out-dir", path.join(out, "py")], {
        cwd: ROOT,
        env: { ...env, C2W_API_TOKEN: await exampleToken("python example") },
      });
      const typescript = await run("npx", ["tsx", "examples/api-client.ts", world.benchmarkId, "api generation", path.join(out, "ts")], { cwd: ROOT, env: { ...env, C2W_API_TOKEN: await exampleToken("ts example") } });
      for (const output of [python.stdout, typescript.stdout]) {
        const summary = JSON.parse(output) as { evaluation: string; status: string; runs: { id: string; valid: number; records: number; bundle: string }[]; leaderboardRows: number };
        expect(summary.status).toBe("succeeded");
        expect(summary.runs).toHaveLength(1);
        expect(summary.runs[0]!.records).toBe(world.files.turns.size);
        expect(summary.runs[0]!.valid).toBe(await db.passResult.count({ where: { valid: true, response: { runId: summary.runs[0]!.id } } }));
        expect(summary.leaderboardRows).toBeGreaterThan(0);
        expect((await readFile(summary.runs[0]!.bundle)).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
      }
      // Errors reach the client as the API's code and message.
      const refused = await run("python3", ["examples/api_client.py", "--benchmark", "x", "--endpoint", "y"], { cwd: ROOT, env: { ...env, C2W_API_TOKEN: "c2w_revoked" } }).catch((error: { code: number; stderr: string }) => error);
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining("HTTP 401 unauthenticated") });
    } finally {
      await worker.stop();
      await rm(out, { recursive: true, force: true });
    }
  });
});
