// Builds the official resolve record file (resolve_eval_<model>.json) from a stored run: the pass records
// {task, round, node_selection, design_principle, workflow, valid, has_been_judged, fail_step?, reason?, api_key?},
// sorted by (task, round) in code-point order, each valid item with test1..3 and, where judged, the judge's reason and
// the outputs it saw. Pure; a field is present exactly when the official stage would have written it.

import { codePointCompare, passRecord, reachedJudge } from "@/lib/benchmark/official-files";
import type { RunRecord } from "@/lib/benchmark/runs";

export interface StoredCase {
  position: number;
  verdict: boolean;
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

export function resolveRecordFile(turns: readonly StoredTurn[]): RunRecord[] {
  const sorted = [...turns].sort((a, b) => codePointCompare(a.task, b.task) || a.round - b.round);
  return sorted.map((turn) => {
    const record: RunRecord = passRecord({ ...turn, judged: reachedJudge(turn.failStep), reason: turn.passReason });
    if (!turn.valid) return record;
    const cases = [...turn.cases].sort((a, b) => a.position - b.position);
    if (cases.length > 0 && cases.every((entry) => entry.error !== null && DIFY_SETUP_FAILURE.test(entry.error))) record.api_key = "Other-Error";
    for (const entry of cases) {
      if (entry.position < 1 || entry.position > 3) continue;
      const position = entry.position as 1 | 2 | 3;
      record[`test${position}`] = entry.verdict;
      if (entry.judgeReason !== null) {
        record[`llm_evaluate_reason_test${position}`] = entry.judgeReason;
        record[`llm_output_test${position}`] = entry.outputs ?? "";
      }
    }
    return record;
  });
}
