import "server-only";
// One test case on a published Dify app, as the official resolve stage runs it: its files read from the case-files
// directory and uploaded under the synthetic names, the blocking run, then the official checks of the outputs.
// Shared by the resolve CLI and the resolve job. Never throws: a missing file or a failed call comes back as data.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { TestFile, TestInputValue } from "@/lib/benchmark/dataset";
import { buildRunInputs, fileCheckFailure, judgedOutputs, outputFiles, testFiles, uploadFileName, type OutputFileSummary } from "@/lib/resolve/official";
import type { JsonValue } from "@/lib/workflow/python-values";
import { isTransient, runWorkflow, uploadFile, type DifyDeps, type DifyError, type DifyResult } from "../dify/client";

const pause = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/**
 * A service call tried again on 429, 5xx and lost connections, waiting at least the server's Retry-After (capped at
 * 2 minutes) or an exponential backoff; other failures, and the last try's, come back as they are.
 */
export function retryingTransient(options: { tries: number; backoffMs: number; signal?: AbortSignal }) {
  return async <T>(attempt: () => Promise<DifyResult<T>>): Promise<DifyResult<T>> => {
    let result = await attempt();
    for (let tried = 1; tried < options.tries && !result.ok && isTransient(result.error) && !options.signal?.aborted; tried += 1) {
      await pause(Math.min(120_000, Math.max(result.error.retryAfterMs ?? 0, options.backoffMs * 2 ** (tried - 1))), options.signal);
      result = await attempt();
    }
    return result;
  };
}

export interface CaseContext {
  serviceBase: string;
  apiKey: string;
  caseFilesDir: string;
  /** The `user` sent with uploads and runs. */
  user: string;
  timeoutMs?: number;
  deps?: DifyDeps;
  /** Wraps each service call (e.g. retries on 429/5xx); default: one try. */
  call?: <T>(attempt: () => Promise<DifyResult<T>>) => Promise<DifyResult<T>>;
}

export type CaseExecution =
  | { kind: "missing-file"; file: string; message: string }
  | { kind: "run-failed"; error: DifyError; elapsedMs: number; notes: string[] }
  | {
      kind: "ran";
      runId: string | null;
      elapsedMs: number;
      outputs: Record<string, JsonValue>;
      files: OutputFileSummary[];
      /** Why the case fails before any judge (no outputs, a file check), or null. */
      failure: string | null;
      /** "pass" | "fail" when the turn has file checks, else null. */
      fileCheck: "pass" | "fail" | null;
      /** The outputs the judge is shown; empty: the case passes with no judge call. */
      shown: Record<string, JsonValue>;
      notes: string[];
    };

export async function executeCase(inputs: Readonly<Record<string, TestInputValue>>, fileChecks: Readonly<Record<string, string>>, context: CaseContext): Promise<CaseExecution> {
  const call = context.call ?? (<T>(attempt: () => Promise<DifyResult<T>>) => attempt());
  const notes: string[] = [];
  const uploaded = new Map<TestFile, string | null>();
  for (const file of testFiles(inputs)) {
    let bytes: Buffer;
    try {
      bytes = await readFile(path.join(context.caseFilesDir, path.basename(file.value)));
    } catch {
      return { kind: "missing-file", file: file.value, message: `The case file "${file.value}" is missing from the case-files directory ${context.caseFilesDir}.` };
    }
    const result = await call(() => uploadFile(context.serviceBase, context.apiKey, { fileName: uploadFileName(file.mime_type), mimeType: file.mime_type, bytes: new Uint8Array(bytes), user: context.user }, context.deps));
    // As the official stage does, a failed upload still runs, with no file id.
    if (!result.ok) notes.push(`upload of "${file.value}" failed (${result.error.message})`);
    uploaded.set(file, result.ok ? result.value.id : null);
  }
  const started = performance.now();
  const run = await call(() =>
    runWorkflow(context.serviceBase, context.apiKey, { inputs: buildRunInputs(inputs, (file) => uploaded.get(file) ?? null), user: context.user, ...(context.timeoutMs ? { timeoutMs: context.timeoutMs } : {}) }, context.deps),
  );
  const measuredMs = Math.round(performance.now() - started);
  if (!run.ok) return { kind: "run-failed", error: run.error, elapsedMs: measuredMs, notes };
  const outputs = (run.value.outputs ?? {}) as Record<string, JsonValue>;
  const elapsedMs = run.value.elapsedTime !== null ? Math.round(run.value.elapsedTime * 1000) : measuredMs;
  const base = { kind: "ran" as const, runId: run.value.runId, elapsedMs, outputs, files: outputFiles(outputs), notes };
  if (Object.keys(outputs).length === 0) {
    const why = run.value.status ? ` (status ${run.value.status}${run.value.error ? `: ${run.value.error}` : ""})` : "";
    return { ...base, failure: `The run gave no outputs${why}.`, fileCheck: null, shown: {} };
  }
  const hasChecks = Object.keys(fileChecks).length > 0;
  const checkFailure = hasChecks ? fileCheckFailure(outputs, fileChecks) : null;
  if (checkFailure) return { ...base, failure: `File check: ${checkFailure}.`, fileCheck: "fail", shown: {} };
  return { ...base, failure: null, fileCheck: hasChecks ? "pass" : null, shown: judgedOutputs(outputs, fileChecks) };
}
