import "server-only";
// Starts an evaluation: validates the request, then creates in one transaction the Evaluation, its model, runCount
// generated runs ("in-progress") and one durable "generate" job with an item per (run, task). Nothing is created
// when any check fails; the worker does the generating. Also what the new-evaluation form offers to choose from.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { runJudgeJson, type RunJudge } from "@/lib/judge/run-judge";
import { modeLabel } from "@/lib/generation/modes";
import { CORE_VERSION } from "@/lib/workflow/version";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { MODEL_NAME_PATTERN } from "../import/import-service";
import { resolveAllowedPath } from "../import/allowed-dirs";
import { opencodeInstall, readSkillFolder } from "../generation/opencode";
import { generateJobKind, type GenerateJobParams } from "../jobs/generate-job";
import { jobQueue, wakeWorker } from "../jobs/instance";
import { enqueueJob } from "../jobs/job-kind";
import type { SessionUser } from "../session";
import { generateItemKey, startEvaluationSchema, type StartEvaluationInput } from "./types";

export type StartEvaluationResult = { ok: true; evaluationId: string; jobId: string; runIds: string[] } | { ok: false; message: string };

/** Where the benchmark directory keeps the agentic baseline's skill text. */
export const SKILL_PATH = path.join(".agents", "skills", "chat2workflow", "SKILL.md");

