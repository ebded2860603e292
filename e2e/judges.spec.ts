import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./support";

// The e2e server seeds a stub judge ("e2e-stub-judge": a fixed rule, not a model) on demo_alpha of the demo
// benchmark (test/support/stub-judge-seed.ts); its figures there are 8 of 15 turns and 19 of 45 cases.
const DEMO = "Chat2Workflow demo";
const STUB = "e2e-stub-judge";

const alphaCell = (page: Page, column: string, metric: "pass" | "resolve") =>
  page.getByTestId("leaderboard-row").and(page.locator('[data-model="demo_alpha"]')).locator(`td[data-column="${column}"][data-metric="${metric}"]`);

test.describe("judged by", () => {
  test("switching the leaderboard to the stub judge shows its figures, and runs it has not judged as not judged", async ({ page }) => {
    await page.goto(`/?benchmark=${encodeURIComponent(DEMO)}`);
    await expect(alphaCell(page, "Average", "pass")).toContainText("80.00%");
    await page.getByLabel("Judged by").selectOption(STUB);
    await expect(page).toHaveURL(new RegExp(`judge=${STUB}`));
    await expect(alphaCell(page, "Average", "pass")).toContainText("53.33%");
    await expect(alphaCell(page, "Average", "resolve")).toContainText("42.22%");
    const notJudged = page.getByTestId("not-judged");
    // Three demo runs, plus any run the import journey added to the demo benchmark earlier in the suite.
    await expect(notJudged).toContainText(/\d+ runs left out of these figures \(not counted as zero\)/);
    await expect(notJudged).toContainText("demo_gamma");
    await expect(notJudged).toContainText("demo_beta");
    await expect(page.getByTestId("leaderboard-row").and(page.locator('[data-model="demo_beta"]'))).toHaveCount(0);

    // Sorting keeps the choice in the URL, and drill-down links carry it.
    await page.getByRole("columnheader", { name: /Average pass rate/i }).getByRole("button").click();
    await expect(page).toHaveURL(new RegExp(`judge=${STUB}`));
    await page.getByRole("link", { name: "demo_alpha", exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`/models/demo_alpha\\?.*judge=${STUB}`));
    await expect(page.getByTestId("model-turn-row")).toHaveCount(15);
    await expect(page.getByLabel("Judged by")).toHaveValue(STUB);

    // Back to the recorded verdicts.
    await page.goto(`/?benchmark=${encodeURIComponent(DEMO)}&judge=${STUB}`);
    await page.getByLabel("Judged by").selectOption("");
    await expect(page).not.toHaveURL(/judge=/);
    await expect(alphaCell(page, "Average", "pass")).toContainText("80.00%");
  });

  test("the judges page lists the stub judge, and the comparison shows kappa and turns disagreements into a queue", async ({ page }) => {
    await signIn(page, "researcher", "/judges");
    await page.goto(`/judges?benchmark=${encodeURIComponent(DEMO)}`);
    await expect(page).toHaveTitle(/Judges/);
    await expect(page.getByTestId("judges-table")).toContainText(STUB);
    await expect(page.getByTestId("pairs-pass")).toContainText(STUB);

    await page.goto(`/judges/compare?benchmark=${encodeURIComponent(DEMO)}&stage=pass&a=${STUB}&b=rule`);
    await expect(page).toHaveTitle(/Compare judges/);
    await expect(page.getByTestId("kappa")).toHaveText(/^-?\d\.\d{3}$/);
    await expect(page.getByTestId("raw-agreement")).toContainText("%");
    await expect(page.getByTestId("confusion-matrix")).toBeVisible();
    const rows = page.getByTestId("disagreements").locator("tbody tr");
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);
    await page.getByTestId("disagreement-queue").click();
    await expect(page).toHaveURL(new RegExp(`/review/[^/]+/manage\\?created=${count}$`));
  });
});
