// Stability across runs on the model page: three recorded runs of one model, built from three of the shared runs
// imported under one model name, pool into one leaderboard row; per turn, the runs it passes in match a hand count
// over the run files, and the flipping turns are exactly those passing in one or two of the three.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getModelOverview } from "@/lib/server/data/drilldown";
import { getMeasuredCounts } from "@/lib/server/data/leaderboard";
import { getRowStability } from "@/lib/server/data/stability";
import { runImport } from "@/lib/server/import/import-service";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase } from "../support/database";
import { actor } from "../support/evaluation-fixtures";

const RUN_FILES = ["gpt_5d2.json", "gpt_5d1.json", "glm_4d7.json"];
const MODEL = "stability_probe";

describe.skipIf(!benchmarkDir)(`stability of one model's three runs ${benchmarkMissingReason}`, () => {
  const db = testDatabase();
  let runIds: string[] = [];
  const records: { task: string; round: number; valid: boolean }[][] = [];

  beforeAll(async () => {
    await emptyDatabase(db);
    const runs = await Promise.all(RUN_FILES.map(async (file) => ({ name: file, content: await readFile(path.join(benchmarkDir!, "runs", file), "utf8") })));
    for (const run of runs) records.push(JSON.parse(run.content) as { task: string; round: number; valid: boolean }[]);
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: benchmarkDir! }, runs, model: MODEL, importedBy: "test" }, { maxFileBytes: 50 * 1024 * 1024, maxResponses: 20_000 });
    if (!outcome.ok) throw new Error(outcome.issues.map((entry) => entry.message).join("\n"));
    const overview = await getModelOverview(db, actor("viewer"), outcome.benchmarkId, MODEL);
    runIds = overview?.runs.map((run) => run.id) ?? [];
  }, 240_000);

  it("pools the three runs into one row whose per-turn k of 3 matches a hand count", async () => {
    expect(runIds).toHaveLength(3);
    const stability = await getRowStability(db, actor("viewer"), runIds);
    expect(stability?.turns).toHaveLength(79);
    const hand = new Map<string, number>();
    for (const file of records) for (const record of file) hand.set(`${record.task}_${record.round}`, (hand.get(`${record.task}_${record.round}`) ?? 0) + (record.valid ? 1 : 0));
    expect(hand.size).toBe(79);
    for (const turn of stability!.turns) expect(turn.passes, turn.turnKey).toBe(hand.get(`${turn.task}_${turn.round}`));
    expect(stability!.histogram).toEqual([0, 1, 2, 3].map((k) => [...hand.values()].filter((passes) => passes === k).length));
    expect(stability!.flipping.length).toBe([...hand.values()].filter((passes) => passes === 1 || passes === 2).length);
    expect(stability!.overall.passAllN.k).toBe([...hand.values()].filter((passes) => passes === 3).length);
  });

  it("pools them as the leaderboard does: one series holding the three runs, which the stability columns read", async () => {
    const benchmarkId = (await db.run.findFirstOrThrow({ where: { id: runIds[0] }, select: { benchmarkId: true } })).benchmarkId;
    const counts = await getMeasuredCounts(db, actor("viewer"), benchmarkId);
    const runs = counts.runs.filter((run) => run.model === MODEL);
    expect(runs).toHaveLength(3);
    expect(new Set(runs.map((run) => run.series)).size).toBe(1);
    expect(runs.filter((run) => !(run.status === "complete"))).toEqual([]);
  });

  it("needs two runs", async () => {
    expect(await getRowStability(db, actor("viewer"), runIds.slice(0, 1))).toBeNull();
  });
});
