import "server-only";
// Import jobs started from the web UI: the import runs in the background on its own connection, one at a time;
// progress lives in memory for the page to poll, and the outcome is stored on the job row when it ends.
import { assertAllowed } from "../authz";
import { database, withOwnConnection } from "../db";
import type { SessionUser } from "../session";
import { runImport, type ImportLimits, type ImportOutcome, type ImportProgress, type ImportRequest } from "./import-service";

export type JobStatus = "queued" | "running" | "succeeded" | "failed";

export interface ImportJobView {
  id: string;
  status: JobStatus;
  createdAt: string;
  finishedAt: string | null;
  progress: ImportProgress | null;
  outcome: ImportOutcome | null;
  error: string | null;
}

// On globalThis: Next.js may load this module once per route bundle, and the action that starts a job and the route
// that reports on it must see the same jobs.
const shared = globalThis as unknown as { c2wImportJobs?: { live: Map<string, ImportProgress>; queue: Promise<unknown> } };
shared.c2wImportJobs ??= { live: new Map(), queue: Promise.resolve() };
const jobs = shared.c2wImportJobs;
const liveProgress = jobs.live;

export async function startImportJob(actor: SessionUser, request: Omit<ImportRequest, "importedBy">, limits: ImportLimits): Promise<string> {
  assertAllowed(actor, "import");
  const job = await database().importJob.create({ data: { status: "queued", createdBy: actor.id } });
  liveProgress.set(job.id, { phase: "reading", file: null, fileIndex: 0, fileCount: request.runs.length, responsesDone: 0, responsesTotal: 0 });
  // Imports run one after another: SQLite has one writer at a time.
  jobs.queue = jobs.queue.then(() => runJob(job.id, { ...request, importedBy: actor.email }, limits)).catch(() => undefined);
  return job.id;
}

async function runJob(jobId: string, request: ImportRequest, limits: ImportLimits): Promise<void> {
  await database().importJob.update({ where: { id: jobId }, data: { status: "running" } });
  try {
    const outcome = await withOwnConnection((db) =>
      runImport(db, request, limits, { onProgress: (progress) => liveProgress.set(jobId, progress) }),
    );
    await database().importJob.update({
      where: { id: jobId },
      data: { status: outcome.ok ? "succeeded" : "failed", finishedAt: new Date(), summary: JSON.stringify(outcome) },
    });
  } catch (error) {
    await database().importJob.update({
      where: { id: jobId },
      data: { status: "failed", finishedAt: new Date(), error: error instanceof Error ? error.message : String(error) },
    });
  } finally {
    liveProgress.delete(jobId);
  }
}

/** A job as its creator (or an admin) sees it; null when it does not exist or belongs to someone else. */
export async function getImportJob(actor: SessionUser, jobId: string): Promise<ImportJobView | null> {
  assertAllowed(actor, "import");
  const job = await database().importJob.findUnique({ where: { id: jobId } });
  if (!job || (job.createdBy !== actor.id && actor.role !== "admin")) return null;
  const live = liveProgress.get(job.id) ?? null;
  // A job still marked as running that this process does not know was cut off by a restart.
  const interrupted = (job.status === "running" || job.status === "queued") && !live;
  return {
    id: job.id,
    status: interrupted ? "failed" : (job.status as JobStatus),
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    progress: live,
    outcome: job.summary ? (JSON.parse(job.summary) as ImportOutcome) : null,
    error: interrupted ? "The server restarted before this import finished; nothing was written. Start it again." : job.error,
  };
}
