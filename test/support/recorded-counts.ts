// Leaderboard counts computed straight from recorded run files with nothing but JSON.parse, to check what the
// database and the export report against.
import { readFileSync } from "node:fs";
import path from "node:path";

export interface Expected {
  pass: number;
  turns: number;
  resolve: number;
}

/**
 * Counts per model for overall ("all"), each domain and each round, computed from the recorded run files with
 * nothing but JSON.parse: pass = valid records, resolve = true tests (every record counts 3 cases).
 */
export function expectedFromFiles(queryFile: string, files: readonly { name: string; content: string }[]): Map<string, Expected> {
  const queries = JSON.parse(readFileSync(queryFile, "utf8")) as { task: string; category: string }[];
  const domainOf = new Map(queries.map((query) => [query.task, query.category]));
  const expected = new Map<string, Expected>();
  for (const file of files) {
    const model = path.basename(file.name, ".json");
    for (const record of JSON.parse(file.content) as Record<string, unknown>[]) {
      for (const key of [`${model}|overall|all`, `${model}|domain|${domainOf.get(record.task as string)}`, `${model}|round|${record.round}`]) {
        const entry = expected.get(key) ?? { pass: 0, turns: 0, resolve: 0 };
        entry.turns += 1;
        if (record.valid === true) entry.pass += 1;
        entry.resolve += [record.test1, record.test2, record.test3].filter((test) => test === true).length;
        expected.set(key, entry);
      }
    }
  }
  return expected;
}
