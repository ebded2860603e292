// The scoring guide's newer parts in the browser: a pairwise comparison of two demo runs by a loopback stub judge
// that always prefers the answer shown first (not a model), and a run graded under Profile B with an uploaded
// evidence file. Both pages are checked with axe.
import { expect, test, type Page } from "@playwright/test";
import { startDeliveryCountingStub, type DeliveryCountingStub } from "../test/support/delivery-counting-stub";
import { accessibilityViolations, fillNewEndpoint, queryE2eDatabase, signIn } from "./support";

const LABEL = "e2e pairwise stub";

let stub: DeliveryCountingStub;

test.use({ bypassCSP: true });

test.beforeAll(async () => {
  stub = await startDeliveryCountingStub(() => ({ kind: "reply", content: "<reason>The first design is better.</reason><result>first</result>" }));
});

test.afterAll(async () => {
  await stub.close();
});

async function addStubEndpoint(page: Page): Promise<void> {
  await signIn(page, "admin", "/settings/endpoints");
  const form = await fillNewEndpoint(page, { label: LABEL, model: "stub-first", baseURL: stub.baseURL });
  await form.getByLabel("Model id").press("Enter");
  await expect(page.getByTestId("endpoint-row").filter({ hasText: LABEL })).toBeVisible();
}

test.describe("scoring guide", () => {
  test("a pairwise comparison by an always-first stub judge: every comparison asked in both orders, all ties, 100% swap-inconsistent", async ({ page }) => {
    await addStubEndpoint(page);
    await page.goto("/pairwise");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pairwise comparisons");
    const form = page.getByRole("form", { name: "Start a pairwise comparison" });
    const option = async (name: string, run: string) => (await form.locator(`select[name="${name}"] option`, { hasText: `· ${run} (` }).first().getAttribute("value")) ?? "";
    await form.locator('select[name="candidate"]').selectOption(await option("candidate", "demo_beta.json"));
    await form.locator('select[name="baseline"]').selectOption(await option("baseline", "demo_alpha.json"));
    await form.getByLabel(`${LABEL} (stub-first)`).check();
    await form.getByLabel("Order seed (empty: a new one, recorded)").fill("4242");
    const before = stub.received.length;
    await form.getByRole("button", { name: "Start comparison" }).click();
    await expect(page).toHaveURL(/\/pairwise\/[^/?]+$/, { timeout: 20_000 });
    await expect(page.getByTestId("pairwise-seed")).toHaveText("4242");
    const figures = page.getByTestId("pairwise-figures");
    await expect(async () => {
      await page.reload();
      await expect(figures).toContainText("swap-inconsistent 15 of 15 (100.0%)", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(figures).toContainText("0 W / 0 L / 15 T");
    await expect(figures).toContainText("above 10%: position bias");
    expect(stub.received.length - before).toBe(30);
    const rows = page.getByTestId("pairwise-items").locator("tbody tr");
    await expect(rows).toHaveCount(15);
    await expect(rows.first()).toContainText("The first design is better.");
    await expect(rows.first()).toContainText("orders disagreed");
    expect(await accessibilityViolations(page, { within: "main", level: "wcag" })).toEqual([]);
  });

  test("a researcher grades a demo run under Profile B with an uploaded evidence file; missing criteria are named", async ({ page }) => {
    const turns = await queryE2eDatabase<{ key: string }>(
      `SELECT t."key" AS key FROM "Response" r JOIN "Turn" t ON t."id" = r."turnId" JOIN "Run" ru ON ru."id" = r."runId" WHERE ru."label" = ? ORDER BY t."key"`,
      "demo_alpha.json",
    );
    const keys = [...new Set(turns.map((turn) => turn.key))];
    expect(keys.length).toBe(15);
    const evidence = {
      rubric_id: "profile_b_dag",
      responses: keys.map((id) => ({ id, metrics: { efficiency: 1 }, judge_scores: { correctness: [{ judge: "reviewer", score: 5 }], completeness: [{ judge: "reviewer", score: 5 }] } })),
    };
    await signIn(page, "researcher", "/runs");
    await page.getByTestId("run-row").getByRole("link", { name: "demo_alpha.json", exact: true }).first().click();
    await page.getByRole("link", { name: "Grade report" }).click();
    const form = page.getByRole("form", { name: "Grade this run with a profile and evidence" });
    await form.getByLabel("Profile").selectOption({ label: "Profile B: DAG generation and review workflows" });
    await form.getByLabel("Evidence file (JSON, optional)").setInputFiles({ name: "scores.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(evidence)) });
    await form.getByRole("button", { name: "Grade" }).click();
    const result = page.getByTestId("evidence-result");
    await expect(result).toContainText("Profile B: DAG generation and review workflows (profile_b_dag v1)");
    await expect(result.getByRole("row").filter({ hasText: "tool_data_precision, documentation_quality" }).first()).toBeVisible();
    expect(await accessibilityViolations(page, { within: "main", level: "wcag" })).toEqual([]);
  });
});