/** A model name (Model.name) from an endpoint's model id: the characters a run-file name may hold, nothing else. */
export function modelNameFor(endpointModel: string): string {
  const name = endpointModel
    .trim()
    .replace(/[^\w.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 100);
  return MODEL_NAME_PATTERN.test(name) ? name : "model";
}

export function generatedContentHash(evaluationId: string, runNumber: number): string {
  return `generated:${evaluationId}:${runNumber}`;
}

async function readSkill(sourceDir: string | null): Promise<{ ok: true; text: string } | { ok: false; message: string }> {
  const missing = "The agentic modes need the benchmark's .agents/skills/chat2workflow/SKILL.md; re-import the benchmark from a directory that has it.";
  if (!sourceDir) return { ok: false, message: missing };
  const allowed = await resolveAllowedPath(path.join(sourceDir, SKILL_PATH));
  if (!allowed.ok) return { ok: false, message: missing };
  try {
    return { ok: true, text: await readFile(allowed.path, "utf8") };
  } catch {
    return { ok: false, message: missing };
  }
}

export async function startEvaluation(db: Database, actor: SessionUser, input: StartEvaluationInput): Promise<StartEvaluationResult> {
  assertAllowed(actor, "runJobs");
  const parsed = startEvaluationSchema.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { ok: false, message: first ? `${first.path.join(".") || "input"}: ${first.message}` : "Invalid evaluation request." };
  }
  const request = parsed.data;

  const benchmark = await db.benchmark.findUnique({
    where: { id: request.benchmarkId },
    select: {
      id: true,
      sourceDir: true,
      prompts: { where: { name: { in: ["builder_prompt", "evaluation_pass_system"] } }, select: { name: true } },
      tasks: { orderBy: { externalId: "asc" }, select: { id: true, name: true, roundCount: true } },
    },
  });
  if (!benchmark) return { ok: false, message: "No such benchmark." };
  if (benchmark.tasks.length === 0) return { ok: false, message: "The benchmark has no tasks." };
  const endpoint = await db.modelEndpoint.findUnique({ where: { id: request.endpointId }, select: { id: true, model: true } });
  if (!endpoint) return { ok: false, message: "No such model endpoint." };
  const hasPrompt = (name: string) => benchmark.prompts.some((prompt) => prompt.name === name);
  if (request.mode === "zero-shot" && !hasPrompt("builder_prompt")) {
    return { ok: false, message: "Zero-shot generation needs the benchmark's prompts/builder_prompt.txt; re-import the benchmark with its prompts folder." };
  }
  let skill = "";
  if (request.mode !== "zero-shot") {
    const read = await readSkill(benchmark.sourceDir);
    if (!read.ok) return read;
    skill = read.text;
  }
  // agentic-opencode: the pinned opencode must be able to run here, and each task gets a copy of the skill folder.
  let agentVersion: string | null = null;
  let skillFiles: Record<string, string> | undefined;
  if (request.mode === "agentic-opencode") {
    if (request.params.temperature !== undefined || request.params.maxTokens !== undefined) {
      return { ok: false, message: "params: agentic-opencode sends opencode's own sampling parameters, as the official baseline does; leave temperature and max tokens empty." };
    }
    const install = opencodeInstall();
    if (!install.ok) return { ok: false, message: `agentic-opencode cannot run on this server: ${install.reason}.` };
    agentVersion = install.version;
    skillFiles = await readSkillFolder(path.dirname(path.join(benchmark.sourceDir as string, SKILL_PATH))).catch(() => ({ "SKILL.md": skill }));
  }
  // The runs' own judge, by the labels its verdicts are stored under: every page shows the runs' figures as it decides them.
  let runJudge: RunJudge = { kind: "rule" };
  if (request.judge.kind === "llm") {
    if (!hasPrompt("evaluation_pass_system")) return { ok: false, message: "An LLM judge needs the benchmark's prompts/evaluation_pass_system.txt; re-import the benchmark with its prompts folder." };
    const ids = [...new Set(request.judge.endpointIds)];
    const found = await db.modelEndpoint.findMany({ where: { id: { in: ids } }, select: { label: true } });
    if (found.length !== ids.length) return { ok: false, message: "judge.endpointIds: a judge endpoint does not exist." };
    request.judge.endpointIds = ids;
    runJudge = { kind: "llm", members: found.map((endpoint) => endpoint.label).sort(), samples: request.judge.samples ?? 1 };
  }
  if (request.difyConnectionId !== undefined) {
    const connection = await db.difyConnection.findUnique({ where: { id: request.difyConnectionId }, select: { id: true } });
    if (!connection) return { ok: false, message: "No such Dify connection." };
  }
  let caseFilesDir: string | null = null;
  if (request.caseFilesDir !== undefined) {
    const allowed = await resolveAllowedPath(request.caseFilesDir);
    if (!allowed.ok) return { ok: false, message: `caseFilesDir: ${allowed.message}` };
    caseFilesDir = allowed.path;
  }

  const modelName = modelNameFor(endpoint.model);
  const created = await db.$transaction(async (tx) => {
    const evaluation = await tx.evaluation.create({
      data: {
        benchmarkId: benchmark.id,
        endpointId: endpoint.id,
        mode: request.mode,
        judge: JSON.stringify(request.judge),
        difyConnectionId: request.difyConnectionId ?? null,
        caseFilesDir,
        runCount: request.runCount,
        params: JSON.stringify(request.params),
        status: "running",
        createdBy: actor.id,
      },
      select: { id: true },
    });
    const model =
      (await tx.model.findUnique({ where: { name: modelName }, select: { id: true } })) ??
      (await tx.model.create({ data: { name: modelName, displayName: endpoint.model.slice(0, 200) || modelName }, select: { id: true } }));
    const runs: { id: string; runNumber: number }[] = [];
    for (let runNumber = 1; runNumber <= request.runCount; runNumber++) {
      const run = await tx.run.create({
        data: {
          benchmarkId: benchmark.id,
          modelId: model.id,
          label: `${modelName} ${modeLabel(request.mode)} run ${runNumber}`,
          origin: "generated",
          contentHash: generatedContentHash(evaluation.id, runNumber),
          // Who started it, as imports record it: the email a reader recognises, not an account id.
          importedBy: actor.email,
          coreVersion: CORE_VERSION,
          responseCount: 0,
          status: "in-progress",
          evaluationId: evaluation.id,
          runNumber,
          generationMode: request.mode,
          judge: runJudgeJson(runJudge),
          agentVersion,
        },
        select: { id: true },
      });
      runs.push({ id: run.id, runNumber });
    }
    return { evaluationId: evaluation.id, runs };
  });

  // Longer chains first: items are leased in creation order, and a task's rounds are sequential.
  const tasks = [...benchmark.tasks].sort((a, b) => b.roundCount - a.roundCount);
  const items = tasks.flatMap((task) =>
    created.runs.map((run) => ({
      key: generateItemKey(run.id, task.name),
      payload: { runId: run.id, runNumber: run.runNumber, taskId: task.id, task: task.name },
    })),
  );
  const params: GenerateJobParams = {
    evaluationId: created.evaluationId,
    benchmarkId: benchmark.id,
    endpointId: endpoint.id,
    mode: request.mode,
    judge: request.judge,
    overrides: request.params,
    skill,
    ...(skillFiles ? { skillFiles } : {}),
  };
  let jobId: string;
  try {
    jobId = await enqueueJob(jobQueue(db), generateJobKind, { params, createdBy: actor.id, endpointId: endpoint.id, evaluationId: created.evaluationId, items });
  } catch (error) {
    // The queue is a separate write: without its job the evaluation would never run, so undo it.
    await db.evaluation.delete({ where: { id: created.evaluationId } }).catch(() => undefined);
    await db.run.deleteMany({ where: { id: { in: created.runs.map((run) => run.id) } } }).catch(() => undefined);
    throw error;
  }
  wakeWorker();
  return { ok: true, evaluationId: created.evaluationId, jobId, runIds: created.runs.map((run) => run.id) };
}

/** The Dify connections an evaluation may execute on: id and label only (never the credentials). */
export async function listDifyConnectionChoices(db: Database, actor: SessionUser | null): Promise<{ id: string; label: string }[]> {
  assertAllowed(actor, "runJobs");
  return db.difyConnection.findMany({ orderBy: { label: "asc" }, select: { id: true, label: true } });
}
