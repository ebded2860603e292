// Leaderboard figures from the database against counts computed straight from the run files, on the demo data
// (always) and on the shared Chat2Workflow benchmark with its 12 runs (when present).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AVERAGE } from "@/lib/leaderboard/board";
import { degradation, chooseChartModels, failStepDistribution } from "@/lib/leaderboard/charts";
import { compareRuns } from "@/lib/leaderboard/compare";
import { leaderboardColumns, leaderboardExportRows, toJsonRows } from "@/lib/leaderboard/export";
import { PUBLISHED_TURNS } from "@/lib/published/denominators";
import { seedDemoData } from "@/lib/server/demo-data";
import { seedPublishedResults } from "@/lib/server/published";
import { getModelOverview, getModelTurns, getPairTurns, getTaskMatrix, listTasks } from "@/lib/server/data/drilldown";
import { getExportRates, getFailureCounts, getMeasuredCounts, loadLeaderboard, selectBenchmark } from "@/lib/server/data/leaderboard";
import { expandRunPaths, readImportFiles, runImport, type ImportFile } from "@/lib/server/import/import-service";
import type { SessionUser } from "@/lib/server/session";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";
import { expectedFromFiles, type Expected } from "../support/recorded-counts";

const ROOT = path.resolve(__dirname, "../..");
const DEMO = path.join(ROOT, "prisma/demo");
const LIMITS = { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 };
const VIEWER: SessionUser = { id: "viewer", email: "viewer@example.org", name: null, role: "viewer" };

async function recordedFiles(dir: string): Promise<ImportFile[]> {
  return (await readImportFiles((await expandRunPaths([dir])).files, LIMITS.maxFileBytes)).files;
}

