// Locates the shared Chat2Workflow benchmark for tests: C2W_BENCHMARK_DIR, else ../shared/chat2workflow.
// Tests that need it use `describe.skipIf(!benchmarkDir)` and print why they were skipped.
import { existsSync } from "node:fs";
import path from "node:path";

function locateBenchmarkDir(): string | null {
  const candidates = [process.env.C2W_BENCHMARK_DIR, path.resolve(__dirname, "../../../shared/chat2workflow")];
  for (const candidate of candidates) {
    // Absolute, so paths built from it (symlink targets, child processes' working directories) resolve anywhere.
    if (candidate && existsSync(path.join(candidate, "dataset", "query.json"))) return path.resolve(candidate);
  }
  return null;
}

export const benchmarkDir = locateBenchmarkDir();

export const benchmarkMissingReason =
  "Chat2Workflow benchmark not found: set C2W_BENCHMARK_DIR or place it at ../shared/chat2workflow";

if (!benchmarkDir) {
  console.warn(`[skip] ${benchmarkMissingReason}`);
}
