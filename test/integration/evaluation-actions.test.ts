// The evaluation pages' server action and route on a real database, signed in as a researcher: starting from the
// form's input creates the evaluation and answers its id (the page then opens it), invalid input names the field and
// creates nothing, the progress route answers the grid, and cancelling stops it.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { cancelEvaluationAction, startEvaluationAction } from "@/app/actions/evaluations";
import { GET as getProgress } from "@/app/api/evaluations/[id]/route";
import type { EvaluationProgress } from "@/lib/server/evaluations/get-evaluation-progress";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase } from "../support/database";
import { importBenchmarkOnly, stubEndpoint } from "../support/evaluation-fixtures";
import { ensureRoleUsers, signInAs } from "../support/session-mock";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../support/session-mock")).nextAuthMock }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));
// The worker is not under test: the job stays queued.
vi.mock("@/lib/server/jobs/runtime", async (original) => ({ ...(await original<typeof import("@/lib/server/jobs/runtime")>()), ensureInProcessWorker: () => null }));

describe.skipIf(!benchmarkDir)(`evaluation actions${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let benchmarkId: string;
  let endpointId: string;

  beforeAll(async () => {
    await emptyDatabase(db);
    await ensureRoleUsers(db);
    benchmarkId = await importBenchmarkOnly(db, benchmarkDir as string);
    endpointId = await stubEndpoint(db, "http://127.0.0.1:9/v1");
  });

  it("starts an evaluation from the form's input, serves its progress, and cancels it", async () => {
    signInAs("researcher");
    const started = await startEvaluationAction({ benchmarkId, endpointId, mode: "feedback", judge: { kind: "rule" }, runCount: 3, params: { temperature: 0.2 } });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const evaluation = await db.evaluation.findUniqueOrThrow({ where: { id: started.value.evaluationId }, include: { runs: true } });
    expect([evaluation.mode, evaluation.runCount, evaluation.runs.length, evaluation.params]).toEqual(["feedback", 3, 3, '{"temperature":0.2}']);

    signInAs("viewer");
    const response = await getProgress(new Request(`http://127.0.0.1/api/evaluations/${evaluation.id}`), { params: Promise.resolve({ id: evaluation.id }) } as never);
    expect(response.status).toBe(200);
    const progress = (await response.json()) as EvaluationProgress;
    const turns = await db.turn.count({ where: { benchmarkId } });
    expect(progress.runs.map((run) => run.runNumber)).toEqual([1, 2, 3]);
    expect(progress.counts).toMatchObject({ turns: 3 * turns, pending: 3 * turns });
    expect((await getProgress(new Request("http://127.0.0.1/api/evaluations/none"), { params: Promise.resolve({ id: "none" }) } as never)).status).toBe(404);

    signInAs("researcher");
    expect(await cancelEvaluationAction({ evaluationId: evaluation.id })).toEqual({ ok: true, value: null });
    expect((await db.evaluation.findUniqueOrThrow({ where: { id: evaluation.id } })).status).toBe("cancelled");
    const again = await cancelEvaluationAction({ evaluationId: evaluation.id });
    expect(again.ok).toBe(false);
  });

  it("refuses invalid input with the field named, creating nothing", async () => {
    signInAs("researcher");
    const before = await db.evaluation.count();
    const tooMany = await startEvaluationAction({ benchmarkId, endpointId, mode: "agentic", runCount: 50 });
    expect(tooMany).toMatchObject({ ok: false, error: "invalid" });
    expect(!tooMany.ok && tooMany.fieldErrors?.runCount).toBeTruthy();
    const noJudge = await startEvaluationAction({ benchmarkId, endpointId, mode: "agentic", judge: { kind: "llm", endpointIds: [] } });
    expect(!noJudge.ok && noJudge.fieldErrors?.["judge.endpointIds"]).toBe("Choose at least one judge endpoint.");
    const missing = await startEvaluationAction({ benchmarkId: "no-such-benchmark", endpointId, mode: "zero-shot" });
    expect(missing).toMatchObject({ ok: false, message: "No such benchmark." });
    expect(await db.evaluation.count()).toBe(before);
  });
});