describe("leaderboard on the demo benchmark", () => {
  const db = testDatabase();
  let files: ImportFile[];

  beforeAll(async () => {
    await emptyDatabase(db);
    await seedPublishedResults(db);
    files = await recordedFiles(path.join(DEMO, "runs"));
    // The same import a fresh local start-up does.
    expect((await seedDemoData(db)).ok).toBe(true);
  });

  it("reports every measured count as the recorded files give it, and the raw-output run without resolve figures", async () => {
    const { rows, benchmark } = await getExportRates(db, VIEWER, "measured", null);
    expect(benchmark?.name).toBe("Chat2Workflow demo");
    const recorded = files.filter((file) => !file.name.includes(".generation."));
    const expected = expectedFromFiles(path.join(DEMO, "benchmark/dataset/query.json"), recorded);
    const measured = new Map(rows.filter((row) => row.model !== "demo_delta").map((row) => [`${row.model}|${row.scope}|${row.key}`, row]));
    expect(measured.size).toBe(expected.size);
    for (const [key, entry] of expected) {
      const row = measured.get(key);
      expect(row, key).toBeDefined();
      expect([row!.passNum, row!.passDen, row!.resolveNum, row!.resolveDen], key).toEqual([entry.pass, entry.turns, entry.resolve, 3 * entry.turns]);
    }
    expect(rows.find((row) => row.model === "demo_alpha" && row.scope === "overall")).toMatchObject({ passNum: 12, passDen: 15, resolveNum: 31, resolveDen: 45 });

    // demo_delta is raw output: pass is the deterministic verdict stored per response, resolve is unknown.
    const delta = rows.filter((row) => row.model === "demo_delta");
    const deterministic = await db.passResult.count({ where: { valid: true, response: { run: { model: { name: "demo_delta" } } } } });
    expect(delta.find((row) => row.scope === "overall")).toMatchObject({ passNum: deterministic, passDen: 6, resolveNum: null, resolveDen: null });
    expect(delta.length).toBeGreaterThan(0);
    expect(delta.filter((row) => !(row.resolveNum === null))).toEqual([]);
  });

  it("builds the board with measured and published rows, and drill-downs that add up to the same counts", async () => {
    const { board, selection } = await loadLeaderboard(db, VIEWER, null);
    expect(selection.param).toBe("Chat2Workflow demo");
    const alpha = board.rows.find((row) => row.name === "demo_alpha")!;
    expect(alpha.cells.Research!.pass.measured).toMatchObject({ num: 2, den: 3 });
    expect(board.rows.filter((row) => row.inPublished)).toHaveLength(15);

    const benchmarkId = selection.benchmark!.id;
    const turns = await getModelTurns(db, VIEWER, benchmarkId, "demo_alpha", { domain: "Research" });
    expect(turns).toHaveLength(3);
    expect(turns.filter((turn) => turn.valid)).toHaveLength(2);
    expect(turns.flatMap((turn) => turn.cases).filter((state) => state === "pass")).toHaveLength(alpha.cells.Research!.resolve.measured!.num);
    const failed = turns.find((turn) => !turn.valid)!;
    expect(failed).toMatchObject({ task: "GrantProposalDigest", round: 3, failStep: "step_1_1", cases: ["not-run", "not-run", "not-run"] });
    expect(failed.topDiagnosticCode).toBeTruthy();
    expect(failed.topDiagnosticMessage).toBeTruthy();

    const delta = await getModelTurns(db, VIEWER, benchmarkId, "demo_delta");
    const deltaCases = delta.flatMap((turn) => turn.cases);
    expect(deltaCases).toHaveLength(3 * delta.length);
    expect(delta.length).toBeGreaterThan(0);
    expect(deltaCases.filter((state) => state !== "unknown")).toEqual([]);
  });

  it("gives the task matrix, the task list and paired outcomes from the same responses", async () => {
    const { benchmark } = await selectBenchmark(db, VIEWER, "Chat2Workflow demo");
    const matrix = await getTaskMatrix(db, VIEWER, benchmark!.id, "ReceiptBatcher");
    expect(matrix?.matrix.columns.map((column) => column.round)).toEqual([1, 2]);
    // Three recorded runs and the raw-output run answered ReceiptBatcher.
    expect(matrix?.matrix.rows.map((row) => row.model).sort()).toEqual(["demo_alpha", "demo_beta", "demo_delta", "demo_gamma"]);
    const beta = matrix!.matrix.rows.find((row) => row.model === "demo_beta")!;
    expect(beta.cells[1]).toMatchObject({ valid: false, failStep: "step_1_2", tone: "bad" });
    expect(await getTaskMatrix(db, VIEWER, benchmark!.id, "NoSuchTask")).toBeNull();

    const tasks = await listTasks(db, VIEWER, benchmark!.id);
    expect(tasks.map((task) => task.domain)).toEqual(["Research", "Document", "Enterprise", "Developer", "Education", "AIGC"]);
    expect(tasks.reduce((sum, task) => sum + task.responses, 0)).toBe(15 * 3 + 6);

    const alphaRun = (await getModelOverview(db, VIEWER, benchmark!.id, "demo_alpha"))!.runs[0]!;
    const gammaRun = (await getModelOverview(db, VIEWER, benchmark!.id, "demo_gamma"))!.runs[0]!;
    const compared = compareRuns(await getPairTurns(db, VIEWER, alphaRun.id), await getPairTurns(db, VIEWER, gammaRun.id));
    expect(compared.ok).toBe(true);
    if (!compared.ok) return;
    // alpha passes 12 of 15 turns and gamma 3, all of gamma's among alpha's: 9 turns where only alpha passes.
    expect(compared.value.pass.counts).toMatchObject({ n: 15, aOnly: 9, bOnly: 0, bothPass: 3 });
    expect(compared.value.resolve?.rateA).toMatchObject({ num: 31, den: 45 });
    expect(compared.value.discordant).toHaveLength(9);
  });

  it("prints the same rows from the command line, and nothing else on stdout", async () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", "scripts/export.ts", ...args, "--database", testDatabaseUrl()], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, PUBLIC_READ: "false" },
      });
    const json = run("leaderboard", "--source", "measured", "--format", "json", "--benchmark", "Chat2Workflow demo");
    expect(json.status, json.stderr).toBe(0);
    const { rows } = await getExportRates(db, VIEWER, "measured", "Chat2Workflow demo");
    expect(JSON.parse(json.stdout)).toEqual(toJsonRows(leaderboardColumns("measured"), leaderboardExportRows(rows)));
    const csv = run("leaderboard", "--source", "published", "--format", "csv");
    expect(csv.status, csv.stderr).toBe(0);
    expect(csv.stdout.split("\r\n")[0]).toBe("model,scope,key,passNum,passDen,resolveNum,resolveDen,passPercent,resolvePercent");
    expect(csv.stdout).toContain("gpt_5d2,overall,all,53.3333,79,112.3333,237,67.51,47.4");
    // Printed 62.97; the derived count (34 of 54 over three runs) divides to 62.96.
    expect(csv.stdout).toContain("claude_sonnet4d5,domain,AIGC,11.3333,18,22.6667,54,62.97,41.97\r\n");
    const unknown = run("leaderboard", "--benchmark", "no such benchmark");
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toContain("no benchmark named");
  });

  it("exports the published Table 1 with counts over the benchmark's denominators and no rounds", async () => {
    const { rows } = await getExportRates(db, VIEWER, "published", null);
    const exported = leaderboardExportRows(rows);
    expect(exported).toHaveLength(15 * 7);
    expect(exported.find((row) => row.model === "gpt_5d2" && row.scope === "overall")).toMatchObject({ passNum: 53.3333, passDen: 79, resolveNum: 112.3333, resolveDen: 237 });
  });
});

