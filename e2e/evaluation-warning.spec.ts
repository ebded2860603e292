import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { accessibilityViolations, SHARED, signIn } from "./support";

// An evaluation that is going nowhere says so early. The endpoint is a loopback stub started by scripts/e2e-server.ts
// (not a model): it answers every question in prose without the tagged sections, and its /models lists another model.
// The endpoint test says the model is not listed and shows the reply's first lines; an agentic evaluation warns within
// its first turns with replies to look at, is cancelled in one click, and its final status says why nothing passed.
const TAGLESS_ENDPOINT = "Loopback tagless stub (not a model)";

test.describe("an evaluation that is going nowhere", () => {
  test.skip(!existsSync(path.join(SHARED, ".agents", "skills", "chat2workflow", "SKILL.md")), `Chat2Workflow benchmark (with its agentic skill) not found at ${SHARED}`);

  test("the endpoint test says the server does not list the model and shows the reply's first lines", async ({ page }) => {
    await signIn(page, "admin", "/settings/endpoints");
    await page.getByRole("button", { name: `Test connection to ${TAGLESS_ENDPOINT}` }).click();
    const status = page.getByTestId("endpoint-test-status");
    await expect(status).toContainText("Failed: The server does not list loopback-stub/no-tags at /models (it lists loopback-stub/some-other-model).");
    await expect(status).toContainText(/answered in \d+ ms/);
    await expect(status).toContainText("Reply (first lines): Here is a workflow for you, described in words only.");
  });

  test("an agentic evaluation of a model that never answers with tags warns within its first turns, is cancelled in one click and ends saying why", async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, "researcher", "/evaluations/new");
    const form = page.getByRole("form", { name: "New evaluation" });
    const benchmark = await form.locator("select[name=benchmarkId] option", { hasText: /^chat2workflow \(/ }).getAttribute("value");
    await form.getByLabel("Benchmark").selectOption(benchmark ?? "");
    await form.getByLabel("Model endpoint").selectOption({ label: `${TAGLESS_ENDPOINT} (loopback-stub/no-tags)` });
    await form.getByRole("radio", { name: /^Agentic, no agent framework \(ours\)/ }).check();
    await form.getByRole("radio", { name: /^Rule judge/ }).check();
    await form.getByLabel("Number of runs").fill("1");
    await form.getByRole("button", { name: "Start the evaluation" }).click();
    await expect(page).toHaveURL(/\/evaluations\/(?!new$)[^/]+$/, { timeout: 30_000 });

    const warning = page.getByTestId("early-warning");
    await expect(warning).toContainText("None of the first 5 turns' replies has the tagged sections", { timeout: 90_000 });
    await expect(page.getByTestId("evaluation-summary")).toHaveAttribute("data-status", "running");
    const examples = warning.locator('li[data-kind="no-tags"]').getByRole("link");
    await expect(examples).toHaveCount(3);
    const example = await examples.first().getAttribute("href");
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      expect(await accessibilityViolations(page), `evaluation page (${theme})`).toEqual([]);
    }

    await warning.getByRole("button", { name: "Cancel it now" }).click();
    await expect(page.getByTestId("evaluation-summary")).toHaveAttribute("data-status", "cancelled", { timeout: 60_000 });
    await expect(page.getByTestId("evaluation-outcome")).toContainText(/Cancelled: all \d+ stored turns failed at step 1\.1 \(tags and JSON\): no reply had the tagged sections\./);
    await expect(page.getByTestId("evaluation-outcome")).toHaveAttribute("data-tone", "bad");

    // A reply to look at: the turn's page shows the prose the model sent, tagless.
    await page.goto(example!);
    await expect(page.getByTestId("verdict-chip")).toContainText("fails at step 1.1");
  });
});
