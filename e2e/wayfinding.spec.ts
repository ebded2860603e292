// What people see first: readable graphs, links that keep their benchmark, honest ranks, tables that fit a laptop.
// Runs last (alphabetically): its final journey imports runs into the demo benchmark.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { LARGEST, responseUrl, runId, SHARED_PRESENT, signIn, waitForPaint } from "./support";

const DEMO_RUNS = path.resolve(__dirname, "../prisma/demo/runs");

const PAIR = SHARED_PRESENT ? { a: "gpt_5d2", b: "glm_4d7" } : { a: "demo_alpha", b: "demo_gamma" };

/** The canvas's zoom: the scale of React Flow's viewport transform. */
async function canvasZoom(page: Page, index = 0): Promise<number> {
  return page
    .locator(".react-flow__viewport")
    .nth(index)
    .evaluate((element) => new DOMMatrixReadOnly(getComputedStyle(element).transform).a);
}

test.describe("readable graphs", () => {
  test("the largest shared workflow opens with node titles of at least 11 px, and keyboard focus scrolls into view", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const url = await responseUrl(page, LARGEST);
    await page.goto(url);
    await waitForPaint(page);
    const nodes = page.getByTestId("workflow-node");
    expect(await nodes.count()).toBeGreaterThan(SHARED_PRESENT ? 30 : 4);
    const title = page.getByTestId("node-title").first();
    const fontPx = await title.evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize));
    const zoom = await canvasZoom(page);
    expect(fontPx * zoom).toBeGreaterThanOrEqual(11);
    // The rendered glyph box agrees (line boxes are at least the font size).
    const box = await title.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(11);

    // End jumps to the last node from the keyboard: it ends up inside the visible pane.
    const pane = page.getByTestId("workflow-canvas-pane");
    const first = page.locator(".react-flow__node").first();
    await first.focus();
    await page.keyboard.press("End");
    const focused = page.locator(".react-flow__node:focus");
    await expect(focused).toHaveCount(1);
    await expect
      .poll(async () => {
        const node = await focused.boundingBox();
        const area = await pane.boundingBox();
        if (!node || !area) return false;
        return node.x >= area.x - 1 && node.y >= area.y - 1 && node.x + Math.min(node.width, area.width) <= area.x + area.width + 1 && node.y + Math.min(node.height, area.height) <= area.y + area.height + 1;
      })
      .toBe(true);
    // The minimap sits beside the drawing, never over it.
    const minimap = await page.getByTestId("workflow-minimap").boundingBox();
    const area = await pane.boundingBox();
    expect(minimap!.x).toBeGreaterThanOrEqual(area!.x + area!.width - 1);
  });
});

test.describe("ranks", () => {
  test("the published Rank and Rank (UB) columns match the hand-computed Wilson intervals", async ({ page }) => {
    await page.goto("/?source=published");
    // Average resolve over 3 × 237 cases: GPT-5.1 245/711 → [31.1%, 38.0%]; four models' intervals lie wholly above
    // (Gemini 428, Claude 341, GPT-5.2 337, GLM-4.7 331 → lower bounds 56.6%, 44.3%, 43.8%, 42.9%), six rates are higher.
    const row = page.locator('[data-testid="leaderboard-row"][data-model="gpt_5d1"]');
    await expect(row.getByTestId("rank")).toHaveText("7");
    await expect(row.getByTestId("rank-ub")).toHaveText("5");
    const gemini = page.locator('[data-testid="leaderboard-row"][data-model="gemini3_propreview"]');
    await expect(gemini.getByTestId("rank")).toHaveText("1");
    await expect(gemini.getByTestId("rank-ub")).toHaveText("1");
    // Equal rates (19.13%: 136/711 each) share the plain rank.
    await expect(page.locator('[data-testid="leaderboard-row"][data-model="qwen3_32B"]').getByTestId("rank")).toHaveText("12=");
    await expect(page.getByTestId("rank-explanation")).toContainText("Rank (UB)");
    await expect(row.getByTestId("rank-interval")).toContainText("31–38");
  });
});

test.describe("layout", () => {
  test("no page's tables push the page wider than 1440 px", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const run = await runId(page, LARGEST.run);
    for (const url of ["/", "/?source=both", "/?source=published", "/runs", `/runs/${run}`, "/tasks", "/charts", `/compare?a=${PAIR.a}&b=${PAIR.b}`]) {
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, url).toBeLessThanOrEqual(0);
    }
  });
});

