import "server-only";
// Runs the analyses of stored model text (lib/analysis/tasks.ts: import planning, re-scoring, response views, diffs)
// on a small pool of worker threads, one task per worker at a time, each with a time budget: a task that outlives it
// has its worker terminated and replaced, and the caller records a diagnostic instead of waiting. The event loop that
// serves pages never runs them. The worker is the core bundled by esbuild on first use (rebuilt when a source
// changes), into node_modules/.cache/studio-analysis. Without worker threads (or esbuild) tasks run in the caller's
// thread, without a budget, and say so once in the log.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { runAnalysisTask, type AnalysisResult, type AnalysisTask } from "@/lib/analysis/tasks";
import { sha256 } from "../hash";

export type AnalysisOutcome<T> = { ok: true; value: T } | { ok: false; reason: "budget" | "failed"; message: string };

/** Time one task may take (ANALYSIS_BUDGET_MS, default 10 s): far above any real response (milliseconds). */
export function analysisBudgetMs(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.ANALYSIS_BUDGET_MS);
  return Number.isFinite(value) && value > 0 ? value : 10_000;
}

interface Job {
  task: AnalysisTask;
  budgetMs: number;
  resolve: (outcome: AnalysisOutcome<unknown>) => void;
}

interface Slot {
  worker: Worker;
  busy: { id: number; job: Job; timer: NodeJS.Timeout } | null;
}

interface Pool {
  slots: Slot[];
  queue: Job[];
  nextId: number;
  /** Set when workers cannot be used here: tasks then run in the caller's thread. */
  inline: boolean;
  bundle: string | null;
}

const shared = globalThis as unknown as { c2wAnalysisPool?: Pool };
const ROOT = /*turbopackIgnore: true*/ process.cwd();
const ENTRY = "lib/server/analysis/worker-entry.ts";
const CACHE_DIR = path.join(ROOT, "node_modules", ".cache", "studio-analysis");
const BUNDLE = path.join(CACHE_DIR, "worker.mjs");
const MANIFEST = path.join(CACHE_DIR, "worker.json");
/** Files that change a build without being one of its inputs. */
const BUILD_SETTINGS = ["package-lock.json", "tsconfig.json", "lib/server/analysis/pool.ts"];
const BANNER = 'import { createRequire as __studioCreateRequire } from "node:module";\nconst require = __studioCreateRequire(import.meta.url);';

function fingerprint(files: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of [...BUILD_SETTINGS, ...files]) {
    try {
      const stat = statSync(path.join(ROOT, file));
      hash.update(`${file}:${stat.size}:${stat.mtimeMs}\n`);
    } catch {
      hash.update(`${file}:missing\n`);
    }
  }
  return hash.digest("hex");
}

function bundleIsFresh(): boolean {
  try {
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as { inputs: string[]; fingerprint: string };
    return existsSync(BUNDLE) && manifest.fingerprint === fingerprint(manifest.inputs);
  } catch {
    return false;
  }
}

/** Bundles the worker entry (the pure core and the hash) into one file; esbuild comes with tsx. */
async function buildBundle(): Promise<void> {
  const fromRoot = createRequire(path.join(ROOT, "package.json"));
  const esbuild = (await import(/*turbopackIgnore: true*/ /* webpackIgnore: true */ pathToFileURL(createRequire(fromRoot.resolve("tsx/package.json")).resolve("esbuild")).href)) as typeof import("esbuild");
  mkdirSync(CACHE_DIR, { recursive: true });
  const temporary = `${BUNDLE}.${process.pid}.tmp`;
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile: temporary,
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    conditions: ["react-server"],
    tsconfig: "tsconfig.json",
    banner: { js: BANNER },
    metafile: true,
    logLevel: "silent",
  });
  const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.startsWith("node_modules/"));
  renameSync(temporary, BUNDLE);
  const manifestTemporary = `${MANIFEST}.${process.pid}.tmp`;
  writeFileSync(manifestTemporary, JSON.stringify({ inputs, fingerprint: fingerprint(inputs) }));
  renameSync(manifestTemporary, MANIFEST);
}

