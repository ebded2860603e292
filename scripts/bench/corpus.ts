// The shared benchmark as the benchmarks read it: every dataset file, turn spec and recorded run, or an exit with
// the reasons when it does not read. Kept apart from common.ts, which bench:viewer imports without server modules.
import { readBenchmarkDir, type BenchmarkFiles } from "../../lib/server/benchmark-files";

/** Reads the benchmark at `dir`; prints every issue and exits with status 1 when it cannot be read. */
export async function loadBenchmarkCorpus(dir: string): Promise<BenchmarkFiles> {
  const corpus = await readBenchmarkDir(dir);
  if (!corpus.ok) {
    for (const issue of corpus.issues) console.error(issue.message);
    process.exit(1);
  }
  return corpus.value;
}
