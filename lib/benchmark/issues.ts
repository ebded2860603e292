// The issue record every benchmark-file parser reports, and helpers to turn zod issues into located messages.
// A message always names the file, the entry (e.g. "PaperQA_2" or "record 17 (BatchFiles round 2)", counted from 1) and the field.

import type { z } from "zod";

export interface BenchmarkIssue {
  /** The label the caller gave the file, e.g. "dataset/query.json" or "runs/gpt_5d2.json". */
  file: string;
  /** The entry inside the file, or null for problems with the file as a whole. */
  entry: string | null;
  /** Dotted path of the field inside the entry, or null. */
  field: string | null;
  /** Full human message naming file, entry and field. */
  message: string;
}

export function fieldPath(path: readonly PropertyKey[]): string | null {
  if (path.length === 0) return null;
  return path.reduce<string>((out, part) => {
    if (typeof part === "number") return `${out}[${part}]`;
    const name = String(part);
    return out ? `${out}.${name}` : name;
  }, "");
}

export function issue(file: string, entry: string | null, field: string | null, problem: string): BenchmarkIssue {
  const where = [file, entry, field].filter((part): part is string => part !== null).join(" › ");
  return { file, entry, field, message: `${where}: ${problem}` };
}

/** One BenchmarkIssue per zod issue of an entry. */
export function zodIssues(file: string, entry: string | null, error: z.ZodError, prefix: readonly PropertyKey[] = []): BenchmarkIssue[] {
  return error.issues.map((zodIssue) => issue(file, entry, fieldPath([...prefix, ...zodIssue.path]), zodIssue.message));
}
