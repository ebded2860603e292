// Where the Chat2Workflow benchmark is found: one setting (C2W_BENCHMARK_DIR) with one fallback, and one sentence
// saying what to do when it is not there. Shared by the CLIs, the Import page, the benchmarks and the tests; the
// file-system lookup lives in lib/server/benchmark-location.ts.

export const BENCHMARK_DIR_VARIABLE = "C2W_BENCHMARK_DIR";
/** The fallback, relative to the project directory: a clone next to the checkout's parent. */
export const DEFAULT_BENCHMARK_DIR = "../shared/chat2workflow";
export const OFFICIAL_REPOSITORY = "https://github.com/zjunlp/Chat2Workflow";

/** The one sentence shown wherever the benchmark is missing. */
export function benchmarkMissingMessage(dir: string): string {
  return `No Chat2Workflow benchmark at ${dir} (it needs dataset/query.json): clone ${OFFICIAL_REPOSITORY} there, or set ${BENCHMARK_DIR_VARIABLE} to a copy.`;
}
