// What the grade and promote command lines share: a RUN argument (a stored run's id or label, or a run file with
// --benchmark) graded with a rubric, and the acting user of a command line.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { Database } from "@/lib/server/db";
import { findRunByIdOrLabel, gradeRunFile, gradeStoredRun, type GradedRun, type LoadedRubric } from "@/lib/server/grading";
import type { SessionUser } from "@/lib/server/session";

/** Whoever runs the CLI already holds the database file; it acts as an admin would. */
export const COMMAND_LINE: SessionUser = { id: "command-line", email: "command-line", name: "command line", role: "admin" };

export function isRunFile(run: string): boolean {
  return existsSync(run) && statSync(run).isFile();
}

export type GradedRunOutcome = { graded: GradedRun; code: 0 } | { graded: undefined; code: number; message: string };

/** Grades RUN: a run file against `benchmark`, else a stored run (db needed). Not found is 1, bad input 2. */
export async function gradeRunArgument(db: Database | null, run: string, benchmark: string | undefined, rubric: LoadedRubric): Promise<GradedRunOutcome> {
  const failure = (code: number, message: string): GradedRunOutcome => ({ graded: undefined, code, message });
  if (isRunFile(run)) {
    if (benchmark === undefined) return failure(2, `${run} is a file: give --benchmark <dir> it belongs to`);
    const result = await gradeRunFile(path.resolve(benchmark), run, rubric);
    return result.ok ? { graded: result.value, code: 0 } : failure(2, result.issues.join("\n"));
  }
  if (db === null) return failure(2, `${run} is not a run file`);
  const found = await findRunByIdOrLabel(db, COMMAND_LINE, run);
  if (!found.ok) return failure(1, found.issues.join("; "));
  const result = await gradeStoredRun(db, COMMAND_LINE, found.value.id, rubric);
  if (result === null) return failure(1, `no stored run ${run}`);
  return result.ok ? { graded: result.value, code: 0 } : failure(2, result.issues.join("\n"));
}
