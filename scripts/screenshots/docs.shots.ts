// Takes every picture in docs/screenshots/ (run by `npm run screenshots`, not by the test suite). Evaluations are
// started through the HTTP API against the loopback stubs the e2e server starts (not models), so no journey repeats.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { DIFF, LARGEST, queryE2eDatabase, responseUrl, runId, SHARED_PRESENT, signIn, waitForPaint } from "../../e2e/support";
import { STABILITY_PORT } from "./playwright.config";

const ROOT = path.resolve(__dirname, "..", "..");
const OUT = path.join(ROOT, "docs", "screenshots");
const shot = (name: string) => path.join(OUT, `${name}.png`);

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  if (!SHARED_PRESENT) throw new Error("The screenshots show the shared Chat2Workflow benchmark: clone it to ../shared/chat2workflow or set C2W_BENCHMARK_DIR.");
  if (process.env.E2E_DATABASE_URL) throw new Error("Screenshots are taken on the SQLite e2e database; unset E2E_DATABASE_URL.");
  mkdirSync(OUT, { recursive: true });
});

/** A researcher's API token on the e2e database, made by the user CLI. */
function researcherToken(): string {
  const made = spawnSync(process.execPath, ["scripts/run-cli.cjs", "scripts/user.ts", "token", "create", "--email", "researcher@demo.local", "--name", `screenshots-${Date.now()}`, "--database", `file:${path.join(ROOT, "data", "e2e.db")}`], { cwd: ROOT, encoding: "utf8" });
  if (made.status !== 0) throw new Error(`token create failed: ${made.stderr}`);
  return made.stdout.trim();
}

/** Starts an evaluation through the HTTP API and returns its id. */
async function startEvaluation(page: Page, token: string, body: Record<string, unknown>): Promise<string> {
  const answer = await page.request.post("/api/v1/evaluations", { headers: { Authorization: `Bearer ${token}` }, data: body });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

async function shootPages(browser: Browser, colorScheme: "light" | "dark", width: number, urls: Record<string, string>): Promise<void> {
  const context = await browser.newContext({ viewport: { width, height: width > 600 ? 900 : 812 }, colorScheme });
  const page = await context.newPage();
  for (const [name, url] of Object.entries(urls)) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    if (name === "response" || name === "diff") {
      await waitForPaint(page);
      // The graph is what these pictures are for: centre the (first) canvas in the window.
      await page.getByTestId("workflow-canvas").first().evaluate((element) => element.scrollIntoView({ block: "center" }));
    }
    await page.waitForTimeout(300);
    await page.screenshot({ path: shot(`${name}-${colorScheme}-${width}`), fullPage: name !== "response" && name !== "diff" });
  }
  await context.close();
}

test("the leaderboard, a response graph, a diff and the charts in both themes at 1440 and 375 px", async ({ page, browser }) => {
  const response = await responseUrl(page, LARGEST);
  const diff = `/diff/turns?run=${await runId(page, DIFF.run)}&task=${DIFF.task}&round=${DIFF.round}`;
  const urls = { leaderboard: "/", response, diff, charts: "/charts" };
  for (const scheme of ["light", "dark"] as const) for (const width of [1440, 375]) await shootPages(browser, scheme, width, urls);
});

test("the main menu at 1440 and 375 px, and users and roles", async ({ page }) => {
  await signIn(page, "admin", "/");
  await page.setViewportSize({ width: 1440, height: 900 });
  const evaluate = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Evaluate" });
  await evaluate.click();
  await expect(evaluate).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: shot("nav-menu-1440"), clip: { x: 0, y: 0, width: 1440, height: 360 } });

  await page.setViewportSize({ width: 375, height: 800 });
  const menu = page.getByRole("button", { name: "Menu" });
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: shot("nav-menu-375") });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/settings/users");
  await expect(page.getByTestId("user-row").first()).toBeVisible();
  await page.screenshot({ path: shot("settings-users-1440") });
});

test("an evaluation's grid, a generated turn's attempts, and the early warning of one going nowhere", async ({ page }) => {
  const token = researcherToken();
  await signIn(page, "researcher", "/evaluations");

  const tagless = await startEvaluation(page, token, { benchmark: "chat2workflow", endpoint: "Loopback tagless stub (not a model)", mode: "agentic", judge: { kind: "rule" }, runs: 1 });
  await page.goto(`/evaluations/${tagless}`);
  const warning = page.getByTestId("early-warning");
  await expect(warning).toContainText("None of the first 5 turns' replies has the tagged sections", { timeout: 120_000 });
  await warning.screenshot({ path: shot("evaluation-early-warning") });
  const cancelled = await page.request.post(`/api/v1/evaluations/${tagless}/cancel`, { headers: { Authorization: `Bearer ${token}` } });
  expect(cancelled.status()).toBe(200);

  const agentic = await startEvaluation(page, token, { benchmark: "chat2workflow", endpoint: "Loopback generation stub (not a model)", mode: "agentic", judge: { kind: "rule" }, runs: 1 });
  await page.goto(`/evaluations/${agentic}`);
  await expect(page.getByTestId("evaluation-summary")).toHaveAttribute("data-status", "succeeded", { timeout: 300_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shot("evaluation-grid") });

  await page.getByTestId("evaluation-grid").locator('a[data-state="passed"], a[data-state="failed"]').first().click();
  const timeline = page.getByTestId("attempt-timeline");
  await expect(timeline.getByRole("tab")).toHaveCount(2);
  // Below the sticky header: the timeline's heading at the top of the window.
  await timeline.evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 80));
  await page.screenshot({ path: shot("attempt-timeline") });
});

test("a generated turn's page, graph first, and its run's own judge", async ({ page }) => {
  const judge = "Loopback judge stub (not a model)";
  const token = researcherToken();
  await signIn(page, "researcher", "/evaluations");
  const id = await startEvaluation(page, token, { benchmark: "Chat2Workflow demo", endpoint: "Loopback replay stub (not a model)", mode: "zero-shot", judge: { kind: "llm", endpoints: [judge] }, runs: 1 });
  await page.goto(`/evaluations/${id}`);
  await expect(page.getByTestId("evaluation-summary")).toHaveAttribute("data-status", "succeeded", { timeout: 300_000 });
  const [judged] = await queryE2eDatabase<{ id: string }>(
    `SELECT r."id" AS "id" FROM "Response" r JOIN "Run" u ON u."id" = r."runId" JOIN "PassResult" p ON p."responseId" = r."id"
      WHERE u."evaluationId" = ? AND p."verdictSource" = 'judge' ORDER BY r."id" LIMIT 1`,
    id,
  );
  expect(judged, "a turn the judge stub decided").toBeDefined();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/responses/${judged!.id}`);
  await waitForPaint(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: shot("response-graph-first-1440") });
  await page.getByTestId("own-judge").screenshot({ path: shot("response-own-judge") });
});

test("stability across three runs pooled under one name (an illustration)", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`http://localhost:${STABILITY_PORT}/models/three_runs_illustration?benchmark=chat2workflow`);
  const stability = page.getByTestId("stability");
  await expect(stability.getByTestId("stability-row").first()).toBeVisible();
  await stability.screenshot({ path: shot("model-stability-1440") });
});
