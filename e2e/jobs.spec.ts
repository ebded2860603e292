import { expect, test } from "@playwright/test";
import { startDeliveryCountingStub, type DeliveryCountingStub } from "../test/support/delivery-counting-stub";
import { fillNewEndpoint, signIn } from "./support";

// The judge is a loopback stub (not a model) that passes every pass-stage question.
const REPLY = "<reason>The stub judge accepts every workflow.</reason>\n<result>\ntrue\n</result>";
const API_KEY = "sk-e2e-judge-secret-0123456789-WXYZ";
const LABEL = "e2e stub judge";

let stub: DeliveryCountingStub;

test.beforeAll(async () => {
  stub = await startDeliveryCountingStub(() => ({ kind: "reply", content: REPLY, delayMs: 20 }));
});

test.afterAll(async () => {
  await stub.close();
});

test.describe("judging a run with a model endpoint", () => {
  test("an admin adds an endpoint pointing at a loopback stub, judges a demo run and watches the job finish; the key never reaches a page", async ({ page }) => {
    await signIn(page, "admin", "/settings/endpoints");
    await expect(page.getByRole("heading", { name: "Model endpoints" })).toBeVisible();

    const form = await fillNewEndpoint(page, { label: LABEL, model: "stub-model", baseURL: stub.baseURL, apiKey: API_KEY });
    // Submitted from the keyboard.
    await form.getByLabel("API key").press("Enter");

    const row = page.getByTestId("endpoint-row").filter({ hasText: LABEL });
    await expect(row).toBeVisible();
    await expect(row).toContainText("set · …WXYZ");
    await row.getByRole("button", { name: `Test connection to ${LABEL}` }).click();
    await expect(row.getByTestId("endpoint-test-status")).toContainText("Connected");
    expect(stub.received.at(-1)?.authorization).toBe(`Bearer ${API_KEY}`);
    expect(await page.content()).not.toContain(API_KEY);

    // The key field stays empty when editing: it is write-only.
    await row.getByRole("button", { name: `Edit ${LABEL}` }).click();
    await expect(page.getByRole("form", { name: `Edit ${LABEL}` }).getByLabel("API key")).toHaveValue("");
    await page.getByRole("button", { name: "Cancel" }).click();

    await page.goto("/runs");
    await page.getByTestId("run-row").filter({ hasText: "demo_alpha" }).first().getByRole("link").first().click();
    await expect(page).toHaveURL(/\/runs\/[^/]+$/);
    const runUrl = page.url();

    const judge = page.getByRole("form", { name: "Judge this run" });
    await judge.getByLabel("Endpoint").selectOption({ label: `${LABEL} (stub-model)` });
    await judge.getByLabel("Stage").selectOption("pass");
    const callsBefore = stub.received.length;
    await judge.getByRole("button", { name: "Start judging" }).click();
    const started = judge.getByRole("status");
    await expect(started).toContainText(/Judging \d+ item\(s\)/);
    const items = Number(/Judging (\d+) item/.exec((await started.textContent()) ?? "")?.[1]);
    expect(items).toBeGreaterThan(0);

    const card = page.getByTestId("run-jobs").getByTestId("job-card").first();
    await expect(card.getByTestId("job-status")).toHaveText("succeeded", { timeout: 30_000 });
    await expect(card.getByTestId("job-done")).toHaveText(String(items));
    await expect(card.getByTestId("job-failed")).toHaveText("0");
    expect(stub.received.length - callsBefore).toBe(items);

    await judge.getByRole("link", { name: "Open the job" }).click();
    await expect(page).toHaveURL(/\/jobs\/[^/]+$/);
    await expect(page.getByTestId("job-calls")).toHaveText(String(items));
    await expect(page.getByText("No item has failed.")).toBeVisible();

    // The leaderboard judged by this endpoint shows the judged run's figures and leaves the others out as not judged.
    await page.goto(`/?benchmark=${encodeURIComponent("Chat2Workflow demo")}`);
    await page.getByLabel("Judged by").selectOption(LABEL);
    await expect(page).toHaveURL(/judge=/);
    const alphaPass = page
      .getByTestId("leaderboard-row")
      .and(page.locator('[data-model="demo_alpha"]'))
      .locator('td[data-column="Average"][data-metric="pass"]');
    await expect(alphaPass).toContainText(/\d+\.\d{2}%/);
    await expect(page.getByTestId("not-judged")).toContainText("demo_gamma");
    await expect(page.getByTestId("not-judged")).not.toContainText("demo_alpha.json");

    for (const url of ["/jobs", "/settings/endpoints", runUrl, "/api/jobs"]) {
      const response = await page.request.get(url);
      expect(response.ok()).toBe(true);
      expect(await response.text()).not.toContain(API_KEY);
    }
  });

  test("viewers and annotators cannot open the endpoint settings or the jobs page", async ({ page }) => {
    await signIn(page, "viewer", "/");
    await page.goto("/settings/endpoints");
    await expect(page).toHaveURL(/\/403/);
    await page.goto("/jobs");
    await expect(page).toHaveURL(/\/403/);
    expect((await page.request.get("/api/jobs")).status()).toBe(403);
  });
});