let starting: Promise<Pool> | null = null;

async function pool(): Promise<Pool> {
  if (shared.c2wAnalysisPool) return shared.c2wAnalysisPool;
  starting ??= (async () => {
    const created: Pool = { slots: [], queue: [], nextId: 1, inline: false, bundle: null };
    try {
      if (!bundleIsFresh()) await buildBundle();
      created.bundle = BUNDLE;
      const size = Math.max(2, Math.min(4, availableParallelism()));
      for (let i = 0; i < size; i++) created.slots.push(startSlot(created));
    } catch (error) {
      console.error("Analysis workers could not start; analysing on the calling thread without a time budget:", error);
      created.inline = true;
    }
    shared.c2wAnalysisPool = created;
    return created;
  })();
  return starting;
}

function startSlot(owner: Pool): Slot {
  const worker = new Worker(owner.bundle!);
  worker.unref();
  const slot: Slot = { worker, busy: null };
  worker.on("message", (message: { id: number; value?: unknown; error?: string }) => {
    const busy = slot.busy;
    if (!busy || busy.id !== message.id) return;
    clearTimeout(busy.timer);
    slot.busy = null;
    worker.unref();
    busy.job.resolve(message.error !== undefined ? { ok: false, reason: "failed", message: message.error } : { ok: true, value: message.value });
    dispatch(owner);
  });
  const replace = (error: Error) => {
    const busy = slot.busy;
    slot.busy = null;
    if (busy) {
      clearTimeout(busy.timer);
      busy.job.resolve({ ok: false, reason: "failed", message: error.message });
    }
    const index = owner.slots.indexOf(slot);
    if (index >= 0) owner.slots[index] = startSlot(owner);
    dispatch(owner);
  };
  worker.on("error", replace);
  worker.on("exit", (code) => {
    if (owner.slots.includes(slot)) replace(new Error(`analysis worker exited with code ${code}`));
  });
  return slot;
}

function dispatch(owner: Pool): void {
  for (const slot of owner.slots) {
    if (slot.busy) continue;
    const job = owner.queue.shift();
    if (!job) return;
    const id = owner.nextId++;
    // The budget runs from when a worker takes the task, not while it waits in the queue.
    const timer = setTimeout(() => {
      if (slot.busy?.id !== id) return;
      slot.busy = null;
      const index = owner.slots.indexOf(slot);
      if (index >= 0) owner.slots[index] = startSlot(owner);
      void slot.worker.terminate();
      job.resolve({ ok: false, reason: "budget", message: `the analysis took longer than its ${job.budgetMs} ms budget` });
      dispatch(owner);
    }, job.budgetMs);
    slot.busy = { id, job, timer };
    slot.worker.ref();
    slot.worker.postMessage({ id, task: job.task });
  }
}

/** Runs one analysis off the calling thread within `budgetMs`. */
export async function analyse<T extends AnalysisTask>(task: T, budgetMs = analysisBudgetMs()): Promise<AnalysisOutcome<AnalysisResult<T>>> {
  const owner = await pool();
  if (owner.inline) {
    try {
      return { ok: true, value: runAnalysisTask(task, sha256) };
    } catch (error) {
      return { ok: false, reason: "failed", message: error instanceof Error ? error.message : String(error) };
    }
  }
  return new Promise((resolve) => {
    owner.queue.push({ task, budgetMs, resolve: resolve as (outcome: AnalysisOutcome<unknown>) => void });
    dispatch(owner);
  });
}

/** Runs analyses concurrently on the pool, in order of their results. */
export function analyseAll<T extends AnalysisTask>(tasks: readonly T[], budgetMs = analysisBudgetMs(), onEach?: () => void): Promise<AnalysisOutcome<AnalysisResult<T>>[]> {
  return Promise.all(
    tasks.map(async (task) => {
      const outcome = await analyse(task, budgetMs);
      onEach?.();
      return outcome;
    }),
  );
}
