"use client";

import { useRef, useState, type DragEvent, type FormEvent } from "react";
import { startDirectoryImport } from "@/app/actions/start-import";
import { buttonStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { formatBytes } from "@/lib/format";
import { ImportJobStatus } from "./import-job-status";

export interface BenchmarkOption {
  id: string;
  name: string;
  version: string;
  turnCount: number;
}

type Mode = "upload" | "directory";

type StartResult = { ok: true; value: { jobId: string } } | { ok: false; message: string; fieldErrors?: Record<string, string> };

/** Uploads go to a route handler that checks the role before reading the body and streams it within limits. */
async function uploadImport(form: FormData): Promise<StartResult> {
  const response = await fetch("/api/imports", { method: "POST", body: form });
  const body = (await response.json().catch(() => null)) as { jobId?: string; message?: string; fieldErrors?: Record<string, string> } | null;
  if (response.status === 202 && body?.jobId) return { ok: true, value: { jobId: body.jobId } };
  if (response.status === 401) return { ok: false, message: "Sign in to do this." };
  if (response.status === 403) return { ok: false, message: "Your role does not allow this action." };
  return { ok: false, message: body?.message ?? `The server refused the upload (HTTP ${response.status}).`, ...(body?.fieldErrors ? { fieldErrors: body.fieldErrors } : {}) };
}

export function ImportForm({
  benchmarks,
  allowedDirs,
  defaultDir,
  defaultDirMissing,
  maxFileMb,
}: {
  benchmarks: BenchmarkOption[];
  allowedDirs: string[];
  defaultDir: string;
  /** What to do when the configured benchmark directory is not there; null when it is. */
  defaultDirMissing: string | null;
  maxFileMb: number;
}) {
  const [mode, setMode] = useState<Mode>("upload");
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  function addFiles(list: FileList | null) {
    if (!list) return;
    const incoming = Array.from(list);
    setFiles((current) => [...current.filter((file) => !incoming.some((next) => next.name === file.name)), ...incoming]);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    addFiles(event.dataTransfer.files);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    form.set("mode", mode);
    form.delete("files");
    if (mode === "upload") for (const file of files) form.append("files", file);
    setPending(true);
    try {
      const result = mode === "upload" ? await uploadImport(form) : await startDirectoryImport(form);
      if (result.ok) setJobId(result.value.jobId);
      else setError(result.fieldErrors ? Object.values(result.fieldErrors).join(" ") || result.message : result.message);
    } catch {
      setError("The server did not accept the upload. Check the file sizes and try again.");
    } finally {
      setPending(false);
    }
  }

  if (jobId) {
    return (
      <ImportJobStatus
        jobId={jobId}
        onReset={() => {
          setJobId(null);
          setFiles([]);
        }}
      />
    );
  }

  const tabClass = (active: boolean) =>
    active
      ? "rounded-md bg-white px-3 py-1.5 text-sm font-medium shadow-sm dark:bg-slate-800"
      : "rounded-md px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white";

  return (
    <form onSubmit={onSubmit} className="space-y-6" aria-label="Import">
      <div role="tablist" aria-label="Import source" className="inline-flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-900">
        <button type="button" role="tab" aria-selected={mode === "upload"} className={tabClass(mode === "upload")} onClick={() => setMode("upload")}>
          Upload files
        </button>
        <button type="button" role="tab" aria-selected={mode === "directory"} className={tabClass(mode === "directory")} onClick={() => setMode("directory")}>
          Server directory
        </button>
      </div>

      {mode === "upload" ? (
        <div className="space-y-4">
          <div
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={`rounded-xl border-2 border-dashed p-8 text-center ${dragging ? "border-brand-500 bg-brand-50 dark:bg-slate-800" : "border-slate-300 dark:border-slate-700"}`}
          >
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Drop run files here: recorded runs (<code>runs/*.json</code>) or raw generation output (<code>answer1..answerN</code>).
              To import a new benchmark, add its <code>query.json</code>, <code>check_pass_stage.json</code>,{" "}
              <code>check_resolve_stage.json</code> and prompt <code>.txt</code> files. Up to {maxFileMb} MB per file.
            </p>
            <label className={`${buttonStyles.secondary} mt-4 cursor-pointer`}>
              Choose files
              <input
                ref={fileInput}
                type="file"
                name="files"
                multiple
                accept=".json,.txt,application/json,text/plain"
                className="sr-only"
                onChange={(event) => {
                  addFiles(event.target.files);
                  event.target.value = "";
                }}
              />
            </label>
          </div>
          {files.length > 0 ? (
            <ul aria-label="Chosen files" className="divide-y divide-slate-200 rounded-lg border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800">
              {files.map((file) => (
                <li key={file.name} className="flex items-center justify-between px-3 py-2">
                  <span className="font-mono">{file.name}</span>
                  <span className="flex items-center gap-3 text-slate-500">
                    {formatBytes(file.size)}
                    <button
                      type="button"
                      className="text-red-700 hover:underline dark:text-red-400"
                      aria-label={`Remove ${file.name}`}
                      onClick={() => setFiles((current) => current.filter((candidate) => candidate !== file))}
                    >
                      Remove
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="benchmarkId" className={labelStyles}>
                Benchmark
              </label>
              <select id="benchmarkId" name="benchmarkId" className={inputStyles} defaultValue={benchmarks[0]?.id ?? ""}>
                {benchmarks.map((benchmark) => (
                  <option key={benchmark.id} value={benchmark.id}>
                    {benchmark.name} ({benchmark.turnCount} turns, {benchmark.version})
                  </option>
                ))}
                <option value="">New benchmark from the uploaded dataset files</option>
              </select>
            </div>
            <div>
              <label htmlFor="benchmarkName" className={labelStyles}>
                Name for a new benchmark <span className="font-normal text-slate-500">(optional)</span>
              </label>
              <input id="benchmarkName" name="benchmarkName" className={inputStyles} placeholder="Uploaded benchmark" />
            </div>
          </div>
        </div>
      ) : (
        <div className="space-y-4">
          <div>
            <label htmlFor="benchmarkDir" className={labelStyles}>
              Benchmark directory on the server
            </label>
            <input id="benchmarkDir" name="benchmarkDir" className={`${inputStyles} font-mono`} defaultValue={defaultDir} required />
            <p className="mt-1 text-xs text-slate-500">
              Must contain <code>dataset/</code> (and optionally <code>prompts/</code>). Allowed locations: {allowedDirs.join(", ")}.
            </p>
            {defaultDirMissing ? (
              <p className="mt-1 text-xs text-amber-800 dark:text-amber-300" data-testid="benchmark-missing">
                {defaultDirMissing}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor="runsPaths" className={labelStyles}>
              Run files or directories <span className="font-normal text-slate-500">(one per line, relative to the benchmark directory)</span>
            </label>
            <textarea id="runsPaths" name="runsPaths" rows={3} className={`${inputStyles} font-mono`} defaultValue="runs" />
          </div>
        </div>
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="model" className={labelStyles}>
            Model name <span className="font-normal text-slate-500">(optional; default: each file&apos;s name)</span>
          </label>
          <input id="model" name="model" className={inputStyles} placeholder="gpt_5d2" />
        </div>
        <div>
          <label htmlFor="label" className={labelStyles}>
            Run label <span className="font-normal text-slate-500">(optional; default: the file name)</span>
          </label>
          <input id="label" name="label" className={inputStyles} />
        </div>
      </div>

      {error ? (
        <p role="alert" className="whitespace-pre-line rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      ) : null}

      <button type="submit" className={buttonStyles.primary} disabled={pending || (mode === "upload" && files.length === 0)}>
        {pending ? "Starting…" : "Import and score"}
      </button>
    </form>
  );
}
