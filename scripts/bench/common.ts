// Shared pieces of the benchmarks: locating the shared corpus, garbage collection between runs, medians,
// quantiles and a plain-text table. Benchmarks report medians over repeated runs; speed targets live here, never in tests.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { locateBenchmarkDir } from "../../lib/server/benchmark-location";
import { startOpenAIStub, type StubHandler } from "../../test/support/openai-stub";

export function locateBenchmark(): string {
  const location = locateBenchmarkDir();
  if (!location.ok) {
    console.error(location.message);
    process.exit(1);
  }
  return location.dir;
}

// Collect garbage before each timed run so one run's garbage is not billed to the next.
setFlagsFromString("--expose-gc");
export const collectGarbage = runInNewContext("gc") as () => void;

/**
 * CPU time the calling (main) thread has run so far, in ms, from Linux's /proc/thread-self/schedstat; null where
 * it is not available. Unlike wall-clock time it leaves out time spent waiting for a CPU on a shared machine.
 */
export function mainThreadCpuMs(): number | null {
  try {
    const runNs = Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]);
    return Number.isFinite(runNs) ? runNs / 1e6 : null;
  } catch {
    return null;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The value below which a fraction `q` of the values lie (nearest rank, no interpolation); 0 for no values. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

export function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/** A plain table: the first column left-aligned, the others right-aligned. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
}

export function runMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/** In the stub process: serves `handler` on loopback until the parent closes stdin, printing the base URL first. */
export async function serveStub(handler: StubHandler): Promise<void> {
  const stub = await startOpenAIStub(handler, { record: false });
  console.log(stub.baseURL);
  await new Promise<void>((resolve) => {
    process.stdin.on("end", resolve).on("close", resolve).resume();
  });
  await stub.close();
}

/** Runs `script --stub` in its own process (so the stub's CPU is not the measured process's) and reads its URL. */
export function startStubProcess(script: string): Promise<{ child: ChildProcess; baseURL: string }> {
  const child = spawn(process.execPath, [...process.execArgv, script, "--stub"], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the stub process exited early (${code})`)));
    createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).once("line", (line) => resolve({ child, baseURL: line.trim() }));
  });
}
