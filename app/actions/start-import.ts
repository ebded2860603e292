"use server";

import path from "node:path";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { serverEnv } from "@/lib/server/env";
import { resolveAllowedPath } from "@/lib/server/import/allowed-dirs";
import { classifyUploads, expandRunPaths, readImportFiles, type BenchmarkInput, type ImportFile } from "@/lib/server/import/import-service";
import { startImportJob } from "@/lib/server/import/jobs";
import { ensureInProcessWorker } from "@/lib/server/jobs/runtime";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || undefined)
    .optional();

const modelName = optionalText(100).refine((value) => value === undefined || /^[\w.\-]+$/.test(value), {
  message: "use letters, digits, dots, dashes and underscores",
});

const startImportSchema = z.discriminatedUnion("mode", [
  z.object({
    mode: z.literal("upload"),
    /** An imported benchmark's id, or "" when the upload carries the benchmark's dataset files. */
    benchmarkId: z.string().default(""),
    benchmarkName: optionalText(100),
    model: modelName,
    label: optionalText(200),
    files: z.array(z.instanceof(File)).min(1, "choose at least one file"),
  }),
  z.object({
    mode: z.literal("directory"),
    benchmarkDir: z.string().trim().min(1, "name the benchmark directory"),
    runsPaths: z.array(z.string().trim().min(1)).default([]),
    model: modelName,
    label: optionalText(200),
  }),
]);

type StartImportInput = z.input<typeof startImportSchema>;

const start = authorizedAction("import", startImportSchema, async (input, user): Promise<ActionResult<{ jobId: string }>> => {
  const env = serverEnv();
  const limits = { maxFileBytes: env.IMPORT_MAX_FILE_MB * 1024 * 1024, maxResponses: env.IMPORT_MAX_RESPONSES };
  let benchmark: BenchmarkInput;
  let runs: ImportFile[];
  if (input.mode === "upload") {
    const tooBig = input.files.find((file) => file.size > limits.maxFileBytes);
    if (tooBig) {
      return { ok: false, error: "invalid", message: `${tooBig.name} is larger than ${env.IMPORT_MAX_FILE_MB} MB (IMPORT_MAX_FILE_MB).` };
    }
    const files = await Promise.all(input.files.map(async (file) => ({ name: file.name, content: await file.text() })));
    const classified = classifyUploads(files);
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
    const expanded = await expandRunPaths(runPaths);
    const read = await readImportFiles(expanded.files, limits.maxFileBytes);
    const problems = [...expanded.issues, ...read.issues];
    if (problems.length) return { ok: false, error: "invalid", message: problems.map((problem) => problem.message).join("\n") };
    benchmark = { kind: "directory", dir: dir.path };
    runs = read.files.map((file) => ({ ...file, name: path.relative(dir.path, file.name) || path.basename(file.name) }));
  }
  ensureInProcessWorker();
  const jobId = await startImportJob(user, { benchmark, runs, model: input.model, label: input.label }, limits);
  return { ok: true, value: { jobId } };
});

function formDataToInput(form: FormData): StartImportInput {
  const text = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : undefined);
  if (text("mode") === "directory") {
    return {
      mode: "directory",
      benchmarkDir: text("benchmarkDir") ?? "",
      runsPaths: (text("runsPaths") ?? "").split("\n").map((line) => line.trim()).filter(Boolean),
      model: text("model"),
      label: text("label"),
    };
  }
  return {
    mode: "upload",
    benchmarkId: text("benchmarkId") ?? "",
    benchmarkName: text("benchmarkName"),
    model: text("model"),
    label: text("label"),
    files: form.getAll("files").filter((value): value is File => value instanceof File && value.size > 0),
  };
}

/** Starts an import in the background and returns its job id; the page polls /api/imports/<id>. */
export async function startImport(form: FormData) {
  return start(formDataToInput(form));
}
