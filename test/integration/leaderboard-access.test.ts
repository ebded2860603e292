// With PUBLIC_READ off, the leaderboard's data functions refuse anonymous visitors themselves, whatever the page did.
import { beforeAll, describe, expect, it } from "vitest";
import { AuthorizationError } from "@/lib/server/authz";
import { getModelTurns, getPairTurns, getTaskMatrix, listTasks } from "@/lib/server/data/drilldown";
import { getExportRates, getFailureCounts, getMeasuredCounts, loadLeaderboard } from "@/lib/server/data/leaderboard";
import { seedPublishedResults } from "@/lib/server/published";
import { testDatabase } from "../support/database";

process.env.PUBLIC_READ = "false";

describe("leaderboard data without public read access", () => {
  const db = testDatabase();
  beforeAll(() => seedPublishedResults(db));

  it("refuses anonymous reads in every function", async () => {
    const calls = [
      () => loadLeaderboard(db, null, null),
      () => getExportRates(db, null, "published", null),
      () => getMeasuredCounts(db, null, "any"),
      () => getFailureCounts(db, null, "any"),
      () => listTasks(db, null, "any"),
      () => getTaskMatrix(db, null, "any", "any"),
      () => getModelTurns(db, null, "any", "any"),
      () => getPairTurns(db, null, "any"),
    ];
    for (const call of calls) await expect(call()).rejects.toBeInstanceOf(AuthorizationError);
  });

  it("lets any signed-in role read", async () => {
    const { rows } = await getExportRates(db, { id: "v", email: "v@example.org", name: null, role: "viewer" }, "published", null);
    expect(rows.length).toBeGreaterThan(0);
  });
});
