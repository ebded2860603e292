import { expect, test, type Page } from "@playwright/test";
import { accessibilityViolations, queryE2eDatabase, signIn } from "./support";

// One figure per run, by its own judge. A researcher evaluates a loopback replay stub (not a model: it answers the demo
// benchmark's questions with demo_alpha's recorded answers) zero-shot, judged by a loopback judge stub (not a model:
// it passes a workflow when its key nodes number at most two), then agentic with the rule judge. The evaluation page,
// the run page and the leaderboard must show the same pass and resolve figures for each run, made by that run's judge
// and labelled so; the two modes of one model are two leaderboard rows. Both stubs are started by scripts/e2e-server.ts.
const BENCHMARK = "Chat2Workflow demo";
const REPLAY_ENDPOINT = "Loopback replay stub (not a model) (loopback-replay/demo-alpha-answers)";
const JUDGE_LABEL = "Loopback judge stub (not a model)";
const MODEL = "loopback-replay_demo-alpha-answers";
const TURNS = 15;

const percent = (k: number, n: number) => `${((100 * k) / n).toFixed(2)}%`;

/** Accessibility: no serious or critical violation on the page as it stands. */
async function expectAccessible(page: Page, what: string): Promise<void> {
  expect(await accessibilityViolations(page), what).toEqual([]);
}

/** Starts a one-run evaluation of the replay stub on the demo benchmark and waits on its page until it has finished. */
async function evaluate(page: Page, mode: RegExp, judge: "rule" | "llm"): Promise<string> {
  await page.goto("/evaluations/new");
  const form = page.getByRole("form", { name: "New evaluation" });
  const benchmark = await form.locator("select[name=benchmarkId] option", { hasText: new RegExp(`^${BENCHMARK}`) }).getAttribute("value");
  await form.getByLabel("Benchmark").selectOption(benchmark ?? "");
  await form.getByLabel("Model endpoint").selectOption({ label: REPLAY_ENDPOINT });
  await form.getByRole("radio", { name: mode }).check();
  if (judge === "llm") {
    await form.getByRole("radio", { name: /^LLM judge or panel/ }).check();
    await form.getByRole("checkbox", { name: new RegExp(`^${JUDGE_LABEL.replace(/[()]/g, "\\$&")}`) }).check();
  } else {
    await form.getByRole("radio", { name: /^Rule judge/ }).check();
  }
  await form.getByLabel("Number of runs").fill("1");
  await form.getByRole("button", { name: "Start the evaluation" }).click();
  await expect(page).toHaveURL(/\/evaluations\/(?!new$)[^/]+$/, { timeout: 30_000 });
  await expect(page.getByTestId("evaluation-summary")).toHaveAttribute("data-status", "succeeded", { timeout: 120_000 });
  return page.url();
}

/** The run an evaluation page shows, and its figures there. */
async function evaluationRun(page: Page): Promise<{ runId: string; pass: string; resolve: string; judge: string }> {
  const run = page.getByTestId("evaluation-run");
  await expect(run).toHaveCount(1);
  const href = await run.getByRole("link", { name: /^Open the run/ }).getAttribute("href");
  const runId = href?.split("/").pop() ?? "";
  const figures = run.getByTestId("run-figures");
  return {
    runId,
    pass: await figures.getByTestId("run-pass-figure").innerText(),
    resolve: await figures.getByTestId("run-resolve-figure").innerText(),
    judge: await figures.getByTestId("run-judge").innerText(),
  };
}

const count = async (sql: string, ...values: unknown[]) => Number((await queryE2eDatabase<{ n: unknown }>(sql, ...values))[0]?.n ?? 0);

