// The diagnostics reference and the Coze package: a diagnostic on the response page links to its entry on
// /diagnostics, and the Dify YAML tab offers the Coze package (or says why there is none). Read-only.

import { expect, test, type Page } from "@playwright/test";
import { SHARED_PRESENT } from "./support";

/** A response that converts for Coze, and one that does not (a forward reference), in whichever data is loaded. */
const CASES = SHARED_PRESENT
  ? { converts: { run: "claude_sonnet4d5.json", task: "BatchFiles", round: 1 }, fails: { run: "deepseek_v3d2.json", task: "PerformanceChart", round: 2 } }
  : { converts: { run: "demo_alpha.json", task: "ChangelogWriter", round: 1 }, fails: { run: "demo_beta.json", task: "ChangelogWriter", round: 2 } };

async function openResponse(page: Page, { run, task, round }: { run: string; task: string; round: number }): Promise<void> {
  await page.goto("/runs");
  await page.getByTestId("run-row").getByRole("link", { name: run, exact: true }).click();
  await page.locator(`[data-testid="response-row"][data-task="${task}"][data-round="${round}"]`).getByRole("link", { name: task }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${task} · round ${round}`);
}

test.describe("diagnostics reference and Coze package", () => {
  test("a diagnostic links to its entry in the diagnostics reference", async ({ page }) => {
    await openResponse(page, CASES.fails);
    const item = page.locator('[data-testid="diagnostic-item"][data-code="forward-reference"]').first();
    await item.getByRole("link", { name: /About forward-reference/ }).click();
    await expect(page).toHaveURL(/\/diagnostics#forward-reference$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Diagnostics reference");
    const entry = page.locator("article#forward-reference");
    await expect(entry).toBeVisible();
    await expect(entry).toContainText("A reference to a node listed later");
    await expect(entry).toContainText("fails step_1_2");
  });

  test("the Dify YAML tab offers the Coze package, which downloads as a zip", async ({ page }) => {
    await openResponse(page, CASES.converts);
    await page.getByRole("tab", { name: /Dify YAML/ }).click();
    const link = page.getByTestId("coze-package").getByRole("link", { name: /Download the Coze package/ });
    await expect(link).toContainText(`Workflow-${CASES.converts.task}_${CASES.converts.round}-draft.zip`);
    const href = await link.getAttribute("href");
    const response = await page.request.get(href ?? "");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/zip");
    const body = await response.body();
    expect([...body.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    expect(body.includes(Buffer.from(`Workflow-${CASES.converts.task}_${CASES.converts.round}-draft/MANIFEST.yml`))).toBe(true);
  });

  test("a response the Coze converter cannot convert says why, and its download answers 422", async ({ page }) => {
    await openResponse(page, CASES.fails);
    await page.getByRole("tab", { name: /Dify YAML/ }).click();
    await expect(page.getByTestId("coze-package")).toContainText("No Coze package: Coze:");
    const url = new URL(page.url());
    const response = await page.request.get(`${url.pathname}/coze`);
    expect(response.status()).toBe(422);
    expect((await response.json()).error).toMatch(/^Coze: /);
  });
});
