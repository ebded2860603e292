// Which imported benchmark a view shows: the one the URL names (by id or name), else the one with the most runs.
// Pure; a name shared by several imports resolves to the one with the most runs, then the most recent.

export interface BenchmarkChoice {
  id: string;
  name: string;
  version: string;
  runCount: number;
  turnCount: number;
  /** ISO timestamp of the import. */
  importedAt: string;
}

/** Most runs first, then the most recent import: the order the picker lists them in and the default is taken from. */
export function orderBenchmarks(choices: readonly BenchmarkChoice[]): BenchmarkChoice[] {
  return [...choices].sort((a, b) => b.runCount - a.runCount || (a.importedAt < b.importedAt ? 1 : a.importedAt > b.importedAt ? -1 : 0));
}

export function chooseBenchmark(choices: readonly BenchmarkChoice[], requested: string | null | undefined): BenchmarkChoice | null {
  const ordered = orderBenchmarks(choices);
  if (requested) {
    const byId = ordered.find((choice) => choice.id === requested);
    if (byId) return byId;
    const byName = ordered.find((choice) => choice.name === requested) ?? ordered.find((choice) => choice.name.toLowerCase() === requested.toLowerCase());
    if (byName) return byName;
  }
  return ordered[0] ?? null;
}

/** What to write in a URL for a benchmark: its name when no other import shares it, else its id. */
export function benchmarkParam(choice: BenchmarkChoice, choices: readonly BenchmarkChoice[]): string {
  return choices.filter((other) => other.name === choice.name).length > 1 ? choice.id : choice.name;
}
