import "server-only";
// Import jobs started from the web UI, on the durable job queue: the uploaded content is stored with the job, so a
// queued or interrupted import survives a restart and runs again (an import is all-or-nothing and idempotent).
import { z } from "zod";
import { assertAllowed } from "../authz";
import { database, withOwnConnection, type Database } from "../db";
import { jobQueue, wakeWorker } from "./instance";
import { mayAccessJob } from "./job-access";
import { enqueueJob, type JobKind } from "./job-kind";
import type { JobHandler } from "./worker";
import { NO_USAGE } from "./queue";
import type { SessionUser } from "../session";
import { runImport, type ImportLimits, type ImportOutcome, type ImportProgress, type ImportRequest } from "../import/import-service";

export const IMPORT_JOB_KIND = "import";

export type ImportJobState = "queued" | "running" | "succeeded" | "failed";

export interface ImportJobView {
  id: string;
  status: ImportJobState;
  createdAt: string;
  finishedAt: string | null;
  progress: ImportProgress | null;
  outcome: ImportOutcome | null;
  error: string | null;
}

const importFileSchema = z.object({ name: z.string(), content: z.string() });

const importItemPayloadSchema = z.object({
  request: z.object({
    benchmark: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("directory"), dir: z.string(), name: z.string().optional(), allowedRoots: z.array(z.string()).readonly().optional() }),
      z.object({ kind: z.literal("files"), name: z.string(), files: z.array(importFileSchema) }),
      z.object({ kind: z.literal("existing"), benchmarkId: z.string() }),
    ]),
    runs: z.array(importFileSchema),
    model: z.string().optional(),
    label: z.string().optional(),
    importedBy: z.string().nullable(),
  }) satisfies z.ZodType<ImportRequest>,
  limits: z.object({ maxFileBytes: z.number(), maxResponses: z.number(), maxFieldChars: z.number().optional() }) satisfies z.ZodType<ImportLimits>,
});
type ImportItemPayload = z.output<typeof importItemPayloadSchema>;

const importJobParamsSchema = z.object({ files: z.number().int().min(0) });

const importJobKind: JobKind<z.output<typeof importJobParamsSchema>, ImportItemPayload> = { kind: IMPORT_JOB_KIND, paramsSchema: importJobParamsSchema, payloadSchema: importItemPayloadSchema };

// Live progress of imports running in this process (the page polls it); the job row holds everything durable.
// On globalThis: Next.js may load this module once per route bundle.
const shared = globalThis as unknown as { c2wImportProgress?: Map<string, ImportProgress> };
shared.c2wImportProgress ??= new Map();
const liveProgress = shared.c2wImportProgress;

export async function startImportJob(actor: SessionUser, request: Omit<ImportRequest, "importedBy">, limits: ImportLimits): Promise<string> {
  assertAllowed(actor, "import");
  const payload: ImportItemPayload = { request: { ...request, importedBy: actor.email }, limits };
  const jobId = await enqueueJob(jobQueue(), importJobKind, {
    params: { files: request.runs.length },
    createdBy: actor.id,
    items: [{ key: "import", payload }],
  });
  wakeWorker();
  return jobId;
}

/** Imports run one at a time across workers: SQLite has one writer at a time. */
export function importJobHandler(): JobHandler<z.output<typeof importJobParamsSchema>, ImportItemPayload> {
  return {
    ...importJobKind,
    async capacity() {
      return { filter: { kind: IMPORT_JOB_KIND }, limit: 1 };
    },
    async run({ job, item }) {
      const payload = item.payload;
      liveProgress.set(job.id, { phase: "reading", file: null, fileIndex: 0, fileCount: payload.request.runs.length, responsesDone: 0, responsesTotal: 0 });
      try {
        const outcome = await withOwnConnection((db) =>
          runImport(db, payload.request, payload.limits, { onProgress: (progress) => liveProgress.set(job.id, progress) }),
        );
        // The uploaded files leave the database with the item's completion (same transaction).
        return { ok: true, result: outcome, usage: NO_USAGE, commit: (tx) => clearUploadedFiles(tx, item.id) };
      } finally {
        liveProgress.delete(job.id);
      }
    },
    async settled({ db, item }) {
      // An import that failed for good or was cancelled keeps no copy of the files either; a retry still has them.
      const row = await db.jobItem.findUnique({ where: { id: item.id }, select: { status: true } });
      if (row && row.status !== "pending" && row.status !== "leased") await clearUploadedFiles(db, item.id);
    },
  };
}

/** Replaces a settled import item's payload (the uploaded files' text) with nothing. */
async function clearUploadedFiles(db: Pick<Database, "jobItem">, itemId: string): Promise<void> {
  await db.jobItem.update({ where: { id: itemId }, data: { payload: "{}" } });
}

/** A job as its creator (or an admin) sees it; null when it does not exist or belongs to someone else. */
export async function getImportJob(actor: SessionUser, jobId: string): Promise<ImportJobView | null> {
  assertAllowed(actor, "import");
  const job = await database().job.findUnique({
    where: { id: jobId },
    select: { id: true, kind: true, status: true, createdBy: true, createdAt: true, finishedAt: true, error: true, items: { select: { result: true, error: true } } },
  });
  if (!job || job.kind !== IMPORT_JOB_KIND || !mayAccessJob(actor, job)) return null;
  const item = job.items[0];
  const outcome = item?.result ? (JSON.parse(item.result) as ImportOutcome) : null;
  const status: ImportJobState =
    job.status === "succeeded" ? (outcome && outcome.ok ? "succeeded" : "failed") : job.status === "queued" || job.status === "paused" ? "queued" : job.status === "running" ? "running" : "failed";
  return {
    id: job.id,
    status,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    progress: liveProgress.get(job.id) ?? null,
    outcome,
    error: status === "failed" && !outcome ? (item?.error ?? job.error ?? (job.status === "cancelled" ? "The import was cancelled." : "The import failed.")) : null,
  };
}
