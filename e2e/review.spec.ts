import { expect, test, type Browser, type Page } from "@playwright/test";
import { queryE2eDatabase, signIn, type DemoRole } from "./support";

// Queues are drawn from the demo benchmark's pass-stage judge verdicts, so these journeys hold whether or not the
// shared benchmark is in the e2e database. Each journey creates its own queues and leaves other data alone.

async function asRole(browser: Browser, role: DemoRole, path: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, role, path);
  return page;
}

interface QueueOptions {
  name: string;
  size: number;
  perItem: number;
  mode: "blind" | "reveal";
  annotators: RegExp[];
}

/** Fills in the New queue form (demo benchmark, pass stage) and returns the new queue's id. */
async function createQueue(page: Page, options: QueueOptions): Promise<string> {
  await page.goto("/review/new");
  await expect(page).toHaveTitle(/New review queue/);
  await page.getByLabel("Benchmark").selectOption({ label: "Chat2Workflow demo" });
  await page.getByLabel(/^Pass stage/).check();
  await expect(page.getByTestId("matching-count")).toContainText(/\d+ judge verdicts match/);
  await page.getByLabel("Sample size").fill(String(options.size));
  await page.getByLabel("Seed").fill("e2e");
  await page.getByLabel("Annotators per item").fill(String(options.perItem));
  await page.getByLabel(options.mode === "blind" ? /^Blind:/ : /^Reveal:/).check();
  for (const annotator of options.annotators) await page.getByLabel(annotator).check();
  await page.getByLabel(/^Name/).fill(options.name);
  await page.getByRole("button", { name: "Create queue" }).click();
  await expect(page).toHaveURL(/\/review\/[^/]+\/manage\?created=/);
  await expect(page.getByRole("status").filter({ hasText: "Queue created" })).toHaveText(`Queue created with ${options.size} item${options.size === 1 ? "" : "s"}.`);
  return new URL(page.url()).pathname.split("/")[2]!;
}

/** Votes through a reveal-mode queue with the keyboard only: c or i, then y, then Enter, item after item. */
async function voteThroughWithKeyboard(page: Page, items: number, incorrectAt: ReadonlySet<number> = new Set()) {
  const heading = page.getByTestId("item-heading");
  for (let n = 1; n <= items; n++) {
    await expect(heading).toHaveText(`Item ${n} of ${items}`);
    await page.keyboard.press(incorrectAt.has(n) ? "i" : "c");
    await expect(page.getByRole("radio", { name: incorrectAt.has(n) ? /^Incorrect/ : /^Correct/ })).toBeChecked();
    await page.keyboard.press("y");
    await expect(page.getByRole("radio", { name: /^Yes/ })).toBeChecked();
    await page.keyboard.press("Enter");
  }
  await expect(page.getByRole("heading", { name: "You have voted on every item available to you" })).toBeVisible();
}

async function agreementFigures(page: Page, queueId: string) {
  await page.goto(`/review/${queueId}/agreement`);
  await expect(page).toHaveTitle(/Queue agreement/);
  const row = page.getByTestId("agreement-row-all");
  return { strict: row.getByTestId("strict"), raw: row.getByTestId("raw") };
}

/** The response of a blind queue's item the annotator has not voted on yet (read from the e2e database). */
async function pendingBlindResponse(queueId: string, annotatorEmail: string): Promise<string> {
  const [row] = await queryE2eDatabase<{ responseId: string }>(
    `SELECT i."responseId" AS "responseId" FROM "ReviewItem" i WHERE i."queueId" = ? AND NOT EXISTS (
       SELECT 1 FROM "ReviewVote" v JOIN "User" u ON u."id" = v."annotatorId" WHERE v."itemId" = i."id" AND u."email" = ?)
     ORDER BY i."position" LIMIT 1`,
    queueId,
    annotatorEmail,
  );
  if (!row) throw new Error(`queue ${queueId} has no item ${annotatorEmail} has yet to vote on`);
  return row.responseId;
}

