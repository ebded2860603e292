// Locates the Chat2Workflow benchmark for tests through the one setting (C2W_BENCHMARK_DIR, else
// ../shared/chat2workflow next to the checkout). Tests that need it use `describe.skipIf(!benchmarkDir)` and print why.
import path from "node:path";
import { locateBenchmarkDir } from "../../lib/server/benchmark-location";

const location = locateBenchmarkDir({ projectDir: path.resolve(__dirname, "../..") });

export const benchmarkDir = location.ok ? location.dir : null;

export const benchmarkMissingReason = location.ok ? "" : location.message;

if (!location.ok) {
  console.warn(`[skip] ${benchmarkMissingReason}`);
}
