import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { locateBenchmarkDir } from "../lib/server/benchmark-location";
import { toPostgresStatement } from "../lib/sql/postgres-statement";

export const DEMO = {
  admin: { email: "admin@demo.local", password: "admin-demo-pass", label: "Admin" },
  researcher: { email: "researcher@demo.local", password: "researcher-demo-pass", label: "Researcher" },
  annotator: { email: "annotator@demo.local", password: "annotator-demo-pass", label: "Annotator" },
  viewer: { email: "viewer@demo.local", password: "viewer-demo-pass", label: "Viewer" },
} as const;

export type DemoRole = keyof typeof DEMO;

const sharedBenchmark = locateBenchmarkDir({ projectDir: path.resolve(__dirname, "..") });
/** The Chat2Workflow benchmark the e2e server imported (C2W_BENCHMARK_DIR, else ../shared/chat2workflow). */
export const SHARED = sharedBenchmark.dir;
/** Whether it is there; specs fall back to the demo data, or skip, when it is not. */
export const SHARED_PRESENT = sharedBenchmark.ok;

export async function signIn(page: Page, role: DemoRole, callbackUrl = "/"): Promise<void> {
  const account = DEMO[role];
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("user-role")).toHaveText(account.label);
}

export interface AxeScope {
  /** Only this element (a CSS selector); the whole document by default. */
  within?: string;
  /** Elements left out (CSS selectors), each named by the journey that leaves it out. */
  exclude?: string[];
  /** "serious" (default): serious and critical violations of every rule; "wcag": every WCAG 2 A/AA violation. */
  level?: "serious" | "wcag";
}

/**
 * axe-core's violations on the page, each as "rule (count): first targets". The script runs through the DevTools
 * protocol, which the page's CSP does not govern, so no journey needs to bypass it.
 */
export async function accessibilityViolations(page: Page, scope: AxeScope = {}): Promise<string[]> {
  const source = await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  return page.evaluate(async ({ within, exclude, level }) => {
    type Violation = { id: string; impact: string | null; nodes: { target: unknown[] }[] };
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    const context = exclude.length ? { include: [[within ?? "html"]], exclude: exclude.map((selector) => [selector]) } : within ? document.querySelector(within)! : document;
    const options = level === "wcag" ? { resultTypes: ["violations"], runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } } : { resultTypes: ["violations"] };
    const result = await axe.run(context, options);
    return result.violations
      .filter((violation) => level === "wcag" || violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id} (${violation.nodes.length}): ${violation.nodes.slice(0, 3).map((node) => JSON.stringify(node.target)).join(" ")}`);
  }, { within: scope.within ?? null, exclude: scope.exclude ?? [], level: scope.level ?? "serious" });
}

/**
 * Reads the e2e database directly, for facts the journey cannot see on a page: data/e2e.db, or the PostgreSQL
 * database E2E_DATABASE_URL names (`npm run test:e2e:pg`). `sql` is written once with `?` parameters.
 */
export async function queryE2eDatabase<Row>(sql: string, ...values: unknown[]): Promise<Row[]> {
  const postgresUrl = process.env.E2E_DATABASE_URL;
  if (postgresUrl) {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      return (await client.query(toPostgresStatement(sql), values)).rows as Row[];
    } finally {
      await client.end();
    }
  }
  const db = new BetterSqlite3(path.resolve(__dirname, "..", "data", "e2e.db"), { readonly: true });
  try {
    return db.prepare(sql).all(...values) as Row[];
  } finally {
    db.close();
  }
}

/**
 * Fills the "Add an endpoint" form on /settings/endpoints and returns it, ready to submit. The form opens by itself
 * only when no endpoint exists (the e2e server seeds some): the button is retried until the page has hydrated.
 */
export async function fillNewEndpoint(page: Page, endpoint: { label: string; model: string; baseURL: string; apiKey?: string }) {
  const open = page.getByRole("button", { name: "Add an endpoint" });
  const form = page.getByRole("form", { name: "Add an endpoint" });
  if (await open.isVisible()) {
    await expect(async () => {
      if (await open.isVisible()) await open.click();
      await expect(form).toBeVisible({ timeout: 1_000 });
    }).toPass();
  }
  await form.getByLabel("Name (the judge label of its verdicts)").fill(endpoint.label);
  await form.getByLabel("Model id").fill(endpoint.model);
  await form.getByLabel("Base URL").fill(endpoint.baseURL);
  if (endpoint.apiKey !== undefined) await form.getByLabel("API key").fill(endpoint.apiKey);
  return form;
}

/** The largest workflow among the shared runs (36 nodes, two iterations), else the demo's iteration case. */
export const LARGEST = SHARED_PRESENT ? { run: "claude_sonnet4d5.json", task: "ResumeScreening", round: 3 } : { run: "demo_alpha.json", task: "ReceiptBatcher", round: 2 };
/** A turn whose diff against the previous round shows several kinds of change. */
export const DIFF = SHARED_PRESENT ? { run: "deepseek_v3d1.json", task: "StudyPlanner", round: 2 } : { run: "demo_alpha.json", task: "ReceiptBatcher", round: 2 };

/** The id of the run with this label, read from the Runs page. */
export async function runId(page: Page, run: string): Promise<string> {
  await page.goto("/runs");
  const href = await page.getByTestId("run-row").getByRole("link", { name: run, exact: true }).first().getAttribute("href");
  const id = href?.split("/").pop();
  if (!id) throw new Error(`no run ${run}`);
  return id;
}

/** The page of one response of a run, read from the run's page. */
export async function responseUrl(page: Page, target: { run: string; task: string; round: number }): Promise<string> {
  await page.goto(`/runs/${await runId(page, target.run)}`);
  const href = await page.locator(`[data-testid="response-row"][data-task="${target.task}"][data-round="${target.round}"]`).getByRole("link", { name: target.task }).getAttribute("href");
  if (!href) throw new Error(`no response ${target.task} round ${target.round}`);
  return href;
}

/** Waits until the workflow canvas has painted its first frame. */
export async function waitForPaint(page: Page): Promise<void> {
  await page.waitForFunction(() => performance.getEntriesByName("workflow-canvas:painted").length > 0);
}
