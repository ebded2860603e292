// The command palette's search over a real database: models, tasks (linked with their benchmark), runs and
// response ids by prefix; short queries find nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { searchEverything } from "@/lib/server/data/search";
import type { SessionUser } from "@/lib/server/session";
import { emptyDatabase, testDatabase } from "../support/database";

const viewer: SessionUser = { id: "v", email: "v@example.org", name: null, role: "viewer" };

describe("command palette search", () => {
  const db = testDatabase();
  beforeAll(async () => {
    await emptyDatabase(db);
    await db.benchmark.create({ data: { id: "b", name: "chat2workflow", version: "v", fingerprint: "f" } });
    await db.domain.create({ data: { id: "d", benchmarkId: "b", name: "Education", position: 0 } });
    await db.task.create({ data: { id: "t", benchmarkId: "b", domainId: "d", externalId: 1, name: "StudyPlanner", roundCount: 2 } });
    await db.turn.create({ data: { id: "turn", benchmarkId: "b", taskId: "t", round: 1, key: "StudyPlanner_1", instruction: "", inputVars: "[]", outputVars: "[]", keyNodes: "[]", fileChecks: "{}" } });
    await db.model.create({ data: { id: "m", name: "gpt_5d2", displayName: "GPT-5.2", family: "GPT" } });
    await db.run.create({ data: { id: "run1", benchmarkId: "b", modelId: "m", label: "gpt_5d2.json", origin: "recorded", contentHash: "h", coreVersion: "1", responseCount: 1 } });
    await db.response.create({ data: { id: "resp0abc123", runId: "run1", turnId: "turn" } });
  });

  it("finds a model, a task with its benchmark, a run and a response id", async () => {
    const models = await searchEverything(db, viewer, "gpt");
    expect(models.find((result) => result.kind === "model")).toMatchObject({ title: "GPT-5.2", href: "/models/gpt_5d2" });
    expect(models.find((result) => result.kind === "run")).toMatchObject({ href: "/runs/run1" });
    expect((await searchEverything(db, viewer, "study"))[0]).toMatchObject({ kind: "task", title: "StudyPlanner", href: "/tasks/StudyPlanner?benchmark=chat2workflow" });
    expect((await searchEverything(db, viewer, "resp0a")).find((result) => result.kind === "response")).toMatchObject({ href: "/responses/resp0abc123", title: "StudyPlanner · round 1" });
    expect(await searchEverything(db, viewer, "g")).toEqual([]);
  });
});
