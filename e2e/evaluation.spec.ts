import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SHARED, signIn } from "./support";

// The model is the loopback generation stub the e2e server starts (test/support/generation-stub.ts): not a model, it
// answers every question with one fixed workflow, first without tags (so an agentic turn tries again) and then inside
// a ```json fence (so the fence-stripping repair applies). The evaluation runs on the shared benchmark, which holds
// the agentic skill text; the journey adds one generated run to it and changes nothing other journeys read.
const STUB_ENDPOINT = "Loopback generation stub (not a model)";
const STUB_MODEL = "loopback-stub_fixed-workflow";

test.describe("evaluating a model endpoint from the UI", () => {
  test.skip(!existsSync(path.join(SHARED, ".agents", "skills", "chat2workflow", "SKILL.md")), `Chat2Workflow benchmark (with its agentic skill) not found at ${SHARED}`);

  test("a researcher starts an agentic evaluation of the stub, watches the grid fill, opens a turn's attempts and finds the run on the leaderboard", async ({ page }) => {
    test.setTimeout(240_000);
    await signIn(page, "researcher", "/evaluations");
    await expect(page.getByRole("heading", { name: "Evaluations", level: 1 })).toBeVisible();
    await page.getByRole("link", { name: "New evaluation" }).first().click();
    await expect(page.getByRole("heading", { name: "New evaluation", level: 1 })).toBeVisible();

    const form = page.getByRole("form", { name: "New evaluation" });
    const benchmark = await form.locator("select[name=benchmarkId] option", { hasText: /^chat2workflow \(/ }).getAttribute("value");
    await form.getByLabel("Benchmark").selectOption(benchmark ?? "");
    await form.getByLabel("Model endpoint").selectOption({ label: `${STUB_ENDPOINT} (loopback-stub/fixed-workflow)` });
    await form.getByRole("radio", { name: /^Agentic, no agent framework \(ours\)/ }).check();
    // The New evaluation page says what each mode sends, and that feedback never uses the hidden check data.
    await expect(form.getByRole("radio", { name: /^Agentic with opencode \(official\)/ })).toBeVisible();
    await expect(form.getByText(/Never the hidden check data/)).toBeVisible();
    await form.getByRole("radio", { name: /^Rule judge/ }).check();
    await form.getByLabel("Number of runs").fill("1");
    await form.getByRole("button", { name: "Start the evaluation" }).click();

    // The evaluation's own page (not the form's /evaluations/new, which also matches a looser pattern).
    await expect(page).toHaveURL(/\/evaluations\/(?!new$)[^/]+$/, { timeout: 30_000 });
    const evaluationUrl = page.url();
    const grid = page.getByTestId("evaluation-grid");
    await expect(grid).toBeVisible();
    await expect(grid.getByTestId("grid-row")).toHaveCount(27);
    // The grid fills while the page stays open: a moment with some turns stored but not all, then the end.
    await expect(page.getByTestId("evaluation-counts")).toContainText(/^([1-9]|[1-7]\d) of 79 turns stored/, { timeout: 60_000 });
    await expect(page.getByTestId("evaluation-summary")).toHaveAttribute("data-status", "succeeded", { timeout: 180_000 });
    await expect(page.getByTestId("evaluation-counts")).toContainText("79 of 79 turns stored");
    // Every stored cell says its state in words and opens its response.
    const stored = grid.locator('a[data-state="passed"], a[data-state="failed"]');
    await expect(stored).toHaveCount(79);
    await expect(stored.first()).toHaveText(/✓ pass|✗ /);
    await expect(page.getByTestId("evaluation-usage")).not.toContainText(/^Calls0/);

    // A generated agentic turn's attempts: the tagless first reply, then the fenced one repaired and accepted.
    await stored.first().click();
    await expect(page).toHaveURL(/\/responses\/[^/]+$/);
    const timeline = page.getByTestId("attempt-timeline");
    await expect(timeline).toBeVisible();
    const tabs = timeline.getByRole("tab");
    await expect(tabs).toHaveCount(2);
    await expect(tabs.nth(0)).toHaveText("Attempt 1 · no-tags");
    await expect(tabs.nth(1)).toHaveText("Attempt 2 · accepted");
    await expect(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(timeline.getByTestId("attempt-2")).toContainText("Code fence stripped");
    await expect(timeline.getByTestId("attempt-2").getByTestId("text-diff").first()).toContainText("```json");
    // Keyboard: the arrow keys move between attempts.
    await tabs.nth(1).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(tabs.nth(0)).toHaveAttribute("aria-selected", "true");
    await expect(timeline.getByTestId("attempt-1")).toContainText("Rejected: the reply has no <workflow> tags.");

    // The run is on the leaderboard of its benchmark, finished (no longer marked in progress).
    await page.goto(evaluationUrl);
    await page.getByRole("link", { name: /^Leaderboard of / }).click();
    const row = page.getByTestId("leaderboard-row").and(page.locator(`[data-model="${STUB_MODEL}"]`));
    await expect(row).toBeVisible();
    await expect(row.locator('td[data-column="Average"][data-metric="pass"]')).toContainText(/\d+\.\d{2}%/);
    await expect(row.getByTestId("in-progress")).toHaveCount(0);

    // The list shows it with its mode and status.
    await page.goto("/evaluations");
    const listed = page.getByTestId("evaluation-row").first();
    await expect(listed).toContainText("Agentic, no agent framework (ours)");
    await expect(listed).toContainText("succeeded");

    // The same model in error-feedback mode, then the paired comparison of its two runs.
    await page.getByRole("link", { name: "New evaluation" }).first().click();
    await form.getByLabel("Benchmark").selectOption(benchmark ?? "");
    await form.getByLabel("Model endpoint").selectOption({ label: `${STUB_ENDPOINT} (loopback-stub/fixed-workflow)` });
    await form.getByRole("radio", { name: /^Error feedback/ }).check();
    await form.getByLabel("Number of runs").fill("1");
    await form.getByRole("button", { name: "Start the evaluation" }).click();
    await expect(page).toHaveURL(/\/evaluations\/(?!new$)[^/]+$/, { timeout: 30_000 });
    expect(page.url()).not.toBe(evaluationUrl);
    await expect(page.getByTestId("evaluation-summary")).toHaveAttribute("data-status", "succeeded", { timeout: 180_000 });
    await page.getByRole("link", { name: "Compare with another run" }).click();
    await expect(page).toHaveURL(/\/compare\?/);
    // A is the feedback run the link names; B defaults to the model's other run, the agentic one.
    await expect(page.getByLabel("Run of A").locator("option:checked")).toHaveText(/Error feedback \(ours\) run 1/);
    await expect(page.getByLabel("Run of B").locator("option:checked")).toHaveText(/Agentic, no agent framework \(ours\) run 1/);
    await expect(page.getByTestId("compare-pass")).toBeVisible();
    const paired = page.getByTestId("paired-turns");
    await expect(paired.locator("summary")).toHaveText("Every shared turn (79): pass in A and in B");
    await expect(page.getByTestId("compare-pass-mcnemar")).toContainText("McNemar");
  });
});

test("viewers read evaluations but cannot start one", async ({ page }) => {
  await signIn(page, "viewer", "/");
  await page.goto("/evaluations/new");
  await expect(page).toHaveURL(/\/403/);
  await page.goto("/evaluations");
  await expect(page.getByRole("heading", { name: "Evaluations", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "New evaluation" })).toHaveCount(0);
});
