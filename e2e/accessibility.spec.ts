// axe-core on the pages people use most, in both themes, signed in as an admin (who sees every control): no serious or
// critical violation on the leaderboard, a model, the tasks and a task, a response, a model diff, review, evaluations,
// jobs and settings.
import { expect, test, type Page } from "@playwright/test";
import { accessibilityViolations, SHARED_PRESENT, signIn } from "./support";

const MODEL = SHARED_PRESENT ? "gpt_5d2" : "demo_alpha";

async function firstHref(page: Page, url: string, selector: string): Promise<string> {
  await page.goto(url);
  const href = await page.locator(selector).first().getAttribute("href");
  if (!href) throw new Error(`no link ${selector} on ${url}`);
  return href;
}

test("no serious or critical axe violation on the main pages, light and dark", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, "admin", "/");
  const run = await firstHref(page, "/runs", `[data-testid="run-row"] a[href^="/runs/"]`);
  const response = await firstHref(page, run, `[data-testid="response-row"] a[href^="/responses/"]`);
  const task = await firstHref(page, "/tasks", `a[href^="/tasks/"]`);
  const diff = await firstHref(page, response, `[data-testid="response-diff-links"] a[href^="/diff/models"]`);
  const pages = ["/", `/models/${MODEL}`, "/tasks", task, run, response, diff, "/review", "/evaluations", "/jobs", "/settings", "/settings/users", "/settings/endpoints", "/settings/benchmark"];
  const found: string[] = [];
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const url of pages) {
      await page.goto(url);
      await expect(page.locator("main h1").first()).toBeVisible();
      for (const violation of await accessibilityViolations(page)) found.push(`${theme} ${url}: ${violation}`);
    }
  }
  expect(found).toEqual([]);
});
