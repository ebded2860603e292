// Which imported benchmark a view shows: the one the URL names (by id or name), else the default benchmark — the
// admin's setting when it names an existing import, else the first real (non-demo) benchmark imported. Pure; the
// default never depends on run counts, so a shared link without a benchmark keeps its meaning as runs are imported.

export interface BenchmarkChoice {
  id: string;
  name: string;
  version: string;
  runCount: number;
  turnCount: number;
  /** ISO timestamp of the import. */
  importedAt: string;
  /** The project's own demo data (never the default while a real benchmark exists). */
  demo?: boolean;
}

/** `importedBy` of the project's demo data (the demo seed). */
export const DEMO_IMPORTER = "demo seed";

const byImport = (a: BenchmarkChoice, b: BenchmarkChoice): number => (a.importedAt < b.importedAt ? -1 : a.importedAt > b.importedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Real benchmarks before demo ones, each in import order: the order the picker lists them in. */
export function orderBenchmarks(choices: readonly BenchmarkChoice[]): BenchmarkChoice[] {
  return [...choices].sort((a, b) => Number(a.demo ?? false) - Number(b.demo ?? false) || byImport(a, b));
}

/** The admin's choice when it still exists, else the first real benchmark imported, else the first imported. */
export function defaultBenchmark(choices: readonly BenchmarkChoice[], settingId: string | null | undefined): BenchmarkChoice | null {
  if (settingId) {
    const chosen = choices.find((choice) => choice.id === settingId);
    if (chosen) return chosen;
  }
  return orderBenchmarks(choices)[0] ?? null;
}

export function chooseBenchmark(choices: readonly BenchmarkChoice[], requested: string | null | undefined, settingId: string | null = null): BenchmarkChoice | null {
  if (requested) {
    const ordered = [...choices].sort(byImport);
    const byId = ordered.find((choice) => choice.id === requested);
    if (byId) return byId;
    // A name several imports share means the first of them imported (stable as more arrive).
    const byName = ordered.find((choice) => choice.name === requested) ?? ordered.find((choice) => choice.name.toLowerCase() === requested.toLowerCase());
    if (byName) return byName;
  }
  return defaultBenchmark(choices, settingId);
}

/** What to write in a URL for a benchmark: its name when no other import shares it, else its id. */
export function benchmarkParam(choice: BenchmarkChoice, choices: readonly BenchmarkChoice[]): string {
  return choices.filter((other) => other.name === choice.name).length > 1 ? choice.id : choice.name;
}

/**
 * A link within the app that names its benchmark: `path?benchmark=…&…extra` (empty extras dropped). Every link to a
 * benchmark-dependent page goes through here, so other parameters can be added in one place.
 */
export function benchmarkHref(path: string, benchmark: string | null | undefined, extra: Readonly<Record<string, string | number | null | undefined>> = {}): string {
  const search = new URLSearchParams();
  if (benchmark) search.set("benchmark", benchmark);
  for (const [key, value] of Object.entries(extra)) if (value !== null && value !== undefined && value !== "") search.set(key, String(value));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}
