import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startFakeDify, type FakeDify } from "../test/support/fake-dify";
import { accessibilityViolations, signIn } from "./support";

// The Dify is a loopback fake of Dify 1.9's console and service APIs (not a real Dify): it runs no workflow and
// answers each run with its inputs as outputs. A researcher executes a raw-output run of the demo benchmark on it
// without an LLM judge: the cases with text outputs are "not judged", so the run has no resolve rate anywhere —
// run page, Runs page, leaderboard — until a resolve judge answers them. The journey adds one run (its own model) to
// the demo benchmark and changes nothing other journeys read.
const DEMO_RUNS = path.resolve(__dirname, "../prisma/demo/runs");
const CASE_FILES = path.resolve(__dirname, "../prisma/demo");
const PASSWORD = "e2e-dify-execution-password";
const LABEL = "e2e execution dify";
const MODEL = "e2e_dify_execution";

let dify: FakeDify;

test.use({ bypassCSP: true });

test.beforeAll(async () => {
  dify = await startFakeDify({ email: "owner@example.com", password: PASSWORD });
});

test.afterAll(async () => {
  await dify.close();
});

test.describe("executing a run on Dify without an LLM judge", () => {
  test("its resolve stage shows “not judged”, never a rate, on the run page, the Runs page and the leaderboard, and offers to judge them", async ({ page }) => {
    test.setTimeout(180_000);
    // An admin adds the connection (researchers may use it, not manage it).
    await signIn(page, "admin", "/settings/dify");
    const form = page.getByRole("form", { name: "Add a Dify connection" });
    if (!(await form.isVisible())) await page.getByRole("button", { name: "Add a Dify connection" }).click();
    await form.getByLabel("Name").fill(LABEL);
    await form.getByLabel("Dify origin").fill(dify.origin);
    await form.getByLabel("Account email").fill("owner@example.com");
    await form.getByLabel("Account password").fill(PASSWORD);
    await form.getByRole("button", { name: "Add connection" }).click();
    await expect(page.getByTestId("dify-connection-row").filter({ hasText: LABEL })).toBeVisible();

    // A raw-output run of the demo benchmark under a model of its own (a trailing newline makes it new content, so it
    // is imported rather than recognised as the demo run it copies).
    await page.goto("/import");
    const answers = JSON.parse(readFileSync(path.join(DEMO_RUNS, "demo_delta.generation.json"), "utf8")) as Record<string, unknown>[];
    await page.getByLabel("Choose files").setInputFiles({ name: `${MODEL}.json`, mimeType: "application/json", buffer: Buffer.from(JSON.stringify(answers.map((entry) => ({ ...entry, answer1: `${String(entry.answer1)}\n` })))) });
    const demo = await page.locator("#benchmarkId option", { hasText: "Chat2Workflow demo" }).getAttribute("value");
    await page.getByLabel("Benchmark", { exact: true }).selectOption(demo!);
    await page.getByLabel("Model name").fill(MODEL);
    await page.getByRole("button", { name: "Import and score" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 30_000 });

    await page.goto("/runs");
    await page.getByTestId("run-row").filter({ hasText: `${MODEL}.json` }).getByRole("link").first().click();
    await expect(page).toHaveURL(/\/runs\/[^/]+$/);
    const runUrl = page.url();

    // Execute on Dify with no resolve judge: the page says which judge decides the turns sent.
    const execute = page.getByRole("form", { name: "Execute on Dify" });
    await expect(execute.getByTestId("dify-pass-gate")).toContainText("the rule judge (not the official LLM judge)");
    await execute.getByLabel("Dify connection").selectOption({ label: `${LABEL} (${dify.origin})` });
    await execute.getByLabel("Case-files directory (on the server)").fill(CASE_FILES);
    await execute.getByLabel("Resolve judge").selectOption("");
    await execute.getByRole("button", { name: "Execute on Dify" }).click();
    await expect(execute.getByRole("status")).toContainText("Started:");
    await execute.getByRole("link", { name: "Follow the job" }).click();
    await expect(page.getByTestId("job-status")).toHaveText("succeeded", { timeout: 120_000 });
    expect(dify.log).toContain("POST /v1/workflows/run");

    // The run page: no rate, the number of cases not judged, and the way to judge them.
    await page.goto(runUrl);
    const judging = page.getByRole("form", { name: "Judge the test cases not judged" });
    await expect(judging.getByTestId("resolve-not-judged")).toContainText(/\d+ test cases have text outputs no LLM judge has answered/);
    const notJudged = Number(/(\d+) test case/.exec((await judging.getByTestId("resolve-not-judged").textContent()) ?? "")?.[1]);
    expect(notJudged).toBeGreaterThan(0);
    await expect(judging.getByRole("button", { name: "Judge them" })).toBeVisible();
    expect(await accessibilityViolations(page, { within: "main", level: "wcag" })).toEqual([]);

    // The Runs page and the leaderboard say the same: not judged, never a percentage, and no resolve rank.
    await page.goto("/runs");
    await expect(page.getByTestId("run-row").filter({ hasText: `${MODEL}.json` }).getByTestId("run-resolve-not-judged")).toHaveText(`not judged (${notJudged})`);
    await page.goto(`/?benchmark=${encodeURIComponent("Chat2Workflow demo")}`);
    const row = page.getByTestId("leaderboard-row").and(page.locator(`[data-model="${MODEL}"]`));
    await expect(row.locator('td[data-column="Average"][data-metric="resolve"]')).toHaveText(`not judged (${notJudged})`);
    await expect(row.locator('td[data-column="Average"][data-metric="pass"]')).toContainText(/\d+\.\d{2}%/);
  });
});
