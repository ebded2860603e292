// The benchmark pages open on without ?benchmark=: the first real benchmark imported, or the admin's choice; runs
// imported into another benchmark never move it. Only admins may change it.
import { beforeEach, describe, expect, it } from "vitest";
import { AuthorizationError } from "@/lib/server/authz";
import { selectBenchmark } from "@/lib/server/data/leaderboard";
import { getDefaultBenchmarkSetting, setDefaultBenchmark } from "@/lib/server/data/settings";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase } from "../support/database";

const user = (role: SessionUser["role"]): SessionUser => ({ id: `${role}-id`, email: `${role}@example.org`, name: null, role });

describe("the default benchmark", () => {
  const db = testDatabase();
  beforeEach(async () => {
    await emptyDatabase(db);
    await db.benchmark.create({ data: { id: "demo", name: "Chat2Workflow demo", version: "d", fingerprint: "fd", importedBy: "demo seed", importedAt: new Date("2026-01-01T00:00:00Z") } });
    await db.benchmark.create({ data: { id: "real", name: "chat2workflow", version: "r", fingerprint: "fr", importedBy: "admin@example.org", importedAt: new Date("2026-01-02T00:00:00Z") } });
    await db.model.create({ data: { id: "m", name: "gpt_5d2", displayName: "GPT-5.2" } });
  });

  it("is the first real benchmark imported, whatever gets more runs later", async () => {
    expect((await selectBenchmark(db, user("viewer"), null)).benchmark?.id).toBe("real");
    for (let i = 0; i < 3; i++) {
      await db.run.create({ data: { benchmarkId: "demo", modelId: "m", label: `r${i}`, origin: "imported", contentHash: `h${i}`, coreVersion: "1", responseCount: 0 } });
    }
    const selection = await selectBenchmark(db, user("viewer"), null);
    expect(selection.choices.find((c) => c.id === "demo")?.runCount).toBe(3);
    expect(selection.benchmark?.id).toBe("real");
    expect(selection.defaultId).toBe("real");
    expect(selection.param).toBe("chat2workflow");
  });

  it("follows an admin's choice; other roles may not change it", async () => {
    await expect(setDefaultBenchmark(db, user("researcher"), "demo")).rejects.toBeInstanceOf(AuthorizationError);
    await expect(setDefaultBenchmark(db, user("viewer"), "demo")).rejects.toBeInstanceOf(AuthorizationError);
    expect(await getDefaultBenchmarkSetting(db, user("viewer"))).toBeNull();
    expect(await setDefaultBenchmark(db, user("admin"), "missing")).toBe(false);
    expect(await setDefaultBenchmark(db, user("admin"), "demo")).toBe(true);
    expect((await selectBenchmark(db, user("viewer"), null)).benchmark?.id).toBe("demo");
    // A URL naming a benchmark still wins.
    expect((await selectBenchmark(db, user("viewer"), "chat2workflow")).benchmark?.id).toBe("real");
  });
});
