import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { SHARED, SHARED_PRESENT, signIn } from "./support";

const DEMO_RUNS = path.resolve(__dirname, "../prisma/demo/runs");

/** The demo benchmark, whatever else the e2e database holds. */
async function chooseDemoBenchmark(page: Page) {
  const value = await page.locator("#benchmarkId option", { hasText: "Chat2Workflow demo" }).getAttribute("value");
  await page.getByLabel("Benchmark", { exact: true }).selectOption(value!);
}

test.describe("importing runs from the UI", () => {
  test("an admin uploads a run file, watches it score and finds it on the Runs page", async ({ page }) => {
    await signIn(page, "admin", "/import");
    // A variant of a demo run (new content, so it is imported rather than recognised as already present).
    const records = JSON.parse(readFileSync(path.join(DEMO_RUNS, "demo_beta.json"), "utf8")) as Record<string, unknown>[];
    const variant = records.map((record) => ({ ...record, reason: `${String(record.reason ?? "")} (second sample)` }));
    await page.getByLabel("Choose files").setInputFiles({ name: "demo_beta_sample2.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(variant)) });
    await expect(page.getByRole("list", { name: "Chosen files" })).toContainText("demo_beta_sample2.json");
    await chooseDemoBenchmark(page);
    await page.getByLabel("Model name").fill("demo_beta");
    await page.getByRole("button", { name: "Import and score" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 30_000 });
    const summary = page.getByRole("table", { name: "Imported runs" });
    await expect(summary).toContainText("demo_beta_sample2.json");
    await expect(summary).toContainText("imported");
    await expect(summary).toContainText("53.33%");

    await page.getByRole("link", { name: "See all runs" }).click();
    await expect(page).toHaveURL(/\/runs$/);
    await expect(page.getByTestId("run-row").filter({ hasText: "demo_beta_sample2.json" })).toHaveCount(1);
  });

  test("a malformed run file is rejected with the file, entry and field named, and nothing is written", async ({ page }) => {
    await signIn(page, "researcher", "/runs");
    const runsBefore = await page.getByTestId("run-row").count();
    await page.goto("/import");
    const records = JSON.parse(readFileSync(path.join(DEMO_RUNS, "demo_alpha.json"), "utf8")) as Record<string, unknown>[];
    records[2] = { ...records[2], round: "two" };
    await page.getByLabel("Choose files").setInputFiles({ name: "broken_run.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(records)) });
    await chooseDemoBenchmark(page);
    await page.getByRole("button", { name: "Import and score" }).click();
    await expect(page.getByRole("heading", { name: "Import failed" })).toBeVisible({ timeout: 30_000 });
    const problems = page.getByRole("region", { name: "Import progress" }).getByRole("alert");
    await expect(problems).toContainText("nothing was written");
    await expect(problems).toContainText("broken_run.json › record 3");
    await expect(problems).toContainText("› round:");
    await page.goto("/runs");
    await expect(page.getByTestId("run-row")).toHaveCount(runsBefore);
  });

  test("an admin re-scores a run and deletes one after confirming", async ({ page }) => {
    await signIn(page, "admin", "/import");
    // Import a throwaway run to delete, so other journeys keep the demo runs.
    const records = JSON.parse(readFileSync(path.join(DEMO_RUNS, "demo_gamma.json"), "utf8")) as Record<string, unknown>[];
    const variant = records.map((record) => ({ ...record, reason: `${String(record.reason ?? "")} (to delete)` }));
    await page.getByLabel("Choose files").setInputFiles({ name: "demo_gamma_to_delete.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(variant)) });
    await chooseDemoBenchmark(page);
    await page.getByRole("button", { name: "Import and score" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 30_000 });
    await page.goto("/runs");

    const row = page.getByTestId("run-row").filter({ hasText: "demo_gamma_to_delete.json" });
    await row.getByRole("button", { name: /Re-score/ }).click();
    await expect(row.getByRole("status")).toContainText("Re-scored 15 responses");

    const before = await page.getByTestId("run-row").count();
    await row.getByRole("button", { name: /Delete/ }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this run?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByTestId("run-row")).toHaveCount(before);
    await row.getByRole("button", { name: /Delete/ }).click();
    await dialog.getByRole("button", { name: "Delete run" }).click();
    await expect(page.getByTestId("run-row")).toHaveCount(before - 1);
    await expect(page.getByTestId("run-row").filter({ hasText: "demo_gamma_to_delete.json" })).toHaveCount(0);
  });

  test("a researcher sees no delete button", async ({ page }) => {
    await signIn(page, "researcher", "/runs");
    await expect(page.getByRole("button", { name: /Re-score/ }).first()).toBeVisible();
    await expect(page.getByRole("button", { name: /Delete/ })).toHaveCount(0);
  });
});

test.describe("importing the shared benchmark from a server directory", () => {
  test.skip(!SHARED_PRESENT, `Chat2Workflow benchmark not found at ${SHARED}`);

  test("the benchmark and its 12 runs import from the UI with their recorded pass rates", async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, "admin", "/import");
    await page.getByRole("tab", { name: "Server directory" }).click();
    await page.getByLabel("Benchmark directory on the server").fill(SHARED);
    await page.getByRole("button", { name: "Import and score" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 150_000 });
    const summary = page.getByRole("table", { name: "Imported runs" });
    await expect(summary.locator("tbody tr")).toHaveCount(12);
    await expect(summary.locator("tr", { hasText: "gpt_5d2.json" })).toContainText("69.62%");
    await expect(summary.locator("tr", { hasText: "gpt_5d2.json" })).toContainText("51.05%");
  });
});
