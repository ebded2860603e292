// Every section a role may use is in the header at every width, visible or one click away (a group menu, or the phone's
// Menu button), and reachable by keyboard; the settings area opens each of its sections in two clicks; the users page
// invites an account and changes its role.
import { expect, test, type Page } from "@playwright/test";
import { navigationFor, navLinks, isNavGroup, type NavEntry } from "../components/app-shell/nav-items";
import { accessibilityViolations, DEMO, signIn, type DemoRole } from "./support";

const WIDTHS = [1280, 1440, 1920, 375] as const;
const ROLES: DemoRole[] = ["admin", "researcher", "annotator", "viewer"];

/** Where a link lives: the group it is under (null for a top-level link). */
function groupOf(entries: NavEntry[], href: string): string | null {
  for (const entry of entries) if (isNavGroup(entry) && entry.items.some((item) => item.href === href)) return entry.label;
  return null;
}

async function headerFits(page: Page): Promise<void> {
  const overflow = await page.locator("header").evaluate((header) => {
    const inner = header.firstElementChild as HTMLElement;
    return { scroll: inner.scrollWidth, client: inner.clientWidth, page: document.documentElement.scrollWidth, viewport: window.innerWidth };
  });
  expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
  expect(overflow.page).toBeLessThanOrEqual(overflow.viewport);
}

test.describe("the header at every width", () => {
  for (const role of ROLES) {
    test(`a ${role} sees every section they may use, visible or one click away, at 1280, 1440, 1920 and 375 px`, async ({ page }) => {
      await signIn(page, role, "/");
      const entries = navigationFor(role);
      const links = navLinks(entries);
      expect(links.length).toBeGreaterThan(8);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await headerFits(page);
        const phone = width < 1024;
        for (const link of links) {
          const group = groupOf(entries, link.href);
          const opener = phone ? page.getByRole("button", { name: "Menu" }) : group ? page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: group }) : null;
          if (opener) await opener.click();
          const target = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: link.label, exact: true });
          await expect(target, `${role} at ${width}px: ${link.label}`).toBeVisible();
          const box = await target.boundingBox();
          expect(box!.x + box!.width, `${link.label} inside the viewport at ${width}px`).toBeLessThanOrEqual(width);
          if (opener) {
            await page.keyboard.press("Escape");
            await expect(target).toBeHidden();
          }
        }
      }
    });
  }

  test("keyboard: Tab reaches a group button, Enter opens it, Tab reaches its links and Enter follows one (desktop and phone)", async ({ page }) => {
    await signIn(page, "researcher", "/");
    await page.setViewportSize({ width: 1440, height: 900 });
    const evaluate = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Evaluate" });
    await page.getByRole("link", { name: "Skip to content" }).focus();
    for (let step = 0; step < 20 && !(await evaluate.evaluate((element) => element === document.activeElement)); step += 1) await page.keyboard.press("Tab");
    await expect(evaluate).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(evaluate).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Import", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/import$/);

    await page.setViewportSize({ width: 375, height: 800 });
    const menu = page.getByRole("button", { name: "Menu" });
    await page.getByRole("link", { name: "Skip to content" }).focus();
    for (let step = 0; step < 20 && !(await menu.evaluate((element) => element === document.activeElement)); step += 1) await page.keyboard.press("Tab");
    await expect(menu).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const jobs = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Jobs", exact: true });
    for (let step = 0; step < 20 && !(await jobs.evaluate((element) => element === document.activeElement)); step += 1) await page.keyboard.press("Tab");
    await expect(jobs).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/jobs$/);
    await expect(menu).toHaveAttribute("aria-expanded", "false");
  });
});

test.describe("settings", () => {
  test("an admin reaches every settings section in two clicks from any page, and a viewer only their access tokens", async ({ page }) => {
    await signIn(page, "admin", "/runs");
    await page.setViewportSize({ width: 1440, height: 900 });
    const sections = ["Users and roles", "Model endpoints", "Dify connections", "Coze export", "Default benchmark", "Access tokens"];
    for (const section of sections) {
      await page.goto("/runs");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
      await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: section }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(section);
    }
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const path of ["/settings", "/settings/users", "/settings/benchmark"]) {
        await page.goto(path);
        expect(await accessibilityViolations(page), `${path} (${theme})`).toEqual([]);
      }
    }

    await page.context().clearCookies();
    await signIn(page, "viewer", "/settings");
    await expect(page.getByTestId("settings-sections").getByRole("link")).toHaveText(["Access tokens"]);
    await page.goto("/settings/users");
    await expect(page).toHaveURL(/\/403/);
  });

  test("the users page invites an account, which signs in with the password shown once, and changes its role", async ({ page, browser }) => {
    await signIn(page, "admin", "/settings/users");
    const email = `invited-${Date.now()}@example.org`;
    const form = page.getByRole("form", { name: "Invite a user" });
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Name (optional)").fill("Invited Annotator");
    await form.getByLabel("Role").selectOption("annotator");
    await form.getByRole("button", { name: "Invite" }).click();
    const secret = page.getByTestId("temporary-password");
    await expect(secret).toContainText(email);
    const password = (await secret.locator(".font-mono").textContent())!.trim();
    expect(password.length).toBeGreaterThanOrEqual(20);
    const row = page.locator(`[data-testid="user-row"][data-email="${email}"]`);
    await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("annotator");

    await row.getByLabel(`Role of ${email}`).selectOption("researcher");
    await expect(page.getByRole("status")).toContainText(`${email} is now Researcher`);
    await page.reload();
    await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("researcher");

    const other = await browser.newContext();
    const invited = await other.newPage();
    await invited.goto("/signin");
    await invited.getByLabel("Email").fill(email);
    await invited.getByLabel("Password").fill(password);
    await invited.getByRole("button", { name: "Sign in" }).click();
    await expect(invited.getByTestId("user-role")).toHaveText(DEMO.researcher.label);
    await other.close();
  });
});
