import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./support";

// Every page carries the Content-Security-Policy (with a fresh script nonce) and Permissions-Policy, and works under
// it: no CSP violation is reported while the pages, the workflow canvas, the charts and the theme script run.

function collectCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test.describe("security headers", () => {
  test("every page has a nonce CSP and Permissions-Policy, and nothing is blocked", async ({ page }) => {
    const violations = collectCspViolations(page);
    const nonces = new Set<string>();
    for (const path of ["/", "/runs", "/tasks", "/charts", "/compare", "/signin", "/review"]) {
      const response = await page.goto(path);
      expect(response, path).not.toBeNull();
      const headers = await response!.allHeaders();
      const csp = headers["content-security-policy"] ?? "";
      expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(headers["permissions-policy"], path).toContain("camera=()");
      nonces.add(/'nonce-([^']+)'/.exec(csp)![1]!);
    }
    expect(nonces.size).toBe(7);
    // The charts hydrated (Recharts draws in the browser).
    await page.goto("/charts");
    await expect(page.locator(".recharts-surface").first()).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("a response page draws its workflow under the CSP and stays small", async ({ page }) => {
    const violations = collectCspViolations(page);
    await page.goto("/runs");
    await page.locator('a[href^="/runs/"]').first().click();
    await page.locator('a[href^="/responses/"]').first().click();
    await expect(page.locator(".react-flow__node").first()).toBeVisible();
    const html = await (await page.request.get(page.url())).text();
    expect(html.length).toBeLessThan(2 * 1024 * 1024);
    expect(violations).toEqual([]);
  });

  test("the theme toggle's script runs with the nonce after sign-in", async ({ page }) => {
    const violations = collectCspViolations(page);
    await signIn(page, "viewer", "/");
    await expect(page.locator("html")).toHaveAttribute("class", /light|dark/);
    expect(violations).toEqual([]);
  });
});
