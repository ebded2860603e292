// With PUBLIC_READ off, the leaderboard's data functions refuse anonymous visitors themselves, whatever the page did.
import { beforeAll, describe, expect, it } from "vitest";
import { AuthorizationError } from "@/lib/server/authz";
import { getModelTurns, getPairTurns, getTaskMatrix, listTasks } from "@/lib/server/data/drilldown";
import { getExportRates, getFailureCounts, getMeasuredCounts, loadLeaderboard } from "@/lib/server/data/leaderboard";
import { seedPublishedResults } from "@/lib/server/published";
import { parseJudgeChoice } from "@/lib/judge/choice";
import { getJudgeComparison, getPairwiseAgreement, listJudges, resolveJudgedBy } from "@/lib/server/data/judges";
import { testDatabase } from "../support/database";

process.env.PUBLIC_READ = "false";

describe("leaderboard data without public read access", () => {
  const db = testDatabase();
  beforeAll(() => seedPublishedResults(db));

  it("refuses anonymous reads in every function", async () => {
    const parsed = parseJudgeChoice("rule");
    if (!parsed.ok) throw new Error("rule should parse");
    const rule = parsed.value;
    const calls = [
      () => loadLeaderboard(db, null, null),
      () => getExportRates(db, null, "published", null),
      () => getMeasuredCounts(db, null, "any"),
      () => getFailureCounts(db, null, [{ id: "any", series: "any" }]),
      () => listTasks(db, null, "any"),
      () => getTaskMatrix(db, null, "any", "any"),
      () => getModelTurns(db, null, "any", "any"),
      () => getPairTurns(db, null, "any"),
      () => getMeasuredCounts(db, null, "any", rule),
      () => loadLeaderboard(db, null, null, { judge: rule }),
      () => listJudges(db, null, "any"),
      () => getPairwiseAgreement(db, null, "any", "pass"),
      () => getJudgeComparison(db, null, "any", "pass", rule, rule),
      () => resolveJudgedBy(db, null, "any", "rule"),
    ];
    for (const call of calls) await expect(call()).rejects.toBeInstanceOf(AuthorizationError);
  });

  it("lets any signed-in role read", async () => {
    const { rows } = await getExportRates(db, { id: "v", email: "v@example.org", name: null, role: "viewer" }, "published", null);
    expect(rows.length).toBeGreaterThan(0);
  });
});
