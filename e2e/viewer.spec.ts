// The workflow viewer: response pages drawn as graphs with their diagnostics, reached from the Runs table.
// Uses the shared benchmark's recorded runs when the e2e database has them, else the demo runs (same failures).
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { SHARED, SHARED_PRESENT, signIn } from "./support";

const SCREENSHOTS = path.resolve(__dirname, "screenshots");

interface Case {
  run: string;
  task: string;
  round: number;
}

/** Responses with the failure each journey needs: recorded shared runs when imported, else the demo runs. */
const CASES: Record<"forward" | "format" | "iteration", Case & { node?: string }> = SHARED_PRESENT
  ? {
      forward: { run: "deepseek_v3d2.json", task: "PerformanceChart", round: 2, node: "6" },
      format: { run: "gpt_5d1.json", task: "Creation", round: 2 },
      iteration: { run: "claude_sonnet4d5.json", task: "ResumeScreening", round: 3 },
    }
  : {
      forward: { run: "demo_beta.json", task: "ChangelogWriter", round: 2, node: "3" },
      format: { run: "demo_alpha.json", task: "GrantProposalDigest", round: 3 },
      iteration: { run: "demo_alpha.json", task: "ReceiptBatcher", round: 2 },
    };

/** Saves a screenshot of the page's workflow section (or of `selector`) into e2e/screenshots/. */
async function screenshot(page: Page, name: string, selector = 'section[aria-labelledby="workflow-title"]'): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.locator(selector).screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** From the Runs table to the run's page, then to the response of `task` round `round`. */
async function openResponse(page: Page, { run, task, round }: Case): Promise<void> {
  await page.goto("/runs");
  const runLink = page.getByTestId("run-row").getByRole("link", { name: run, exact: true });
  await expect(runLink).toHaveCount(1);
  await runLink.click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(run);
  await page.locator(`[data-testid="response-row"][data-task="${task}"][data-round="${round}"]`).getByRole("link", { name: task }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${task} · round ${round}`);
}

function canvasNode(page: Page, workflowId: string) {
  return page.locator(`[data-testid="workflow-node"][data-workflow-id="${workflowId}"]`);
}

test.describe("workflow viewer", () => {
  test.beforeAll(() => {
    if (!SHARED_PRESENT) console.log(`[viewer] shared benchmark not found at ${SHARED}; using the demo runs`);
  });

  test("an unknown response or run id answers 404 with the not-found page", async ({ page }) => {
    for (const url of ["/responses/no-such-response", "/runs/no-such-run"]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    }
  });

  test("a forward reference is marked on the reading node, with a dashed edge from the node listed later", async ({ page }) => {
    const target = CASES.forward;
    await openResponse(page, target);
    await expect(page.getByTestId("recorded-fail-step")).toContainText("step 1.2");
    const reader = canvasNode(page, target.node!);
    await expect(reader).toHaveAttribute("data-severity", "error");
    await expect(reader).toHaveAttribute("data-categories", /semantics/);
    await expect(reader.getByTestId("node-badges")).toContainText("S");
    await expect(page.locator(".react-flow__edge.workflow-edge--dashed.workflow-edge--error")).not.toHaveCount(0);

    // The diagnostic list focuses its node: centred, selected, and the selection is in the URL.
    await page.locator('[data-testid="diagnostic-item"][data-code="forward-reference"]').getByRole("button").click();
    await expect(reader).toHaveAttribute("data-selected", "true");
    await expect(page).toHaveURL(new RegExp(`[?&]node=${target.node}(&|$)`));
    const inspector = page.getByTestId("node-inspector");
    await expect(inspector).toContainText("forward-reference");
    await expect(inspector.getByRole("table", { name: "Variables this node reads" })).toBeVisible();
    await screenshot(page, "viewer-forward-reference");

    // A link to the node opens the page with the node selected.
    await page.reload();
    await expect(canvasNode(page, target.node!)).toHaveAttribute("data-selected", "true");
  });

  test("the keyboard moves between nodes along the edges and selects with Enter", async ({ page }) => {
    await openResponse(page, CASES.forward);
    const first = page.locator(".react-flow__node").first();
    await first.focus();
    const firstId = await first.getAttribute("data-id");
    await page.keyboard.press("ArrowRight");
    const focused = page.locator(".react-flow__node:focus");
    await expect(focused).toHaveCount(1);
    const nextId = await focused.getAttribute("data-id");
    expect(nextId).not.toBe(firstId);
    await page.keyboard.press("Enter");
    await expect(focused.getByTestId("workflow-node")).toHaveAttribute("data-selected", "true");
    await expect(page).toHaveURL(/[?&]node=/);
    await page.keyboard.press("ArrowLeft");
    await expect(page.locator(".react-flow__node:focus")).toHaveAttribute("data-id", firstId!);
    await page.keyboard.press("Escape");
    await expect(page.locator('[data-testid="workflow-node"][data-selected="true"]')).toHaveCount(0);
  });

  test("a JSON syntax error is shown at its position, with the repaired graph labelled as repaired", async ({ page }) => {
    await openResponse(page, CASES.format);
    const panel = page.getByTestId("parse-error");
    await expect(panel).toContainText("The workflow JSON does not parse");
    await expect(panel.getByTestId("parse-error-position").first()).toHaveText(/line \d+, column \d+ \(offset \d+\)/);
    const mark = panel.getByTestId("text-mark").first();
    await expect(mark).toBeVisible();
    await expect(mark).toContainText("/*");
    await expect(page.getByTestId("repaired-banner")).toContainText("Repaired graph — not what the model wrote");
    await expect(page.getByRole("region", { name: "Repaired workflow graph" })).toBeVisible();
    await expect(page.getByTestId("workflow-node").first()).toBeVisible();
    await screenshot(page, "viewer-format-error");
  });

  test("an iteration holds its children and the Dify YAML downloads", async ({ page }) => {
    const target = CASES.iteration;
    await openResponse(page, target);
    const container = page.locator('[data-testid="workflow-node"][data-container="true"]').first();
    await expect(container).toBeVisible();
    const key = await container.getAttribute("data-node-key");
    const children = page.locator(`[data-testid="workflow-node"][data-parent-key="${key}"]`);
    expect(await children.count()).toBeGreaterThanOrEqual(2);
    await expect(children.filter({ has: page.getByText("Iteration Start") })).toHaveCount(1);
    const outer = (await container.boundingBox())!;
    for (const child of await children.all()) {
      const box = (await child.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(outer.x);
      expect(box.y).toBeGreaterThanOrEqual(outer.y);
      expect(box.x + box.width).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
      expect(box.y + box.height).toBeLessThanOrEqual(outer.y + outer.height + 0.5);
    }
    await screenshot(page, "viewer-iteration");

    const tabs = page.getByRole("tablist", { name: "Response source" });
    await tabs.getByRole("tab", { name: "Dify YAML" }).click();
    await expect(tabs.getByRole("tab", { name: "Dify YAML" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("dify-yaml")).toContainText("kind: app");
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: `Download ${target.task}_${target.round}.yml` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${target.task}_${target.round}.yml`);
    const yaml = readFileSync((await download.path())!, "utf8");
    expect(yaml).toContain("kind: app");
    expect(yaml).toContain(`name: ${target.task}_${target.round}`);
    expect(yaml).toMatch(/type: iteration\b/);
  });
});

