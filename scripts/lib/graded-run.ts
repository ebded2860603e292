// What the grade, promote and pairwise command lines share: RUN arguments (a stored run's id or label, or a run file
// with --benchmark) graded with a rubric, their options, and the acting user of a command line.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { EvidenceFile } from "@/lib/grading/evidence";
import type { Database } from "@/lib/server/db";
import { findRunByIdOrLabel, gradeRunFile, gradeStoredRun, loadRubricFile, type GradedRun, type LoadedRubric } from "@/lib/server/grading";
import type { SessionUser } from "@/lib/server/session";
import { commandLineEnv, withDatabase } from "./cli";

/** Whoever runs the CLI already holds the database file; it acts as an admin would. */
export const COMMAND_LINE: SessionUser = { id: "command-line", email: "command-line", name: "command line", role: "admin" };

/** --candidate and --baseline: the two runs a comparison is between. */
export const RUN_PAIR_OPTIONS = {
  candidate: { type: "string" },
  baseline: { type: "string" },
} as const;

/** --rubric and --benchmark: the rubric RUN arguments are graded with, and the benchmark a run file belongs to. */
export const GRADING_OPTIONS = {
  rubric: { type: "string" },
  benchmark: { type: "string" },
} as const;

export function isRunFile(run: string): boolean {
  return existsSync(run) && statSync(run).isFile();
}

export type GradedRunOutcome = { graded: GradedRun; code: 0 } | { graded: undefined; code: number; message: string };

/** Grades RUN: a run file against `benchmark`, else a stored run (db needed). Not found is 1, bad input 2. */
export async function gradeRunArgument(db: Database | null, run: string, benchmark: string | undefined, rubric: LoadedRubric, evidence?: EvidenceFile): Promise<GradedRunOutcome> {
  const failure = (code: number, message: string): GradedRunOutcome => ({ graded: undefined, code, message });
  if (isRunFile(run)) {
    if (benchmark === undefined) return failure(2, `${run} is a file: give --benchmark <dir> it belongs to`);
    const result = await gradeRunFile(path.resolve(benchmark), run, rubric, evidence);
    return result.ok ? { graded: result.value, code: 0 } : failure(2, result.issues.join("\n"));
  }
  if (db === null) return failure(2, `${run} is not a run file`);
  const found = await findRunByIdOrLabel(db, COMMAND_LINE, run);
  if (!found.ok) return failure(1, found.issues.join("; "));
  const result = await gradeStoredRun(db, COMMAND_LINE, found.value.id, rubric, evidence);
  if (result === null) return failure(1, `no stored run ${run}`);
  return result.ok ? { graded: result.value, code: 0 } : failure(2, result.issues.join("\n"));
}

/**
 * Loads the rubric and grades each RUN in order, opening the database (migrated, closed afterwards) only when some
 * RUN is not a run file, then hands the graded runs to `body`. A problem prints one `error:` line and returns its
 * exit status; grading stops at the first RUN that fails.
 */
export async function withGradedRuns<const Runs extends readonly string[]>(
  runs: Runs,
  options: { rubric: string; benchmark?: string | undefined; database?: string | undefined; evidence?: EvidenceFile | undefined },
  body: (graded: { [Index in keyof Runs]: GradedRun }, db: Database | null) => Promise<number>,
): Promise<number> {
  const loaded = await loadRubricFile(options.rubric);
  if (!loaded.ok) {
    for (const problem of loaded.issues) console.error(`error: ${problem}`);
    return 2;
  }
  const work = async (db: Database | null): Promise<number> => {
    const graded: GradedRun[] = [];
    for (const run of runs) {
      const outcome = await gradeRunArgument(db, run, options.benchmark, loaded.value, options.evidence);
      if (outcome.graded === undefined) return reportFailure(outcome);
      graded.push(outcome.graded);
    }
    // One graded run per RUN, in order: the loop above returned early otherwise.
    return body(graded as { [Index in keyof Runs]: GradedRun }, db);
  };
  return runs.every(isRunFile) ? work(null) : withDatabase(commandLineEnv(options.database).DATABASE_URL, work);
}

/** Prints `error: <message>` on stderr and returns the exit status. */
export function reportFailure(problem: { code: number; message: string }): number {
  console.error(`error: ${problem.message}`);
  return problem.code;
}
