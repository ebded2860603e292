import "server-only";
// What the Import page asks for (an upload, or directories on the server), validated, checked and queued as a job.
// Shared by the upload route handler and the directory server action; both have checked the caller's role first.
import path from "node:path";
import { z } from "zod";
import type { ActionResult } from "../action";
import { serverEnv } from "../env";
import type { SessionUser } from "../session";
import { allowedImportRoots, resolveAllowedPath } from "./allowed-dirs";
import { classifyUploads, expandRunPaths, MODEL_NAME_PATTERN, readImportFiles, type BenchmarkInput, type ImportFile } from "./import-service";
import { ensureInProcessWorker } from "../jobs/runtime";
import { startImportJob } from "../jobs/import-job";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || undefined)
    .optional();

const modelName = optionalText(100).refine((value) => value === undefined || MODEL_NAME_PATTERN.test(value), {
  message: "use letters, digits, dots, dashes and underscores",
});

export const uploadFieldsSchema = z.object({
  mode: z.literal("upload"),
  /** An imported benchmark's id, or "" when the upload carries the benchmark's dataset files. */
  benchmarkId: z.string().max(100).default(""),
  benchmarkName: optionalText(100),
  model: modelName,
  label: optionalText(200),
});

export const directoryRequestSchema = z.object({
  mode: z.literal("directory"),
  benchmarkDir: z.string().trim().min(1, "name the benchmark directory").max(4096),
  runsPaths: z.array(z.string().trim().min(1).max(4096)).max(256).default([]),
  model: modelName,
  label: optionalText(200),
});

export type StartImportRequest =
  | (z.output<typeof uploadFieldsSchema> & { files: { name: string; content: string }[] })
  | z.output<typeof directoryRequestSchema>;

export function importLimits() {
  const env = serverEnv();
  return { maxFileBytes: env.IMPORT_MAX_FILE_MB * 1024 * 1024, maxResponses: env.IMPORT_MAX_RESPONSES, maxFieldChars: env.IMPORT_MAX_FIELD_KB * 1024 };
}

export async function startImportRequest(user: SessionUser, input: StartImportRequest): Promise<ActionResult<{ jobId: string }>> {
  const limits = importLimits();
  let benchmark: BenchmarkInput;
  let runs: ImportFile[];
  if (input.mode === "upload") {
    const classified = classifyUploads(input.files);
    runs = classified.runs;
    if (input.benchmarkId) {
      benchmark = { kind: "existing", benchmarkId: input.benchmarkId };
    } else {
      if (classified.dataset.length === 0) {
        return {
          ok: false,
          error: "invalid",
          message: "Choose a benchmark, or include query.json, check_pass_stage.json and check_resolve_stage.json in the upload.",
        };
      }
      benchmark = { kind: "files", name: input.benchmarkName ?? "Uploaded benchmark", files: [...classified.dataset, ...classified.prompts] };
    }
  } else {
    const dir = await resolveAllowedPath(input.benchmarkDir);
    if (!dir.ok) return { ok: false, error: "invalid", message: dir.message, fieldErrors: { benchmarkDir: dir.message } };
    const runPaths: string[] = [];
    for (const requested of input.runsPaths) {
      const allowed = await resolveAllowedPath(path.isAbsolute(requested) ? requested : path.join(dir.path, requested));
      if (!allowed.ok) return { ok: false, error: "invalid", message: allowed.message, fieldErrors: { runsPaths: allowed.message } };
      runPaths.push(allowed.path);
    }
    const roots = allowedImportRoots();
    const expanded = await expandRunPaths(runPaths);
    const read = await readImportFiles(expanded.files, limits.maxFileBytes, roots);
    const problems = [...expanded.issues, ...read.issues];
    if (problems.length) return { ok: false, error: "invalid", message: problems.map((problem) => problem.message).join("\n") };
    benchmark = { kind: "directory", dir: dir.path, allowedRoots: roots };
    runs = read.files.map((file) => ({ ...file, name: path.relative(dir.path, file.name) || path.basename(file.name) }));
  }
  ensureInProcessWorker();
  const jobId = await startImportJob(user, { benchmark, runs, model: input.model, label: input.label }, limits);
  return { ok: true, value: { jobId } };
}