test("a generated run shows the same figures, by its evaluation's judge, on its evaluation page, its run page and the leaderboard; two modes are two rows", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, "researcher", "/evaluations");

  // Zero-shot, judged by the LLM judge stub.
  const zeroShotUrl = await evaluate(page, /^Zero-shot/, "llm");
  const zeroShot = await evaluationRun(page);
  // What the judge stub said, straight from its stored verdicts, and what the rule judge would have said.
  const judgePassed = await count(
    `SELECT COUNT(*) AS n FROM "JudgeVerdict" j JOIN "Response" r ON r."id" = j."responseId" WHERE r."runId" = ? AND j."judge" = ? AND j."stage" = 'pass' AND j."verdict" = TRUE`,
    zeroShot.runId,
    JUDGE_LABEL,
  );
  const rulePassed = await count(`SELECT COUNT(*) AS n FROM "PassResult" p JOIN "Response" r ON r."id" = p."responseId" WHERE r."runId" = ? AND p."deterministicValid" = TRUE`, zeroShot.runId);
  expect(rulePassed).not.toBe(judgePassed);
  const judgeText = `judge: ${JUDGE_LABEL} ×1`;
  expect(zeroShot).toMatchObject({ pass: `${percent(judgePassed, TURNS)} (${judgePassed} of ${TURNS})`, resolve: "— (not executed on Dify)", judge: judgeText });
  await expectAccessible(page, "evaluation page");

  // The run page: the same figures and judge.
  await page.getByTestId("evaluation-run").getByRole("link", { name: /^Open the run/ }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${zeroShot.runId}$`));
  const runFigures = page.getByTestId("run-figures");
  await expect(runFigures.getByTestId("run-pass-figure")).toHaveText(zeroShot.pass);
  await expect(runFigures.getByTestId("run-resolve-figure")).toHaveText(zeroShot.resolve);
  await expect(runFigures.getByTestId("run-judge")).toHaveText(judgeText);
  await expect(page.getByTestId("run-configuration")).toHaveText(`Zero-shot (official) · T 0.7 · max 32768 · ${judgeText}`);
  await expect(page.getByTestId("response-row").and(page.locator('[data-fail-step="pass"]'))).toHaveCount(judgePassed);
  await expectAccessible(page, "run page");

  // A generated turn the judge stub decided: the response page names the run's own judge, shows its verdict and its whole
  // reasoning in a focusable panel, and the grade card reads the tokens and latency its generation attempt recorded.
  const [judged] = await queryE2eDatabase<{ id: string; verdict: unknown; reason: string; tokens: unknown; latency: unknown }>(
    `SELECT r."id" AS "id", j."verdict" AS "verdict", j."reason" AS "reason", a."inputTokens" + a."outputTokens" AS "tokens", a."latencyMs" AS "latency"
       FROM "Response" r JOIN "PassResult" p ON p."responseId" = r."id" JOIN "JudgeVerdict" j ON j."responseId" = r."id" AND j."stage" = 'pass' AND j."judge" = ?
       JOIN "GenerationAttempt" a ON a."responseId" = r."id"
      WHERE r."runId" = ? AND p."verdictSource" = 'judge' ORDER BY r."id" LIMIT 1`,
    JUDGE_LABEL,
    zeroShot.runId,
  );
  expect(judged?.reason).toMatch(/^The stub counts \d+ key node/);
  await page.goto(`/responses/${judged!.id}`);
  const ownJudge = page.getByTestId("own-judge");
  await expect(ownJudge.getByRole("heading", { level: 2 })).toHaveText(`The run's own judge: ${judgeText}`);
  await expect(ownJudge.getByTestId("own-judge-verdict")).toContainText(Number(judged!.verdict) ? "pass" : "fail");
  const reasoning = ownJudge.getByRole("region", { name: `Reasoning of ${JUDGE_LABEL}` });
  await expect(reasoning).toContainText(judged!.reason.split("\n")[0]!);
  await reasoning.focus();
  await expect(reasoning).toBeFocused();
  await expect(page.getByTestId("verdict-chip")).toContainText(judgeText);
  // The graph comes before the judge and the grade card.
  const graphTop = (await page.getByRole("heading", { name: "Workflow", level: 2 }).boundingBox())!.y;
  expect(graphTop).toBeLessThan((await ownJudge.boundingBox())!.y);
  expect(graphTop).toBeLessThan((await page.getByTestId("grade-card").boundingBox())!.y);
  const criteria = page.getByTestId("grade-criteria");
  await expect(criteria).toContainText(`${Number(judged!.tokens)} tokens`);
  await expect(criteria).not.toContainText("the run records no token counts");
  await expect(criteria).not.toContainText("the run records no generation latency");
  await expectAccessible(page, "response page of a generated turn");

  // The leaderboard row of its configuration: the same figure, saying which judge made it.
  await page.goto(`/?benchmark=${encodeURIComponent(BENCHMARK)}`);
  const rows = page.getByTestId("leaderboard-row").and(page.locator(`[data-model="${MODEL}"]`));
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId("row-configuration")).toHaveText(`Zero-shot (official) · T 0.7 · max 32768 · ${judgeText}`);
  const average = (row: typeof rows, metric: "pass" | "resolve") => row.locator(`td[data-column="Average"][data-metric="${metric}"]`);
  await expect(average(rows, "pass").locator("a > span").first()).toHaveText(percent(judgePassed, TURNS));
  await expect(average(rows, "resolve").locator("a > span").first()).toHaveText("—");
  await average(rows, "pass").getByRole("link").focus();
  const tooltip = average(rows, "pass").getByRole("tooltip");
  await expect(tooltip).toContainText(`${judgePassed} of ${TURNS}`);
  await expect(tooltip).toContainText(`Judged by: ${judgeText}`);
  await expectAccessible(page, "leaderboard");

  // Re-viewed under the rule judge ("Judged by"), the same row shows the rule judge's figure instead.
  await page.getByTestId("judge-select").selectOption("rule");
  await expect(page).toHaveURL(/judge=rule/);
  await expect(average(rows, "pass").locator("a > span").first()).toHaveText(percent(rulePassed, TURNS));

  // Agentic, with the rule judge: a second row for the same model, beside the zero-shot one.
  await evaluate(page, /^Agentic, no agent framework/, "rule");
  const agentic = await evaluationRun(page);
  const agenticPassed = await count(`SELECT COUNT(*) AS n FROM "PassResult" p JOIN "Response" r ON r."id" = p."responseId" WHERE r."runId" = ? AND p."valid" = TRUE`, agentic.runId);
  expect(agentic).toMatchObject({ pass: `${percent(agenticPassed, TURNS)} (${agenticPassed} of ${TURNS})`, judge: "rule judge (not the official LLM judge)" });
  await page.goto(`/runs/${agentic.runId}`);
  await expect(page.getByTestId("run-figures").getByTestId("run-pass-figure")).toHaveText(agentic.pass);
  await expect(page.getByTestId("run-figures").getByTestId("run-judge")).toHaveText("rule judge (not the official LLM judge)");

  await page.goto(`/?benchmark=${encodeURIComponent(BENCHMARK)}`);
  await expect(rows).toHaveCount(2);
  const agenticRow = rows.filter({ has: page.getByTestId("row-configuration").filter({ hasText: /^Agentic, no agent framework \(ours\)/ }) });
  const zeroShotRow = rows.filter({ has: page.getByTestId("row-configuration").filter({ hasText: /^Zero-shot \(official\)/ }) });
  await expect(agenticRow.getByTestId("row-configuration")).toContainText("rule judge (not the official LLM judge)");
  await expect(average(agenticRow, "pass").locator("a > span").first()).toHaveText(percent(agenticPassed, TURNS));
  await expect(average(zeroShotRow, "pass").locator("a > span").first()).toHaveText(percent(judgePassed, TURNS));
  // Neither row pools the other's run.
  await expect(agenticRow.getByText("2 runs")).toHaveCount(0);
  await expect(zeroShotRow.getByText("2 runs")).toHaveCount(0);

  // The zero-shot row's model page shows its run alone, with the same figure and judge.
  await average(zeroShotRow, "pass").getByRole("link").click();
  await expect(page.getByTestId("model-configuration")).toHaveText(`Zero-shot (official) · T 0.7 · max 32768 · ${judgeText}`);
  await expect(page.getByTestId("model-judge")).toContainText(judgeText);
  await expect(page.getByTestId("model-turn-row")).toHaveCount(TURNS);
  await expect(page.getByRole("region", { name: "Rates" })).toContainText(percent(judgePassed, TURNS));
  await expect(page.getByTestId("model-configurations").getByRole("link")).toHaveCount(2);
  await expectAccessible(page, "model page");

  // The zero-shot evaluation's page still agrees.
  await page.goto(zeroShotUrl);
  expect(await evaluationRun(page)).toEqual(zeroShot);
});
