// `npm start`: check the installed packages, set up the database, build the app when what the build reads changed
// since the last build (scripts/lib/app-build.ts), serve it, and say when it answers. Each step prints one line.
// Flags: --port <n> (default PORT or 3000), --rebuild (force a build), --no-build (serve the existing build).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { BuildRefused, ensureBuild, installProblem, registerServer } from "./lib/app-build";

const ROOT = path.resolve(__dirname, "..");

export interface ServeEnv {
  PORT: number;
  HOST: string;
  DATABASE_URL: string;
  NEXTAUTH_SECRET: string;
  NEXTAUTH_URL?: string | undefined;
}

export interface StartOptions {
  root: string;
  /** The `next` CLI (node_modules/next/dist/bin/next). */
  nextBin: string;
  port?: number;
  rebuild: boolean;
  build: boolean;
  /** Brings the database to a runnable state and resolves the server's environment (scripts/setup.ts). */
  prepare: (log: (line: string) => void) => Promise<ServeEnv>;
  log: (line: string) => void;
}

export interface StartedApp {
  url: string;
  server: ChildProcess;
  /** Resolves with the server's exit status. */
  exited: Promise<number>;
}

function parseArgs(argv: string[]) {
  const options = { port: undefined as number | undefined, rebuild: false, build: true };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === "--port") options.port = Number(argv[++index]);
    else if (arg === "--rebuild") options.rebuild = true;
    else if (arg === "--no-build") options.build = false;
    else throw new Error(`Unknown option ${arg}. Use --port <n>, --rebuild or --no-build.`);
  }
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port > 0 && options.port < 65536)) {
    throw new Error("--port needs a number between 1 and 65535");
  }
  return options;
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function runNext(nextBin: string, args: string[], root: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [nextBin, ...args], { cwd: root, env, stdio: "inherit" });
}

/** Polls the health route until it answers 200; rejects when the server exits first. */
async function waitUntilServing(url: string, server: ChildProcess): Promise<void> {
  let exited: number | null = null;
  server.once("exit", (code) => {
    exited = code ?? 1;
  });
  for (;;) {
    if (exited !== null) throw new Error(`the server exited (status ${exited}) before it answered`);
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function startApp(options: StartOptions): Promise<StartedApp> {
  const { root, log } = options;
  const started = Date.now();
  const problem = installProblem(root);
  if (problem) throw new BuildRefused(problem);
  log("• installed packages match package-lock.json");
  const env = await options.prepare(log);
  const port = options.port ?? env.PORT;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: env.DATABASE_URL,
    NEXTAUTH_SECRET: env.NEXTAUTH_SECRET,
    NEXTAUTH_URL: env.NEXTAUTH_URL ?? `http://localhost:${port}`,
    PORT: String(port),
    HOST: env.HOST,
  };
  if (options.build) {
    await ensureBuild({
      root,
      env: childEnv,
      force: options.rebuild,
      port,
      log,
      build: () => new Promise((resolve) => runNext(options.nextBin, ["build"], root, childEnv).on("exit", (code) => resolve(code ?? 1))),
    });
  } else {
    log("• serving the existing build (--no-build)");
    registerServer(root, port);
  }
  const host = env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST;
  const url = `http://${host}:${port}`;
  log(`• starting the server on ${url}`);
  const server = runNext(options.nextBin, ["start", "-p", String(port), "-H", env.HOST], root, childEnv);
  const exited = new Promise<number>((resolve) => server.on("exit", (code, signal) => resolve(code ?? (signal ? 0 : 1))));
  await waitUntilServing(url, server);
  log(`• ready: ${url} (${seconds(started)} after npm start)`);
  return { url, server, exited };
}

/** `npm start [--port <n>] [--rebuild] [--no-build]`: runs until the server exits, then exits with its status. */
export async function runStart(argv: string[]): Promise<never> {
  const args = parseArgs(argv);
  const { setup } = await import("./setup");
  const app = await startApp({
    root: ROOT,
    nextBin: path.join(ROOT, "node_modules", "next", "dist", "bin", "next"),
    port: args.port,
    rebuild: args.rebuild,
    build: args.build,
    prepare: (log) => setup({ log }),
    log: (line) => console.log(line),
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => app.server.kill(signal));
  process.exit(await app.exited);
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename);
if (invokedDirectly) {
  runStart(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
