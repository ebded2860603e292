// The production build of the app and who may write it: its fingerprint (the contents of what `next build` reads, the
// lockfile and the public build-time variables, never modification times), the build lock, and the registry of
// servers running from this checkout, so that no build rewrites .next under a running server or another build.
// Used by `npm start` and the e2e server (through scripts/start.ts).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fingerprintFiles, listFiles, type FingerprintRecord } from "./fingerprint.cjs";

/** What `next build` compiles: the app's source folders and the root files that configure the build. */
export const BUILD_SOURCE_DIRS = ["app", "components", "lib", "generated", "public", "types"];
export const BUILD_SOURCE_FILES = ["proxy.ts", "instrumentation.ts", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "package-lock.json"];
// The .env files `next build` reads (their NEXT_PUBLIC_ values are compiled into the pages).
const ENV_FILES = [".env", ".env.production", ".env.local", ".env.production.local"];
const STATE_FILE = path.join(".next", "studio-build.json");
// Outside .next, which a build empties.
const LOCK_DIR = path.join("data", ".start");

const isTestFile = (name: string) => /\.test\.tsx?$/.test(name);

export interface BuildFingerprint {
  fingerprint: string;
  record: FingerprintRecord;
  fileCount: number;
}

/** The public build-time variables, from the environment and the .env files, as `KEY=value` lines. */
function publicBuildVariables(root: string, env: NodeJS.ProcessEnv): string[] {
  const lines = new Map<string, string>();
  for (const file of ENV_FILES) {
    let text: string;
    try {
      text = readFileSync(path.join(root, file), "utf8");
    } catch {
      continue;
    }
    for (const match of text.matchAll(/^\s*(?:export\s+)?(NEXT_PUBLIC_\w+)\s*=\s*(.*?)\s*$/gm)) lines.set(`${file}:${match[1]}`, match[2] ?? "");
  }
  for (const [key, value] of Object.entries(env)) if (key.startsWith("NEXT_PUBLIC_")) lines.set(`env:${key}`, value ?? "");
  return [...lines].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, value]) => `${key}=${value}`);
}

export function buildFingerprint(root: string, env: NodeJS.ProcessEnv, previous: FingerprintRecord = {}): BuildFingerprint {
  const files = [...listFiles(root, BUILD_SOURCE_DIRS, isTestFile), ...BUILD_SOURCE_FILES];
  const { fingerprint, record } = fingerprintFiles(root, files, { previous, extra: publicBuildVariables(root, env) });
  return { fingerprint, record, fileCount: Object.keys(record).length };
}

interface BuildState {
  fingerprint: string;
  record: FingerprintRecord;
}

function readBuildState(root: string): BuildState | null {
  try {
    const state = JSON.parse(readFileSync(path.join(root, STATE_FILE), "utf8")) as BuildState;
    return typeof state.fingerprint === "string" ? state : null;
  } catch {
    return null;
  }
}

