// Resolves the benchmark directory from an explicit choice (a --benchmark argument), else C2W_BENCHMARK_DIR, else
// ../shared/chat2workflow under the project directory; "present" means it holds dataset/query.json.
// Not server-only: the e2e specs and benchmark harnesses, which run without the react-server condition, use it too;
// it holds no secret.
import { existsSync } from "node:fs";
import path from "node:path";
import { BENCHMARK_DIR_VARIABLE, benchmarkMissingMessage, DEFAULT_BENCHMARK_DIR } from "../benchmark/location";

export type BenchmarkLocation = { ok: true; dir: string } | { ok: false; dir: string; message: string };

interface LocateOptions {
  explicit?: string | null | undefined;
  env?: Record<string, string | undefined>;
  /** The project directory the fallback is relative to (default: the working directory). */
  projectDir?: string;
}

/** The configured benchmark directory (absolute), whether or not it exists. */
export function configuredBenchmarkDir({ explicit, env = process.env, projectDir = process.cwd() }: LocateOptions = {}): string {
  const chosen = explicit?.trim() || env[BENCHMARK_DIR_VARIABLE]?.trim() || DEFAULT_BENCHMARK_DIR;
  return path.resolve(/*turbopackIgnore: true*/ projectDir, chosen);
}

export function locateBenchmarkDir(options: LocateOptions = {}): BenchmarkLocation {
  const dir = configuredBenchmarkDir(options);
  return existsSync(path.join(/*turbopackIgnore: true*/ dir, "dataset", "query.json")) ? { ok: true, dir } : { ok: false, dir, message: benchmarkMissingMessage(dir) };
}
