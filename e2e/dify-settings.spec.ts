import { expect, test } from "@playwright/test";
import { startFakeDify, type FakeDify } from "../test/support/fake-dify";
import { signIn } from "./support";

// The Dify is a loopback fake of Dify 1.9's console API (not a real Dify): the connection test signs in to it.
const PASSWORD = "e2e-dify-secret-password-WXYZ";
const LABEL = "e2e fake dify";

let dify: FakeDify;

test.beforeAll(async () => {
  dify = await startFakeDify({ email: "owner@example.com", password: PASSWORD });
});

test.afterAll(async () => {
  await dify.close();
});

test.describe("Dify connections", () => {
  test("an admin adds a connection to a loopback fake Dify, tests the sign-in and edits it; the password never reaches a page", async ({ page }) => {
    await signIn(page, "admin", "/jobs");
    await page.getByRole("link", { name: "Dify connections" }).click();
    await expect(page).toHaveURL(/\/settings\/dify$/);
    await expect(page.getByRole("heading", { name: "Dify connections" })).toBeVisible();
    await expect(page.getByText("No Dify connection yet.")).toBeVisible();

    const form = page.getByRole("form", { name: "Add a Dify connection" });
    await form.getByLabel("Name").fill(LABEL);
    await form.getByLabel("Dify origin").fill(dify.origin);
    await form.getByLabel("Account email").fill("owner@example.com");
    await form.getByLabel("Account password").fill(PASSWORD);
    // Submitted from the keyboard.
    await form.getByLabel("Account password").press("Enter");

    const row = page.getByTestId("dify-connection-row").filter({ hasText: LABEL });
    await expect(row).toBeVisible();
    await expect(row).toContainText("set");
    await expect(row).toContainText("20 min timeout · apps deleted afterwards");
    await row.getByRole("button", { name: `Test sign-in to ${LABEL}` }).click();
    await expect(row.getByTestId("dify-test-status")).toContainText("Connected: Signed in");
    expect(dify.log).toContain("POST /console/api/login");
    expect(await page.content()).not.toContain(PASSWORD);

    // The password stays empty when editing (write-only); an empty field keeps the stored one.
    await row.getByRole("button", { name: `Edit ${LABEL}` }).click();
    const edit = page.getByRole("form", { name: `Edit ${LABEL}` });
    await expect(edit.getByLabel("Account password")).toHaveValue("");
    await edit.getByLabel("Keep the apps created in Dify").check();
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(row).toContainText("apps kept");
    await row.getByRole("button", { name: `Test sign-in to ${LABEL}` }).click();
    await expect(row.getByTestId("dify-test-status")).toContainText("Connected");
  });

  test("a researcher cannot open the Dify settings", async ({ page }) => {
    await signIn(page, "researcher", "/");
    await page.goto("/settings/dify");
    await expect(page).toHaveURL(/\/403/);
  });
});
