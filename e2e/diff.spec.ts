// Visual diffs: a run's workflow between turns (reached from the run page), stepping rounds with the scrubber, the
// change list and field text diffs, synced canvases, and two models on one turn. Uses the shared benchmark's
// deepseek_v3d1 StudyPlanner (round 2 adds an iteration) when it is imported, else demo_alpha ReceiptBatcher.
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { parseCheckPassFile } from "../lib/benchmark/dataset";
import { parseRunFile } from "../lib/benchmark/runs";
import { buildTurnSpecs } from "../lib/benchmark/turn";
import { buildComparison } from "../lib/diff-view/comparison";
import { SHARED, SHARED_PRESENT } from "./support";

const DEMO = path.resolve(__dirname, "../prisma/demo");
const SCREENSHOTS = path.resolve(__dirname, "screenshots");

interface Journey {
  /** Directory with dataset/check_pass_stage.json, and the run file. */
  benchmark: string;
  runFile: string;
  /** Round 2 of this task adds an iteration. */
  task: string;
  /** A task with a round 3 to step to with the scrubber (the same task when it has one). */
  threeRoundTask: string;
  /** Another run to compare with on round 3 of `threeRoundTask`. */
  otherRun: string;
}

const JOURNEY: Journey = SHARED_PRESENT
  ? { benchmark: SHARED, runFile: path.join(SHARED, "runs", "deepseek_v3d1.json"), task: "StudyPlanner", threeRoundTask: "StudyPlanner", otherRun: "gpt_5d2.json" }
  : { benchmark: path.join(DEMO, "benchmark"), runFile: path.join(DEMO, "runs", "demo_alpha.json"), task: "ReceiptBatcher", threeRoundTask: "GrantProposalDigest", otherRun: "demo_gamma.json" };

const RUN_LABEL = path.basename(JOURNEY.runFile);

/** What the page must show for round `round` of `task`: the same pure computation, run here on the source files. */
function expectedComparison(task: string, round: number) {
  const read = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));
  const checks = parseCheckPassFile("check_pass_stage.json", read(path.join(JOURNEY.benchmark, "dataset", "check_pass_stage.json")));
  const records = parseRunFile(RUN_LABEL, read(JOURNEY.runFile));
  if (!checks.ok || !records.ok) throw new Error("cannot read the benchmark or the run file");
  const turns = buildTurnSpecs(checks.value);
  const side = (r: number) => {
    const record = records.value.find((entry) => entry.task === task && entry.round === r);
    if (!record) throw new Error(`${RUN_LABEL} has no ${task} round ${r}`);
    return { rawText: null, nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow, turn: turns.get(`${task}_${r}`)! };
  };
  return buildComparison({ before: side(round - 1), after: side(round) });
}

/** Saves a screenshot of the whole page, or of one section, into e2e/screenshots/. */
async function screenshot(target: Page | Locator, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  if ("goto" in target) await target.screenshot({ path: file, fullPage: true });
  else await target.screenshot({ path: file });
}

function pane(page: Page, canvas: "before" | "after" | "merged"): Locator {
  return page.locator(`[data-testid="diff-pane"][data-canvas="${canvas}"]`);
}

async function viewports(page: Page): Promise<string[]> {
  return page.locator(".react-flow__viewport").evaluateAll((elements) => elements.map((element) => (element as HTMLElement).style.transform));
}