test.describe("review integrity", () => {
  test("a queue asking more annotators per item than are assigned is refused, and the review screen shows the judge prompt", async ({ page }) => {
    await signIn(page, "researcher", "/review/new");
    await page.getByLabel("Benchmark").selectOption({ label: "Chat2Workflow demo" });
    await page.getByLabel(/^Pass stage/).check();
    await expect(page.getByTestId("matching-count")).toContainText(/\d+ judge verdicts match/);
    await page.getByLabel("Sample size").fill("2");
    await page.getByLabel("Seed").fill("ux");
    await page.getByLabel("Annotators per item").fill("3");
    await page.getByLabel(/^Reveal:/).check();
    await page.getByLabel(/^Demo Annotator/).check();
    await page.getByLabel(/^Demo Researcher/).check();
    await page.getByLabel(/^Name/).fill("UX three per item");
    await page.getByRole("button", { name: "Create queue" }).click();
    await expect(page.getByRole("form", { name: "New review queue" }).getByRole("alert")).toContainText("each item needs 3 different annotators but only 2 are assigned");
    await expect(page).toHaveURL(/\/review\/new/);

    // Two per item with the same two people is accepted; the review screen has the judge's rules one key away.
    await page.getByLabel("Annotators per item").fill("2");
    await page.getByRole("button", { name: "Create queue" }).click();
    await expect(page).toHaveURL(/\/review\/[^/]+\/manage\?created=/);
    const queueId = new URL(page.url()).pathname.split("/")[2]!;
    await page.goto(`/review/${queueId}`);
    await expect(page.getByTestId("item-heading")).toBeVisible();
    const prompt = page.getByTestId("judge-prompt");
    await expect(prompt).toBeVisible();
    await page.keyboard.press("s");
    await expect(prompt.getByTestId("judge-prompt-text")).toBeVisible();
    const demoPrompt = readFileSync(path.resolve(__dirname, "../prisma/demo/benchmark/prompts/evaluation_pass_system.txt"), "utf8");
    await expect(prompt.getByTestId("judge-prompt-text")).toContainText(demoPrompt.trim().split("\n")[0]!.slice(0, 60));
  });
});

test.describe("finding things", () => {
  test("the command palette opens with / and finds a task; /403 answers 403; the favicon is served", async ({ page }) => {
    await page.goto("/runs");
    const palette = page.getByTestId("command-palette");
    // A key pressed before the page has hydrated finds no listener: press again until the palette opens.
    await expect(async () => {
      if (!(await palette.isVisible())) await page.keyboard.press("/");
      await expect(palette).toBeVisible({ timeout: 1_000 });
    }).toPass();
    // Should the palette have opened just after a check, the next "/" went into its search field.
    await palette.getByRole("combobox", { name: "Search" }).fill("");
    await page.keyboard.type(LARGEST.task.slice(0, 6));
    const task = palette.locator('[data-testid="palette-result"][data-kind="task"]').filter({ hasText: LARGEST.task }).first();
    await expect(task).toBeVisible();
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+k");
    await expect(palette).toBeVisible();
    await page.keyboard.type(LARGEST.task.slice(0, 6));
    await expect(task).toBeVisible();
    await task.click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${LARGEST.task}\\?benchmark=`));

    const forbidden = await page.goto("/403");
    expect(forbidden?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Access denied" })).toBeVisible();
    const icon = await page.request.get("/icon.svg");
    expect(icon.status()).toBe(200);
  });
});

test.describe("stable links", () => {
  test("/ and /compare without a benchmark resolve to the same benchmark before and after importing runs into another", async ({ page }) => {
    test.setTimeout(120_000);
    const resolved = async () => {
      await page.goto("/");
      const home = new URL(page.url()).searchParams.get("benchmark");
      await page.goto(`/compare?a=${PAIR.a}&b=${PAIR.b}`);
      const compare = new URL(page.url()).searchParams;
      await expect(page.getByText(/has no run on this benchmark/)).toHaveCount(0);
      return { home, compare: compare.get("benchmark"), a: compare.get("a") };
    };
    const before = await resolved();
    expect(before.home).toBeTruthy();
    expect(before.compare).toBe(before.home);
    expect(before.a).toBe(PAIR.a);

    // Enough new runs in the demo benchmark that it now has the most runs.
    await signIn(page, "admin", "/import");
    const records = JSON.parse(readFileSync(path.join(DEMO_RUNS, "demo_beta.json"), "utf8")) as Record<string, unknown>[];
    const files = Array.from({ length: SHARED_PRESENT ? 13 : 2 }, (_, copy) => ({
      name: `demo_beta_copy${copy}.json`,
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(records.map((record) => ({ ...record, reason: `${String(record.reason ?? "")} (copy ${copy})` })))),
    }));
    await page.getByLabel("Choose files").setInputFiles(files);
    const demo = await page.locator("#benchmarkId option", { hasText: "Chat2Workflow demo" }).getAttribute("value");
    await page.getByLabel("Benchmark", { exact: true }).selectOption(demo!);
    await page.getByLabel("Model name").fill("demo_beta");
    await page.getByRole("button", { name: "Import and score" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 90_000 });

    const after = await resolved();
    expect(after).toEqual(before);
  });
});
