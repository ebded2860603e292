// Builds the official resolve record file (resolve_eval_<model>.json) from a stored run: the pass records
// {task, round, node_selection, design_principle, workflow, valid, has_been_judged, fail_step?, reason?, api_key?},
// sorted by (task, round) in code-point order, each valid item with test1..3 and, where judged, the judge's reason and
// the outputs it saw. Pure; a field is present exactly when the official stage would have written it, and a case not
// judged yet has no testN (the official file has no way to say "not judged"; an absent test counts as unresolved there).
// The resolve CLI writes its records through the same withCases / withSetupFailure.

import { codePointCompare, passRecord, reachedJudge } from "@/lib/benchmark/official-files";
import type { RunRecord } from "@/lib/benchmark/runs";

export interface StoredCase {
  position: number;
  /** null: not judged (text outputs no LLM judge has answered). */
  verdict: boolean | null;
  /** The non-file outputs shown to the judge (llm_output_testN). */
  outputs: string | null;
  /** The resolve judge's reason, when a judge decided the case. */
  judgeReason: string | null;
  error: string | null;
}

export interface StoredTurn {
  task: string;
  round: number;
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
  valid: boolean;
  failStep: string | null;
  /** The pass judge's reason (step 1_4), when one was recorded. */
  passReason: string | null;
  cases: StoredCase[];
}

/** Reasons the resolve job writes when Dify itself failed before any case ran (the official "Other-Error" key). */
const DIFY_SETUP_FAILURE = /^Dify (sign-in|import|confirm|publish|api-key) failed/;

/** The record with its test cases written as the official stage writes them. */
export function withCases<R extends RunRecord>(record: R, cases: readonly StoredCase[]): R {
  const written: R = { ...record };
  for (const entry of [...cases].sort((a, b) => a.position - b.position)) {
    if (entry.position < 1 || entry.position > 3) continue;
    const position = entry.position as 1 | 2 | 3;
    if (entry.verdict === null) continue;
    written[`test${position}`] = entry.verdict;
    if (entry.judgeReason !== null) {
      written[`llm_evaluate_reason_test${position}`] = entry.judgeReason;
      written[`llm_output_test${position}`] = entry.outputs ?? "";
    }
  }
  return written;
}

/**
 * A Dify setup failure as the official pass stage records it: step_1_5 makes the item invalid (no tests); "Other-Error"
 * (no app or no key) leaves it valid with its three tests failed.
 */
export function withSetupFailure<R extends RunRecord>(record: R, outcome: "step_1_5" | "Other-Error"): R {
  if (outcome === "step_1_5") return { ...record, valid: false, fail_step: "step_1_5" };
  return { ...record, api_key: "Other-Error", test1: false, test2: false, test3: false };
}

export function resolveRecordFile(turns: readonly StoredTurn[]): RunRecord[] {
  const sorted = [...turns].sort((a, b) => codePointCompare(a.task, b.task) || a.round - b.round);
  return sorted.map((turn) => {
    const record: RunRecord = passRecord({ ...turn, judged: reachedJudge(turn.failStep), reason: turn.passReason });
    if (!turn.valid) return record;
    if (turn.cases.length > 0 && turn.cases.every((entry) => entry.error !== null && DIFY_SETUP_FAILURE.test(entry.error))) record.api_key = "Other-Error";
    return withCases(record, turn.cases);
  });
}
