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

/**
 * axe-core's serious and critical violations on the page, or within `selector` (run through the DevTools protocol,
 * which the CSP does not govern), each as "rule (count): first targets".
 */
export async function accessibilityViolations(page: Page, selector?: string): Promise<string[]> {
  const source = await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  return page.evaluate(async (within) => {
    type Violation = { id: string; impact: string | null; nodes: { target: unknown[] }[] };
    const axe = (window as unknown as { axe: { run: (context: Element | Document, options: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(within ? document.querySelector(within)! : document, { resultTypes: ["violations"] });
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id} (${violation.nodes.length}): ${violation.nodes.slice(0, 3).map((node) => JSON.stringify(node.target)).join(" ")}`);
  }, selector ?? null);
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

/** axe-core's WCAG 2 A/AA violations inside <main> (the script is injected: use with `test.use({ bypassCSP: true })`). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve("axe-core") });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Element, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document.querySelector("main")!, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } });
    return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  });
}