function writeBuildState(root: string, state: BuildState): void {
  const file = path.join(root, STATE_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}

/** Whether .next holds a finished build made from exactly these inputs. */
export function buildIsCurrent(root: string, current: BuildFingerprint): boolean {
  return existsSync(path.join(root, ".next", "BUILD_ID")) && readBuildState(root)?.fingerprint === current.fingerprint;
}

// -- who is using .next ---------------------------------------------------------------------------------------------

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

interface Holder {
  pid: number;
  port?: number;
  since: string;
}

function readHolder(file: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(file, "utf8")) as Holder;
    return Number.isInteger(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

/** Servers started from this checkout that are still running (their records outlive a crash; dead ones are dropped). */
export function runningServers(root: string): Holder[] {
  const dir = path.join(root, LOCK_DIR);
  const servers: Holder[] = [];
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (!name.startsWith("server-")) continue;
    const holder = readHolder(path.join(dir, name));
    if (holder && holder.pid !== process.pid && processIsAlive(holder.pid)) servers.push(holder);
    else if (holder?.pid !== process.pid) rmSync(path.join(dir, name), { force: true });
  }
  return servers;
}

/** Records this process as a server of the build until it exits. */
export function registerServer(root: string, port: number): () => void {
  const dir = path.join(root, LOCK_DIR);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `server-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ pid: process.pid, port, since: new Date().toISOString() } satisfies Holder));
  const unregister = () => rmSync(file, { force: true });
  process.on("exit", unregister);
  return unregister;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` holding the checkout's build lock. A lock held by a live process is waited for (saying so once); one
 * left by a process that died is taken over.
 */
export async function withBuildLock<T>(root: string, log: (line: string) => void, work: () => Promise<T>, pollMs = 1000): Promise<T> {
  const dir = path.join(root, LOCK_DIR);
  mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, "build.lock");
  let announced = false;
  for (;;) {
    try {
      writeFileSync(lock, JSON.stringify({ pid: process.pid, since: new Date().toISOString() } satisfies Holder), { flag: "wx" });
      if (readHolder(lock)?.pid === process.pid) break;
      continue;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(lock);
    if (holder && processIsAlive(holder.pid)) {
      if (!announced) log(`• waiting for the build that process ${holder.pid} started at ${holder.since} (one build at a time per checkout)`);
      announced = true;
      await sleep(pollMs);
    } else if (holder) {
      // Left by a build that died: taken over.
      rmSync(lock, { force: true });
    } else {
      // Being written this instant, or unreadable: look again shortly, then take it over.
      await sleep(100);
      if (!readHolder(lock)) rmSync(lock, { force: true });
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

export class BuildRefused extends Error {}

export interface EnsureBuildOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  force: boolean;
  /** The port this start will serve on, recorded with its registration. */
  port: number;
  log: (line: string) => void;
  /** Runs `next build`; resolves with its exit status. */
  build: () => Promise<number>;
}

function formatElapsed(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

function buildLockHeld(root: string): boolean {
  const holder = readHolder(path.join(root, LOCK_DIR, "build.lock"));
  return holder !== null && processIsAlive(holder.pid);
}

/**
 * Makes .next a build of the current sources and registers this process as serving it: nothing to build when it
 * already is one (a line says so); otherwise builds under the lock, unless a server from this checkout is running on
 * the old build, which is refused with what to do. Registration happens before the lock is released, so no other
 * start can begin a build between this decision and the server starting.
 */
export async function ensureBuild({ root, env, force, port, log, build }: EnsureBuildOptions): Promise<"current" | "built"> {
  const check = () => buildFingerprint(root, env, readBuildState(root)?.record);
  const current = (state: BuildFingerprint) => {
    log(`• build is current (${state.fileCount} source files unchanged since the last build)`);
    registerServer(root, port);
    return "current" as const;
  };
  const before = check();
  if (!force && !buildLockHeld(root) && buildIsCurrent(root, before)) return current(before);
  return withBuildLock(root, log, async () => {
    // Another start may have built while this one waited.
    const now = check();
    if (!force && buildIsCurrent(root, now)) return current(now);
    const servers = runningServers(root);
    if (servers.length > 0) {
      const which = servers.map((server) => `process ${server.pid}${server.port ? ` on port ${server.port}` : ""}`).join(", ");
      throw new BuildRefused(
        `The sources changed since the last build, but a server from this checkout is running on that build (${which}); ` +
          "a build now would rewrite .next under it. Stop it and start again, or serve the existing build with --no-build.",
      );
    }
    log(force ? "• building the app (next build, as asked; 2–4 minutes on two cores)" : "• building the app: its sources changed since the last build (next build; 2–4 minutes on two cores)");
    const started = Date.now();
    const ticker = setInterval(() => log(`  … still building (${formatElapsed(Date.now() - started)})`), 30_000);
    let status: number;
    try {
      status = await build();
    } finally {
      clearInterval(ticker);
    }
    if (status !== 0) throw new Error(`next build failed (exit ${status}) after ${formatElapsed(Date.now() - started)}`);
    // The fingerprint from before the build: a file edited while it ran makes the next start build again.
    writeBuildState(root, { fingerprint: now.fingerprint, record: now.record });
    log(`• built in ${formatElapsed(Date.now() - started)}`);
    registerServer(root, port);
    return "built";
  });
}

// -- installed packages ---------------------------------------------------------------------------------------------

/** node_modules against package-lock.json (npm's record of what it installed); null when they agree. */
export function installProblem(root: string): string | null {
  const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8")) as { packages?: Record<string, { version?: string; optional?: boolean }> };
  if (!existsSync(path.join(root, "node_modules"))) return "node_modules is missing: run npm ci first.";
  let installed;
  try {
    installed = read(path.join("node_modules", ".package-lock.json")).packages ?? {};
  } catch {
    return "node_modules has no record of what npm installed (node_modules/.package-lock.json): run npm ci.";
  }
  const locked = read("package-lock.json").packages ?? {};
  const differing = Object.entries(locked).filter(
    ([key, entry]) => key.startsWith("node_modules/") && !entry.optional && installed[key]?.version !== entry.version,
  );
  if (differing.length === 0) return null;
  const [key, entry] = differing[0] as [string, { version?: string }];
  const name = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
  return `node_modules does not match package-lock.json (${differing.length} package(s), e.g. ${name} ${installed[key]?.version ?? "missing"} instead of ${entry.version}): run npm ci.`;
}
