import { expect, test } from "@playwright/test";
import { DEMO, signIn, type DemoRole } from "./support";

test.describe("sign-in and roles", () => {
  for (const role of Object.keys(DEMO) as DemoRole[]) {
    test(`${role} signs in and sees the role in the user menu`, async ({ page }) => {
      await signIn(page, role);
      await page.getByTestId("user-role").click();
      await expect(page.getByText(`Role: ${DEMO[role].label}`)).toBeVisible();
    });
  }

  test("a wrong password is rejected with a message", async ({ page }) => {
    await page.goto("/signin");
    await page.getByLabel("Email").fill(DEMO.admin.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#main").getByRole("alert")).toHaveText("Wrong email or password.");
    await expect(page.getByTestId("user-role")).toHaveCount(0);
  });

  test("a viewer is refused the import page", async ({ page }) => {
    await signIn(page, "viewer");
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Import", exact: true })).toHaveCount(0);
    await page.goto("/import");
    await expect(page).toHaveURL(/\/403/);
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
    await expect(page).toHaveTitle(/Access denied/);
  });

  test("an anonymous visitor is sent to sign in for a write page and back after", async ({ page }) => {
    await page.goto("/import");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fimport/);
    await page.getByLabel("Email").fill(DEMO.researcher.email);
    await page.getByLabel("Password").fill(DEMO.researcher.password);
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL(/\/import$/);
    await expect(page.getByRole("heading", { name: "Import", level: 1 })).toBeVisible();
  });

  test("signing out returns to an anonymous session", async ({ page }) => {
    await signIn(page, "admin");
    await page.getByTestId("user-role").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
    await page.goto("/review");
    await expect(page).toHaveURL(/\/signin/);
  });

  test("the sign-in form is labelled, titled and keyboard-usable", async ({ page }) => {
    await page.goto("/signin");
    await expect(page).toHaveTitle(/Sign in/);
    await expect(page.getByLabel("Email")).toBeFocused();
    await page.keyboard.type(DEMO.annotator.email);
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Password")).toBeFocused();
    await page.keyboard.type(DEMO.annotator.password);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("user-role")).toHaveText("Annotator");
  });
});

test.describe("app shell", () => {
  test("every main page has a title and an empty state or content", async ({ page }) => {
    await signIn(page, "admin");
    for (const [path, title] of [
      ["/", "Leaderboard"],
      ["/tasks", "Tasks"],
      ["/runs", "Runs"],
      ["/review", "Review"],
      ["/import", "Import"],
      ["/evaluations", "Evaluations"],
      ["/evaluations/new", "New evaluation"],
    ] as const) {
      await page.goto(path);
      await expect(page).toHaveTitle(new RegExp(title));
      await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
    }
  });

  test("the theme toggle switches between light and dark", async ({ page }) => {
    await page.goto("/");
    const html = page.locator("html");
    const toggle = page.getByRole("button", { name: /Switch to (dark|light) theme/ });
    const before = (await html.getAttribute("class")) ?? "";
    await toggle.click();
    await expect.poll(async () => ((await html.getAttribute("class")) ?? "").includes("dark")).toBe(!before.includes("dark"));
  });
});
