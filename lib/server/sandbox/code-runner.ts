import "server-only";
// Model-written code nodes run here, never in the app's process: a pool of sandbox processes (sandbox-child.mjs),
// reused across runs, each under Node's permission model (file reads only of the Pyodide and QuickJS packages; no
// child processes, workers, addons or code generation from strings). Each run has a time limit (Dify's sandbox
// worker timeout, 15 s) and a memory limit on the process; a process over either is killed and replaced.
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { CodeRunner, CodeRunResult } from "@/lib/dry-run/types";
import type { JsonValue } from "@/lib/workflow/python-values";

export interface SandboxOptions {
  /** Processes in the pool (default 2). */
  size?: number;
  /** Time one code node may run (default 15 000 ms: SANDBOX_WORKER_TIMEOUT in Dify's docker/.env.example). */
  timeoutMs?: number;
  /** Resident memory a sandbox process may reach while running a node (default 1 GiB). */
  memoryBytes?: number;
  /** Heap of one JavaScript code run in QuickJS (default 256 MiB). */
  jsMemoryBytes?: number;
}

export interface SandboxCodeRunner extends CodeRunner {
  close(): Promise<void>;
}

interface Request {
  language: "python3" | "javascript";
  code: string;
  inputs: Record<string, JsonValue>;
  resolve: (result: CodeRunResult) => void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  busy: { id: number; request: Request; timer: NodeJS.Timeout; watch: NodeJS.Timeout } | null;
}

const ROOT = /*turbopackIgnore: true*/ process.cwd();
const CHILD = path.join(ROOT, "lib", "server", "sandbox", "sandbox-child.mjs");

function packagePaths() {
  const dirOf = (name: string) => path.join(ROOT, "node_modules", name);
  const pyodide = dirOf("pyodide");
  const core = dirOf("quickjs-emscripten-core");
  const variant = dirOf("@jitl/quickjs-wasmfile-release-sync");
  const ffiTypes = dirOf("@jitl/quickjs-ffi-types");
  return { pyodide, core, variant, ffiTypes };
}

/** Resident memory of a process in bytes (Linux /proc), or null where it cannot be read. */
function residentBytes(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export function createSandboxCodeRunner(options: SandboxOptions = {}): SandboxCodeRunner {
  const size = options.size ?? 2;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const memoryBytes = options.memoryBytes ?? 1024 * 1024 * 1024;
  const paths = packagePaths();
  const queue: Request[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  const spawnChild = (): ChildProcess =>
    fork(/*turbopackIgnore: true*/ CHILD, [], {
      execArgv: [
        "--experimental-permission",
        `--allow-fs-read=${CHILD}`,
        ...[paths.pyodide, paths.core, paths.variant, paths.ffiTypes].map((dir) => `--allow-fs-read=${dir}${path.sep}*`),
        "--disallow-code-generation-from-strings",
        "--no-warnings",
        "--max-old-space-size=512",
      ],
      env: {
        SANDBOX_PYODIDE_DIR: paths.pyodide,
        SANDBOX_QUICKJS_ENTRY: path.join(paths.core, "dist", "index.mjs"),
        SANDBOX_QUICKJS_VARIANT_ENTRY: path.join(paths.variant, "dist", "index.mjs"),
        SANDBOX_JS_MEMORY_BYTES: String(options.jsMemoryBytes ?? 256 * 1024 * 1024),
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      serialization: "json",
    });

  const finish = (slot: Slot, result: CodeRunResult) => {
    const busy = slot.busy;
    if (!busy) return;
    clearTimeout(busy.timer);
    clearInterval(busy.watch);
    slot.busy = null;
    busy.request.resolve(result);
  };

  const replace = (slot: Slot, result: CodeRunResult | null) => {
    slot.child.removeAllListeners();
    slot.child.kill("SIGKILL");
    if (result) finish(slot, result);
    else if (slot.busy) finish(slot, { ok: false, kind: "error", reason: "The code sandbox stopped while running this node." });
    if (!closed) {
      attach(slot, spawnChild());
      dispatch();
    }
  };

  const attach = (slot: Slot, child: ChildProcess) => {
    slot.child = child;
    slot.ready = false;
    child.on("message", (message: { type: string; id?: number; answer?: CodeRunResult; reason?: string }) => {
      if (message.type === "ready") {
        slot.ready = true;
        dispatch();
      } else if (message.type === "broken") {
        closed = true;
        for (const request of queue.splice(0)) request.resolve({ ok: false, kind: "error", reason: `The code sandbox could not start: ${message.reason}` });
      } else if (message.type === "answer" && slot.busy && slot.busy.id === message.id && message.answer) {
        finish(slot, message.answer);
        dispatch();
      }
    });
    child.on("exit", () => replace(slot, null));
    child.on("error", () => replace(slot, null));
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (!slot.ready || slot.busy || queue.length === 0) continue;
      const request = queue.shift() as Request;
      const id = nextId++;
      const timer = setTimeout(() => replace(slot, { ok: false, kind: "timeout", reason: `The code ran longer than the ${timeoutMs / 1000} s limit and was stopped.` }), timeoutMs);
      const watch = setInterval(() => {
        const pid = slot.child.pid;
        const used = pid === undefined ? null : residentBytes(pid);
        if (used !== null && used > memoryBytes) replace(slot, { ok: false, kind: "memory", reason: `The code used more than ${Math.round(memoryBytes / 1024 / 1024)} MiB of memory and was stopped.` });
      }, 50);
      slot.busy = { id, request, timer, watch };
      slot.child.send({ id, language: request.language, code: request.code, inputs: request.inputs });
    }
  };

  for (let i = 0; i < size; i++) {
    const slot: Slot = { child: null as unknown as ChildProcess, ready: false, busy: null };
    slots.push(slot);
    attach(slot, spawnChild());
  }

  return {
    run({ language, code, inputs }) {
      if (closed) return Promise.resolve({ ok: false, kind: "error", reason: "The code sandbox is closed." });
      return new Promise((resolve) => {
        queue.push({ language, code, inputs, resolve });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const request of queue.splice(0)) request.resolve({ ok: false, kind: "error", reason: "The code sandbox is closed." });
      await Promise.all(
        slots.map(
          (slot) =>
            new Promise<void>((resolve) => {
              slot.child.removeAllListeners();
              if (slot.busy) finish(slot, { ok: false, kind: "error", reason: "The code sandbox is closed." });
              if (slot.child.exitCode !== null || slot.child.signalCode !== null) return resolve();
              slot.child.once("exit", () => resolve());
              slot.child.kill("SIGKILL");
            }),
        ),
      );
    },
  };
}
