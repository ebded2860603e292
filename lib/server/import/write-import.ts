import "server-only";
// Writes a validated, scored import plan into the database in ONE transaction: either every row lands or none does.
// Idempotent: a benchmark with the same fingerprint and a run with the same content hash are reused, not duplicated.
import { randomUUID } from "node:crypto";
import type { BenchmarkPlan, ResponsePlan, RunPlan } from "@/lib/import/plan-types";
import { insertRows } from "../bulk-insert";
import type { Database } from "../db";

export type Transaction = Parameters<Parameters<Database["$transaction"]>[0]>[0];

export interface WrittenRun {
  runId: string;
  model: string;
  label: string;
  /** False when identical content was already imported (nothing written for it). */
  created: boolean;
  responses: number;
}

export interface WriteResult {
  benchmarkId: string;
  benchmarkCreated: boolean;
  runs: WrittenRun[];
}

export interface WriteOptions {
  importedBy: string | null;
  onProgress?: (event: { run: string; index: number; total: number }) => void;
  /** Test hook: called inside the transaction after each run is written. */
  afterRunWritten?: (index: number) => void | Promise<void>;
  /** Writes rows that belong with a newly created run (a bundle's verdicts), in the same transaction. */
  withNewRun?: (tx: Transaction, run: WrittenRun) => Promise<void>;
}

const TRANSACTION_TIMEOUT_MS = 10 * 60 * 1000;

async function ensureBenchmark(tx: Transaction, plan: BenchmarkPlan | { existingId: string }, importedBy: string | null) {
  if ("existingId" in plan) {
    const found = await tx.benchmark.findUnique({ where: { id: plan.existingId }, select: { id: true } });
    if (!found) throw new Error(`benchmark ${plan.existingId} no longer exists`);
    return { id: found.id, created: false };
  }
  const existing = await tx.benchmark.findUnique({ where: { fingerprint: plan.fingerprint }, select: { id: true } });
  if (existing) return { id: existing.id, created: false };

  const benchmarkId = randomUUID();
  await tx.benchmark.create({
    data: {
      id: benchmarkId,
      name: plan.name,
      version: plan.version,
      fingerprint: plan.fingerprint,
      sourceDir: plan.sourceDir,
      importedBy,
    },
  });
  await tx.benchmarkPrompt.createMany({
    data: plan.prompts.map((prompt) => ({ id: randomUUID(), benchmarkId, ...prompt })),
  });
  const domainIds = new Map(plan.domains.map((domain) => [domain.name, randomUUID()]));
  await tx.domain.createMany({
    data: plan.domains.map((domain) => ({ id: domainIds.get(domain.name)!, benchmarkId, name: domain.name, position: domain.position })),
  });
  const taskIds = new Map(plan.tasks.map((task) => [task.name, randomUUID()]));
  await tx.task.createMany({
    data: plan.tasks.map((task) => ({
      id: taskIds.get(task.name)!,
      benchmarkId,
      domainId: domainIds.get(task.domain)!,
      externalId: task.externalId,
      name: task.name,
      roundCount: task.roundCount,
    })),
  });
  const turnRows = plan.turns.map((turn) => ({
    id: randomUUID(),
    benchmarkId,
    taskId: taskIds.get(turn.task)!,
    round: turn.round,
    key: turn.key,
    instruction: turn.instruction,
    inputVars: JSON.stringify(turn.inputVars),
    outputVars: JSON.stringify(turn.outputVars),
    keyNodes: JSON.stringify(turn.keyNodes),
    fileChecks: JSON.stringify(turn.fileChecks),
  }));
  await tx.turn.createMany({ data: turnRows });
  await tx.testCase.createMany({
    data: plan.turns.flatMap((turn, index) =>
      turn.tests.map((test) => ({
        id: randomUUID(),
        turnId: turnRows[index]!.id,
        position: test.position,
        inputs: JSON.stringify(test.inputs),
        groundTruth: test.groundTruth,
      })),
    ),
  });
  return { id: benchmarkId, created: true };
}

async function ensureModel(tx: Transaction, run: RunPlan): Promise<string> {
  const existing = await tx.model.findUnique({ where: { name: run.model.name }, select: { id: true } });
  if (existing) return existing.id;
  const id = randomUUID();
  await tx.model.create({ data: { id, ...run.model } });
  return id;
}

