// The evaluation service on a real database: starting creates the evaluation, its model, in-progress generated runs
// and one generate job with an item per (run, task); bad requests create nothing; roles are enforced.
import path from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AuthorizationError } from "@/lib/server/authz";
import { cancelEvaluation } from "@/lib/server/evaluations/cancel-evaluation";
import { getEvaluation } from "@/lib/server/evaluations/get-evaluation";
import { listEvaluations } from "@/lib/server/evaluations/list-evaluations";
import { modelNameFor, startEvaluation } from "@/lib/server/evaluations/start-evaluation";
import { GENERATE_JOB_KIND } from "@/lib/server/evaluations/types";
import { listRuns } from "@/lib/server/data/runs";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase } from "../support/database";
import { actor, importBenchmarkOnly, stubEndpoint } from "../support/evaluation-fixtures";

const researcher = actor("researcher");

describe("modelNameFor", () => {
  it("keeps the characters a model name may hold and replaces the rest", () => {
    expect(modelNameFor("qwen/qwen3-32b:free")).toBe("qwen_qwen3-32b_free");
    expect(modelNameFor("gpt-5.1")).toBe("gpt-5.1");
    expect(modelNameFor("///")).toBe("model");
    expect(modelNameFor("x".repeat(300))).toHaveLength(100);
  });
});

describe.skipIf(!benchmarkDir)(`the evaluation service${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const db = testDatabase();
  let benchmarkId: string;
  let endpointId: string;

  beforeAll(async () => {
    await emptyDatabase(db);
    benchmarkId = await importBenchmarkOnly(db, benchmarkDir as string);
    endpointId = await stubEndpoint(db, "http://127.0.0.1:9/v1");
  });
  beforeEach(async () => {
    await db.job.deleteMany();
    await db.evaluation.deleteMany();
    await db.run.deleteMany();
  });

  it("creates the evaluation, its runs in progress and one generate item per run and task", async () => {
    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "zero-shot", judge: { kind: "rule" }, runCount: 3, params: { temperature: 0.5 } });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const runs = await db.run.findMany({ where: { evaluationId: started.evaluationId }, orderBy: { runNumber: "asc" }, include: { model: true } });
    expect(runs.map((run) => [run.runNumber, run.status, run.origin, run.contentHash, run.generationMode])).toEqual(
      [1, 2, 3].map((n) => [n, "in-progress", "generated", `generated:${started.evaluationId}:${n}`, "zero-shot"]),
    );
    expect(runs[0]?.model.name).toBe("replay-stub_model_v1");
    // The runs list names who started it by email, as it names importers.
    const listedRuns = await listRuns(db, actor("viewer"));
    expect(listedRuns.filter((run) => runs.some((own) => own.id === run.id)).map((run) => run.importedBy)).toEqual([researcher.email, researcher.email, researcher.email]);
    const job = await db.job.findUniqueOrThrow({ where: { id: started.jobId }, include: { items: true } });
    expect(job.kind).toBe(GENERATE_JOB_KIND);
    expect(job.endpointId).toBe(endpointId);
    // 27 tasks × 3 runs.
    expect(job.items).toHaveLength(81);
    expect(new Set(job.items.map((item) => item.key)).size).toBe(81);

    const view = await getEvaluation(db, actor("viewer"), started.evaluationId);
    expect(view?.jobId).toBe(started.jobId);
    expect(view?.runs.map((run) => run.status)).toEqual(["in-progress", "in-progress", "in-progress"]);
    expect(view?.params).toEqual({ temperature: 0.5 });
    expect(view?.judge).toEqual({ kind: "rule" });
    const listed = await listEvaluations(db, actor("viewer"));
    expect(listed.map((evaluation) => evaluation.id)).toEqual([started.evaluationId]);
    expect(listed[0]?.jobId).toBe(started.jobId);
  });

  it("rejects bad requests without creating anything, and only researchers and admins may start or cancel", async () => {
    const before = { evaluations: await db.evaluation.count(), runs: await db.run.count(), jobs: await db.job.count() };
    const bad = [
      { benchmarkId, endpointId, mode: "zero-shot" as const, runCount: 6 },
      { benchmarkId, endpointId: "missing", mode: "zero-shot" as const },
      { benchmarkId: "missing", endpointId, mode: "agentic" as const },
      { benchmarkId, endpointId, mode: "zero-shot" as const, judge: { kind: "llm" as const, endpointIds: ["missing"] } },
      { benchmarkId, endpointId, mode: "zero-shot" as const, caseFilesDir: "/etc" },
    ];
    for (const input of bad) {
      const outcome = await startEvaluation(db, researcher, input);
      expect(outcome.ok).toBe(false);
    }
    await expect(startEvaluation(db, actor("annotator"), { benchmarkId, endpointId, mode: "zero-shot" })).rejects.toBeInstanceOf(AuthorizationError);
    expect({ evaluations: await db.evaluation.count(), runs: await db.run.count(), jobs: await db.job.count() }).toEqual(before);

    const started = await startEvaluation(db, researcher, { benchmarkId, endpointId, mode: "agentic" });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    await expect(cancelEvaluation(db, actor("viewer"), started.evaluationId)).rejects.toBeInstanceOf(AuthorizationError);
    expect(await cancelEvaluation(db, actor("admin"), started.evaluationId)).toEqual({ ok: true });
    expect((await db.job.findUniqueOrThrow({ where: { id: started.jobId } })).status).toBe("cancelled");
    expect((await db.run.findFirstOrThrow({ where: { evaluationId: started.evaluationId } })).status).toBe("cancelled");
    expect((await cancelEvaluation(db, researcher, started.evaluationId)).ok).toBe(false);
  });
});

describe("evaluations of the demo benchmark", () => {
  const db = testDatabase();

  it("start in every mode: the demo benchmark has the prompts and a stand-in skill text", async () => {
    await emptyDatabase(db);
    const demo = await importBenchmarkOnly(db, path.resolve(__dirname, "../../prisma/demo/benchmark"));
    const endpointId = await stubEndpoint(db, "http://127.0.0.1:9/v1");
    for (const mode of ["zero-shot", "agentic", "feedback"] as const) {
      const started = await startEvaluation(db, researcher, { benchmarkId: demo, endpointId, mode, judge: { kind: "llm", endpointIds: [endpointId] } });
      expect(started).toMatchObject({ ok: true });
    }
  });
});
