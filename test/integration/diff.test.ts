import { beforeAll, describe, expect, it } from "vitest";
import { buildComparison, comparisonInputOf } from "@/lib/diff-view/comparison";
import { getModelDiffSource, getResponsePair, getTurnDiffSource, listDiffRuns } from "@/lib/server/data/diff";
import type { SessionUser } from "@/lib/server/session";
import { testDatabase } from "../support/database";
import { freshDemoDatabase } from "../support/demo-database";

const viewer: SessionUser = { id: "u1", email: "viewer@example.org", name: null, role: "viewer" };
const stranger = { ...viewer, role: "nobody" } as unknown as SessionUser;

describe("diff data access", () => {
  const db = testDatabase();
  const runs: Record<string, string> = {};

  beforeAll(async () => {
    Object.assign(runs, (await freshDemoDatabase(db)).runIds);
  });

  it("lists every run with its model and benchmark for the pickers", async () => {
    const listed = await listDiffRuns(db, viewer);
    expect(listed.map((run) => run.label).sort()).toEqual(Object.keys(runs).sort());
    expect(listed[0]).toMatchObject({ model: { name: expect.any(String) }, benchmark: { name: "Chat2Workflow demo" } });
  });

  it("reads round n − 1 and n of a task in a run, with turns, instructions, stored verdicts and tests", async () => {
    const source = await getTurnDiffSource(db, viewer, { runId: runs["demo_alpha.json"]!, task: "ReceiptBatcher", round: 2 });
    expect(source).not.toBeNull();
    const { task, round, before, after } = source!;
    expect(round).toBe(2);
    expect(task).toMatchObject({ name: "ReceiptBatcher", roundCount: 2, answeredRounds: [1, 2] });
    expect(task!.instructions.map((entry) => entry.round)).toEqual([1, 2]);
    expect(before?.turn).toMatchObject({ key: "ReceiptBatcher_1", round: 1 });
    expect(after?.turn).toMatchObject({ key: "ReceiptBatcher_2", round: 2, task: { name: "ReceiptBatcher", roundCount: 2 } });
    expect(after?.turn.inputVars.length).toBeGreaterThan(0);
    expect(after?.texts.workflow).toContain("iteration");
    expect(after?.recorded).toEqual({ valid: true, failStep: null });
    expect(after?.cases.map((c) => c.position)).toEqual([1, 2, 3]);
    expect(source!.tasks).toHaveLength(6);

    // The page's server-side work on it: round 2 adds an iteration, marked "added" on the later canvas.
    const comparison = buildComparison({ before: comparisonInputOf(before!), after: comparisonInputOf(after!) });
    const iteration = comparison.after.view!.nodes.find((node) => node.type === "iteration")!;
    expect(comparison.after.marks.nodes[iteration.key]).toEqual({ label: "added", tone: "good" });
  });

  it("picks the first task with two answered rounds and its first comparable round when none is named", async () => {
    const source = await getTurnDiffSource(db, viewer, { runId: runs["demo_beta.json"]! });
    expect(source?.task?.name).toBe("ChangelogWriter");
    expect(source?.round).toBe(2);
    expect(source?.before?.turn.round).toBe(1);
  });

  it("has no previous turn for round 1, and only the answered tasks for a partial run", async () => {
    const first = await getTurnDiffSource(db, viewer, { runId: runs["demo_alpha.json"]!, task: "QuizBuilder", round: 1 });
    expect(first?.before).toBeNull();
    expect(first?.after?.turn.round).toBe(1);
    const raw = await getTurnDiffSource(db, viewer, { runId: runs["demo_delta.generation.json"]!, task: "ReceiptBatcher", round: 2 });
    expect(raw?.before?.texts.rawText).toBeTruthy();
    expect(raw?.after?.recorded).toBeNull();
    expect(raw?.tasks.filter((t) => t.answeredRounds.length > 0).map((t) => t.name).sort()).toEqual(["ChangelogWriter", "PosterCopy", "ReceiptBatcher"]);
    const unanswered = await getTurnDiffSource(db, viewer, { runId: runs["demo_delta.generation.json"]!, task: "QuizBuilder", round: 2 });
    expect(unanswered).toMatchObject({ before: null, after: null, round: 2 });
  });

  it("returns null for an unknown run or task and a round outside the task", async () => {
    expect(await getTurnDiffSource(db, viewer, { runId: "no-such-run" })).toBeNull();
    expect(await getTurnDiffSource(db, viewer, { runId: runs["demo_alpha.json"]!, task: "NoSuchTask" })).toBeNull();
    expect(await getTurnDiffSource(db, viewer, { runId: runs["demo_alpha.json"]!, task: "ReceiptBatcher", round: 3 })).toBeNull();
    expect(await getTurnDiffSource(db, viewer, { runId: runs["demo_alpha.json"]!, task: "ReceiptBatcher", round: 0 })).toBeNull();
  });

  it("reads one turn answered by two runs, by turn key or turn id, with the runs that answered it", async () => {
    const byKey = await getModelDiffSource(db, viewer, { turn: "QuizBuilder_2", a: runs["demo_alpha.json"], b: runs["demo_beta.json"] });
    expect(byKey?.turn).toMatchObject({ key: "QuizBuilder_2", task: "QuizBuilder", round: 2, roundCount: 3 });
    expect(byKey?.turn.earlier.map((entry) => entry.round)).toEqual([1]);
    expect(byKey?.a?.response?.run.label).toBe("demo_alpha.json");
    expect(byKey?.b?.response?.run.label).toBe("demo_beta.json");
    expect(byKey?.b?.response?.recorded).toEqual({ valid: false, failStep: "step_1_2" });
    expect(byKey?.turns).toHaveLength(15);
    const answered = byKey!.runs.filter((run) => run.responseId !== null).map((run) => run.label).sort();
    expect(answered).toEqual(["demo_alpha.json", "demo_beta.json", "demo_gamma.json"]);

    const byId = await getModelDiffSource(db, viewer, { turn: byKey!.turn.id, a: runs["demo_gamma.json"] });
    expect(byId?.turn.key).toBe("QuizBuilder_2");
    // B not named: the first other run that answered the turn.
    expect(byId?.b?.run.label).toBe("demo_alpha.json");
    expect(byId?.b?.response).not.toBeNull();
  });

  it("defaults the turn and the runs, and says when a run did not answer the turn", async () => {
    const defaults = await getModelDiffSource(db, viewer, {});
    expect(defaults?.a?.response).not.toBeNull();
    expect(defaults?.b?.response).not.toBeNull();
    expect(defaults?.a?.run.id).not.toBe(defaults?.b?.run.id);
    const missing = await getModelDiffSource(db, viewer, { turn: "QuizBuilder_2", a: runs["demo_alpha.json"], b: runs["demo_delta.generation.json"] });
    expect(missing?.b?.run.label).toBe("demo_delta.generation.json");
    expect(missing?.b?.response).toBeNull();
  });

  it("returns null for an unknown turn or run", async () => {
    expect(await getModelDiffSource(db, viewer, { turn: "NoSuchTask_1", a: runs["demo_alpha.json"] })).toBeNull();
    expect(await getModelDiffSource(db, viewer, { turn: "QuizBuilder_2", a: "no-such-run" })).toBeNull();
    expect(await getModelDiffSource(db, viewer, { turn: "QuizBuilder_2", a: runs["demo_alpha.json"], b: "no-such-run" })).toBeNull();
  });

  it("reads any two responses by id, and null when one is unknown", async () => {
    const ids = await db.response.findMany({ where: { runId: runs["demo_alpha.json"] }, select: { id: true }, take: 2, orderBy: { id: "asc" } });
    const pair = await getResponsePair(db, viewer, ids[0]!.id, ids[1]!.id);
    expect(pair?.a.id).toBe(ids[0]!.id);
    expect(pair?.b.id).toBe(ids[1]!.id);
    expect(await getResponsePair(db, viewer, ids[0]!.id, "no-such-response")).toBeNull();
  });

  it("refuses an actor who may not read", async () => {
    await expect(listDiffRuns(db, stranger)).rejects.toThrow(/may not read/);
    await expect(getTurnDiffSource(db, stranger, { runId: runs["demo_alpha.json"]! })).rejects.toThrow(/may not read/);
    await expect(getModelDiffSource(db, stranger, {})).rejects.toThrow(/may not read/);
    await expect(getResponsePair(db, stranger, "a", "b")).rejects.toThrow(/may not read/);
  });
});