test.describe("model output is never executed", () => {
  const SCRIPT = "<script>window.__pwned=1</script>";
  const IMG = '<img src=x onerror="window.__pwned=1">';
  const answer = [
    "Here is the workflow.",
    `<node_selection>Start, LLM, End ${SCRIPT} ${IMG}</node_selection>`,
    `<design_principle>## Plan\n\n${SCRIPT}\n\n${IMG}\n\n[a link](javascript:window.__pwned=1)</design_principle>`,
    "<workflow>",
    JSON.stringify({
      nodes_info: [
        { id: "1", type: "start", param: { variables: [["event", "string"], ["palette", "string"]] } },
        { id: "2", type: "llm", param: { system: SCRIPT, user: `${IMG} {{#'1'.event#}}` } },
        { id: "3", type: "end", param: { outputs: [["copy", ["text", "2"]]] } },
      ],
      edges: [
        ["1", 0, "2"],
        ["2", 0, "3"],
      ],
    }),
    "</workflow>",
  ].join("\n");

  test("script tags and event handlers in a response render as inert text", async ({ page }) => {
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signIn(page, "admin", "/import");
    const file = [{ id: 6, category: "AIGC", task: "PosterCopy", answer1: answer }];
    await page.getByLabel("Choose files").setInputFiles({ name: "xss_probe.generation.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(file)) });
    const value = await page.locator("#benchmarkId option", { hasText: "Chat2Workflow demo" }).getAttribute("value");
    await page.getByLabel("Benchmark", { exact: true }).selectOption(value!);
    await page.getByLabel("Model name").fill("xss_probe");
    await page.getByRole("button", { name: "Import and score" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 30_000 });

    await openResponse(page, { run: "xss_probe.generation.json", task: "PosterCopy", round: 1 });
    await expect(page.getByTestId("design-principle")).toContainText(SCRIPT);
    await expect(page.getByTestId("design-principle")).toContainText(IMG);
    await expect(page.getByTestId("node-selection")).toContainText(SCRIPT);
    await expect(canvasNode(page, "2")).toContainText(SCRIPT);
    await canvasNode(page, "2").click();
    await expect(page.getByTestId("node-params")).toContainText(SCRIPT);
    await page.getByRole("tablist", { name: "Response source" }).getByRole("tab", { name: "Raw response" }).click();
    await expect(page.getByRole("region", { name: "Raw response" })).toContainText(IMG);

    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);
    // The only scripts are the app's own bundles, none carries the payload.
    for (const script of await page.locator("script").all()) expect(await script.textContent()).not.toContain("__pwned=1</");
    expect(dialogs).toEqual([]);
    await screenshot(page, "viewer-inert-payload", 'section[aria-labelledby="conversation-title"]');
  });
});