test.describe("workflow diff", () => {
  test.beforeAll(() => {
    if (!SHARED_PRESENT) console.log(`[diff] shared benchmark not found at ${SHARED}; using the demo runs`);
  });

  test("a turn diff from the run page marks the added iteration, counts the changes, and steps to round 3", async ({ page }) => {
    const expected = expectedComparison(JOURNEY.task, 2);
    await page.goto("/runs");
    await page.getByTestId("run-row").getByRole("link", { name: RUN_LABEL, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(RUN_LABEL);
    await page.locator(`[data-testid="response-row"][data-task="${JOURNEY.task}"][data-round="2"]`).getByRole("link", { name: "Turn diff, round 1 → 2" }).click();

    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${JOURNEY.task} · round 1 → 2`);
    await expect(page).toHaveTitle(new RegExp(`${JOURNEY.task} round 1 → 2`));
    await expect(page.getByTestId("instruction")).not.toBeEmpty();
    await expect(page.getByTestId("previous-instruction")).toContainText("Previous instruction (round 1)");

    // The change count, per kind and in all, and the list holds exactly that many entries.
    const total = expected.diff.summary.changeCount;
    await expect(page.getByTestId("change-count-total")).toHaveText(`${total} changes`);
    await expect(page.getByTestId("change-item")).toHaveCount(total);
    const added = expected.diff.summary.byKind["node-added"];
    expect(added).toBeGreaterThanOrEqual(3);
    await expect(page.locator('[data-testid="change-count"][data-kind="node-added"]')).toHaveAttribute("data-count", String(added));

    // Round 2's iteration and its children are marked added; unchanged nodes are dimmed; round 1 has no iteration.
    const after = pane(page, "after");
    const iteration = after.locator('[data-testid="workflow-node"][data-node-type="iteration"]');
    await expect(iteration).toHaveCount(1);
    await expect(iteration).toHaveAttribute("data-decoration", /^added/);
    const key = await iteration.getAttribute("data-node-key");
    const children = after.locator(`[data-testid="workflow-node"][data-parent-key="${key}"]`);
    expect(await children.count()).toBeGreaterThanOrEqual(2);
    await expect(children.filter({ has: page.getByText("Iteration Start") })).toHaveAttribute("data-decoration", /^added/);
    // Every node of both canvases carries the mark the diff gives it (a node moved into the iteration is "changed").
    for (const side of ["before", "after"] as const) {
      for (const node of await pane(page, side).getByTestId("workflow-node").all()) {
        const nodeKey = (await node.getAttribute("data-node-key"))!;
        await expect(node, `${side} ${nodeKey}`).toHaveAttribute("data-decoration", expected[side].marks.nodes[nodeKey]?.label ?? "");
        await expect(node, `${side} ${nodeKey}`).toHaveAttribute("data-dimmed", String(expected[side].marks.dimmed.includes(nodeKey)));
      }
    }
    const dimmedNodes = expected.after.marks.dimmed.filter((k) => k.startsWith("n")).length;
    if (SHARED_PRESENT) expect(dimmedNodes).toBeGreaterThan(0);
    await expect(after.locator('[data-testid="workflow-node"][data-dimmed="true"]')).toHaveCount(dimmedNodes);
    await expect(pane(page, "before").locator('[data-testid="workflow-node"][data-node-type="iteration"]')).toHaveCount(0);
    await expect(after.locator(".react-flow__edge.workflow-edge--good")).not.toHaveCount(0);
    await screenshot(page.locator('section[aria-labelledby="graphs-title"]'), "diff-turn-graphs");

    // n steps through the list; a changed node's prompt shows as a text diff; the node is selected on both canvases.
    const modified = expected.diff.changes.findIndex((change) => change.kind === "node-modified" && (change.fields ?? []).some((field) => field.text));
    expect(modified, "the turn diff has a modified node with a text field").not.toBe(-1);
    await page.locator("body").press("n");
    await expect(page.getByTestId("change-position")).toHaveText(`1 / ${total}`);
    await page.getByTestId("change-item").nth(modified).click();
    const detail = page.getByTestId("change-detail");
    await expect(detail).toHaveAttribute("data-kind", "node-modified");
    await expect(detail.getByTestId("text-diff").first().locator("ins, del").first()).toBeVisible();
    await expect(page.locator('[data-testid="workflow-node"][data-selected="true"]')).toHaveCount(2);
    await page.locator("body").press("n");
    await expect(page.getByTestId("change-position")).toHaveText(`${modified + 2} / ${total}`);
    await page.locator("body").press("p");
    await expect(page.getByTestId("change-position")).toHaveText(`${modified + 1} / ${total}`);
    await screenshot(page, "diff-turn-page");

    // The two canvases pan together: a drag on the empty top of the earlier one moves both.
    const canvas = pane(page, "before").getByTestId("workflow-canvas");
    // Centred, so its top is not under the sticky header.
    await canvas.evaluate((element) => element.scrollIntoView({ block: "center" }));
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 12);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 160, box.y + 40, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => new Set(await viewports(page)).size).toBe(1);

    // The merged graph: one canvas with the added nodes and the removed edge.
    await page.getByText("Merged", { exact: true }).click();
    const merged = pane(page, "merged");
    await expect(merged.locator('[data-testid="workflow-node"][data-node-type="iteration"]')).toHaveAttribute("data-decoration", /^added/);
    await expect(merged.locator(".react-flow__edge.workflow-edge--bad")).not.toHaveCount(0);
    await screenshot(page.locator('section[aria-labelledby="graphs-title"]'), "diff-turn-merged");

    // Step to round 3 with the scrubber, from the keyboard.
    if (JOURNEY.threeRoundTask !== JOURNEY.task) {
      await page.locator("#diff-task").selectOption(JOURNEY.threeRoundTask);
      await page.getByRole("button", { name: "Show" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${JOURNEY.threeRoundTask} · round 1 → 2`);
    }
    const scrubber = page.getByTestId("round-scrubber");
    await scrubber.getByRole("radio", { checked: true }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page).toHaveURL(/[?&]round=3(&|$)/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${JOURNEY.threeRoundTask} · round 2 → 3`);
    await expect(scrubber.getByRole("radio", { checked: true })).toHaveAttribute("data-round", "3");
    await expect(scrubber.getByRole("radio", { checked: true })).toBeFocused();
    const third = JOURNEY.threeRoundTask === JOURNEY.task ? expectedComparison(JOURNEY.task, 3) : null;
    if (third) await expect(page.getByTestId("change-count-total")).toHaveText(`${third.diff.summary.changeCount} changes`);
    await expect(page.getByTestId("verdict-table")).toBeVisible();
    await screenshot(page, "diff-turn-round-3");

    // And on to the same turn by another model.
    await page.getByRole("link", { name: "Compare round 3 with another model" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`${JOURNEY.threeRoundTask} round 3`);
    const otherRunId = await page.locator("#diff-b option", { hasText: JOURNEY.otherRun }).getAttribute("value");
    await page.getByLabel("B (right)").selectOption(otherRunId!);
    await page.getByRole("button", { name: "Compare" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]b=${otherRunId}(&|$)`));
    await expect(pane(page, "before").getByTestId("workflow-node").first()).toBeVisible();
    await expect(pane(page, "after").getByTestId("workflow-node").first()).toBeVisible();
    const verdicts = page.getByTestId("verdict-table");
    for (const row of ["official", "rule-judge", "ours", "recorded", "resolve"]) await expect(verdicts.locator(`[data-row="${row}"]`)).toHaveCount(1);
    await expect(page.getByTestId("regressions")).toBeVisible();
    await screenshot(page, "diff-models");
  });

  test("round 1 has no previous turn, unknown ids are not found", async ({ page }) => {
    await page.goto("/runs");
    await page.getByTestId("run-row").getByRole("link", { name: RUN_LABEL, exact: true }).click();
    await page.waitForURL(/\/runs\/[^/?#]+/);
    const runId = new URL(page.url()).pathname.split("/").pop()!;
    await page.goto(`/diff/turns?run=${runId}&task=${JOURNEY.task}&round=1`);
    await expect(page.getByRole("heading", { name: /Round 1 is the first turn/ })).toBeVisible();
    await page.getByRole("link", { name: "Compare round 1 → 2" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${JOURNEY.task} · round 1 → 2`);

    for (const url of [`/diff/turns?run=no-such-run`, `/diff/turns?run=${runId}&task=NoSuchTask`, `/diff/turns?run=${runId}&task=${JOURNEY.task}&round=9`, "/diff/models?turn=NoSuchTask_1", "/diff/responses?a=x&b=y"]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    }
  });

  test("the response page links to the turn diff and the model diff", async ({ page }) => {
    await page.goto("/runs");
    await page.getByTestId("run-row").getByRole("link", { name: RUN_LABEL, exact: true }).click();
    await page.locator(`[data-testid="response-row"][data-task="${JOURNEY.task}"][data-round="2"]`).getByRole("link", { name: JOURNEY.task, exact: true }).click();
    const links = page.getByTestId("response-diff-links");
    await links.getByRole("link", { name: /Diff with the previous turn/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${JOURNEY.task} · round 1 → 2`);
    await page.goBack();
    await links.getByRole("link", { name: "Compare with another model on this turn" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`${JOURNEY.task} round 2`);
    await expect(page.getByTestId("model-picker")).toBeVisible();
  });
});