/** The rows of one run's responses, with ids assigned so children can point at parents without round trips. */
export function responseRows(runId: string, turnIds: ReadonlyMap<string, string>, responses: readonly ResponsePlan[], now = new Date()) {
  const rows = {
    responses: [] as {
      id: string;
      runId: string;
      turnId: string;
      rawText: string | null;
      nodeSelection: string | null;
      designPrinciple: string | null;
      workflow: string | null;
    }[],
    passResults: [] as Record<string, unknown>[],
    diagnostics: [] as Record<string, unknown>[],
    cases: [] as Record<string, unknown>[],
    judges: [] as Record<string, unknown>[],
  };
  for (const response of responses) {
    const turnId = turnIds.get(response.turnKey);
    if (!turnId) throw new Error(`turn ${response.turnKey} is not part of the benchmark`);
    const responseId = randomUUID();
    rows.responses.push({
      id: responseId,
      runId,
      turnId,
      rawText: response.rawText,
      nodeSelection: response.nodeSelection,
      designPrinciple: response.designPrinciple,
      workflow: response.workflow,
    });
    const passResultId = randomUUID();
    const { repairs, categoryCounts, ...pass } = response.pass;
    rows.passResults.push({
      id: passResultId,
      responseId,
      ...pass,
      repairs: JSON.stringify(repairs),
      categoryCounts: JSON.stringify(categoryCounts),
      diagnosticCount: response.diagnostics.length,
      coreVersion: "",
    });
    response.diagnostics.forEach((diagnostic, position) => {
      const location = diagnostic.location ?? {};
      rows.diagnostics.push({
        id: randomUUID(),
        passResultId,
        position,
        code: diagnostic.code,
        category: diagnostic.category,
        severity: diagnostic.severity,
        message: diagnostic.message,
        officialStep: diagnostic.officialStep ?? null,
        nodeId: location.nodeId ?? null,
        edgeIndex: location.edgeIndex ?? null,
        paramPath: location.paramPath ? JSON.stringify(location.paramPath) : null,
        field: location.field ?? null,
        line: location.line ?? null,
        column: location.column ?? null,
        offset: location.offset ?? null,
        length: location.length ?? null,
        targetNodeId: diagnostic.targetNodeId ?? null,
        hint: diagnostic.hint ?? null,
      });
    });
    for (const testCase of response.cases) rows.cases.push({ id: randomUUID(), responseId, ...testCase });
    for (const judge of response.judgeVerdicts) {
      rows.judges.push({ id: randomUUID(), responseId, ...judge, latencyMs: null, tokens: null, createdAt: now });
    }
  }
  return rows;
}

async function writeRun(tx: Transaction, benchmarkId: string, run: RunPlan, importedBy: string | null): Promise<WrittenRun> {
  const duplicate = await tx.run.findUnique({
    where: { benchmarkId_contentHash: { benchmarkId, contentHash: run.contentHash } },
    select: { id: true, label: true },
  });
  if (duplicate) {
    return { runId: duplicate.id, model: run.model.name, label: duplicate.label, created: false, responses: run.responses.length };
  }
  const modelId = await ensureModel(tx, run);
  const turns = await tx.turn.findMany({ where: { benchmarkId }, select: { id: true, key: true } });
  const turnIds = new Map(turns.map((turn) => [turn.key, turn.id]));
  const runId = randomUUID();
  await tx.run.create({
    data: {
      id: runId,
      benchmarkId,
      modelId,
      label: run.label,
      origin: run.origin,
      contentHash: run.contentHash,
      sourceFile: run.sourceFile,
      importedBy,
      coreVersion: run.coreVersion,
      responseCount: run.responses.length,
      hasResolve: run.hasResolve,
    },
  });
  const rows = responseRows(runId, turnIds, run.responses);
  for (const passResult of rows.passResults) passResult.coreVersion = run.coreVersion;
  await insertRows(tx, "Response", rows.responses);
  await insertRows(tx, "PassResult", rows.passResults);
  await insertRows(tx, "Diagnostic", rows.diagnostics);
  await insertRows(tx, "CaseResult", rows.cases);
  await insertRows(tx, "JudgeVerdict", rows.judges);
  return { runId, model: run.model.name, label: run.label, created: true, responses: run.responses.length };
}

/** A run to write: `build` scores it (inside the transaction, so only one run's rows are in memory at a time). */
export interface PendingRun {
  label: string;
  build: () => RunPlan;
}

export async function writeImport(
  db: Database,
  plan: { benchmark: BenchmarkPlan | { existingId: string }; runs: PendingRun[] },
  options: WriteOptions,
): Promise<WriteResult> {
  return db.$transaction(
    async (tx) => {
      const benchmark = await ensureBenchmark(tx, plan.benchmark, options.importedBy);
      const runs: WrittenRun[] = [];
      for (const [index, pending] of plan.runs.entries()) {
        options.onProgress?.({ run: pending.label, index, total: plan.runs.length });
        const written = await writeRun(tx, benchmark.id, pending.build(), options.importedBy);
        runs.push(written);
        if (written.created) await options.withNewRun?.(tx, written);
        await options.afterRunWritten?.(index);
      }
      return { benchmarkId: benchmark.id, benchmarkCreated: benchmark.created, runs };
    },
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 30_000 },
  );
}
