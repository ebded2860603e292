import "server-only";
// Reads the case files a test uploads, for the dry run's document extractors: the size is checked before reading
// (Dify's UPLOAD_FILE_SIZE_LIMIT, 15 MB), parsing runs in a worker thread (document-worker.mjs) with a time and heap
// limit, and a worker over the time is ended and replaced. Each case file is parsed once per reader.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { DocumentReader, DocumentText } from "@/lib/dry-run/types";
import type { DryFile } from "@/lib/dry-run/values";

export interface CaseFileReaderOptions {
  /** The benchmark's case_files directory. */
  dir: string;
  maxBytes?: number;
  timeoutMs?: number;
}

export interface CaseFileReader extends DocumentReader {
  close(): Promise<void>;
}

/** Dify's default UPLOAD_FILE_SIZE_LIMIT (docker/.env.example), in MB. */
const UPLOAD_LIMIT_MB = 15;
const ROOT = /*turbopackIgnore: true*/ process.cwd();
const WORKER = path.join(ROOT, "lib", "server", "dry-run", "document-worker.mjs");

type WorkerAnswer = { id: number; ok: true; text: string } | { id: number; ok: false; reason: string } | { id: number; unread: true };

export function createCaseFileReader(options: CaseFileReaderOptions): CaseFileReader {
  const maxBytes = options.maxBytes ?? UPLOAD_LIMIT_MB * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const cache = new Map<string, Promise<DocumentText | null>>();
  type Running = { thread: Worker; waiting: Map<number, (answer: WorkerAnswer | Error) => void> };
  let worker: Running | null = null;
  let nextId = 0;
  // One file at a time in the worker, so a timeout ends only the parse that ran over.
  let queue: Promise<unknown> = Promise.resolve();

  const startWorker = (): Running => {
    const thread = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: 512 }, stdout: true, stderr: true });
    thread.unref();
    thread.stdout.resume();
    thread.stderr.resume();
    const started: Running = { thread, waiting: new Map() };
    thread.on("message", (answer: WorkerAnswer) => started.waiting.get(answer.id)?.(answer));
    const fail = (error: Error) => {
      if (worker === started) worker = null;
      for (const settle of [...started.waiting.values()]) settle(error);
    };
    thread.on("error", fail);
    thread.on("exit", () => fail(new Error("the document parser stopped")));
    return started;
  };

  const parse = (extension: string, bytes: Uint8Array): Promise<WorkerAnswer | Error> =>
    new Promise((resolve) => {
      const id = nextId++;
      const current = (worker ??= startWorker());
      const timer = setTimeout(() => {
        settle(new Error(`text extraction ran over its ${timeoutMs / 1000} s limit`));
        if (worker === current) worker = null;
        void current.thread.terminate();
      }, timeoutMs);
      const settle = (answer: WorkerAnswer | Error) => {
        clearTimeout(timer);
        current.waiting.delete(id);
        resolve(answer);
      };
      current.waiting.set(id, settle);
      current.thread.postMessage({ id, extension, bytes }, [bytes.buffer as ArrayBuffer]);
    });

  const readUncached = async (name: string, extension: string): Promise<DocumentText | null> => {
    const file = path.join(options.dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    if (info.size > maxBytes) return { ok: false, reason: `Error downloading file: the file has ${info.size} bytes, over the upload limit of ${maxBytes} bytes.` };
    const bytes = new Uint8Array(await readFile(file));
    const run = queue.then(() => parse(extension, bytes));
    queue = run;
    const answer = await run;
    if (answer instanceof Error) return { ok: false, reason: `Failed to extract text: ${answer.message}.`, ourLimit: true };
    if ("unread" in answer) return null;
    return answer.ok ? { ok: true, text: answer.text } : { ok: false, reason: answer.reason };
  };

  return {
    read(file: DryFile) {
      const name = file.related_id;
      // A case file is named by the dataset; a name with a path part is never read.
      if (typeof name !== "string" || name === "" || name !== path.basename(name)) return Promise.resolve(null);
      const key = `${name}\n${file.extension.toLowerCase()}`;
      let text = cache.get(key);
      if (!text) {
        text = readUncached(name, file.extension.toLowerCase());
        cache.set(key, text);
        // A parse stopped by our limits may pass on a quieter machine: it is tried again next time.
        void text.then((read) => read && !read.ok && read.ourLimit && cache.delete(key));
      }
      return text;
    },
    async close() {
      const current = worker;
      worker = null;
      if (current) await current.thread.terminate();
    },
  };
}
