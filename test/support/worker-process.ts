// Runs `npm run worker` as a real child process for crash tests (so SIGKILL reaches the worker itself), and waits
// for conditions with a deadline.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

export function startWorkerProcess(databaseUrl: string, env: Record<string, string> = {}): ChildProcess {
  const child = spawn(
    process.execPath,
    // tsx as a loader in this very process (its CLI would run the script in a grandchild that SIGKILL misses).
    ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts", "--lease-ms", "1500", "--poll-ms", "100"],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, APP_ENV: "local", ...env }, stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr?.on("data", (chunk: Buffer) => process.stderr.write(`[worker ${child.pid}] ${chunk.toString()}`));
  return child;
}

export const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

export async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