test.describe.serial("reviewing judge verdicts", () => {
  let queueId = "";
  let blindId = "";

  test("a researcher samples 10 pass-stage verdicts into a queue for two annotators", async ({ page }) => {
    await signIn(page, "researcher", "/review");
    await page.getByRole("link", { name: "New queue" }).click();
    queueId = await createQueue(page, { name: "E2E pass sample", size: 10, perItem: 2, mode: "reveal", annotators: [/^Demo Annotator/, /^Demo Researcher/] });
    const assigned = page.getByRole("list", { name: "Assigned annotators" });
    await expect(assigned).toContainText("annotator@demo.local");
    await expect(assigned).toContainText("researcher@demo.local");
  });

  test("two annotators vote through it with the keyboard and the agreement figures update", async ({ page, browser }) => {
    // First annotator: the researcher, who may also annotate; says the judge was wrong on items 3 and 7.
    await signIn(page, "researcher", `/review/${queueId}`);
    await expect(page.getByRole("heading", { name: "E2E pass sample", level: 1 })).toBeVisible();
    await expect(page.getByTestId("judge-verdict")).toBeVisible();
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toBeVisible();
    for (const key of ["c", "i", "y", "n", "u", "Enter", "j or →", "k or ←", "?", "Esc"]) await expect(help.getByRole("rowheader", { name: key, exact: true })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(help).toBeHidden();
    await voteThroughWithKeyboard(page, 10, new Set([3, 7]));

    // Two votes per item are asked for: with one annotator done, every item is incomplete and counts nowhere yet.
    let figures = await agreementFigures(page, queueId);
    await expect(page.getByRole("heading", { name: "No complete items yet" })).toBeVisible();
    await expect(page.getByTestId("incomplete-items")).toContainText("10 incomplete items");
    await expect(page.getByTestId("paper-reference")).toContainText("97.18%");
    await expect(page.getByTestId("paper-reference")).toContainText("355 instances");

    // Second annotator, in another session: finds the queue under "My queues" and agrees with the judge throughout.
    const annotator = await asRole(browser, "annotator", "/review");
    const card = annotator.getByTestId("my-queue").filter({ hasText: "E2E pass sample" });
    await expect(card.getByRole("progressbar", { name: "My votes" })).toHaveAttribute("aria-valuenow", "0");
    await card.getByRole("link", { name: "Start" }).click();
    await voteThroughWithKeyboard(annotator, 10);

    // Back (k) reopens the last vote with its answers, to review or change it.
    await annotator.keyboard.press("k");
    await expect(annotator.getByTestId("item-heading")).toHaveText("Item 10 of 10");
    await expect(annotator.getByRole("radio", { name: /^Correct/ })).toBeChecked();
    await annotator.keyboard.press("k");
    await expect(annotator.getByTestId("item-heading")).toHaveText("Item 9 of 10");
    await annotator.goto("/review");
    await expect(annotator.getByTestId("my-queue").filter({ hasText: "E2E pass sample" }).getByRole("progressbar", { name: "My votes" })).toHaveAttribute("aria-valuenow", "10");
    // Having voted, the annotator sees how their votes compare: the researcher differed on items 3 and 7.
    await expect(annotator.getByTestId("my-queue").filter({ hasText: "E2E pass sample" }).getByTestId("my-agreement")).toHaveText(
      "You agree with the other annotators on 8 of 10 (80%) shared votes (10 items) · with the judge on 10 of 10 (100%) of your votes.",
    );
    await annotator.context().close();

    // Signing in with no destination, an annotator lands on their queues, with counts.
    const landing = await (await browser.newContext()).newPage();
    await landing.goto("/signin");
    await landing.getByLabel("Email").fill("annotator@demo.local");
    await landing.getByLabel("Password").fill("annotator-demo-pass");
    await landing.getByRole("button", { name: "Sign in" }).click();
    await expect(landing).toHaveURL(/\/review$/);
    await expect(landing.getByTestId("my-queue-counts")).toHaveText(/^\(\d+ queues?, \d+ items? left to vote on\)$/);
    await landing.context().close();

    figures = await agreementFigures(page, queueId);
    await expect(figures.strict).toContainText("80.00%");
    await expect(figures.raw).toContainText("90.00%");
    await expect(figures.raw).toContainText("(18/20)");
    const disagreements = page.getByTestId("disagreements");
    await expect(disagreements.getByRole("row")).toHaveCount(3);
    await expect(page.getByRole("button", { name: "Create a queue from these 2 items" })).toBeVisible();

    // A disagreement links to the item with every vote on it.
    await disagreements.getByRole("link").first().click();
    await expect(page.getByRole("region", { name: "Votes" })).toContainText("annotator@demo.local");
    await expect(page.getByRole("region", { name: "Votes" })).toContainText("researcher@demo.local");
  });

  test("the disagreements become a new queue, and the annotations export with fingerprints", async ({ page }) => {
    await signIn(page, "researcher", `/review/${queueId}/agreement`);
    await page.getByRole("button", { name: "Create a queue from these 2 items" }).click();
    await expect(page).toHaveURL(/\/review\/[^/]+\/manage\?created=2/);
    await expect(page.getByText("Re-reviews")).toBeVisible();

    const response = await page.request.get(`/api/review/export?queue=${queueId}&format=csv`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/csv");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toContain("inputFingerprint,promptFingerprint");
    expect(lines).toHaveLength(21);
  });

  test("blind mode hides the judge's verdict and reason until the annotator votes", async ({ page, browser }) => {
    await signIn(page, "researcher", "/review/new");
    blindId = await createQueue(page, { name: "E2E blind sample", size: 2, perItem: 1, mode: "blind", annotators: [/^Demo Annotator/] });

    const annotator = await asRole(browser, "annotator", `/review/${blindId}`);
    await expect(annotator.getByTestId("item-heading")).toHaveText("Item 1 of 2");
    await expect(annotator.getByTestId("judge-hidden")).toBeVisible();
    // On a phone the vote bar stays at the bottom of the screen while the item scrolls under it.
    const viewport = annotator.viewportSize()!;
    await annotator.setViewportSize({ width: 375, height: 800 });
    const bar = annotator.getByTestId("vote-bar");
    await annotator.mouse.wheel(0, 1500);
    await expect(bar).toBeInViewport();
    const box = (await bar.boundingBox())!;
    expect(Math.abs(box.y + box.height - 800)).toBeLessThanOrEqual(1);
    await annotator.setViewportSize(viewport);
    await expect(annotator.getByTestId("judge-verdict")).toHaveCount(0);
    // "Was the judge correct?" makes no sense unseen: blind voting asks for the annotator's own verdict.
    await expect(annotator.getByRole("radio", { name: /^Correct/ })).toHaveCount(0);
    await annotator.keyboard.press("p");
    await expect(annotator.getByRole("radio", { name: /^Passes/ })).toBeChecked();
    await annotator.keyboard.press("Enter");
    await expect(annotator.getByTestId("judge-verdict")).toBeVisible();
    await expect(annotator.getByRole("status").filter({ hasText: "The judge said" })).toBeVisible();
    await annotator.keyboard.press("y");
    await annotator.keyboard.press("Enter");
    await expect(annotator.getByTestId("item-heading")).toHaveText("Item 2 of 2");
    await expect(annotator.getByTestId("judge-hidden")).toBeVisible();
    await expect(annotator.getByTestId("judge-verdict")).toHaveCount(0);
    await annotator.context().close();
  });

  test("an annotator of a blind queue never gets the response page stored for anonymous readers", async ({ browser, playwright, baseURL }) => {
    const responseId = await pendingBlindResponse(blindId, "annotator@demo.local");
    // Anonymous readers share one stored page per data version, verdicts included.
    const anonymous = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { accept: "text/html" } });
    const first = await anonymous.get(`/responses/${responseId}`);
    const shared = await anonymous.get(`/responses/${responseId}`);
    expect(shared.status()).toBe(200);
    expect(shared.headers()["x-studio-page-cache"]).toBe("stored");
    const sharedHtml = await shared.text();
    expect(sharedHtml).toContain('data-testid="recorded-verdict"');
    // Each reader of the stored page gets a nonce of its own, in the policy and on the page's scripts.
    const nonceOf = (policy: string | undefined) => /'nonce-([^']+)'/.exec(policy ?? "")?.[1] ?? "";
    const [firstNonce, sharedNonce] = [nonceOf(first.headers()["content-security-policy"]), nonceOf(shared.headers()["content-security-policy"])];
    expect(sharedNonce.length).toBeGreaterThan(15);
    expect(sharedNonce).not.toBe(firstNonce);
    expect(sharedHtml).toContain(`nonce="${sharedNonce}"`);
    expect(sharedHtml).not.toContain(firstNonce);
    await anonymous.dispose();

    const annotator = await asRole(browser, "annotator", "/review");
    const own = await annotator.goto(`/responses/${responseId}`);
    expect(own?.headers()["x-studio-page-cache"]).toBeUndefined();
    await expect(annotator.getByTestId("verdicts-hidden")).toBeVisible();
    await expect(annotator.getByTestId("recorded-verdict")).toHaveCount(0);
    expect(await own?.text()).not.toContain('data-testid="recorded-verdict"');
    await annotator.context().close();
  });

  test("annotators reach only their own queues; managers' pages are refused to them", async ({ page, browser }) => {
    await signIn(page, "researcher", "/review/new");
    const privateId = await createQueue(page, { name: "E2E researcher only", size: 1, perItem: 1, mode: "reveal", annotators: [/^Demo Researcher/] });

    const annotator = await asRole(browser, "annotator", "/review");
    await expect(annotator.getByTestId("my-queue").filter({ hasText: "E2E researcher only" })).toHaveCount(0);
    const response = await annotator.goto(`/review/${privateId}`);
    expect(response?.status()).toBe(404);
    await annotator.goto(`/review/${queueId}/agreement`);
    await expect(annotator).toHaveURL(/\/403/);
    expect((await annotator.request.get(`/api/review/export?queue=${queueId}&format=json`)).status()).toBe(403);
    await annotator.context().close();

    const viewer = await asRole(browser, "viewer", "/");
    await viewer.goto("/review");
    await expect(viewer).toHaveURL(/\/403/);
    await viewer.context().close();
  });
});
