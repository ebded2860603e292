// Drift of a judge against the blind human labels of chosen review queues, on a real database: weekly agreement with
// its interval per judge and prompt version, and the judges page's alert rendered for a seeded drop in the latest
// week but not for noise within the earlier weeks' interval.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { DriftAlerts } from "@/components/judges/drift-alerts";
import { driftChecks } from "@/lib/judge/calibration";
import { getCalibration } from "@/lib/server/data/judges";
import { testDatabase } from "../support/database";
import { freshDemoDatabase } from "../support/demo-database";
import { actor } from "../support/evaluation-fixtures";
import { ensureRoleUsers } from "../support/session-mock";

const PER_WEEK = 6;
const WEEKS = 4;

describe("judge drift on the judges page", () => {
  const db = testDatabase();
  let benchmarkId = "";
  /** Pass-stage items the rule and recorded judges agree on, so both judges see the same labels. */
  let items: { responseId: string; verdict: boolean }[] = [];

  beforeAll(async () => {
    await freshDemoDatabase(db);
    await ensureRoleUsers(db);
    const verdicts = await db.judgeVerdict.findMany({ where: { stage: "pass", judge: { in: ["rule", "recorded"] } }, select: { responseId: true, judge: true, verdict: true }, orderBy: { responseId: "asc" } });
    const byResponse = new Map<string, Map<string, boolean>>();
    for (const row of verdicts) byResponse.set(row.responseId, (byResponse.get(row.responseId) ?? new Map()).set(row.judge, row.verdict));
    items = [...byResponse].filter(([, judges]) => judges.size === 2 && judges.get("rule") === judges.get("recorded")).map(([responseId, judges]) => ({ responseId, verdict: judges.get("rule")! }));
    expect(items.length).toBeGreaterThanOrEqual(PER_WEEK * WEEKS);
    benchmarkId = (await db.run.findFirstOrThrow({ select: { benchmarkId: true } })).benchmarkId;
  });

  /** A blind queue over `PER_WEEK × WEEKS` items whose annotator agrees with the judges on `agreeing[week]` items each week. */
  async function seedQueue(name: string, offset: number, agreeing: readonly number[]): Promise<string> {
    const queue = await db.reviewQueue.create({ data: { name, benchmarkId, stage: "pass", mode: "blind", annotatorsPerItem: 1, filter: "{}", sampleSize: PER_WEEK * WEEKS, seed: name } });
    for (let week = 0; week < WEEKS; week += 1) {
      for (let index = 0; index < PER_WEEK; index += 1) {
        const position = week * PER_WEEK + index;
        const item = items[offset + position]!;
        const at = new Date(Date.UTC(2026, 10, 2 + 7 * week + (index % 5), 10));
        const created = await db.reviewItem.create({
          data: { queueId: queue.id, position, responseId: item.responseId, stage: "pass", casePosition: 0, judge: "rule", verdict: item.verdict, inputFingerprint: `fp-${position}` },
        });
        const pass = index < agreeing[week]! ? item.verdict : !item.verdict;
        await db.reviewVote.create({ data: { itemId: created.id, annotatorId: "user-annotator", annotatorPass: pass, verdict: pass === item.verdict ? "correct" : "incorrect", judgeVisible: false, createdAt: at, updatedAt: at } });
      }
    }
    return queue.id;
  }

  it("a seeded drop in the latest week alerts; noise within the interval does not; each from its own calibration set", async () => {
    const dropQueue = await seedQueue("drop", 0, [6, 6, 6, 1]);
    const noiseQueue = await seedQueue("noise", 0, [6, 5, 6, 5]);
    const researcher = actor("researcher");

    const drop = await getCalibration(db, researcher, benchmarkId, { queueIds: [dropQueue] });
    const rule = drop.pass.judges.find((judge) => judge.judge === "rule")!;
    expect(rule.weeks.map((week) => [week.n, week.agree])).toEqual([[6, 6], [6, 6], [6, 6], [6, 1]]);
    expect(rule.weeks[3]!.interval!.upper).toBeLessThan(0.7);
    const dropChecks = driftChecks(drop.pass);
    expect(dropChecks.filter((check) => check.alert).map((check) => check.judge).sort()).toEqual(["recorded", "rule"]);
    const dropHtml = renderToStaticMarkup(createElement(DriftAlerts, { stage: "pass", checks: dropChecks }));
    expect(dropHtml).toContain('role="alert"');
    expect(dropHtml).toMatch(/<li>rule · prompt [^:]+: week of 2026-11-23 agreed on 16\.7% \(1 of 6\) below the 95% interval 82\.4%–100\.0% of the 3 earlier weeks \(18 of 18\)\.<\/li>/);

    const noise = await getCalibration(db, researcher, benchmarkId, { queueIds: [noiseQueue] });
    const noiseChecks = driftChecks(noise.pass);
    expect(noiseChecks).toHaveLength(2);
    expect(noiseChecks.some((check) => check.alert)).toBe(false);
    const noiseHtml = renderToStaticMarkup(createElement(DriftAlerts, { stage: "pass", checks: noiseChecks }));
    expect(noiseHtml).not.toContain('role="alert"');
    expect(noiseHtml).toContain("No drift");

    // No queue chosen pools every queue: the same items, each annotator counted once with the latest vote.
    const pooled = await getCalibration(db, researcher, benchmarkId);
    expect(pooled.pass.labelled).toBe(PER_WEEK * WEEKS);
  });
});
