// The read cache serves a result again only while the database is unchanged, whoever writes to it.
import { beforeAll, describe, expect, it } from "vitest";
import { createDatabaseClient } from "@/lib/server/db";
import { getTaskMatrix } from "@/lib/server/data/drilldown";
import { loadLeaderboard } from "@/lib/server/data/leaderboard";
import { seedDemoData } from "@/lib/server/demo-data";
import { seedPublishedResults } from "@/lib/server/published";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../support/database";

const VIEWER: SessionUser = { id: "viewer", email: "viewer@example.org", name: null, role: "viewer" };

describe("the leaderboard's read cache", () => {
  const db = testDatabase();

  beforeAll(async () => {
    await emptyDatabase(db);
    await seedPublishedResults(db);
    expect((await seedDemoData(db)).ok).toBe(true);
  });

  it("returns the same result while nothing changes, and recomputes after a write on this connection", async () => {
    const first = await loadLeaderboard(db, VIEWER, null);
    const second = await loadLeaderboard(db, VIEWER, null);
    expect(second.wire).toBe(first.wire);
    await db.model.update({ where: { name: "demo_alpha" }, data: { displayName: "Alpha renamed" } });
    const third = await loadLeaderboard(db, VIEWER, null);
    expect(third.wire).not.toBe(first.wire);
    expect(third.board.rows.find((row) => row.name === "demo_alpha")?.displayName).toBe("Alpha renamed");
  });

  it("recomputes after another connection commits (an import or a deletion elsewhere)", async () => {
    const before = await loadLeaderboard(db, VIEWER, null);
    const matrixBefore = await getTaskMatrix(db, VIEWER, before.selection.benchmark!.id, "ReceiptBatcher");
    const other = createDatabaseClient(testDatabaseUrl());
    try {
      const gamma = await other.run.findFirstOrThrow({ where: { model: { name: "demo_gamma" } } });
      await other.run.delete({ where: { id: gamma.id } });
    } finally {
      await other.$disconnect();
    }
    const after = await loadLeaderboard(db, VIEWER, null);
    expect(after.runCount).toBe(before.runCount - 1);
    expect(after.board.rows.some((row) => row.name === "demo_gamma" && row.inMeasured)).toBe(false);
    const matrixAfter = await getTaskMatrix(db, VIEWER, before.selection.benchmark!.id, "ReceiptBatcher");
    expect(matrixAfter!.matrix.rows.length).toBe(matrixBefore!.matrix.rows.length - 1);
  });

  it("answers uncached reads with the same figures", async () => {
    const cached = await loadLeaderboard(db, VIEWER, null);
    const fresh = await loadLeaderboard(db, VIEWER, null, { fresh: true });
    expect(fresh.wire).not.toBe(cached.wire);
    expect(fresh.wire).toEqual(cached.wire);
  });
});
