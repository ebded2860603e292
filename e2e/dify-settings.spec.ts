import { expect, test } from "@playwright/test";
import { fullFakeInventory, startFakeDify, type FakeDify } from "../test/support/fake-dify";
import { signIn } from "./support";

// The Difys are loopback fakes of Dify's console API (not a real Dify): a 1.9 and a 1.12 whose workspace lacks the
// mermaid plugin. The connection test signs in to each (sending the password as its version expects) and checks its
// workspace against what the benchmark's node types need.
const PASSWORD = "e2e-dify-secret-password-WXYZ";
const LABEL = "e2e fake dify";

let dify: FakeDify;
let newer: FakeDify;

test.beforeAll(async () => {
  dify = await startFakeDify({ email: "owner@example.com", password: PASSWORD });
  const full = fullFakeInventory();
  newer = await startFakeDify({
    email: "owner@example.com",
    password: PASSWORD,
    version: "1.12.0",
    inventory: { ...full, plugins: full.plugins.filter((plugin) => plugin !== "hjlarry/mermaid_converter"), toolProviders: full.toolProviders.filter((provider) => provider.pluginId !== "hjlarry/mermaid_converter") },
  });
});

test.afterAll(async () => {
  await dify.close();
  await newer.close();
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
    await expect(row.getByTestId("dify-test-status")).toContainText("(Dify 1.9.2, password sent as typed)");
    expect(dify.log).toContain("POST /console/api/login");
    const ready = page.getByRole("region", { name: `Readiness of ${LABEL}` });
    await expect(ready.getByTestId("dify-readiness-summary")).toContainText("has every model provider, model and tool plugin");
    await expect(ready.getByTestId("dify-readiness-row").and(page.locator('[data-state="ready"]')).first()).toBeVisible();
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

  test("a Dify 1.12 gets the password base64-encoded, and the readiness check names the plugin its workspace lacks", async ({ page }) => {
    const label = "e2e newer dify";
    await signIn(page, "admin", "/settings/dify");
    await page.getByRole("button", { name: "Add a Dify connection" }).click();
    const form = page.getByRole("form", { name: "Add a Dify connection" });
    await form.getByLabel("Name").fill(label);
    await form.getByLabel("Dify origin").fill(newer.origin);
    await form.getByLabel("Account email").fill("owner@example.com");
    await form.getByLabel("Account password").fill(PASSWORD);
    await form.getByLabel("Account password").press("Enter");
    const row = page.getByTestId("dify-connection-row").filter({ hasText: label });
    await row.getByRole("button", { name: `Test sign-in to ${label}` }).click();
    await expect(row.getByTestId("dify-test-status")).toContainText("(Dify 1.12.0, password sent base64-encoded)");
    expect(newer.passwordsReceived).toEqual([Buffer.from(PASSWORD).toString("base64")]);
    const ready = page.getByRole("region", { name: `Readiness of ${label}` });
    await expect(ready.getByTestId("dify-readiness-summary")).toContainText("The workspace lacks 2 of the");
    const missing = ready.getByTestId("dify-readiness-row").and(page.locator('[data-state="missing"]'));
    await expect(missing).toHaveCount(2);
    await expect(missing.first()).toContainText("plugin hjlarry/mermaid_converter");
    await expect(missing.first()).toContainText("tool mermaid_converter");
    await expect(missing.first()).toContainText("not installed");
  });

  test("a researcher cannot open the Dify settings", async ({ page }) => {
    await signIn(page, "researcher", "/");
    await page.goto("/settings/dify");
    await expect(page).toHaveURL(/\/403/);
  });
});
