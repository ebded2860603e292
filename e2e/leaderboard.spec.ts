import { readFileSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { SHARED_PRESENT } from "./support";

// The e2e database holds the demo benchmark and, when ../shared is present, the real benchmark with its 12 runs;
// the real one is then the default (most runs). Every journey below holds either way.
const hasShared = SHARED_PRESENT;

/** A model with one run on the default benchmark, its Research and Average figures, and a second model to compare. */
const EXPECTED = hasShared
  ? { benchmark: "chat2workflow", runs: "12 runs", model: "gpt_5d2", name: "GPT-5.2", averagePass: "69.62%", researchTurns: 15, other: "glm_4d7", discordant: 27 }
  : { benchmark: "Chat2Workflow demo", runs: "runs", model: "demo_alpha", name: "demo_alpha", averagePass: "80.00%", researchTurns: 3, other: "demo_gamma", discordant: 9 };

const table = (page: Page) => page.getByTestId("leaderboard-table");
const rows = (page: Page) => page.getByTestId("leaderboard-row");
const cell = (row: Locator, column: string, metric: "pass" | "resolve") => row.locator(`td[data-column="${column}"][data-metric="${metric}"]`);

async function averagePassValues(page: Page): Promise<number[]> {
  const texts = await page.locator('[data-testid="leaderboard-row"] td[data-column="Average"][data-metric="pass"] a > span:first-child').allInnerTexts();
  return texts.map((text) => (text.trim() === "—" ? Number.NaN : Number.parseFloat(text)));
}

test.describe("leaderboard", () => {
  test("renders Table 1 measured from the runs, sorts by a column and opens a figure's drill-down", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/Leaderboard/);
    await expect(table(page)).toBeVisible();
    await expect(page.getByTestId("leaderboard-summary")).toContainText(`measured on ${EXPECTED.benchmark}`);
    const row = rows(page).and(page.locator(`[data-model="${EXPECTED.model}"]`));
    await expect(cell(row, "Average", "pass")).toContainText(EXPECTED.averagePass);

    // Hover and keyboard focus both show the count and the 95% Wilson interval.
    const figure = cell(row, "Average", "pass").getByRole("link");
    await figure.focus();
    const tooltip = cell(row, "Average", "pass").getByRole("tooltip");
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText(" of ");
    await expect(tooltip).toContainText("95% Wilson interval");

    const header = page.getByRole("columnheader", { name: /Average pass rate/i });
    await header.getByRole("button").click();
    await expect(header).toHaveAttribute("aria-sort", "descending");
    await expect(page).toHaveURL(/sort=Average\.pass&dir=desc/);
    const descending = await averagePassValues(page);
    expect(descending.filter((value) => !Number.isNaN(value))).toEqual([...descending.filter((value) => !Number.isNaN(value))].sort((a, b) => b - a));
    await header.getByRole("button").press("Enter");
    await expect(header).toHaveAttribute("aria-sort", "ascending");
    const ascending = (await averagePassValues(page)).filter((value) => !Number.isNaN(value));
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));

    await cell(row, "Research", "pass").getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/models/${EXPECTED.model}\\?.*domain=Research`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(EXPECTED.name);
    await expect(page.getByTestId("model-turn-row")).toHaveCount(EXPECTED.researchTurns);
    await expect(page.getByRole("link", { name: "Research", exact: true })).toHaveAttribute("aria-current", "page");
    await page.getByRole("link", { name: "Leaderboard" }).first().click();
    await expect(table(page)).toBeVisible();
  });

  test("filters, searches and switches between published, measured and side by side, keeping the state in the URL", async ({ page }) => {
    await page.goto("/");
    await page.locator("label", { hasText: /^Published$/ }).click();
    await expect(page).toHaveURL(/source=published/);
    await expect(rows(page)).toHaveCount(15);
    await expect(page.getByTestId("leaderboard-summary")).toContainText("published");

    await page.getByLabel("Access").selectOption("closed");
    await expect(rows(page)).toHaveCount(4);
    await page.getByLabel("Access").selectOption("all");
    await page.getByLabel("Family").selectOption("Qwen");
    await expect(rows(page)).toHaveCount(5);
    await page.getByLabel("Family").selectOption("");
    await page.getByLabel("Search models").fill("kimi");
    await expect(rows(page)).toHaveCount(2);
    await expect(page).toHaveURL(/q=kimi/);

    await page.reload();
    await expect(rows(page)).toHaveCount(2);
    await expect(page.getByLabel("Search models")).toHaveValue("kimi");
    await page.getByLabel("Search models").fill("");

    await page.locator("label", { hasText: /^Side by side$/ }).click();
    await expect(page).toHaveURL(/source=both/);
    const row = rows(page).and(page.locator(`[data-model="${EXPECTED.model}"]`));
    await expect(cell(row, "Average", "pass")).toContainText("Δ");
    if (hasShared) await expect(cell(row, "Average", "pass")).toContainText("pub 67.51%");

    await page.locator("label", { hasText: /^Measured$/ }).click();
    await expect(page.getByTestId("leaderboard-summary")).toContainText("measured on");
    await expect(cell(row, "Average", "pass")).not.toContainText("Δ");
  });

  test("downloads the figures as CSV and the current view as JSON", async ({ page }) => {
    await page.goto("/");
    await expect(table(page)).toBeVisible();
    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "measured CSV" }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^leaderboard-measured-.*\.csv$/);
    const csvText = readFileSync((await csv.path())!, "utf8");
    expect(csvText.split("\r\n")[0]).toBe("model,configuration,judge,scope,key,passNum,passDen,resolveNum,resolveDen,predictedExecutionNum,predictedExecutionDen,predictedExecutionTurns,predictedExecutionRuns,predictedExecutionPartialRuns,predictedExecutionBy");
    expect(csvText).toContain(`${EXPECTED.model},official recorded run,recorded verdicts,overall,all,`);

    const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("group", { name: "Download this view" }).getByRole("button", { name: "JSON" }).click()]);
    expect(json.suggestedFilename()).toMatch(/\.json$/);
    const view = JSON.parse(readFileSync((await json.path())!, "utf8")) as Record<string, unknown>[];
    expect(view.length).toBe(await rows(page).count());
    expect(view.map((entry) => entry.model)).toContain(EXPECTED.model);
  });
});

test.describe("drill-downs", () => {
  test("the task list leads to a task's turns × models matrix whose cells open responses", async ({ page }) => {
    await page.goto("/tasks");
    await expect(page.getByTestId("task-row").first()).toBeVisible();
    const firstTask = page.getByTestId("task-row").first().getByRole("link");
    const name = await firstTask.innerText();
    await firstTask.click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    const matrix = page.getByTestId("task-matrix");
    await expect(matrix).toBeVisible();
    const modelRow = page.getByTestId("matrix-row").and(page.locator(`[data-model="${EXPECTED.model}"]`));
    await expect(modelRow).toHaveCount(1);
    const response = modelRow.locator('a[href^="/responses/"]').first();
    await expect(response).toHaveAccessibleName(/round \d+: (passed|failed)/);
    await expect(response).toHaveText(/[✓✗]/);
    // A row opens that run's turn diff; a column opens the model diff of that turn.
    await modelRow.getByRole("link", { name: new RegExp(`^Turn diff of ${EXPECTED.name}`) }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${name} · round 1 → 2`);
    await page.goBack();
    await matrix.getByRole("link", { name: "Compare models on round 1" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`${name} round 1`);
    await page.goBack();
    // The model name leads to its page, and back to the leaderboard.
    await modelRow.getByRole("link", { name: EXPECTED.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/models/${EXPECTED.model}`));
  });

  test("the comparison page runs McNemar's test and lists the turns where exactly one model passes", async ({ page }) => {
    await page.goto("/compare");
    await page.getByLabel("Model A").selectOption(EXPECTED.model);
    await page.getByLabel("Model B").selectOption(EXPECTED.other);
    await page.getByRole("button", { name: "Compare" }).click();
    await expect(page).toHaveURL(new RegExp(`a=${EXPECTED.model}.*b=${EXPECTED.other}`));
    await expect(page.getByTestId("compare-pass-mcnemar")).toContainText("McNemar's test");
    await expect(page.getByTestId("compare-pass-mcnemar")).toContainText(/p = (\d\.\d{4}|< 0\.0001)/);
    await expect(page.getByTestId("compare-resolve-mcnemar")).toContainText("McNemar's test");
    await expect(page.getByRole("heading", { name: `Turns where exactly one passes (${EXPECTED.discordant})` })).toBeVisible();
    const discordant = page.getByTestId("discordant-turns").locator("tbody tr");
    await expect(discordant).toHaveCount(EXPECTED.discordant);
    await expect(discordant.first().locator('a[href^="/responses/"]')).toHaveCount(2);
    const turnText = (await discordant.first().locator("td").first().innerText()).trim();
    await discordant.first().getByRole("link", { name: /^Model diff of / }).click();
    await expect(page).toHaveURL(/\/diff\/models\?turn=.+&a=.+&b=.+/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(turnText);
  });
});
