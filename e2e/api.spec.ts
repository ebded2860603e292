import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { accessibilityViolations, queryE2eDatabase, signIn } from "./support";

// The HTTP API against the production build: tokens made and revoked on /settings/tokens, the /api reference, and the
// Python and TypeScript examples evaluating the e2e server's loopback generation stub (not a model) on the demo
// benchmark under a model name of their own, so the journeys that read the shared benchmark see nothing new. The
// Python example's run bundle is imported back and its run page shows it verified.
const ROOT = path.resolve(__dirname, "..");
const DATABASE = process.env.E2E_DATABASE_URL ?? `file:${path.join(ROOT, "data", "e2e.db")}`;
const STUB_ENDPOINT = "Loopback generation stub (not a model)";
const EXAMPLES_ENDPOINT = "API examples stub - not a model";
const DEMO_BENCHMARK = "Chat2Workflow demo";
const run = promisify(execFile);
const cli = (script: string, args: string[]) => run("node", ["scripts/run-cli.cjs", script, ...args, "--database", DATABASE], { cwd: ROOT });

test.describe("the HTTP API", () => {
  test("a researcher makes an access token on its page, the API accepts it, and after revoking it refuses it", async ({ page, request }) => {
    await signIn(page, "researcher", "/");
    await page.getByTestId("user-role").click();
    await page.getByRole("link", { name: "Access tokens" }).click();
    await expect(page.getByRole("heading", { name: "Access tokens", level: 1 })).toBeVisible();
    const form = page.getByRole("form", { name: "New access token" });
    await form.getByLabel("Name").fill("e2e script");
    await form.getByLabel("Expires after (days)").fill("7");
    await form.getByRole("button", { name: "Create token" }).click();
    await expect(page.getByTestId("new-token")).toContainText("it is not shown again");
    const token = await page.getByLabel("The new token").inputValue();
    expect(token).toMatch(/^c2w_[A-Za-z0-9_-]{43}$/);
    const row = page.getByTestId("token-row").and(page.locator('[data-name="e2e script"]'));
    await expect(row).toHaveAttribute("data-state", "active");
    expect(await accessibilityViolations(page)).toEqual([]);

    const allowed = await request.get("/api/v1/benchmarks", { headers: { Authorization: `Bearer ${token}` } });
    expect(allowed.status()).toBe(200);
    expect(((await allowed.json()) as { benchmarks: { name: string }[] }).benchmarks.map((benchmark) => benchmark.name)).toContain(DEMO_BENCHMARK);

    // Shown once: after a reload only its first characters are on the page.
    await page.reload();
    await expect(page.getByTestId("new-token")).toHaveCount(0);
    expect(await page.content()).not.toContain(token);
    await expect(row).toContainText(token.slice(0, 10));

    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Revoke e2e script" }).click();
    await expect(row).toHaveAttribute("data-state", "revoked");
    const refused = await request.get("/api/v1/benchmarks", { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toEqual({ error: { code: "unauthenticated", message: expect.any(String) } });
  });

  test("the /api page renders the reference, and anyone may fetch the OpenAPI document", async ({ page, request }) => {
    await page.goto("/api");
    await expect(page.getByRole("heading", { name: "HTTP API", level: 1 })).toBeVisible();
    await expect(page.getByTestId("api-routes").locator("tbody tr")).toHaveCount(12);
    await expect(page.getByRole("rowheader", { name: "POST /api/v1/evaluations", exact: true })).toBeVisible();
    await page.getByText("StartEvaluation", { exact: true }).last().click();
    await expect(page.getByLabel("JSON Schema of StartEvaluation")).toContainText('"benchmark"');
    expect(await accessibilityViolations(page)).toEqual([]);
    const document = await request.get("/api/v1/openapi.json");
    expect(document.status()).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });

  test("the Python and TypeScript examples evaluate the stub through the API, and the run's bundle imports as verified", async ({ page, request }) => {
    test.setTimeout(300_000);
    const admin = (await cli("scripts/user.ts", ["token", "create", "--email", "admin@demo.local", "--name", "e2e admin"])).stdout.trim();
    const researcher = (await cli("scripts/user.ts", ["token", "create", "--email", "researcher@demo.local", "--name", "e2e examples"])).stdout.trim();
    const endpoints = (await (await request.get("/api/v1/model-endpoints", { headers: { Authorization: `Bearer ${researcher}` } })).json()) as { endpoints: { label: string; baseUrl: string }[] };
    const stub = endpoints.endpoints.find((endpoint) => endpoint.label === STUB_ENDPOINT);
    expect(stub, "the e2e server's generation stub endpoint").toBeDefined();
    const created = await request.post("/api/v1/model-endpoints", {
      headers: { Authorization: `Bearer ${admin}` },
      data: { label: EXAMPLES_ENDPOINT, baseUrl: stub!.baseUrl, model: "api-examples-stub/fixed-workflow", concurrency: 8 },
    });
    expect(created.status()).toBe(201);

    const out = await mkdtemp(path.join(os.tmpdir(), "c2w-e2e-api-"));
    try {
      const env = { ...process.env, C2W_API_URL: new URL(test.info().project.use.baseURL ?? "").origin, C2W_API_TOKEN: researcher, C2W_POLL_MS: "1000" };
      const python = await run("python3", ["examples/api_client.py", "--benchmark", DEMO_BENCHMARK, "--endpoint", EXAMPLES_ENDPOINT, "--poll-seconds", "1", "--out-dir", path.join(out, "py")], { cwd: ROOT, env });
      const typescript = await run("npx", ["tsx", "examples/api-client.ts", DEMO_BENCHMARK, EXAMPLES_ENDPOINT, path.join(out, "ts")], { cwd: ROOT, env });
      const turns = (await queryE2eDatabase<{ n: number }>(`SELECT COUNT(*) AS "n" FROM "Turn" t JOIN "Benchmark" b ON b."id" = t."benchmarkId" WHERE b."name" = ?`, DEMO_BENCHMARK))[0]!;
      const summaries = [python.stdout, typescript.stdout].map((output) => JSON.parse(output) as { status: string; runs: { id: string; records: number; bundle: string }[] });
      for (const summary of summaries) {
        expect(summary.status).toBe("succeeded");
        expect(summary.runs[0]!.records).toBe(Number(turns.n));
      }

      const imported = await cli("scripts/import.ts", ["--bundle", summaries[0]!.runs[0]!.bundle]);
      expect(imported.stdout).toBe("verified\n");
      const copy = (await queryE2eDatabase<{ runId: string }>(`SELECT "runId" AS "runId" FROM "RunBundleImport" WHERE "provenance" LIKE ?`, `%${summaries[0]!.runs[0]!.id}%`))[0]!;
      await page.goto(`/runs/${copy.runId}`);
      const provenance = page.getByTestId("bundle-provenance");
      await expect(provenance).toHaveAttribute("data-verification", "verified");
      await expect(provenance).toContainText("Imported from a run bundle");
      await expect(provenance).toContainText(EXAMPLES_ENDPOINT);
      expect(await accessibilityViolations(page, { within: '[data-testid="bundle-provenance"]' })).toEqual([]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