describe.skipIf(!benchmarkDir)(`leaderboard on the shared benchmark and its 12 runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let files: ImportFile[];
  let expected: Map<string, Expected>;

  beforeAll(async () => {
    await emptyDatabase(db);
    await seedPublishedResults(db);
    files = await recordedFiles(path.join(benchmarkDir!, "runs"));
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: benchmarkDir! }, runs: files, importedBy: "test" }, LIMITS);
    expect(outcome.ok).toBe(true);
    expected = expectedFromFiles(path.join(benchmarkDir!, "dataset/query.json"), files);
  });

  // Leave an empty, small database file to the next test file.
  afterAll(async () => {
    await emptyDatabase(db);
    await db.$executeRawUnsafe("VACUUM");
  });

  it("matches the official definitions for every model, domain and round (rounds 1–3 exported, round 4 on request)", async () => {
    const { rows } = await getExportRates(db, VIEWER, "measured", "chat2workflow");
    const all = leaderboardExportRows(rows, { allRounds: true });
    expect(all).toHaveLength(expected.size);
    for (const row of all) {
      const entry = expected.get(`${row.model}|${row.scope}|${row.key}`);
      expect(entry, `${row.model} ${row.scope} ${row.key}`).toBeDefined();
      expect([row.passNum, row.passDen, row.resolveNum, row.resolveDen]).toEqual([entry!.pass, entry!.turns, entry!.resolve, 3 * entry!.turns]);
    }
    const official = leaderboardExportRows(rows);
    expect(official.filter((row) => row.scope === "round").map((row) => row.key)).not.toContain("4");
    expect(official).toHaveLength(12 * (1 + 6 + 3));
    expect(official.find((row) => row.model === "gpt_5d2" && row.scope === "overall")).toEqual({
      model: "gpt_5d2",
      configuration: "official recorded run",
      judge: "recorded verdicts",
      scope: "overall",
      key: "all",
      passNum: 55,
      passDen: 79,
      resolveNum: 121,
      resolveDen: 237,
    });
  });

  it("has the denominators the published figures are over", async () => {
    const { benchmark } = await selectBenchmark(db, VIEWER, null);
    const counts = await getMeasuredCounts(db, VIEWER, benchmark!.id);
    for (const { domain, turns } of counts.domainTurns) expect(PUBLISHED_TURNS[domain], domain).toBe(turns);
    expect(counts.domainTurns.reduce((sum, entry) => sum + entry.turns, 0)).toBe(PUBLISHED_TURNS[AVERAGE]);
    expect(counts.roundTurns).toEqual([
      { round: 1, turns: 27 },
      { round: 2, turns: 27 },
      { round: 3, turns: 21 },
      { round: 4, turns: 4 },
    ]);
  });

  it("charts rounds 1–3 and notes round 4, with the same per-round counts", async () => {
    const { benchmark } = await selectBenchmark(db, VIEWER, null);
    const counts = await getMeasuredCounts(db, VIEWER, benchmark!.id);
    const { rows } = await getExportRates(db, VIEWER, "measured", null);
    const chart = degradation(rows, chooseChartModels(rows, counts.models, []), counts.models, counts.roundTurns);
    expect(chart.pass).toHaveLength(3);
    expect(chart.omitted).toEqual([{ round: 4, turns: 4 }]);
    const gpt = chart.table.filter((row) => row.model === "gpt_5d2");
    for (const row of gpt) {
      const entry = expected.get(`gpt_5d2|round|${row.round}`)!;
      expect([row.passNum, row.passDen, row.resolveNum, row.resolveDen]).toEqual([entry.pass, entry.turns, entry.resolve, 3 * entry.turns]);
    }
  });

  it("counts fail steps as the run files record them", async () => {
    const { benchmark } = await selectBenchmark(db, VIEWER, null);
    const measured = await getMeasuredCounts(db, VIEWER, benchmark!.id);
    const failures = await getFailureCounts(db, VIEWER, measured.runs);
    const models = measured.models;
    const distribution = failStepDistribution(failures.steps, models);
    for (const file of files) {
      const model = path.basename(file.name, ".json");
      const records = JSON.parse(file.content) as { valid: boolean; fail_step?: string | null }[];
      const row = distribution.find((entry) => entry.model === model)!;
      expect(row.passed).toBe(records.filter((record) => record.valid).length);
      for (const step of ["step_1_1", "step_1_2", "step_1_3", "step_1_4"]) {
        expect(row.steps[step], `${model} ${step}`).toBe(records.filter((record) => !record.valid && record.fail_step === step).length);
      }
    }
  });

  it("compares two models on the same 79 turns and 237 cases", async () => {
    const { benchmark } = await selectBenchmark(db, VIEWER, null);
    const run = async (model: string) => (await getModelOverview(db, VIEWER, benchmark!.id, model))!.runs[0]!.id;
    const compared = compareRuns(await getPairTurns(db, VIEWER, await run("gpt_5d2")), await getPairTurns(db, VIEWER, await run("glm_4d7")));
    expect(compared.ok).toBe(true);
    if (!compared.ok) return;
    const load = (model: string) => JSON.parse(files.find((file) => path.basename(file.name) === `${model}.json`)!.content) as { task: string; round: number; valid: boolean }[];
    const glm = new Map(load("glm_4d7").map((record) => [`${record.task}_${record.round}`, record.valid]));
    const gpt = load("gpt_5d2");
    const aOnly = gpt.filter((record) => record.valid && glm.get(`${record.task}_${record.round}`) === false).length;
    const bOnly = gpt.filter((record) => !record.valid && glm.get(`${record.task}_${record.round}`) === true).length;
    expect(compared.value.pass.counts.n).toBe(79);
    expect([compared.value.pass.mcnemar.b, compared.value.pass.mcnemar.c]).toEqual([aOnly, bOnly]);
    expect(compared.value.discordant).toHaveLength(aOnly + bOnly);
    expect(compared.value.resolve?.counts.n).toBe(237);
    expect(compared.value.resolve?.rateA).toMatchObject({ num: 121, den: 237 });
  });

  it("builds a task matrix whose cells are the recorded verdicts", async () => {
    const { benchmark } = await selectBenchmark(db, VIEWER, null);
    const detail = (await getTaskMatrix(db, VIEWER, benchmark!.id, "PaperDeepReader"))!;
    expect(detail.matrix.columns.map((column) => column.round)).toEqual([1, 2, 3, 4]);
    expect(detail.matrix.rows).toHaveLength(12);
    for (const file of files) {
      const model = path.basename(file.name, ".json");
      const row = detail.matrix.rows.find((entry) => entry.model === model)!;
      const records = (JSON.parse(file.content) as Record<string, unknown>[]).filter((record) => record.task === "PaperDeepReader");
      for (const record of records) {
        const cell = row.cells[(record.round as number) - 1]!;
        expect(cell.valid).toBe(record.valid);
        expect(cell.casesPassed).toBe([record.test1, record.test2, record.test3].filter((test) => test === true).length);
      }
    }
  });
});
