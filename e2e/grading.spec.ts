// Scoring-guide grades: a response's grade card, a run's report (minimum reporting bundle) and a promotion check
// between two runs. Uses the shared benchmark's recorded runs when the e2e database has them, else the demo runs.

import { expect, test, type Page } from "@playwright/test";
import { SHARED_PRESENT, signIn } from "./support";

/** A response that fails the format gate (step_1_1), and two runs to compare. */
const CASE = SHARED_PRESENT
  ? { run: "gpt_5d1.json", task: "Creation", round: 2, candidate: "gpt_5d2.json", baseline: "gpt_5d1.json" }
  : { run: "demo_alpha.json", task: "GrantProposalDigest", round: 3, candidate: "demo_beta.json", baseline: "demo_alpha.json" };

async function openRun(page: Page, run: string): Promise<void> {
  await page.goto("/runs");
  const runLink = page.getByTestId("run-row").getByRole("link", { name: run, exact: true });
  await expect(runLink).toHaveCount(1);
  await runLink.click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(run);
}

async function runOption(page: Page, select: string, label: string): Promise<string> {
  const option = page.locator(`select[name="${select}"] option`, { hasText: label });
  await expect(option).toHaveCount(1);
  return (await option.getAttribute("value")) ?? "";
}

test.describe("grades", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "viewer");
  });

  test("a response's grade card shows the failed gate, F and the weighted score kept for diagnostics", async ({ page }) => {
    await openRun(page, CASE.run);
    await page.locator(`[data-testid="response-row"][data-task="${CASE.task}"][data-round="${CASE.round}"]`).getByRole("link", { name: CASE.task }).click();
    const card = page.getByTestId("grade-card");
    await expect(card).toBeVisible();
    await expect(card.getByTestId("grade-letter")).toHaveText("F");
    await expect(card.getByTestId("grade-explanation")).toContainText("F: release-blocking — hard gate format");
    await expect(card.getByTestId("grade-explanation")).toContainText("kept for diagnostics only");
    const gates = card.getByTestId("grade-gates").getByRole("listitem");
    await expect(gates).toHaveCount(4);
    await expect(gates.filter({ hasText: "format" }).first()).toContainText("fail");
    const criteria = card.getByTestId("grade-criteria");
    await expect(criteria.getByRole("row", { name: /resolve_ratio/ })).toContainText("ratio");
    await expect(criteria.getByRole("row", { name: /diagnostics_severity/ })).toContainText("lower_is_better");
    await expect(criteria.getByRole("row", { name: /latency/ })).toContainText("Not applicable");
  });

  test("a run report carries the minimum reporting bundle", async ({ page }) => {
    await openRun(page, CASE.run);
    await page.getByRole("link", { name: "Grade report" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Run report");
    await expect(page.getByTestId("report-pass-rate")).toHaveText(/^\d+\.\d%$/);
    await expect(page.getByTestId("report-weighted-mean")).toHaveText(/^\d+\.\d\d$/);
    await expect(page.getByTestId("report-gates").getByRole("row")).toHaveCount(5);
    await expect(page.getByTestId("report-gates").getByRole("row", { name: /format/ })).toBeVisible();
    await expect(page.getByTestId("report-criteria").getByRole("row", { name: /resolve_ratio|judge_verdict/ }).first()).toBeVisible();
    await expect(page.locator('[role="img"][aria-label^="Per-criterion distribution"] svg').first()).toBeVisible();
    const reasons = page.getByTestId("report-reasons").getByRole("listitem");
    await expect(reasons.first()).toContainText("floor missed: resolve_ratio");
    await expect(reasons.filter({ hasText: "gate format" }).first()).toBeVisible();
  });

  test("a promotion check between two runs gives its verdict with each rule's figures", async ({ page }) => {
    await page.goto("/promote");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Promotion check");
    const candidate = await runOption(page, "candidate", CASE.candidate);
    const baseline = await runOption(page, "baseline", CASE.baseline);
    await page.locator('select[name="candidate"]').selectOption(candidate);
    await page.locator('select[name="baseline"]').selectOption(baseline);
    await page.getByRole("button", { name: "Check promotion" }).click();
    await expect(page).toHaveURL(new RegExp(`candidate=${candidate}.*baseline=${baseline}`));
    const verdict = page.getByTestId("promotion-verdict");
    await expect(verdict).toHaveText(SHARED_PRESENT ? "PROMOTE" : /^(PROMOTE|HOLD)$/);
    const rules = page.getByTestId("promotion-rules").getByRole("row");
    await expect(rules).toHaveCount(5);
    await expect(rules.filter({ hasText: "Weighted score improved or non-inferior" })).toContainText("paired bootstrap");
    await expect(page.getByTestId("promotion-order")).toContainText(/By grade: (candidate|baseline) .* above (candidate|baseline) .*\(ordered by/);
    if (SHARED_PRESENT) {
      // The reverse comparison must not promote the weaker run.
      await page.goto(`/promote?candidate=${baseline}&baseline=${candidate}`);
      await expect(page.getByTestId("promotion-verdict")).toHaveText("HOLD");
    }
  });

  test("the leaderboard's grade columns switch on and off from the URL", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("leaderboard-grades")).toHaveCount(0);
    await page.getByTestId("grades-toggle").click();
    await expect(page).toHaveURL(/grades=1/);
    const rows = page.getByTestId("leaderboard-grades").locator("tbody tr");
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId("leaderboard-grades").getByRole("columnheader", { name: "Order" })).toBeVisible();
    await expect(page.getByTestId("leaderboard-run-grades").locator("tbody tr").first()).toBeVisible();
    await page.getByTestId("grades-toggle").click();
    await expect(page.getByTestId("leaderboard-grades")).toHaveCount(0);
  });
});
