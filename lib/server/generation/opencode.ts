import "server-only";
// Runs the opencode agent as the official agentic baseline does (per-task sandbox, fresh session per attempt, wall
// clock, [TIMEOUT] answer), with a configuration and home written for the task so it reaches only the endpoint.

import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, statSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AgentRunRecord, CallResult } from "@/lib/generation/attempts";
import { chooseStep, OPENCODE_KEY_VARIABLE, OPENCODE_PACKAGE, OPENCODE_PINNED_VERSION, OPENCODE_TIMEOUT_MS, opencodeConfig, opencodeModel, opencodeSteps } from "@/lib/generation/opencode";
import { pyStrip } from "@/lib/workflow/python-values";

const STDERR_TAIL = 4_000;

export type OpencodeInstall = { ok: true; bin: string; version: string } | { ok: false; reason: string };

function onPath(command: string, pathVariable: string | undefined): string | null {
  for (const dir of (pathVariable ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return candidate;
      }
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * The opencode binary of the pinned npm package (OPENCODE_BIN overrides it) and its version. opencode downloads
 * ripgrep from the web when `rg` is not on PATH, so without it the agent refuses to start rather than go online.
 */
export function opencodeInstall(env: NodeJS.ProcessEnv = process.env): OpencodeInstall {
  const packageDir = path.join(process.cwd(), "node_modules", OPENCODE_PACKAGE);
  const bin = env.OPENCODE_BIN || path.join(packageDir, "bin", "opencode");
  if (!existsSync(bin)) return { ok: false, reason: `the opencode binary is missing (${bin}); run npm ci, which installs the ${OPENCODE_PACKAGE} package` };
  if (!onPath("rg", env.PATH)) {
    return { ok: false, reason: "ripgrep (rg) is not on PATH: opencode would download it from the web; install it first (Debian: apt-get install ripgrep)" };
  }
  if (env.OPENCODE_BIN) return { ok: true, bin, version: `opencode at ${bin}` };
  try {
    const version = (JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as { version?: unknown }).version;
    return { ok: true, bin, version: `${OPENCODE_PACKAGE} ${typeof version === "string" ? version : "unknown"}` };
  } catch {
    return { ok: false, reason: `${path.join(packageDir, "package.json")} cannot be read; run npm ci` };
  }
}

/** The files of a skill folder by relative path (the official code copies the whole folder per task). */
export async function readSkillFolder(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = await readFile(file, "utf8");
  }
  return files;
}

export interface TaskAgent {
  /** The agent and its version, e.g. "opencode-ai 1.3.2". */
  readonly version: string;
  run(message: string, signal?: AbortSignal): Promise<CallResult>;
  /** Removes the task's sandbox and opencode home. */
  close(): Promise<void>;
}

export interface OpencodeAgentOptions {
  install: Extract<OpencodeInstall, { ok: true }>;
  /** Where the task's directory is made (it is removed again by close()). */
  workDir: string;
  task: string;
  /** The skill folder's files by relative path (SKILL.md at least). */
  skillFiles: Readonly<Record<string, string>>;
  baseURL: string;
  apiKey: string | null;
  model: string;
  /** The wall clock of one run (default the official 300 s). */
  timeoutMs?: number;
}

const safeName = (task: string) => task.replace(/[^\w.-]+/g, "_").slice(0, 100) || "task";

/** The opencode environment: only PATH and locale from ours; home, config, data, cache and state in the task's dir. */
function agentEnvironment(home: string, configFile: string, apiKey: string | null): Record<string, string> {
  const pick = (name: string): Record<string, string> => (process.env[name] !== undefined ? { [name]: process.env[name] as string } : {});
  return {
    ...pick("PATH"),
    ...pick("LANG"),
    ...pick("TZ"),
    HOME: path.join(home, "home"),
    XDG_CONFIG_HOME: path.join(home, "config"),
    XDG_DATA_HOME: path.join(home, "data"),
    XDG_CACHE_HOME: path.join(home, "cache"),
    XDG_STATE_HOME: path.join(home, "state"),
    TMPDIR: path.join(home, "tmp"),
    OPENCODE_CONFIG: configFile,
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_PROJECT_CONFIG: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    PAGER: "cat",
    [OPENCODE_KEY_VARIABLE]: apiKey ?? "no-key",
  };
}

interface ProcessOutcome {
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  spawnError: string | null;
}

function runProcess(bin: string, args: string[], env: Record<string, string>, cwd: string, stdoutFile: string, stderrFile: string, timeoutMs: number, signal?: AbortSignal): Promise<ProcessOutcome> {
  const started = performance.now();
  // Files, not pipes, as the official code does: a long answer can never block the writer.
  const out = openSync(stdoutFile, "w");
  const err = openSync(stderrFile, "w");
  return new Promise((resolve) => {
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    const child: ChildProcess = spawn(bin, args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ["ignore", out, err] as const, detached: true });
    closeSync(out);
    closeSync(err);
    // The package's launcher starts the real binary as its child: kill the whole process group.
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => {
      cancelled = true;
      killGroup();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const finish = (exitCode: number | null, spawnError: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve({ exitCode, timedOut, cancelled, durationMs: Math.round(performance.now() - started), spawnError });
    };
    child.once("error", (error: Error) => finish(null, error.message));
    child.once("exit", (code: number | null, killedBy: NodeJS.Signals | null) => finish(code ?? (killedBy ? 128 : null), null));
  });
}

async function tail(file: string, length: number): Promise<string> {
  try {
    const text = await readFile(file, "utf8");
    return text.length > length ? text.slice(-length) : text;
  } catch {
    return "";
  }
}

/** Makes the task's sandbox (the skill folder copy, SKILL.md read-only) and opencode home with its run-only config. */
export async function openOpencodeAgent(options: OpencodeAgentOptions): Promise<TaskAgent> {
  const taskDir = path.join(options.workDir, safeName(options.task));
  await rm(taskDir, { recursive: true, force: true });
  const sandbox = path.join(taskDir, "skill");
  const home = path.join(taskDir, "opencode");
  for (const [relative, text] of Object.entries(options.skillFiles)) {
    const file = path.join(sandbox, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  await mkdir(sandbox, { recursive: true });
  if (options.skillFiles["SKILL.md"] !== undefined) await chmod(path.join(sandbox, "SKILL.md"), 0o444);
  for (const dir of ["home", "config/opencode/node_modules", "data", "cache", "state", "tmp", "runs"]) await mkdir(path.join(home, dir), { recursive: true });
  // opencode installs its plugin package from npm into a config dir whose package.json does not already name it.
  const pinned = options.install.version.startsWith(`${OPENCODE_PACKAGE} `) ? options.install.version.slice(OPENCODE_PACKAGE.length + 1) : OPENCODE_PINNED_VERSION;
  await writeFile(path.join(home, "config", "opencode", "package.json"), JSON.stringify({ dependencies: { "@opencode-ai/plugin": pinned } }));
  const configFile = path.join(home, "opencode.json");
  await writeFile(configFile, JSON.stringify(opencodeConfig({ baseURL: options.baseURL, model: options.model }), null, 2));
  const env = agentEnvironment(home, configFile, options.apiKey);
  const timeoutMs = options.timeoutMs ?? OPENCODE_TIMEOUT_MS;
  let runs = 0;

  return {
    version: options.install.version,
    async run(message, signal) {
      runs += 1;
      // The official code inlines the sandbox's SKILL.md into the message; the caller built it from the same text.
      const stdoutFile = path.join(home, "runs", `${runs}.stdout`);
      const stderrFile = path.join(home, "runs", `${runs}.stderr`);
      const args = ["run", "--format", "json", "-m", opencodeModel(options.model), "--dir", sandbox, message];
      const outcome = await runProcess(options.install.bin, args, env, sandbox, stdoutFile, stderrFile, timeoutMs, signal);
      const stderrTail = await tail(stderrFile, STDERR_TAIL);
      const record: AgentRunRecord = {
        agent: options.install.version,
        exitCode: outcome.exitCode,
        durationMs: outcome.durationMs,
        timedOut: outcome.timedOut,
        steps: [],
        chosenStep: null,
        hasTags: false,
        sessionId: null,
        stderrTail,
      };
      if (outcome.cancelled) return { kind: "error", message: "cancelled", agentRun: record };
      if (outcome.timedOut) return { kind: "timeout", message: `opencode run timed out after ${Math.round(timeoutMs / 1000)} s`, agentRun: record };
      if (outcome.spawnError !== null) return { kind: "error", message: `opencode could not be started: ${outcome.spawnError}`, agentRun: record };
      const stdout = pyStrip(await readFile(stdoutFile, "utf8"));
      if (outcome.exitCode !== 0) {
        return { kind: "error", message: `opencode run failed (exit code ${outcome.exitCode}); stderr: ${stderrTail.slice(-1_000)}`, agentRun: record };
      }
      const parsed = opencodeSteps(stdout);
      if (!parsed.ok) return { kind: "error", message: parsed.reason, agentRun: record };
      const chosen = chooseStep(parsed.steps, stdout);
      return {
        kind: "reply",
        content: chosen.text,
        hasTags: chosen.hasTags,
        agentRun: { ...record, steps: parsed.steps, chosenStep: chosen.index, hasTags: chosen.hasTags, sessionId: parsed.sessionId },
      };
    },
    async close() {
      await rm(taskDir, { recursive: true, force: true });
    },
  };
}
