import { expect, test } from "@playwright/test";

// Browsers ask for /favicon.ico whatever the page declares: it answers with the app's icon, so loading a page logs
// no failed request.

test("/favicon.ico answers with the app icon and a page load has no failed request", async ({ page }) => {
  const failed: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await page.goto("/");
  await expect(page.locator("h1").first()).toBeVisible();
  const icon = await page.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/icon/);
  const bytes = await icon.body();
  // An ICO directory (reserved 0, type 1) holding at least one image.
  expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);
  expect(failed).toEqual([]);
});
