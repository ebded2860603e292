import "server-only";
// The "dry-run" job: every response of a run whose turn passed the pass stage is executed locally (lib/dry-run, the
// engine the dry-run CLI shares) on its three test cases, with the deterministic mock model and code nodes in the
// sandbox processes; one item per response writes its DryRunCase rows in the transaction that completes it. What it
// stores is a prediction of local execution, never a Dify resolve verdict.
import { z } from "zod";
import { mockModel } from "@/lib/dry-run/mock-model";
import { dryRunTurn } from "@/lib/dry-run/turns";
import path from "node:path";
import { existsSync } from "node:fs";
import { assertAllowed } from "../authz";
import { locateBenchmarkDir } from "../benchmark-location";
import type { Database } from "../db";
import { createCaseFileReader, type CaseFileReader } from "../dry-run/document-reader";
import { chartPreviews } from "../dry-run/chart-svg";
import { exporterFiles } from "../dry-run/exporter-files";
import { serverEnv } from "../env";
import { createSandboxCodeRunner, type SandboxCodeRunner } from "../sandbox/code-runner";
import type { SessionUser } from "../session";
import { jobQueue, wakeWorker } from "./instance";
import { enqueueJob, type JobKind } from "./job-kind";
import { NO_USAGE } from "./queue";
import { loadTurn, turnOf } from "./resolve-job";
import type { JobHandler } from "./worker";

export const DRY_RUN_JOB_KIND = "dry-run";
/** Dry runs at once over all dry-run jobs: each may hold a sandbox process. */
const DRY_RUN_CONCURRENCY = 2;

export const dryRunJobParams = z.object({ runId: z.string().min(1) });
export type DryRunJobParams = z.infer<typeof dryRunJobParams>;
export const dryRunItemPayload = z.object({ responseId: z.string().min(1) });
export type DryRunItemPayload = z.infer<typeof dryRunItemPayload>;
export const dryRunJobKind: JobKind<DryRunJobParams, DryRunItemPayload> = { kind: DRY_RUN_JOB_KIND, paramsSchema: dryRunJobParams, payloadSchema: dryRunItemPayload };

export type StartDryRunJob = { ok: true; jobId: string; items: number } | { ok: false; message: string };

/** Queues a dry run of every response of `runId` whose turn passed the pass stage. */
export async function startDryRunJob(db: Database, actor: SessionUser | null, request: DryRunJobParams): Promise<StartDryRunJob> {
  assertAllowed(actor, "runJobs");
  const params = dryRunJobParams.parse(request);
  const run = await db.run.findUnique({ where: { id: params.runId }, select: { id: true } });
  if (!run) return { ok: false, message: "No such run." };
  const responses = await db.response.findMany({ where: { runId: params.runId, passResult: { valid: true } }, select: { id: true }, orderBy: { id: "asc" } });
  if (responses.length === 0) return { ok: false, message: "No response of this run passed the pass stage, so there is nothing to dry-run." };
  const jobId = await enqueueJob(jobQueue(db), dryRunJobKind, {
    params,
    createdBy: actor?.id ?? null,
    runId: params.runId,
    items: responses.map((response) => ({ key: `${response.id}:dry-run`, payload: { responseId: response.id } })),
  });
  wakeWorker();
  return { ok: true, jobId, items: responses.length };
}

const shared = globalThis as unknown as { c2wDryRunSandbox?: SandboxCodeRunner; c2wDryRunCaseFiles?: CaseFileReader | null };

/** A reader of the configured benchmark's case_files, so document extractors get their real text; null without them. */
function benchmarkCaseFiles(): CaseFileReader | null {
  const benchmark = locateBenchmarkDir({ env: { C2W_BENCHMARK_DIR: serverEnv().C2W_BENCHMARK_DIR } });
  const dir = path.join(benchmark.dir, "case_files");
  return benchmark.ok && existsSync(dir) ? createCaseFileReader({ dir }) : null;
}

/** The worker's handler for dry-run items; the sandbox processes start with the first item and are reused. */
export function dryRunJobHandler(options: { code?: SandboxCodeRunner; documents?: CaseFileReader | null } = {}): JobHandler<DryRunJobParams, DryRunItemPayload> {
  const code = () => options.code ?? (shared.c2wDryRunSandbox ??= createSandboxCodeRunner({ size: 1 }));
  const documents = () => (options.documents !== undefined ? options.documents : shared.c2wDryRunCaseFiles === undefined ? (shared.c2wDryRunCaseFiles = benchmarkCaseFiles()) : shared.c2wDryRunCaseFiles);
  return {
    ...dryRunJobKind,
    async capacity() {
      return { filter: { kind: DRY_RUN_JOB_KIND }, limit: DRY_RUN_CONCURRENCY };
    },
    async run({ db, item }) {
      const payload = item.payload;
      const stored = await loadTurn(db, payload.responseId);
      if (!stored) return { ok: false, failure: { message: "The response no longer exists.", retryable: false } };
      const turn = turnOf(stored);
      const results = await dryRunTurn({ input: turn.response, turn: turn.spec, caseFileExists: null, services: { model: mockModel, code: code(), documents: documents(), files: exporterFiles, charts: chartPreviews, maxSteps: 500 } });
      const rows = (results ?? []).map(({ test, execution }) => ({
        responseId: payload.responseId,
        position: test,
        outcome: execution.outcome,
        failedNode: execution.trace.find((step) => step.nodeId === execution.failedNode)?.workflowId ?? null,
        reason: execution.reason ?? execution.fileCheckReason,
        fileCheck: execution.fileCheck,
        outputs: JSON.stringify(execution.outputs),
        trace: JSON.stringify(execution.trace),
        model: mockModel.kind,
      }));
      return {
        ok: true,
        result: { cases: rows.length, failed: rows.filter((row) => row.outcome === "failed").length },
        usage: NO_USAGE,
        commit: async (tx) => {
          await tx.dryRunCase.deleteMany({ where: { responseId: payload.responseId } });
          if (rows.length > 0) await tx.dryRunCase.createMany({ data: rows });
        },
      };
    },
  };
}
