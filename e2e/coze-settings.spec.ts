import { expect, test } from "@playwright/test";
import { signIn } from "./support";

// The GitHub token Coze packages carry in their HTTP nodes: set by an admin, shown back only as its last four
// characters, never as a value on a page.
const TOKEN = "github_pat_e2e_coze_token_7Q2Z";

test.describe("Coze export settings", () => {
  test("an admin sets the token from the Jobs page and sees only its last four characters; then removes it", async ({ page }) => {
    await signIn(page, "admin", "/jobs");
    await page.getByRole("link", { name: "Coze export" }).click();
    await expect(page).toHaveURL(/\/settings\/coze$/);
    await expect(page.getByRole("heading", { name: "Coze export" })).toBeVisible();
    const form = page.getByRole("form", { name: "GitHub token for Coze packages" });
    await expect(form.getByRole("status")).toHaveText("No token is set: HTTP nodes carry EMPTY.");

    await form.getByLabel("GitHub token").fill(TOKEN);
    await form.getByLabel("GitHub token").press("Enter");
    await expect(form.getByRole("status")).toHaveText("A token is set (ends in 7Q2Z).");
    await expect(form.getByLabel("GitHub token")).toHaveValue("");
    await page.reload();
    await expect(form.getByRole("status")).toHaveText("A token is set (ends in 7Q2Z).");
    expect(await page.content()).not.toContain(TOKEN);

    await form.getByRole("button", { name: "Remove the token" }).click();
    await expect(form.getByRole("status")).toHaveText("No token is set: HTTP nodes carry EMPTY.");
  });

  test("a researcher cannot open it", async ({ page }) => {
    await signIn(page, "researcher", "/");
    await page.goto("/settings/coze");
    await expect(page).toHaveURL(/\/403/);
  });
});
